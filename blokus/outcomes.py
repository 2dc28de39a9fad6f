"""Outcomes of many games, from their colour scores: player scores, winners, and the table of
``blokus random`` (per competing side: mean score, wins, ties, win share); the Wilson interval
of a win share (``blokus selfplay``, ``blokus train`` and the benchmarks report it)."""
from __future__ import annotations

import math

import numpy as np

from blokus import _core
from blokus.variants import variant as variant_facts

SCORING_NOTE = (
    "Scores: -1 per square left in hand, +15 for placing all 21 pieces (+20 if the monomino came\n"
    "last); a player scores its colour, both its colours (classic_2) or its team (classic_teams).\n"
    "wins: games won alone; ties: games sharing the top score; win share counts a tie as a split win."
)


def results(colour_scores, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """Player scores and winners of n games (docs/rules.md, "Scoring"), computed in C.

    Parameters
    ----------
    colour_scores : array of int, shape (n, num_colours)
        Each colour's final score, in [-89, 20].
    variant : str

    Returns
    -------
    (ndarray int64 (n, num_players), ndarray bool (n, num_players))
        Player scores, and who wins each game (the players with the highest player score).

    Raises
    ------
    ValueError
        Unknown variant, a wrong shape, or a score no colour can have.
    """
    scores, winners, _ = _core.player_results(variant, colour_scores)
    return scores, winners


def places(colour_scores, variant: str) -> np.ndarray:
    """Each player's place in n games as a share, computed in C: the competing sides ranked by
    player score, 0 for the last and 1 for the first in steps of 1 / (sides - 1), sides that tie
    sharing the places they hold (twogtp's result of a game of more than two sides; with two
    sides it is the share of the win); both members of a team get its place.

    Parameters
    ----------
    colour_scores : array of int, shape (n, num_colours)
        Each colour's final score, in [-89, 20].
    variant : str

    Returns
    -------
    ndarray float64 (n, num_players)

    Raises
    ------
    ValueError
        Unknown variant, a wrong shape, or a score no colour can have.
    """
    return _core.player_results(variant, colour_scores)[2]


def _sides(variant: str) -> list[tuple[str, str, int]]:
    """(label, colours, first player) per competing side: a player, or a team whose members
    always share one score (classic_teams)."""
    facts = variant_facts(variant)
    sides = []
    for p, side in enumerate(facts.player_sides):
        if side != p:
            continue
        members = [q for q, s in enumerate(facts.player_sides) if s == p]
        colours = "+".join(facts.colours[c] for c in facts.player_colours[p])
        label = f"player {p}" if len(members) == 1 else "team " + "+".join(map(str, members))
        sides.append((label, colours, p))
    return sides


def score_table(colour_scores: np.ndarray, variant: str) -> str:
    """A text table per competing side: mean score, games won alone, ties, win share (a k-way tie
    counts 1/k to each tied side)."""
    sides = _sides(variant)
    scores, winners = results(colour_scores, variant)
    firsts = [p for _, _, p in sides]
    scores, top = scores[:, firsts], winners[:, firsts]
    n_top = top.sum(axis=1, keepdims=True)
    wins = (top & (n_top == 1)).sum(axis=0)
    ties = (top & (n_top > 1)).sum(axis=0)
    share = (top / np.maximum(n_top, 1)).sum(axis=0) / max(len(scores), 1)
    lines = [f"{'':<10} {'colours':<13} {'mean score':>10} {'wins':>7} {'ties':>7} {'win share':>9}"]
    for i, (label, colours, _) in enumerate(sides):
        lines.append(f"{label:<10} {colours:<13} {scores[:, i].mean():>10.2f} {wins[i]:>7} {ties[i]:>7} "
                     f"{share[i]:>9.1%}")
    return "\n".join(lines)


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a win rate wins / n (95% for the default z)."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return (low, high)
