"""Self-play throughput of `blokus selfplay`'s engine, blokus.selfplay.run (no CLI parsing):
games per second of random and greedy self-play (one agent in every seat) in Duo and classic,
on 1 worker (in this process) and 2 worker processes.

    PYTHONPATH=. python3 benchmarks/bench_selfplay.py [--games N] [--rounds R] [--variant V]

Each run writes every output file (games.blksgf, moves.parquet, games.parquet, summary.json)
to a temporary directory, as the command does. Two rates per row:
  play   games / the time spent playing (summary["games_per_second"]: from the first game handed
         out to the last received, worker start-up included);
  wall   games / the whole run() call, reading settings and writing the files included.
This machine's speed drifts, so each figure is the best of R rounds.
"""
import argparse
import shutil
import tempfile
from pathlib import Path

from blokus import selfplay

from timing import timed

VARIANTS = ("duo", "classic")
AGENTS = ("random", "greedy")
WORKERS = (1, 2)


def measure(variant, agents, workers, games, rounds):
    best_play = best_wall = 0.0
    for r in range(rounds):
        out = Path(tempfile.mkdtemp(prefix="bench_selfplay_"))
        try:
            summary, wall = timed(lambda: selfplay.run(out / "run", variant=variant, agents=agents,
                                                       games=games, seed=r, workers=workers, progress=False))
        finally:
            shutil.rmtree(out, ignore_errors=True)
        assert summary["finished"] == games
        best_play = max(best_play, summary["games_per_second"])
        best_wall = max(best_wall, games / wall)
    return best_play, best_wall


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per run (default 2000)")
    parser.add_argument("--rounds", type=int, default=2, help="runs per measurement, best kept (default 2)")
    parser.add_argument("--variant", choices=VARIANTS, help="only this variant")
    args = parser.parse_args()

    print(f"blokus.selfplay.run, {args.games} games a run, start=fixed, best of {args.rounds}")
    print(f"{'variant':<8} {'agents':<7} {'workers':>7} {'play games/s':>13} {'wall games/s':>13}")
    for variant in VARIANTS:
        if args.variant and variant != args.variant:
            continue
        for agents in AGENTS:
            for workers in WORKERS:
                play, wall = measure(variant, agents, workers, args.games, args.rounds)
                print(f"{variant:<8} {agents:<7} {workers:>7} {play:>13,.0f} {wall:>13,.0f}", flush=True)


if __name__ == "__main__":
    main()
