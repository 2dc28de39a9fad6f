"""The opponent vocabulary: what an opponent may be, the default, and its agent."""
from __future__ import annotations

from typing import Callable, Union

from blokus.agents import make_agent
from blokus.game import Game

Opponent = Union[str, Callable[[Game], int]]
DEFAULT = "random"


def check(opponent: Opponent) -> Opponent:
    """The opponent, an agent string stripped of spaces, or the callable as given.

    Raises
    ------
    ValueError
        Not a callable, or not an agent string ``make_agent`` knows.
    """
    if callable(opponent):
        return opponent
    if not isinstance(opponent, str):
        raise ValueError(f"an opponent is an agent string such as 'random', 'greedy' or 'mcts:sims=200', "
                         f"or a callable (game) -> placement id, not {opponent!r}")
    make_agent(opponent)  # raises ValueError naming what is wrong
    return opponent.strip()


def agent(opponent: Opponent, seed: int | None) -> Callable[[Game], int]:
    """The callable that plays ``opponent`` (a checked one), seeded with ``seed``."""
    return opponent if callable(opponent) else make_agent(opponent, seed=seed)
