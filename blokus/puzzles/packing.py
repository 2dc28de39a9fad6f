"""Packings: tile a rectangle exactly with a multiset of pieces; solved and counted in C."""
from __future__ import annotations

import collections
import secrets

import numpy as np

from blokus import _core
from blokus.puzzles.pieces import NUM_COLOURS, PIECE_NAMES, _kinds
from blokus.puzzles.problems import _check_cover, _check_pieces, _describe, _plural, _same_colour_contacts
from blokus.puzzles.shapes import _piece_size
from blokus.puzzles.solution import Progress, Solution, Verdict

_LIMITS = _core.PACK_LIMITS
_MAX_NARROW, _MAX_SIDE, _MAX_PIECES = _LIMITS["max_narrow_side"], _LIMITS["max_side"], _LIMITS["max_pieces"]


class Packing:
    """A packing puzzle: tile a rectangle exactly with a multiset of pieces (docs/rules.md).

    Parameters
    ----------
    shape : (int, int)
        ``(height, width)`` in cells: rows, columns. Each side 1-255, the shorter one at most 56.
    pieces : mapping or list of mappings, optional
        A mapping ``{name: count}`` gives ``count`` copies of the piece, their colours taken in
        turn: copy k is colour ``k % 4`` (so ``{"I4": 4}`` is one I4 of each colour, and
        ``{"F": 1}`` one blue F). A list of up to 4 mappings gives each colour its own pieces:
        ``[{"I4": 2}, {"O": 1}]`` is two blue I4s and a yellow O. A name is one of
        ``blokus.PIECE_NAMES`` or a group of :data:`PIECE_GROUPS` (``"pentominoes"``: one of
        each of the 12, times the count). Omitted: the rule sheet's set for 8x10 (the
        tetrominoes, one per colour) or 15x16 (the pentominoes, one per colour).
    same_colour_edges : bool
        True: the basic puzzle. False: the harder option, no two pieces of one colour share an edge.

    Raises
    ------
    ValueError
        A bad shape, an unknown piece name, a negative count, more than 4 colours, more than 4096
        pieces, or pieces whose squares do not add up to the rectangle's area.
    TypeError
        ``pieces`` of the wrong type.

    In the basic puzzle colours play no part in the search: ``solve`` gives the copies of each
    piece their colours afterwards (each the one left that shares fewest edges with its own
    colour), and ``count_solutions`` counts tilings by shape. Under the harder option colours
    are part of each solution.
    """

    def __init__(self, shape: tuple[int, int] = (8, 10), pieces=None, *, same_colour_edges: bool = True):
        try:
            height, width = (int(x.__index__()) for x in shape)
        except (TypeError, ValueError, AttributeError):
            raise ValueError(f"shape must be (height, width), two ints, not {shape!r}") from None
        if not (1 <= height <= _MAX_SIDE and 1 <= width <= _MAX_SIDE) or min(height, width) > _MAX_NARROW:
            raise ValueError(f"shape {height}x{width}: sides must be 1..{_MAX_SIDE}, the shorter at most "
                             f"{_MAX_NARROW}")
        if pieces is None:
            standard = {(8, 10): "tetrominoes", (15, 16): "pentominoes"}.get((min(height, width), max(height, width)))
            if standard is None:
                raise ValueError(f"give the pieces for a {height}x{width} rectangle (only 8x10 and 15x16 "
                                 "have a standard set)")
            pieces = {standard: NUM_COLOURS}
        self.shape = (height, width)
        self.pieces = _kinds(pieces)
        self.same_colour_edges = bool(same_colour_edges)
        self.num_pieces = sum(self.pieces.values())
        area = sum(_piece_size(name) * n for (name, _), n in self.pieces.items())
        if self.num_pieces > _MAX_PIECES:
            raise ValueError(f"at most {_MAX_PIECES} pieces, not {self.num_pieces}")
        if area != height * width:
            raise ValueError(f"the pieces cover {area} squares, the {height}x{width} rectangle has "
                             f"{height * width}")

    @classmethod
    def tetrominoes(cls, *, same_colour_edges: bool = True) -> Packing:
        """The 20 tetrominoes, 5 per colour, in an 8x10 rectangle (8 rows, 10 columns)."""
        return cls((8, 10), {"tetrominoes": NUM_COLOURS}, same_colour_edges=same_colour_edges)

    @classmethod
    def pentominoes(cls, *, same_colour_edges: bool = True) -> Packing:
        """The 48 pentominoes, 12 per colour, in a 15x16 rectangle (15 rows, 16 columns)."""
        return cls((15, 16), {"pentominoes": NUM_COLOURS}, same_colour_edges=same_colour_edges)

    def __repr__(self) -> str:
        return (f"<blokus.puzzles.Packing {self.shape[0]}x{self.shape[1]}, {self.num_pieces} pieces, "
                f"same_colour_edges={self.same_colour_edges}>")

    def _c_kinds(self) -> list[tuple[int, int, int]]:
        return [(PIECE_NAMES.index(name), colour, n) for (name, colour), n in self.pieces.items()]

    def solve(self, seed: int | None = None, time_limit: float | None = None,
              progress: Progress | None = None) -> Solution | None:
        """Searches for a solution in C (the GIL released; Ctrl-C stops it).

        Exact cover by depth-first search on bitboards: it always fills the first empty cell
        (scanning along the shorter side), trying the pieces that fit there in random order, the
        awkward ones first (F, T5, V5, W, X, Z5, which need three rows every way), prunes enclosed
        holes the pieces left cannot fill, and restarts on the Luby schedule.

        Parameters
        ----------
        seed : int in [0, 2**64), optional
            The random order; None draws a fresh one. The same seed gives the same solution.
        time_limit : float, optional
            Seconds; None searches until it finds one or proves there is none.
        progress : callable, optional
            Called about once a second with ``{"seconds", "nodes", "restarts"}``.

        Returns
        -------
        Solution or None
            None when the time ran out, or when there is no solution at all.
        """
        if seed is None:
            seed = secrets.randbits(64)
        found = _core.pack_solve(*self.shape, self._c_kinds(), same_colour_edges=self.same_colour_edges,
                                 seed=seed, time_limit=time_limit, progress=progress)
        if found is None:
            return None
        labels, _, kinds = found
        cells: list[list[tuple[int, int]]] = [[] for _ in kinds]
        for (r, c), label in np.ndenumerate(labels):
            cells[label].append((r, c))
        pieces = [(PIECE_NAMES[p], colour, tuple(cs)) for (p, colour), cs in zip(kinds, cells)]
        return Solution(labels, pieces)

    def count_solutions(self, limit: int | None = None, *, up_to_symmetry: bool = False,
                        time_limit: float | None = None, progress: Progress | None = None) -> int:
        """Counts the solutions by exhaustive search in C (the GIL released; Ctrl-C stops it).

        Solutions are counted as tilings: which cells each piece covers and its shape (and its
        colour under the harder option; in the basic puzzle copies of a piece are not told
        apart by colour). Rotated and mirrored tilings count separately unless
        ``up_to_symmetry``, which counts each class under the rectangle's 4 symmetries (8 for
        a square) once. E.g. the 12 pentominoes in 6x10: 9,356, or 2,339 up to symmetry.

        Parameters
        ----------
        limit : int, optional
            Stop once this many are counted (and return it).
        up_to_symmetry : bool
        time_limit : float, optional
            Seconds.
        progress : callable, optional
            Called about once a second with ``{"seconds", "nodes", "restarts"}``.

        Raises
        ------
        TimeoutError
            The time limit ran out first; the message gives the count so far.
        ValueError
            ``limit`` not in [1, 2**63 - 1), or ``time_limit`` not a number of seconds in (0, 1e9].
        """
        if limit is not None and not 1 <= limit < 2**63 - 1:
            raise ValueError("limit must be in [1, 2**63 - 1) or None")
        count, timed_out = _core.pack_count(*self.shape, self._c_kinds(), same_colour_edges=self.same_colour_edges,
                                            limit=limit or 0, up_to_symmetry=up_to_symmetry,
                                            time_limit=time_limit, progress=progress)
        if timed_out:
            raise TimeoutError(f"time limit of {time_limit} s reached after {count} solutions")
        return count

    def check(self, solution: Solution) -> Verdict:
        """Whether ``solution`` solves this puzzle, and if not, why.

        Checks: the grid's shape; each piece's name, colour and cells (on the grid, and the
        shape of that piece); no cell covered twice; no cell left empty; ``grid`` labels
        matching the pieces' cells; the pieces used against the puzzle's, per name and colour;
        under the harder option, no two pieces of one colour sharing an edge.

        Raises
        ------
        TypeError
            ``solution`` is not a :class:`Solution`.
        """
        if not isinstance(solution, Solution):
            raise TypeError(f"check() needs a blokus.puzzles.Solution, not {type(solution).__name__}")
        if solution.grid.shape != self.shape:
            return Verdict((f"the grid is {solution.grid.shape[0]}x{solution.grid.shape[1]}, the puzzle "
                            f"{self.shape[0]}x{self.shape[1]}",))
        problems = _check_pieces(solution, self.shape)
        problems += _check_cover(solution, self.shape, allow_empty=False)
        used = collections.Counter((name, colour) for name, colour, _ in solution.pieces)
        if used != collections.Counter(self.pieces):
            if sum(used.values()) != self.num_pieces:
                problems.append(f"{_plural(sum(used.values()), 'piece')} instead of {self.num_pieces}")
            for kind in sorted(set(used) | set(self.pieces), key=str):
                if used[kind] != self.pieces.get(kind, 0):
                    problems.append(f"{_describe(*kind)}: {used[kind]} instead of {self.pieces.get(kind, 0)}")
        if not self.same_colour_edges:
            problems += _same_colour_contacts(solution)
        return Verdict(tuple(problems))
