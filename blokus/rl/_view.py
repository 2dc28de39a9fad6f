"""Whose point of view an observation takes: the one rule of every environment."""
from __future__ import annotations

from blokus.game import Game


def on_move(game: Game, player: int) -> bool:
    """Whether ``player`` moves the colour to move now."""
    return not game.is_over and game.player_to_move == player


def observe_player(game: Game, player: int) -> dict:
    """Planes and pieces in hand as ``player`` sees them (no mask): from the colour to move while
    the player moves it, else from the player's own colour (player p's colour p in every
    variant). The one point-of-view rule of the environments; the batch engine
    (csrc/engine/vector.c) takes the same view."""
    colour = game.to_move if on_move(game, player) else player
    return {"observation": game.observation(colour), "remaining": game.remaining_from(colour)}
