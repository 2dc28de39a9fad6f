"""Helpers shared by test_env.py and test_gym_env.py (not tests).

What the environments should show and pay, worked out from the board and from rules.md (through
reference.py) rather than read off the engine.
"""

import numpy as np

from reference import GREEN, VARIANTS, attachment_points, start_squares
from reference import player_scores as ref_player_scores
from reference import player_to_move as ref_player_to_move
from reference import winners as ref_winners


def ints(xs):
    return [int(x) for x in xs]


def history(game):
    return [tuple(int(x) for x in h) for h in game.history]


def green_on_board(game):
    return sum(1 for colour, _ in history(game) if colour == GREEN)


def player_of(game):
    """The player rules.md names for the colour to move (-1 once over)."""
    return ref_player_to_move(game.variant, int(game.to_move), green_on_board(game))


def expected_reward(variant, colour_scores, player, mode):
    """The final reward of player from colour scores, by rules.md's player table and win rule
    (``win_loss``: +1 winners, -1 losers, 0 on an all-way tie; ``score``: the player score)."""
    ps = ref_player_scores(variant, colour_scores)
    if mode == "score":
        return float(ps[player])
    won = ref_winners(variant, colour_scores)
    if len(won) == VARIANTS[variant][2]:
        return 0.0
    return 1.0 if player in won else -1.0


def expected_planes(game, colour):
    """Planes seen from colour, from the board alone: own cells, the others in turn order after
    it, then its attachment points."""
    board = np.asarray(game.board)
    n = game.num_colours
    out = np.zeros((n + 1,) + board.shape, dtype=np.int8)
    for k in range(n):
        out[k] = board == (colour + k) % n
    out[n] = attachment_points(board, colour, start_squares(game.variant, game.start, colour))
    return out


def expected_remaining(game, colour):
    """The remaining rows seen from colour: its own, then the others in turn order after it."""
    n = game.num_colours
    rows = [(colour + k) % n for k in range(n)]
    return np.asarray(game.remaining)[rows].astype(np.int8)
