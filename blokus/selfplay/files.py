"""The files of a run's directory, and writing them so that none is ever seen half-written."""
from __future__ import annotations

import os
from pathlib import Path

RUN_FILE = "run.json"
RECORDS_FILE = "games.blksgf"
MOVES_FILE = "moves.parquet"
GAMES_FILE = "games.parquet"
SUMMARY_FILE = "summary.json"
PLOT_FILE = "scores.png"
RUN_FILES = (RUN_FILE, RECORDS_FILE, MOVES_FILE, GAMES_FILE, SUMMARY_FILE, PLOT_FILE)


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
