"""The MCTS agent: its parameters, their limits and its search."""
from __future__ import annotations

import math
import os

from blokus import _core
from blokus.agents._params import _check
from blokus.agents._policies import _Seeded
from blokus.agents._search import Search
from blokus.game import Game

# The longest time limit a search takes (as the engine's time limits: about 31 years).
MAX_SECONDS = 1e9
# The most threads one search runs (the engine's BK_MCTS_MAX_THREADS).
MAX_THREADS = 64


def available_cores() -> int:
    """The number of cores this process may run on (its CPU affinity where the platform has it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class MCTSAgent(_Seeded):
    """UCT Monte-Carlo tree search in C, with playouts by a policy (local answers to the
    opponents' last moves, large pieces first) and children ordered by a prior (large pieces,
    covering the opponents' attachment points; on the 20x20 board, in every colour's first two
    moves, only the moves heading for the centre are children); see ``csrc/engine/mcts.h`` and
    ``csrc/engine/playout_policy.h``.

    Parameters
    ----------
    simulations : int, optional
        Simulations per move (``sims`` in an agent string). Default 1000 when ``seconds`` is not
        given either.
    seconds : float, optional
        Wall-clock limit per move; with both, the search stops at whichever comes first.
    exploration : float
        UCT constant c (``c``), >= 0.
    widening : float
        Progressive widening: a node visited n times chooses among its 1 + widening * sqrt(n)
        first children in prior order.
    bias : float
        Progressive bias w >= 0 (``bias``; default 0.3; 0: none): a child's bound gains
        w * P * sqrt(N) / (1 + n), P its share of its parent's priors, N and n the parent's and
        its visits, so that the search tries the moves the prior likes first and longer.
    margin : float
        Weight w of the score margin in a playout's value, in [0, 0.5) so that any win is worth
        more than any loss (``margin``; default 0.375): the value is (1 - w) * share of the win
        + w * (1 + tanh(z)) / 2, z the margin over the best other side in standard deviations
        from its running mean over the search's simulations, as Pentobi's. 0: a small fixed
        margin term instead, 0.9 * share + 0.1 * (1 + tanh(margin / 20)) / 2.
    replies : bool
        Last good reply with forgetting in the playouts (``replies=1``/``0``; default on): each
        colour answers a move with its reply of the last playout its side won, until a
        playout with that reply is lost (LGRF-1, as Pentobi's playouts).
    max_nodes : int
        The trees stop growing at this many nodes in all (40 bytes each); playouts go on.
    threads : int, optional
        Threads searching, 1 to 64 (``threads``); default: the cores this process may use
        (``os.sched_getaffinity``). Root parallelisation: each thread grows its own tree from
        the position with its own random stream, and the trees' root statistics are added up
        (``simulations`` is the total over the threads). One thread is the plain search; a
        given seed gives the same moves for a given number of threads, so results with the
        default depend on the machine.
    reuse : bool
        Keep the search between moves (``reuse=1``/``0``; default on): when the next position
        follows from the last one searched by moves that search tried (a game going on, its
        moves since then played in turn), the subtree below them is kept with its visits and
        values, and ``simulations`` more are run on top, as Pentobi does; any other position
        starts afresh. A search of the same position again continues the last one. The agent
        then holds its trees (``max_nodes`` at most) between calls.
    seed : int or None

    Raises
    ------
    ValueError
        A parameter out of range.
    """

    def __init__(self, simulations: int | None = None, seconds: float | None = None, *,
                 exploration: float | None = None, rave: float | None = None,
                 margin: float = 0.375, replies: bool = True, max_nodes: int = 1 << 22,
                 threads: int | None = None, reuse: bool = True, seed: int | None = None):
        super().__init__(seed)
        if simulations is None and seconds is None:
            simulations = 1000
        if threads is None:
            threads = min(available_cores(), MAX_THREADS)
        _check(simulations is None or 1 <= simulations < 2**63, "simulations", simulations, "in [1, 2**63)")
        _check(seconds is None or 0 < seconds <= MAX_SECONDS, "seconds", seconds, f"in (0, {MAX_SECONDS:g}]")
        _check(0 <= margin < 0.5, "margin", margin, "in [0, 0.5)")
        _check(replies in (0, 1), "replies", replies, "True or False (1 or 0)")
        _check(1 <= max_nodes < 2**32, "max_nodes", max_nodes, "in [1, 2**32)")
        _check(1 <= threads <= MAX_THREADS, "threads", threads, f"in [1, {MAX_THREADS}]")
        _check(reuse in (0, 1), "reuse", reuse, "True or False (1 or 0)")
        self.options = {"simulations": int(simulations or 0), "seconds": float(seconds or 0.0),
                        "margin": float(margin), "replies": bool(replies),
                        "max_nodes": int(max_nodes), "threads": int(threads)}
        parts = [f"sims={simulations}"] if simulations is not None else []
        parts += [f"seconds={seconds:g}"] if seconds is not None else []
        self.name = ":".join(["mcts"] + parts)
        if exploration is not None:
            self.options["exploration"] = float(exploration)
        if rave is not None:
            self.options["rave"] = float(rave)
        self._tree = _core.mcts_tree() if reuse else None

    def search(self, game: Game) -> Search:
        """Searches the position for the colour to move; the game is not changed. With ``reuse``,
        the figures of the result count the simulations kept from the last search too
        (``Search.simulations`` is their total), except each player's, which are this call's.

        Raises
        ------
        ValueError
            The game is over.
        """
        return Search(*_core.mcts(game, seed=self._next_seed(), tree=self._tree, **self.options))

    def __call__(self, game: Game) -> int:
        return int(self.search(game).ids[0])

    # A copy or unpickled agent (as multiprocessing sends it) starts with a search of its own:
    # the kept trees live in C memory and are this agent's alone.
    def __getstate__(self) -> dict:
        return dict(self.__dict__, _tree=self._tree is not None)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, _tree=_core.mcts_tree() if state["_tree"] else None)
