"""What an MCTS search found at the root (the result of ``MCTSAgent.search``)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Search:
    """What an MCTS search found at the root.

    Attributes
    ----------
    ids : ndarray, int32, shape (k,)
        The placements searched, most visited first (``ids[0]`` is the move played).
    visits : ndarray, int64, shape (k,)
        Simulations through each.
    values : ndarray, float64, shape (k,)
        Mean playout value of each for the player making it, in [0, 1]: (1 - w) x its place
        (its share of the win with two sides; with more, its side's rank from 0 for the last to
        1 for the first) + w x a squashed score margin in [0, 1], w the agent's ``margin``
        weight (by default 0.375 with two sides, 0.2 with more; see MCTSAgent).
    simulations : int
        Simulations behind these figures in all (``visits.sum()``): those run by this search
        plus, for an agent that reuses its search, those kept from the last one.
    win_probability : ndarray, float64, shape (k,)
        Of each move, for the player making it: the mean share of the win of its side over the
        simulations through the move (1 alone, 1/k in a k-way tie), in [0, 1].
    expected_score : ndarray, float64, shape (k,)
        Of each move: the mean final score of the player making it (``Game.player_scores``'s
        scale: 0 for a full placement plus the bonus, minus the squares left).
    principal_variation : ndarray, int32, shape (d,)
        The line the search expects, from ``ids[0]``: the most visited move at each node down
        the tree (placement ids, each for the colour to move then).
    player_win_probability, player_expected_score : ndarray, float64, one per player, shape (P,)
        Each player's mean share of the win and mean final score over the simulations this
        search ran (not those kept from the last one).

    These are playout statistics: they judge how the search's own playouts end from here, so
    they are rough with a few hundred simulations and sharpen (and grow more trustworthy as
    estimates of real play) with more; a move tried a handful of times has a noisy figure.
    """

    ids: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    simulations: int
    win_probability: np.ndarray
    expected_score: np.ndarray
    principal_variation: np.ndarray
    player_win_probability: np.ndarray
    player_expected_score: np.ndarray
