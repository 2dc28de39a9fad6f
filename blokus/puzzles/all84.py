""""All 84": one person places all four colours' 84 pieces in a classic game."""
from __future__ import annotations

import secrets
from typing import Sequence

import numpy as np

from blokus import _core
from blokus.game import Game
from blokus.placements import placements
from blokus.puzzles.pieces import COLOUR_NAMES, PIECE_NAMES
from blokus.puzzles.problems import _plural
from blokus.puzzles.shapes import _piece_size
from blokus.puzzles.solution import Progress, Solution, Verdict
from blokus.variants import variant

_CLASSIC = variant("classic")  # All 84 is played on its board, with its four colours
_SHAPE = (_CLASSIC.side, _CLASSIC.side)


def all84(start: str = "any") -> Game:
    """A new classic game to play "All 84": you move all four colours, in turn order, passes as
    usual, and try to place every piece (docs/rules.md, "Solo puzzles").

    ``start="any"`` (the rule sheet's default: each first piece covers any free corner) or
    ``"fixed"`` (each colour its own corner). Hand the game to ``All84(start).check`` to score an
    attempt, or to ``All84(start).solve`` to let the search finish it.

    Raises
    ------
    ValueError
        Unknown start rule.
    """
    return Game("classic", start=start)


class All84:
    """ "All 84": one person plays the four colours of a classic game and places all 84 pieces.

    ``start`` is the start rule, as for :func:`all84` ("any" is the rule sheet's).

    Raises
    ------
    ValueError
        Unknown start rule.
    """

    def __init__(self, start: str = "any"):
        self.start = Game("classic", start=start).start

    def __repr__(self) -> str:
        return f"<blokus.puzzles.All84 start={self.start!r}>"

    def game(self) -> Game:
        """A new game to play (as :func:`all84`)."""
        return all84(self.start)

    def _solution(self, moves: Sequence[int]) -> Solution:
        table = placements("classic")
        pieces = []
        for colour, move in zip(self._colours(moves), moves):
            size = int(table.size[move])
            cells = tuple(map(tuple, table.cells[move, :size].tolist()))
            pieces.append((PIECE_NAMES[table.piece[move]], colour, cells))
        return Solution.from_pieces(_SHAPE, pieces, moves)

    def _colours(self, moves: Sequence[int]) -> list[int]:
        game = self.game()
        colours = []
        for move in moves:
            colours.append(game.to_move)
            game.play(move)
        return colours

    def solve(self, game: Game | None = None, *, seed: int | None = None, time_limit: float | None = None,
              progress: Progress | None = None, best_effort: bool = False) -> Solution | None:
        """Searches in C (the GIL released; Ctrl-C stops it) for a game in which every colour
        places all 21 pieces, going on from ``game`` (default: the empty board; it is not changed).

        Beam search over the legal moves of the colour to move, on the engine's board: every
        child is scored cheaply (squares placed, awkward pieces placed, cells no colour can ever
        fill, walled-in pockets, attachment points), the best are scored again with each
        colour's legal moves and pieces that fit nowhere, lines that cannot succeed any more are
        dropped (a colour out of moves, too many dead cells), and beams of doubling width
        (16 to 4,096) with fresh tie-breaks run until one places everything.

        Parameters
        ----------
        game : blokus.Game, optional
            A classic game (any start rule) to go on from; default a new game of this start rule.
        seed : int in [0, 2**64), optional
            Tie-breaks; None draws a fresh one. The same seed and position give the same result.
        time_limit : float, optional
            Seconds; None searches until it succeeds (which may be never from a hopeless position).
        progress : callable, optional
            Called about once a second with ``{"seconds", "best_squares_left", "beams",
            "width", "positions"}``.
        best_effort : bool
            Return the best line found (fewest squares left in hand) even if it is not complete.

        Returns
        -------
        Solution or None
            ``moves`` is the whole game from the empty board. None when no full solution was found
            in the time (unless ``best_effort``).

        Raises
        ------
        ValueError
            ``game`` is not classic 20x20 with four colours.
        """
        if game is None:
            game = self.game()
        elif not isinstance(game, Game) or game.num_colours != _CLASSIC.num_colours or game.shape != _SHAPE:
            raise ValueError("All 84 is played on a classic four-colour game")
        if seed is None:
            seed = secrets.randbits(64)
        moves, _, solved = _core.all84_solve(game, seed=seed, time_limit=time_limit, progress=progress)
        if not solved and not best_effort:
            return None
        start = All84(game.start)
        return start._solution([m for _, m in game.history] + list(moves))

    def check(self, solution) -> Verdict:
        """Whether a game places all 84 pieces under the rules, and if not, why.

        ``solution``: a :class:`Solution` (its ``moves`` are replayed and its grid and pieces
        compared with them), a :class:`blokus.Game` (its moves), or a sequence of moves
        (placement ids or texts, as ``Game.play`` takes them), replayed from the empty board
        under this start rule. Problems: a move that is illegal (the rule it breaks), and each
        colour that has pieces left.
        """
        if isinstance(solution, Game):
            if solution.num_colours != _CLASSIC.num_colours or solution.shape != _SHAPE:
                return Verdict(("not a classic four-colour game",))
            moves = [m for _, m in solution.history]
        elif isinstance(solution, Solution):
            moves = list(solution.moves)
        else:
            moves = list(solution)
        game = self.game()
        problems = []
        for k, move in enumerate(moves):
            if game.is_over:
                problems.append(f"move {k + 1} comes after the end of the game")
                break
            try:
                game.play(move)
            except (ValueError, TypeError) as err:
                problems.append(f"move {k + 1} ({COLOUR_NAMES[game.to_move]}, {move!r}): {err}")
                break
        for colour in range(_CLASSIC.num_colours):
            left = [name for name, here in zip(PIECE_NAMES, game.remaining[colour].tolist()) if here]
            if left:
                squares = sum(_piece_size(n) for n in left)
                problems.append(f"{COLOUR_NAMES[colour]} has {_plural(len(left), 'piece')} left "
                                f"({_plural(squares, 'square')}): {', '.join(left)}")
        if isinstance(solution, Solution) and not problems:
            replay = self._solution([m for _, m in game.history])
            if solution.grid.shape != _SHAPE or not np.array_equal(solution.grid, replay.grid):
                problems.append("the grid does not match the moves")
            elif solution.pieces != replay.pieces:
                problems.append("the pieces do not match the moves")
        return Verdict(tuple(problems))
