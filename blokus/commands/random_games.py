"""``blokus random``: uniform-random games in C and their score table."""
from __future__ import annotations

import argparse
import time

from blokus import _core, argtypes
from blokus.outcomes import SCORING_NOTE, score_table
from blokus.variants import START_RULES, VARIANTS


def cmd_random(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    scores = _core.random_playouts(args.variant, args.games, args.seed, start=args.start)
    elapsed = time.perf_counter() - t0
    games = "game" if args.games == 1 else "games"
    print(f"{args.games} uniform-random {args.variant} {games} (start={args.start}, seed={args.seed}) "
          f"in {elapsed:.2f} s: {args.games / max(elapsed, 1e-9):,.0f} games/s\n")
    print(score_table(scores, args.variant))
    print("\n" + SCORING_NOTE)
    return 0


def add_random_command(subparsers) -> argparse.ArgumentParser:
    """Adds ``random`` to an argparse subparsers object (``parser.add_subparsers()``)."""
    rnd = subparsers.add_parser("random", help="play uniform-random games in C and print the score table")
    rnd.add_argument("--variant", choices=VARIANTS, default="classic", help="variant (default: classic)")
    rnd.add_argument("--games", type=argtypes.count, default=10_000, help="number of games (default: 10000)")
    rnd.add_argument("--seed", type=argtypes.seed, default=0, help="random seed (default: 0)")
    rnd.add_argument("--start", choices=START_RULES, default="any",
                     help="start rule: any free corner (rule sheet) or each colour its own (default: any)")
    rnd.set_defaults(func=cmd_random)
    return rnd
