"""Games of uniformly random legal moves, for the tests that need positions of every phase."""
from __future__ import annotations

import random

import blokus


def random_game(variant, seed, plies=None, start="fixed"):
    """`variant` after `plies` legal moves drawn uniformly by ``random.Random(seed)`` (to its end
    when None; fewer when it ends first)."""
    rng = random.Random(seed)
    game = blokus.Game(variant, start=start)
    while not game.is_over and (plies is None or len(game.history) < plies):
        game.play(rng.choice(game.legal_moves().tolist()))
    return game
