"""The rewards of a batch of games and its illegal actions (``blokus.vector``, ``blokus.sb3``)."""
from __future__ import annotations

import numpy as np

from blokus._core import player_weights
from blokus.game import Game
from blokus.rl._checks import check_illegal, check_options, check_seat
from blokus.rl._rewards import illegal_reward


class BatchRewards:
    """The rewards of a learner-against-opponents batch (``blokus.opponents``) for one seat.

    ``illegal="end"``: an illegal action ends its game with :func:`illegal_reward`;
    ``"raise"``: the batch's step raises ``ValueError`` (nothing is played).
    """

    def __init__(self, variant: str, reward: str, seat, illegal: str = "raise"):
        check_options(variant, reward, None, ())
        check_illegal(illegal)
        self.weights = player_weights(variant)
        self.seat = check_seat(self.weights.shape[0], seat)
        self.reward, self.illegal = reward, illegal
        self.illegal_value = illegal_reward(Game(variant), reward)

    def illegal_actions(self, batch, actions) -> np.ndarray | None:
        """bool (N,): the live games whose action is illegal (with ``illegal="end"``), else None."""
        return None if self.illegal == "raise" else bad_actions(batch, actions)

    def __call__(self, batch, ended: np.ndarray, illegal: np.ndarray | None) -> np.ndarray:
        """float32 (N,): 0 in live games, the result for the seat in games that ended."""
        # computed for every game, kept where one ended: a few whole-array operations cost less
        # than picking the ended rows out first (this runs at every step of every training run)
        if self.reward == "score":
            result = batch.episode_scores @ self.weights[self.seat]
        else:  # +1 for a win or shared win, -1 for a loss, 0 when all tie (2 - 1 - 1)
            winners = batch.episode_winners
            result = 2 * winners[:, self.seat] - 1 - winners.all(axis=1)
        rewards = np.where(ended, result, 0).astype(np.float32)
        if illegal is not None:
            rewards[illegal] = self.illegal_value
        return rewards


def bad_actions(batch, actions) -> np.ndarray | None:
    """bool (N,): the live games of a batch whose action is out of range or illegal; None for
    actions of the wrong shape or dtype (the batch's step raises about those)."""
    actions = np.asarray(actions)
    if actions.shape != batch.done.shape or not np.issubdtype(actions.dtype, np.integer):
        return None
    in_range = (actions >= 0) & (actions < batch.num_placements)
    legal = batch.legal_mask[np.arange(len(actions)), np.where(in_range, actions, 0)] & in_range
    return ~legal & ~batch.done
