"""Seconds for ``blokus.analysis.review`` of a whole game at its default budget (the agent
``"mcts:sims=2000"`` on every core, an endgame solve of 100,000 positions per position).

    PYTHONPATH=. python3 benchmarks/bench_review.py                  # Pentobi's 5th Duo game, 3 times
    PYTHONPATH=. python3 benchmarks/bench_review.py --game 2 --repeats 5

The game is one of Pentobi's self-play records in ``tests/data/pentobi_<variant>.blksgf``
(the 5th Duo game, the default, has 30 moves). Each repetition reviews it with another seed and
prints the wall-clock seconds, the process's CPU seconds (all threads) and the labels given; the
last line is the least and the median wall-clock time.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import blokus.sgf
from blokus.analysis import review

from timing import Stopwatch

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="duo", choices=("duo", "classic_2", "classic", "classic_3"))
    parser.add_argument("--game", type=int, default=4, help="index of the game in the file (default: 4, the 5th)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    game = blokus.sgf.read(ROOT / "tests" / "data" / f"pentobi_{args.variant}.blksgf")[args.game]
    print(f"{args.variant} game {args.game}: {len(game.history)} moves, review at the default budget")
    walls = []
    for seed in range(args.repeats):
        wall, cpu = Stopwatch(), Stopwatch(time.process_time)
        with wall, cpu:
            found = review(game, seed=seed, progress=False)
        walls.append(wall.seconds)
        labels = Counter(row["label"] for row in found)
        print(f"  seed {seed}: {wall.seconds:.2f} s wall, {cpu.seconds:.2f} s CPU; labels "
              + ", ".join(f"{name} {labels[name]}" for name in ("best", "good", "inaccuracy", "mistake", "blunder")),
              flush=True)
    print(f"least {min(walls):.2f} s, median {statistics.median(walls):.2f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
