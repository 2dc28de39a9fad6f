"""blokus: an exact, fast Blokus engine in C, used from Python.

>>> import blokus
>>> game = blokus.Game("duo", start="fixed")
>>> len(game.legal_moves())
414
>>> game.play("e10")
>>> game.to_move
1
"""
from blokus import _gym_registration
from blokus._core import PIECE_NAMES, IllegalMoveError, InvalidMoveError, random_playouts
from blokus.batch import VectorGame
from blokus.game import Game
from blokus.placements import Placements, parse_move, placements

__all__ = [
    "PIECE_NAMES",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Placements",
    "VectorGame",
    "parse_move",
    "placements",
    "random_playouts",
]
__version__ = "0.1.0"

# Submodules load on first use (blokus.render, blokus.agents, ...), so that `import blokus` stays
# light and optional dependencies are imported only by what needs them.
_SUBMODULES = {"agents", "analysis", "arena", "batch", "env", "gtp", "gym_env", "nn", "opponents", "puzzles",
               "render", "rl", "rllib", "sb3", "search", "selfplay", "sgf", "variants", "vector", "widgets"}


def __getattr__(name: str):
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"blokus.{name}")
    raise AttributeError(f"module 'blokus' has no attribute {name!r}")


# The blokus/*-v0 Gymnasium ids: registered now if Gymnasium is imported, else right after it is,
# without importing it here (blokus._gym_registration says why and how).
_gym_registration.register_now_or_after_gymnasium_import()
