"""A run's directory, as ``blokus selfplay`` and ``blokus train`` keep it: ``run.json`` with the
run's settings, files written so that none is ever seen half-written, and the checks that a
directory is new or empty, or a run of the same command to resume."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Sequence

from blokus._files import not_regular, read_regular

RUN_FILE = "run.json"


def replace_file(path: Path, write) -> None:
    """Writes ``path`` through a temporary file, so that it is never seen half-written."""
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    os.replace(tmp, path)


def write_text(path: Path, text: str) -> None:
    def write(tmp):
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    replace_file(path, write)


def saved_settings(out: Path, resume: bool, *, command: str, kind: str, marker: str, files: Sequence[str],
                   error: type[Exception], read: Callable[[dict], dict]) -> dict | None:
    """With ``resume``, the settings of the run in ``out`` (``read`` picks them from its run file
    and raises ValueError, KeyError or TypeError if they are not there); None for a new run.

    Raises ``error`` (its message says what to do) for an ``out`` that is a file, one of the
    run's ``files`` that is there but is not a regular file (a directory, a FIFO, ...: found
    before any work rather than when it is read or written), a run file that cannot be read (not
    UTF-8, ...) or is not one of ``kind`` ("self-play", "training"), ``marker`` (a file only
    ``blokus command`` writes) without a run file, or a directory that is not empty without
    ``resume``.
    """
    if out.exists() and not out.is_dir():
        raise error(f"--out {out} is a file, not a directory")
    for name in files if resume else ():
        problem = not_regular(out / name)
        if problem:
            raise error(f"--resume: {out / name} is {problem}: remove it or put the run's own file back, "
                        "or choose a new directory")
    run_file = out / RUN_FILE
    if resume and run_file.exists():
        advice = "restore it from a copy, or choose a new directory"
        try:
            text = read_regular(run_file).decode("utf-8")
        except (OSError, ValueError) as exc:  # a directory, a FIFO, unreadable, not UTF-8
            raise error(f"--resume: cannot read {run_file} ({exc}): {advice}") from None
        try:
            return read(json.loads(text))
        except (ValueError, KeyError, TypeError) as exc:
            raise error(f"--resume: {run_file} is not a {kind} run file ({exc}): {advice}") from None
    if resume and (out / marker).exists():
        raise error(f"--resume: {out} has {marker} but no {RUN_FILE}: not a directory `blokus {command}` wrote")
    if not resume and out.is_dir() and any(out.iterdir()):
        raise error(f"--out {out} is not empty: add --resume to continue the run in it, or choose a new directory")
    return None
