"""A run's directory (``blokus selfplay``'s and ``blokus train``'s): new or empty, or a run of the
same command to resume, whose settings are in its ``run.json``."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from blokus.selfplay.files import RUN_FILE


def saved_settings(out: Path, resume: bool, *, command: str, kind: str, marker: str,
                   error: type[Exception], read: Callable[[dict], dict]) -> dict | None:
    """With ``resume``, the settings of the run in ``out`` (``read`` picks them from its run file
    and raises ValueError, KeyError or TypeError if they are not there); None for a new run.

    Raises ``error`` (its message says what to do) for an ``out`` that is a file, a run file
    that is not one of ``kind`` ("self-play", "training"), ``marker`` (a file only ``blokus
    command`` writes) without a run file, or a directory that is not empty without ``resume``.
    """
    if out.exists() and not out.is_dir():
        raise error(f"--out {out} is a file, not a directory")
    run_file = out / RUN_FILE
    if resume and run_file.exists():
        try:
            return read(json.loads(run_file.read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError) as exc:
            raise error(f"--resume: {run_file} is not a {kind} run file ({exc})") from None
    if resume and (out / marker).exists():
        raise error(f"--resume: {out} has {marker} but no {RUN_FILE}: not a directory `blokus {command}` wrote")
    if not resume and out.is_dir() and any(out.iterdir()):
        raise error(f"--out {out} is not empty: add --resume to continue the run in it, or choose a new directory")
    return None
