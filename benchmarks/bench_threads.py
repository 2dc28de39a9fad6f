"""The search on two threads beside one, at equal wall time: speed, then a match.

    PYTHONPATH=. python benchmarks/bench_threads.py --part speed
    PYTHONPATH=. python benchmarks/bench_threads.py --part match --seconds 0.07 --games 200

Speed: simulations per wall-clock second of one search from the positions after 2, 10 and 20
plies of ``oracle_games.txt``'s first Duo game (``time.perf_counter`` around ``_core.mcts``;
the median of ``--repeats`` runs), with one thread, with two threads growing a tree each (root
parallelisation, ``threads=2``) and with two threads sharing one tree (``threads=2:shared=1``),
and each one's ratio to one thread, in the same run. A search is 200,000 simulations by
default: in a short one its start (threads starting, a tree of a few nodes that both threads
want) weighs, and the shared tree's figures vary from run to run (``LOG.md``, 2026-12-04).

Match: ``blokus.arena.match`` of each two-thread search against the one-thread search, every
search given the same wall-clock ``seconds`` per move (so equal wall time; Duo, colours
alternating, in this process), and each one's share of the points with its 95% interval.

Both parts need two idle cores: on a busy machine the threads do not get a core each, and the
script measures the machine, not the search. ``os.getloadavg`` before and after is printed.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from bench_mcts import game_after, game_moves  # the positions bench_mcts.py times

from blokus import _core
from blokus.arena import match
from blokus.game import Game

SEARCHES = {"1 thread": {"threads": 1}, "2 trees": {"threads": 2}, "2 threads 1 tree": {"threads": 2, "shared": True}}
AGENTS = {"1 thread": "threads=1", "2 trees": "threads=2", "2 threads 1 tree": "threads=2:shared=1"}


def rate(game: Game, simulations: int, options: dict, repeats: int) -> float:
    """Median simulations per wall second of `repeats` searches of `game`."""
    rates = []
    for seed in range(repeats):
        start = time.perf_counter()
        _core.mcts(game, simulations=simulations, seed=seed, **options)
        rates.append(simulations / (time.perf_counter() - start))
    return statistics.median(rates)


def speed(args: argparse.Namespace) -> None:
    print(f"simulations per wall second, {args.simulations:,} per search, median of {args.repeats}:")
    print(f"{'plies':>5} " + " ".join(f"{name:>18}" for name in SEARCHES) + "  ratios to 1 thread")
    for plies in (int(p) for p in args.plies.split(",")):
        game = game_after(game_moves()[:plies])
        rates = {name: rate(game, args.simulations, options, args.repeats) for name, options in SEARCHES.items()}
        one = rates["1 thread"]
        print(f"{plies:>5} " + " ".join(f"{r:>18,.0f}" for r in rates.values()) + "  " +
              " ".join(f"{r / one:.2f}" for name, r in rates.items() if name != "1 thread"), flush=True)


def play(args: argparse.Namespace) -> None:
    base = f"mcts:seconds={args.seconds:g}"
    print(f"Duo, {args.games} games a pair, every search {args.seconds:g} wall s per move ({base}:...):")
    print(f"{'search':>18} {'games':>6} {'score':>6} {'95% interval':>14}  against 1 thread, its margin")
    for name in args.against:
        result = match([f"{base}:{AGENTS[name]}", f"{base}:{AGENTS['1 thread']}"], games=args.games,
                       seed=args.seed, workers=1)
        row = result.rows()[0]
        print(f"{name:>18} {row['games']:>6} {row['win_share']:>6.1%} "
              f"{row['win_share_low']:>6.1%}-{row['win_share_high']:<6.1%} margin {row['mean_margin']:+.1f}",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("speed", "match", "both"), default="both")
    parser.add_argument("--simulations", type=int, default=200_000, help="per speed search (default: 200000)")
    parser.add_argument("--repeats", type=int, default=5, help="speed searches per figure (default: 5)")
    parser.add_argument("--plies", default="2,10,20", help="plies of the speed positions (default: 2,10,20)")
    parser.add_argument("--seconds", type=float, default=0.07,
                        help="wall seconds per move in the match (default: 0.07, about Pentobi level 6's)")
    parser.add_argument("--games", type=int, default=100, help="games per pair (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="the match's seed (default: 0)")
    parser.add_argument("--against", default="2 trees,2 threads 1 tree", type=lambda text: text.split(","),
                        help="the two-thread searches matched, comma-separated (default: both: "
                             "'2 trees,2 threads 1 tree')")
    args = parser.parse_args(argv)
    unknown = [name for name in args.against if name not in AGENTS or name == "1 thread"]
    if unknown:
        parser.error(f"--against: not a two-thread search: {', '.join(unknown)}")
    if len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("needs two cores")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.part in ("speed", "both"):
        speed(args)
    if args.part in ("match", "both"):
        play(args)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
