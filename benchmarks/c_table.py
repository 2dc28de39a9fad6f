"""Fitted weights written as a C header: fit_prior.py's and fit_evaluation.py's tables."""
from __future__ import annotations


def write_c_table(path, comment, declaration, rows, digits):
    """Writes to `path` the comment lines (``/* ... */``, the last ending the comment), then
    ``declaration = {`` and one ``{...},`` line per row of `rows` (floats with `digits` decimals,
    as C floats), then ``};``."""
    lines = [*comment, "", declaration + " = {"]
    lines += ["    {" + ", ".join(f"{v:.{digits}f}f" for v in row) + "}," for row in rows]
    lines += ["};", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))
