"""``blokus tournament``: every pair of agents plays; Elo ratings with intervals."""
from __future__ import annotations

import argparse
import math
import sys

from blokus import argtypes
from blokus.variants import START_RULES, VARIANTS

DESCRIPTION = """\
Rate agents: every pair of --agents plays --games games (in memory, on every core, seats
rotating as in blokus selfplay), then Elo ratings are fitted to the results by maximum
likelihood of the Bradley-Terry model (a split win counts its share, as a draw counts half),
with 95% intervals from the Fisher information; the --anchor agent rates 0. Prints the
ratings and each pair's win share. Same --seed, same games and ratings on any number of
workers. In 3- and 4-seat variants a pair's two agents hold alternate seats.
"""

EPILOG = """\
agents: random, greedy, mcts with parameters, e.g. mcts:sims=500:c=0.5 (or mcts:sims=500,c=0.5);
  level:N (1..9), sb3:PATH, net:PATH, gtp:COMMAND; help(blokus.agents) has them all

examples:
  blokus tournament --agents random,greedy,mcts:sims=200 --games 40
  blokus tournament --agents greedy,mcts:sims=100,mcts:sims=400 --anchor greedy --games 100 --seed 3
  blokus tournament --variant classic --agents random,greedy --games 20

Python: blokus.arena.tournament(...) returns the same table (and .to_pandas()).
"""


def cmd_tournament(args: argparse.Namespace) -> int:
    from blokus import arena

    try:
        result = arena.tournament(args.agents, games=args.games, variant=args.variant, seed=args.seed,
                                  start=args.start, anchor=args.anchor, prior=args.prior, workers=args.workers,
                                  ray=args.ray, progress=args.progress)
    except arena.ArenaError as exc:
        args.parser.error(str(exc))
    except KeyboardInterrupt:
        print("\ninterrupted: no ratings (a tournament keeps no games)", file=sys.stderr)
        return 130
    print(result)
    return 0


def draws(text: str) -> float:
    value = float(text)
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, not {text}")
    return value


def add_tournament_command(subparsers) -> argparse.ArgumentParser:
    """Adds ``tournament`` to an argparse subparsers object (``parser.add_subparsers()``)."""
    tp = subparsers.add_parser("tournament", help="rate agents: every pair plays, Elo ratings with intervals",
                               description=DESCRIPTION, epilog=EPILOG,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    tp.add_argument("--agents", required=True, metavar="LIST",
                    help="comma-separated agents, two or more, e.g. random,greedy,mcts:sims=200")
    tp.add_argument("--games", type=argtypes.count, default=100, metavar="N",
                    help="games per pair (default: 100; even: each agent plays each seat equally)")
    tp.add_argument("--variant", choices=VARIANTS, default="duo", help="variant (default: duo)")
    tp.add_argument("--seed", type=argtypes.seed, default=0, metavar="S",
                    help="seed; pair p's game g is seeded from it (default: 0)")
    tp.add_argument("--start", choices=START_RULES, default="fixed",
                    help="start rule (default: fixed, as Pentobi plays)")
    tp.add_argument("--anchor", metavar="AGENT",
                    help="the agent rated 0 (default: random if it plays, else the first agent)")
    tp.add_argument("--prior", type=draws, default=1.0, metavar="D",
                    help="virtual draws added to each pair, keeping ratings finite when an agent wins "
                         "or loses every game (default: 1; 0: the plain maximum-likelihood fit)")
    tp.add_argument("--workers", type=argtypes.count, metavar="N",
                    help="processes on this machine (default: the number of cores); 1 plays in this process")
    tp.add_argument("--ray", metavar="ADDRESS",
                    help="play on a Ray cluster at ADDRESS (auto, ray://host:10001), or 'local'; "
                         'needs pip install "blokus[ray]"')
    tp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar with games/s and ETA on stderr (default: when stderr is a terminal)")
    tp.set_defaults(func=cmd_tournament, parser=tp)
    return tp
