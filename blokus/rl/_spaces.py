"""The environments' observation and action spaces (Gymnasium's)."""
from __future__ import annotations

import numpy as np

from blokus._optional import needs

with needs("rl", "blokus's RL environments"):
    from gymnasium import spaces

from blokus import PIECE_NAMES
from blokus.game import Game


def batch_spaces(batch) -> tuple[spaces.Dict, PlacementSpace]:
    """One game's observation and action spaces in a batch (``blokus.opponents``)."""
    game = Game(batch.variant)
    return observation_space(game, with_mask=False), PlacementSpace(game.num_placements)


class PlacementSpace(spaces.Discrete):
    """``Discrete(num_placements)``, with a fast membership test for Python ints: Gymnasium's
    consults ``np.iinfo`` on every call, which PettingZoo's bounds wrapper makes once a step.

    ``legal``, a callable returning the bool (A,) legal mask now, makes :meth:`sample` without a
    mask draw a legal placement: checkers (Gymnasium's and SB3's ``check_env``) and random agents
    step with ``action_space.sample()``, which an env that refuses illegal actions would reject.
    """

    def __init__(self, n: int, legal=None):
        super().__init__(n)
        self._size, self._legal = int(n), legal

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self._legal is not None:
            mask = self._legal().view(np.int8)
        return super().sample(mask=mask, probability=probability)

    def contains(self, x) -> bool:
        if type(x) is int:
            return 0 <= x < self._size
        return super().contains(x)


def observation_space(game: Game, with_mask: bool) -> spaces.Dict:
    """The observation ``Dict`` space for a game's variant (see ``blokus.env``'s docstring), the
    one every environment uses; ``with_mask`` adds ``action_mask`` (PettingZoo's form)."""
    height, width = game.shape
    keys = {"observation": spaces.Box(0, 1, (game.num_colours + 1, height, width), np.int8)}
    if with_mask:
        keys["action_mask"] = spaces.Box(0, 1, (game.num_placements,), np.int8)
    keys["remaining"] = spaces.Box(0, 1, (game.num_colours, len(PIECE_NAMES)), np.int8)
    return spaces.Dict(keys)
