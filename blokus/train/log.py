"""``log.jsonl``: one JSON object per finished iteration."""
from __future__ import annotations

import json
from pathlib import Path

from blokus._files import read_regular
from blokus._rundir import write_text
from blokus.train.errors import TrainError
from blokus.train.files import CHECKPOINT_FILE, LOG_FILE


def read_log(out: Path) -> list[dict]:
    """The entries of ``out/log.jsonl``, in file order. A last line cut short (the process was
    killed while appending it, before its checkpoint) is dropped; any other line that is not an
    entry (a JSON object with an integer ``iteration``) raises ``TrainError``, as does a file
    that cannot be read."""
    path = out / LOG_FILE
    if not path.exists():
        return []
    try:
        lines = read_regular(path).decode("utf-8").split("\n")
    except (OSError, ValueError) as exc:  # a directory, a FIFO, unreadable, not UTF-8
        raise TrainError(f"--resume: cannot read {path} ({exc}): restore it from a copy, or start "
                         "again in a new directory") from None
    entries = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        entry = _entry(line)
        if entry is None:
            if number == len(lines):  # no newline after it: an append that never finished
                continue
            raise TrainError(f"--resume: {path}, line {number}: not a log entry of `blokus train`; "
                             "restore the file from a copy, or start again in a new directory")
        entries.append(entry)
    return entries


def _entry(line: str) -> dict | None:
    """The log entry on ``line``, or None if it is not one."""
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    if not isinstance(entry, dict) or type(entry.get("iteration")) is not int:
        return None
    return entry


def append(out: Path, entry: dict) -> None:
    with open(out / LOG_FILE, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")


def keep_until(out: Path, iteration: int) -> list[dict]:
    """Drops the lines after ``iteration`` (the checkpoint's; -1: none), written before a Ctrl-C
    or a kill that came before their checkpoint; the entries kept.

    Raises ``TrainError``, before writing anything, when the log does not list iterations 0 to
    ``iteration`` once each, in order."""
    entries = [e for e in read_log(out) if e["iteration"] <= iteration]
    if [e["iteration"] for e in entries] != list(range(iteration + 1)):
        raise TrainError(f"--resume: {out / LOG_FILE} does not list iterations 0 to {iteration} once each, in "
                         f"order, as {out / CHECKPOINT_FILE} (iteration {iteration}) needs: the run's files do "
                         "not agree; restore them from a copy, or start again in a new directory")
    write_text(out / LOG_FILE, "".join(json.dumps(e) + "\n" for e in entries))
    return entries
