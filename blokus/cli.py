"""The ``blokus`` command line."""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from blokus import _core
from blokus import __version__
from blokus.game import VARIANTS, Game


def player_scores(colour_scores: np.ndarray, variant: str) -> np.ndarray:
    """Player scores from colour scores, per docs/rules.md ("Scoring").

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


SCORING_NOTE = (
    "Scores: -1 per square left in hand, +15 for placing all 21 pieces (+20 if the monomino came\n"
    "last); a player scores its colour, both its colours (classic_2) or its team (classic_teams).\n"
    "wins: games won alone; ties: games sharing the top score; win share counts a tie as a split win."
)


def _sides(variant: str) -> list[tuple[str, str, int]]:
    """(label, colours, player whose score it is) per competing side: a player, or a team in
    classic_teams, whose two members always share one score."""
    game = Game(variant)
    weights = _core.player_weights(variant)
    sides = []
    for p in range(game.num_players):
        colours = "+".join(game.colour_name(c) for c in range(game.num_colours) if weights[p, c])
        if variant == "classic_teams":
            if p >= 2:
                continue
            sides.append((f"team {p}+{p + 2}", colours, p))
        else:
            sides.append((f"player {p}", colours, p))
    return sides


def score_table(colour_scores: np.ndarray, variant: str) -> str:
    """A text table per player (per team in classic_teams): mean score, wins, ties, win share."""
    sides = _sides(variant)
    scores = player_scores(colour_scores, variant)[:, [p for _, _, p in sides]]
    top = scores == scores.max(axis=1, keepdims=True)
    n_top = top.sum(axis=1, keepdims=True)
    wins = (top & (n_top == 1)).sum(axis=0)
    ties = (top & (n_top > 1)).sum(axis=0)
    share = (top / n_top).sum(axis=0) / max(len(scores), 1)
    lines = [f"{'':<10} {'colours':<13} {'mean score':>10} {'wins':>7} {'ties':>7} {'win share':>9}"]
    for i, (label, colours, _) in enumerate(sides):
        lines.append(f"{label:<10} {colours:<13} {scores[:, i].mean():>10.2f} {wins[i]:>7} {ties[i]:>7} "
                     f"{share[i]:>9.1%}")
    return "\n".join(lines)


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


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _seed(text: str) -> int:
    value = int(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be in [0, 2**64), not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="blokus", description="An exact, fast Blokus engine.")
    parser.add_argument("--version", action="version", version=f"blokus {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    rnd = sub.add_parser("random", help="play uniform-random games in C and print the score table")
    rnd.add_argument("--variant", choices=VARIANTS, default="classic", help="variant (default: classic)")
    rnd.add_argument("--games", type=_count, default=10_000, help="number of games (default: 10000)")
    rnd.add_argument("--seed", type=_seed, default=0, help="random seed (default: 0)")
    rnd.add_argument("--start", choices=("any", "fixed"), default="any",
                     help="start rule: any free corner (rule sheet) or each colour its own (default: any)")
    rnd.set_defaults(func=cmd_random)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
