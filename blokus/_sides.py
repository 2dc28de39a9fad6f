"""Who competes in a variant, and what a finished game is worth to each: the value targets.

A side is a player, or a team whose members always share one score (classic_teams' partners,
docs/rules.md, "Scoring"): duo, classic_2 and classic_teams have 2 sides, classic_3 3 and
classic 4. A side's value of a finished game is ``(1 - margin_weight) * w + margin_weight *
s``: ``w`` its share of the win (1 alone, 1/k for each of k sides tied on top) and ``s`` its
share of ``softmax(side scores / margin_scale)`` (with two sides, the sigmoid of its score
margin). Both sum to 1 over the sides, and so does the value.

What the network learns (``value_outputs``): with two sides one value, the mover's side's;
with more, one per colour in the order the network sees the colours (the mover's first, then
the others in turn order, as ``Game.observation``), each the value of the side that colour
scores for. A colour that scores for nobody (classic_3's shared green) has no target (NaN).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from blokus.game import Game
from blokus.variants import variant as variant_facts


@dataclass(frozen=True)
class Sides:
    """The sides of one variant, numbered 0..count - 1 by their first player."""

    count: int
    of_player: np.ndarray   # int64 (P,): each player's side
    of_colour: np.ndarray   # int64 (C,): the side each colour scores for, -1 for nobody
    first_player: tuple[int, ...]  # per side, its first player (whose score is the side's)
    player_colour: np.ndarray  # int64 (P,): each player's first colour


@functools.cache
def sides(variant: str) -> Sides:
    facts = variant_facts(variant)
    labels = sorted(set(facts.player_sides))
    of_player = np.array([labels.index(s) for s in facts.player_sides], np.int64)
    of_colour = np.full(facts.num_colours, -1, np.int64)
    for player, colours in enumerate(facts.player_colours):
        of_colour[list(colours)] = of_player[player]
    return Sides(len(labels), of_player, of_colour, tuple(labels),
                 np.array([colours[0] for colours in facts.player_colours], np.int64))


def value_outputs(variant: str) -> int:
    """Outputs of the network's value head: 1 with two sides, else one per colour."""
    return 1 if sides(variant).count == 2 else variant_facts(variant).num_colours


def side_win_shares(game: Game) -> np.ndarray:
    """float64 (S,): each side's share of the win of a finished game (1/k for k sides on top)."""
    of_player = sides(game.variant).of_player
    won = np.zeros(sides(game.variant).count)
    won[of_player[game.winners()]] = 1.0
    return won / won.sum()


def side_scores(game: Game) -> np.ndarray:
    """float64 (S,): each side's score (its first player's player score)."""
    return np.array(game.player_scores(), np.float64)[list(sides(game.variant).first_player)]


def side_values(game: Game, margin_weight: float, margin_scale: float) -> np.ndarray:
    """float64 (S,): each side's value of the finished ``game`` (the module's text); sums to 1."""
    scores = side_scores(game)
    # s_i = 1 / sum_j exp((s_j - s_i) / scale): softmax, and with two sides exactly the sigmoid of the margin
    score_share = 1 / np.exp((scores[None, :] - scores[:, None]) / margin_scale).sum(axis=1)
    return (1 - margin_weight) * side_win_shares(game) + margin_weight * score_share


def mover_target(variant: str, values: np.ndarray, colour: int):
    """The value target of a position with ``colour`` to move, from the sides' ``values`` (S,):
    a float with two sides, else float64 (C,) per colour from ``colour`` on (NaN: nobody's)."""
    of_colour = sides(variant).of_colour
    if value_outputs(variant) == 1:
        return float(values[of_colour[colour]])
    seen = np.roll(of_colour, -colour)  # the colours in the network's order
    return np.where(seen >= 0, values[seen], np.nan)
