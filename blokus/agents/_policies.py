"""The agents that play a C policy (random, greedy), each with its own seed stream."""
from __future__ import annotations

import random

from blokus import _core
from blokus.game import Game


class _Seeded:
    """Draws one 64-bit seed per move from the agent's own stream."""

    def __init__(self, seed: int | None):
        self._rng = random.Random(seed)

    def _next_seed(self) -> int:
        return self._rng.getrandbits(64)


class RandomAgent(_Seeded):
    """Uniform over the legal placements. ``seed``: int or None (fresh entropy)."""

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.name = "random"

    def __call__(self, game: Game) -> int:
        return _core.policy_move(game, "random", self._next_seed())


class GreedyAgent(_Seeded):
    """The largest piece; then the most attachment points for the mover after the move; then the
    fewest for the colours that do not score for the mover's player; remaining ties at random."""

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.name = "greedy"

    def __call__(self, game: Game) -> int:
        return _core.policy_move(game, "greedy", self._next_seed())
