"""The exact endgame solver: the value of a position of a two-sided game under perfect play."""
from __future__ import annotations

from dataclasses import dataclass

from blokus import _core
from blokus.game import Game
from blokus.variants import variant


@dataclass(frozen=True)
class Solution:
    """What ``solve`` proved about a position.

    Attributes
    ----------
    margin : int or None
        The final score margin of ``players``' side under best play by both sides: its player
        score minus the other side's (``Game.player_scores``' scale, docs/rules.md, "Scoring").
        None when the node budget ran out before the solve finished.
    players : tuple of int
        The players of the side whose margin it is: the side to move (both partners in
        ``classic_teams``), or player 0's side once the game is over.
    best_moves : tuple of int
        Placement ids of the colour to move that achieve ``margin`` (all of them, or one when
        asked with ``all_best=False``); () when the margin is unknown or the game is over.
    nodes : int
        Positions searched.
    """

    margin: int | None
    players: tuple[int, ...]
    best_moves: tuple[int, ...]
    nodes: int

    @property
    def exact(self) -> bool:
        """Whether the solve finished: ``margin`` and ``best_moves`` are then perfect play's."""
        return self.margin is not None

    @property
    def outcome(self) -> str | None:
        """``"win"``, ``"draw"`` or ``"loss"`` for ``players``' side under best play; None when
        unknown."""
        if self.margin is None:
            return None
        return "win" if self.margin > 0 else "draw" if self.margin == 0 else "loss"


def solve(game: Game, max_nodes: int = 1_000_000, all_best: bool = True) -> Solution:
    """Solves the rest of a game of two sides exactly: the final margin under best play and the
    moves that achieve it, by an alpha-beta search to the end of the game (in C, the GIL
    released).

    The search grows quickly with the moves left: in Duo a few moves per colour before the end
    take milliseconds, further out it runs into ``max_nodes`` (``benchmarks/bench_solver.py``
    measures how far). About 5 million positions per CPU second.

    Parameters
    ----------
    game : Game
        A game of ``duo``, ``classic_2`` or ``classic_teams``; not changed.
    max_nodes : int
        Positions the search may visit, >= 1; past them it stops and the margin is unknown.
        The transposition table takes 16 bytes a node, at most 2 MB.
    all_best : bool
        Every move achieving the margin (proving a tie costs a little more search), or one.

    Returns
    -------
    Solution

    Raises
    ------
    ValueError
        The variant has not two sides (``classic``, ``classic_3``), or ``max_nodes`` < 1.
    TypeError
        ``game`` is not a ``blokus.Game`` or ``max_nodes`` not an int.
    """
    if not isinstance(game, _core.Game):
        raise TypeError(f"solve() needs a blokus.Game, not {type(game).__name__}")
    # the side as the solve saw it: max_nodes' __index__ or another thread may play on the game
    margin, best, nodes, solved_side = _core.solve(game, max_nodes=max_nodes, all_best=all_best)
    players = tuple(p for p, side in enumerate(variant(game.variant).player_sides) if side == solved_side)
    return Solution(margin=margin, players=players, best_moves=tuple(best), nodes=nodes)
