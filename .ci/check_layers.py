"""Fails when a file of csrc/ includes a header of a layer above its own, or Python.h outside the
binding. The layers, lowest first: core (the rules), engine (playouts, policies, search, the batch
engine) and puzzles (the solo puzzles' searches), python (the CPython binding). Every C file lives
in one of their folders."""
import pathlib
import re
import sys

MAY_INCLUDE = {
    "core": {"core"},
    "engine": {"core", "engine"},
    "puzzles": {"core", "engine", "puzzles"},
    "python": {"core", "engine", "puzzles", "python"},
}
PYTHON_ONLY = re.compile(r"#\s*include\s*<(Python\.h|numpy/[^>]*)>")
LOCAL = re.compile(r'#\s*include\s*"([^"]+)"')

root = pathlib.Path(__file__).resolve().parent.parent / "csrc"
problems = []
for path in sorted(root.rglob("*.[ch]")):
    name = path.relative_to(root).as_posix()
    layer = name.split("/")[0] if "/" in name else None
    if layer not in MAY_INCLUDE:
        problems.append(f"csrc/{name}: not in a layer's folder ({', '.join(MAY_INCLUDE)})")
        continue
    text = path.read_text(encoding="utf-8")
    if layer != "python" and PYTHON_ONLY.search(text):
        problems.append(f"csrc/{name}: includes Python or NumPy headers outside csrc/python/")
    for header in LOCAL.findall(text):
        used = header.split("/")[0] if "/" in header else None
        if used not in MAY_INCLUDE[layer] or not (root / header).exists():
            problems.append(f'csrc/{name}: includes "{header}", not a header of '
                            f"{', '.join(sorted(MAY_INCLUDE[layer]))}")
print("\n".join(problems) or f"layers of csrc/: {len(list(root.rglob('*.[ch]')))} files, every include allowed")
sys.exit(1 if problems else 0)
