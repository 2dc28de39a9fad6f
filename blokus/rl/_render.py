"""What the environments' ``render()`` returns."""
from __future__ import annotations

from blokus import render as _render
from blokus.game import Game


def render_game(game: Game, mode: str | None):
    """What ``render()`` returns: the text board ("ansi"), an RGB array ("rgb_array"), or
    None after printing the text board for a person at a terminal ("human")."""
    if mode == "ansi":
        return str(game)
    if mode == "rgb_array":
        return _render.image(game)
    if mode == "human":
        print(game, end="\n\n")
    return None
