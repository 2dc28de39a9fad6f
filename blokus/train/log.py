"""``log.jsonl``: one JSON object per finished iteration."""
from __future__ import annotations

import json
from pathlib import Path

from blokus.train.files import LOG_FILE, write_text


def read_log(out: Path) -> list[dict]:
    path = out / LOG_FILE
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def append(out: Path, entry: dict) -> None:
    with open(out / LOG_FILE, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")


def keep_until(out: Path, iteration: int) -> list[dict]:
    """Drops the lines after ``iteration`` (written before a Ctrl-C that came before their
    checkpoint); the lines kept."""
    entries = [e for e in read_log(out) if e["iteration"] <= iteration]
    write_text(out / LOG_FILE, "".join(json.dumps(e) + "\n" for e in entries))
    return entries
