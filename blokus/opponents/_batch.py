"""Which batch plays an opponent: in C (:class:`CBatch`) if it can be, else in Python
(:class:`AgentBatch`)."""
from __future__ import annotations

from blokus.batch import VectorGame
from blokus.opponents._agent_batch import AgentBatch
from blokus.opponents._c_batch import CBatch
from blokus.opponents._opponent import Opponent

# agent strings that the C batch plays inside its step
IN_C = ("random", "greedy")


def batch(num_envs: int, variant: str, opponent: Opponent, seat: int, *, start: str = "fixed",
          num_threads: int | None = None, seed: int | None = None):
    """The learner-against-opponents batch for ``opponent``: in C if it can be, else in Python."""
    if isinstance(opponent, str) and opponent in IN_C:
        games = VectorGame(num_envs, variant, start=start, num_threads=num_threads, seed=seed)
        return CBatch(games, opponent, seat)
    return AgentBatch(num_envs, variant, opponent, seat, start=start, seed=seed)
