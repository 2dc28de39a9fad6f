"""Time to the first solution of the rule sheet's solo puzzles (blokus.puzzles).

    PYTHONPATH=. python3 benchmarks/bench_puzzles.py                      # seed 1, every puzzle
    PYTHONPATH=. python3 benchmarks/bench_puzzles.py --seeds 1-10 --puzzles 15x16-hard,all84

One row per puzzle and seed: seconds to the first solution (wall clock, one thread), whether the
solution passes ``check``, and the search's size (nodes and restarts for packings; beams and
positions scored for All 84). Then, per puzzle, the median and the worst time against the target.
A search that hits ``--time-limit`` is reported as not found.
"""
from __future__ import annotations

import argparse
import statistics
import sys

import blokus.puzzles as pz

from timing import timed

# name -> (puzzle, target seconds)
PUZZLES = {
    "8x10": (lambda: pz.Packing.tetrominoes(), 1.0),
    "8x10-hard": (lambda: pz.Packing.tetrominoes(same_colour_edges=False), 1.0),
    "15x16": (lambda: pz.Packing.pentominoes(), 60.0),
    "15x16-hard": (lambda: pz.Packing.pentominoes(same_colour_edges=False), 60.0),
    "all84": (lambda: pz.All84("any"), 600.0),
}


def seed_list(text: str) -> list[int]:
    seeds = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


def run(name: str, seed: int, time_limit: float) -> tuple[float, bool, str]:
    make, _ = PUZZLES[name]
    puzzle = make()
    last: dict = {}
    solution, elapsed = timed(lambda: puzzle.solve(seed=seed, time_limit=time_limit, progress=last.update))
    valid = solution is not None and puzzle.check(solution).valid
    size = ", ".join(f"{k} {v:,}" for k, v in last.items() if k != "seconds") or "-"
    return elapsed, valid, size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=seed_list, default=[1], help="e.g. 1 or 1-10 or 1,4,7 (default: 1)")
    parser.add_argument("--puzzles", default=",".join(PUZZLES), help=f"comma-separated, of {', '.join(PUZZLES)}")
    parser.add_argument("--time-limit", type=float, default=900.0, help="seconds per search (default: 900)")
    args = parser.parse_args(argv)
    names = args.puzzles.split(",")
    for name in names:
        if name not in PUZZLES:
            parser.error(f"unknown puzzle {name!r}")
    print(f"{'puzzle':<11} {'seed':>5} {'seconds':>9} {'found':>6}  search size (last progress report)")
    times: dict[str, list[float]] = {}
    for name in names:
        for seed in args.seeds:
            elapsed, valid, size = run(name, seed, args.time_limit)
            times.setdefault(name, []).append(elapsed if valid else float("inf"))
            print(f"{name:<11} {seed:>5} {elapsed:>9.3f} {'yes' if valid else 'NO':>6}  {size}", flush=True)
    print(f"\n{'puzzle':<11} {'runs':>5} {'median s':>9} {'worst s':>9} {'target s':>9}  met")
    for name, ts in times.items():
        target = PUZZLES[name][1]
        worst = max(ts)
        print(f"{name:<11} {len(ts):>5} {statistics.median(ts):>9.3f} {worst:>9.3f} {target:>9.0f}  "
              f"{'yes' if worst < target else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
