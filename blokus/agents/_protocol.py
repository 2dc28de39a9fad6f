"""The agent protocol: what every player of ``blokus.agents`` is."""
from __future__ import annotations

from typing import Protocol

from blokus.game import Game


class Agent(Protocol):
    """What an agent is: ``agent(game) -> int`` (a legal placement id for ``game.to_move``)."""

    name: str

    def __call__(self, game: Game) -> int: ...
