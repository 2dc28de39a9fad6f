"""The ``blokus`` command line."""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from blokus import _core
from blokus.game import Game

VARIANTS = ("classic", "classic_2", "classic_3", "classic_teams", "duo")


def player_scores(colour_scores: np.ndarray, variant: str) -> np.ndarray:
    """Player scores from colour scores, per rules.md ("Scoring").

    Parameters
    ----------
    colour_scores : ndarray, int, shape (n, num_colours)
    variant : str

    Returns
    -------
    ndarray, int64, shape (n, num_players)
    """
    weights = _core.player_weights(variant).astype(np.int64)
    return np.asarray(colour_scores, dtype=np.int64) @ weights.T


def score_table(colour_scores: np.ndarray, variant: str) -> str:
    """A text table per player: mean score, outright wins, shared wins, win share."""
    players = player_scores(colour_scores, variant)
    best = players.max(axis=1, keepdims=True)
    top = players == best
    n_top = top.sum(axis=1, keepdims=True)
    outright = (top & (n_top == 1)).sum(axis=0)
    shared = (top & (n_top > 1)).sum(axis=0)
    share = (top / n_top).sum(axis=0) / max(len(players), 1)
    lines = [f"{'player':>6} {'mean score':>10} {'wins':>7} {'shared':>7} {'win share':>9}"]
    for p in range(players.shape[1]):
        lines.append(
            f"{p:>6} {players[:, p].mean():>10.2f} {outright[p]:>7} {shared[p]:>7} {share[p]:>9.1%}"
        )
    return "\n".join(lines)


def cmd_random(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    scores = _core.random_playouts(args.variant, args.games, args.seed, start=args.start)
    elapsed = time.perf_counter() - t0
    game = Game(args.variant, start=args.start)
    colours = ", ".join(game.colour_name(c) for c in range(game.num_colours))
    print(f"{args.games} uniform-random {args.variant} games (start={args.start}, seed={args.seed}) "
          f"in {elapsed:.2f} s: {args.games / max(elapsed, 1e-9):,.0f} games/s")
    print(f"mean colour scores ({colours}): " + ", ".join(f"{m:.2f}" for m in scores.mean(axis=0)))
    print(score_table(scores, args.variant))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="blokus", description="An exact, fast Blokus engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    rnd = sub.add_parser("random", help="play uniform-random games in C and print the score table")
    rnd.add_argument("--variant", choices=VARIANTS, default="classic", help="variant (default: classic)")
    rnd.add_argument("--games", type=int, default=10_000, help="number of games (default: 10000)")
    rnd.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    rnd.add_argument("--start", choices=("any", "fixed"), default="any",
                     help="start rule: any free corner (rule sheet) or each colour its own (default: any)")
    rnd.set_defaults(func=cmd_random)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "games", 1) < 1:
        parser.error("--games must be at least 1")
    if getattr(args, "seed", 0) < 0:
        parser.error("--seed must be >= 0")
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
