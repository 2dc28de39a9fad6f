"""Solo puzzles (docs/rules.md, "Solo puzzles"): each one checked, and solved in C.

Packings -- lay pieces so that they tile a rectangle exactly, no corner or first-move rule:

>>> import blokus.puzzles as pz
>>> puzzle = pz.Packing.tetrominoes()                  # the 20 tetrominoes (5 per colour) in 8x10
>>> solution = puzzle.solve(seed=1)
>>> bool(puzzle.check(solution))
True
>>> pz.Packing((3, 20), {"pentominoes": 1}).count_solutions(up_to_symmetry=True)
2

- :class:`Packing` ``(shape, pieces, *, same_colour_edges=True)``: any rectangle and any multiset
  of the 21 pieces; :meth:`Packing.tetrominoes` (8x10) and :meth:`Packing.pentominoes` (15x16) are
  the rule sheet's, ``same_colour_edges=False`` its harder option (two pieces of one colour may
  not share an edge).
- :func:`all84` ``(start="any")``: a classic :class:`blokus.Game` to play "All 84" yourself (one
  person moves all four colours, turn order and passes as usual, and tries to place every piece);
  :class:`All84` checks a game or solution and searches for one.
- :class:`Solution`: ``grid`` (int16 labels), ``pieces``, ``colours`` (int8), ``moves``; text and
  SVG pictures. :class:`Verdict`: what ``check`` says.
- :func:`puzzle` ``("8x10" | "15x16" | "all84")`` and :func:`add_solve_command` (``blokus solve``).

Colours are 0 blue, 1 yellow, 2 red, 3 green, as in a classic game.
"""
from __future__ import annotations

import argparse
import collections
import functools
import operator
import secrets
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from blokus import _core, argtypes
from blokus.game import Game
from blokus.placements import placements

PIECE_NAMES: tuple[str, ...] = tuple(_core.PIECE_NAMES)
COLOUR_NAMES = ("blue", "yellow", "red", "green")
NUM_COLOURS = len(COLOUR_NAMES)
#: Names that stand for several pieces in a ``pieces`` mapping: one of each member, times the count.
PIECE_GROUPS: dict[str, tuple[str, ...]] = {
    "monomino": ("1",),
    "domino": ("2",),
    "trominoes": ("I3", "V3"),
    "tetrominoes": ("I4", "L4", "T4", "O", "Z4"),
    "pentominoes": ("I5", "L5", "Y", "N", "P", "U", "V5", "T5", "W", "Z5", "F", "X"),
    "all": PIECE_NAMES,
}

_MAX_NARROW, _MAX_SIDE, _MAX_PIECES = 56, 255, 4096  # csrc/puzzle_packing.h
_COLOUR_MARKS = "BYRG"

Progress = Callable[[dict], object]


# ---- geometry -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _orientations() -> dict[str, frozenset[frozenset[tuple[int, int]]]]:
    """Each piece's fixed orientations, as cell sets moved to the top-left (0, 0)."""
    table = placements("classic")
    shapes: dict[str, set] = {name: set() for name in PIECE_NAMES}
    _, first = np.unique(table.orientation, return_index=True)
    for i in first.tolist():
        size = int(table.size[i])
        cells = table.cells[i, :size] - [table.anchor_row[i], table.anchor_col[i]]
        shapes[PIECE_NAMES[table.piece[i]]].add(_normalise(map(tuple, cells.tolist())))
    return {name: frozenset(s) for name, s in shapes.items()}


def _normalise(cells: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _piece_size(name: str) -> int:
    return len(next(iter(_orientations()[name])))


# ---- solutions and verdicts ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Solution:
    """A packing of a rectangle, or an "All 84" game, as pieces on a grid.

    Attributes
    ----------
    grid : ndarray, int16, shape (H, W)
        Index into ``pieces`` of the piece covering each cell; -1 where empty.
    pieces : list of (name, colour, cells)
        ``name`` from ``blokus.PIECE_NAMES``, ``colour`` 0-3 (blue, yellow, red, green),
        ``cells`` a tuple of ``(row, col)``; piece ``i`` is label ``i`` of ``grid``. In play
        order for "All 84".
    moves : tuple of int
        "All 84": the classic placement ids in play order (replay them on ``all84(start)``);
        empty for a packing.
    colours : ndarray, int8, shape (H, W)
        The colour of each cell, -1 where empty (built by :meth:`colour_grid`).

    Arrays are read-only. ``str(solution)`` is a text picture; :meth:`svg` an SVG one.
    """

    grid: np.ndarray
    pieces: list
    moves: tuple = ()
    colours: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        # Integers only, checked before any cast: a cast would round or wrap a wrong solution
        # into one that check() could pass.
        given = np.asarray(self.grid)
        if given.ndim != 2:
            raise ValueError(f"grid must be 2-D, not of shape {given.shape}")
        if given.size and (not np.issubdtype(given.dtype, np.integer) or given.min() < -1 or given.max() > 32767):
            raise ValueError("grid must hold integer labels in [-1, 32767]")
        grid = given.astype(np.int16)
        grid.flags.writeable = False
        pieces = [(str(n), _int(c, "a colour", -128, 127), tuple((_int(r, "a row"), _int(q, "a column"))
                                                                 for r, q in cells)) for n, c, cells in self.pieces]
        object.__setattr__(self, "grid", grid)
        object.__setattr__(self, "pieces", pieces)
        object.__setattr__(self, "moves", tuple(int(m) for m in self.moves))
        colours = self.colour_grid()
        colours.flags.writeable = False
        object.__setattr__(self, "colours", colours)

    @classmethod
    def from_pieces(cls, shape: tuple[int, int], pieces: Iterable, moves: Iterable[int] = ()) -> Solution:
        """A solution from its pieces ``[(name, colour, cells), ...]`` on an empty grid of ``shape``.

        Cells off the grid are left out of ``grid``; where pieces overlap, the later one is in
        ``grid`` (``check`` reports both).
        """
        pieces = list(pieces)
        grid = np.full(shape, -1, dtype=np.int16)
        for i, (_, _, cells) in enumerate(pieces):
            for r, c in cells:
                if 0 <= r < shape[0] and 0 <= c < shape[1]:
                    grid[r, c] = i
        return cls(grid, pieces, tuple(moves))

    @property
    def shape(self) -> tuple[int, int]:
        return self.grid.shape

    def colour_grid(self) -> np.ndarray:
        """The colours grid: int8 (H, W), each cell the colour of its piece, -1 where empty.

        Raises
        ------
        IndexError
            A grid label is not an index into ``pieces``.
        """
        lut = np.array([c for _, c, _ in self.pieces] + [-1], dtype=np.int8)  # label -1 -> the last entry
        if self.grid.size and (self.grid.max(initial=-1) >= len(self.pieces) or self.grid.min(initial=0) < -1):
            raise IndexError(f"grid labels must be -1 or in range({len(self.pieces)})")
        return lut[self.grid]

    def __str__(self) -> str:
        """Rows of cells, each its colour's letter (B, Y, R, G; '.' empty), pieces outlined."""
        grid, height, width = self.grid, *self.grid.shape

        def label(r, c):
            return int(grid[r, c]) if 0 <= r < height and 0 <= c < width else -2

        lines = []
        for r in range(height + 1):
            row = []
            for c in range(width + 1):
                around = {label(r - 1, c - 1), label(r - 1, c), label(r, c - 1), label(r, c)}
                row.append("+" if len(around) > 1 else " ")
                if c < width:
                    row.append("---" if label(r - 1, c) != label(r, c) else "   ")
            lines.append("".join(row).rstrip())
            if r < height:
                row = []
                for c in range(width + 1):
                    row.append("|" if label(r, c - 1) != label(r, c) else " ")
                    if c < width:
                        colour = int(self.colours[r, c])
                        row.append(f" {_COLOUR_MARKS[colour] if 0 <= colour < 4 else '.'} ")
                lines.append("".join(row).rstrip())
        return "\n".join(lines)

    def svg(self, cell: int = 24) -> str:
        """An SVG picture: cells in their colour (blokus.render's classic palette), pieces
        outlined; ``blokus.render.svg(self, size=cell * width)``.

        ``cell``: pixels per cell (int >= 1). Deterministic: the same solution gives the same text.
        """
        if int(cell) != cell or cell < 1:
            raise ValueError(f"cell must be an int >= 1, not {cell!r}")
        from blokus import render  # render draws Solutions too: imported late, as it imports us

        return render.svg(self, size=int(cell) * self.grid.shape[1])

    def _repr_svg_(self) -> str:
        return self.svg()

    def save(self, path: str) -> None:
        """Writes the picture to ``path``: SVG if it ends in ``.svg``, else the text picture."""
        text = self.svg() if str(path).lower().endswith(".svg") else str(self) + "\n"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


@dataclass(frozen=True)
class Verdict:
    """What ``check`` says: ``valid`` (also ``bool(verdict)``) and the ``problems`` found,
    each a sentence; none when valid. ``str(verdict)`` is "valid" or the problems."""

    problems: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.valid

    def __str__(self) -> str:
        return "valid" if self.valid else "; ".join(self.problems)


def _describe(name: str, colour: int) -> str:
    return f"{COLOUR_NAMES[colour] if 0 <= colour < NUM_COLOURS else f'colour {colour}'} {name}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cells_text(cells, most: int = 6) -> str:
    cells = sorted(cells)
    text = ", ".join(f"({r}, {c})" for r, c in cells[:most])
    return text + (f" and {len(cells) - most} more" if len(cells) > most else "")


# ---- packings -----------------------------------------------------------------------------


def _expand(name: str) -> tuple[str, ...]:
    if name in PIECE_GROUPS:
        return PIECE_GROUPS[name]
    if name in PIECE_NAMES:
        return (name,)
    raise ValueError(f"unknown piece {name!r}: pieces are {', '.join(PIECE_NAMES)}; "
                     f"groups {', '.join(PIECE_GROUPS)}")


def _int(value, what: str, low: int = -2**31, high: int = 2**31 - 1) -> int:
    """An integer (no float, no rounding) in [low, high], else TypeError/ValueError naming it."""
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, not {value!r}") from None
    if not low <= number <= high:
        raise ValueError(f"{what} must be in [{low}, {high}], not {number}")
    return number


def _count(value, name) -> int:
    try:
        count = int(value.__index__())
    except (AttributeError, TypeError):
        raise TypeError(f"the count of {name!r} must be an int, not {value!r}") from None
    if count < 0:
        raise ValueError(f"the count of {name!r} must be >= 0, not {count}")
    return count


def _kinds(pieces) -> dict[tuple[str, int], int]:
    """``{(name, colour): count}`` from a ``pieces`` argument of :class:`Packing`."""
    kinds: collections.Counter = collections.Counter()
    if isinstance(pieces, Mapping):
        for key, value in pieces.items():
            count = _count(value, key)
            for name in _expand(key):
                for colour in range(NUM_COLOURS):  # copies take the colours in turn
                    kinds[name, colour] += count // NUM_COLOURS + (colour < count % NUM_COLOURS)
    elif isinstance(pieces, Sequence) and not isinstance(pieces, str):
        if len(pieces) > NUM_COLOURS:
            raise ValueError(f"at most {NUM_COLOURS} colours, not {len(pieces)}")
        for colour, hand in enumerate(pieces):
            if not isinstance(hand, Mapping):
                raise TypeError(f"colour {colour}'s pieces must be a mapping name -> count, not {hand!r}")
            for key, value in hand.items():
                count = _count(value, key)
                for name in _expand(key):
                    kinds[name, colour] += count
    else:
        raise TypeError(f"pieces must be a mapping name -> count or a list of them per colour, not {pieces!r}")
    return {k: v for k, v in sorted(kinds.items(), key=lambda kv: (PIECE_NAMES.index(kv[0][0]), kv[0][1])) if v}


class Packing:
    """A packing puzzle: tile a rectangle exactly with a multiset of pieces (docs/rules.md).

    ``Packing(shape=(8, 10), pieces=None, *, same_colour_edges=True)``

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
            standard = {(8, 10): "tetrominoes", (15, 16): "pentominoes"}.get(tuple(sorted((height, width))))
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
            ``limit`` < 1.
        """
        if limit is not None and limit < 1:
            raise ValueError(f"limit must be >= 1 or None, not {limit}")
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


def _check_pieces(solution: Solution, shape) -> list[str]:
    problems = []
    shapes = _orientations()
    for i, (name, colour, cells) in enumerate(solution.pieces):
        what = f"piece {i} ({_describe(name, colour)})"
        if name not in shapes:
            problems.append(f"piece {i}: unknown piece {name!r}")
            continue
        if not 0 <= colour < NUM_COLOURS:
            problems.append(f"{what}: colour must be 0-3")
        off = [cell for cell in cells if not (0 <= cell[0] < shape[0] and 0 <= cell[1] < shape[1])]
        if off:
            problems.append(f"{what}: cells off the grid: {_cells_text(off)}")
        if len(set(cells)) != len(cells) or not cells or _normalise(cells) not in shapes[name]:
            problems.append(f"{what}: cells {_cells_text(cells)} are not a {name}")
    return problems


def _check_cover(solution: Solution, shape, *, allow_empty: bool) -> list[str]:
    """Overlaps, gaps (unless allowed) and grid labels that disagree with the pieces."""
    problems = []
    cover = np.zeros(shape, dtype=np.int32)
    expected = np.full(shape, -1, dtype=np.int32)
    for i, (_, _, cells) in enumerate(solution.pieces):
        for r, c in set(cells):
            if 0 <= r < shape[0] and 0 <= c < shape[1]:
                cover[r, c] += 1
                expected[r, c] = i
    twice = list(zip(*np.nonzero(cover > 1)))
    if twice:
        problems.append(f"cells covered by more than one piece: {_cells_text(twice)}")
    empty = list(zip(*np.nonzero(cover == 0)))
    if empty and not allow_empty:
        problems.append(f"{len(empty)} empty cells: {_cells_text(empty)}")
    wrong = list(zip(*np.nonzero((solution.grid != expected) & (cover <= 1))))
    if wrong:
        problems.append(f"grid labels disagree with the pieces at {_cells_text(wrong)}")
    return problems


def _same_colour_contacts(solution: Solution) -> list[str]:
    grid, colours = solution.grid, solution.colours
    found = set()
    for axis in (0, 1):
        a = (slice(None, -1), slice(None)) if axis == 0 else (slice(None), slice(None, -1))
        b = (slice(1, None), slice(None)) if axis == 0 else (slice(None), slice(1, None))
        touching = (grid[a] != grid[b]) & (grid[a] >= 0) & (grid[b] >= 0) & (colours[a] == colours[b])
        for r, c in zip(*np.nonzero(touching)):
            found.add(tuple(sorted((int(grid[a][r, c]), int(grid[b][r, c])))))
    problems = []
    for i, j in sorted(found):
        problems.append(f"pieces {i} ({_describe(*solution.pieces[i][:2])}) and {j} "
                        f"({_describe(*solution.pieces[j][:2])}) share an edge")
    return problems


# ---- All 84 -------------------------------------------------------------------------------


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

    ``All84(start="any")``: the start rule, as for :func:`all84` ("any" is the rule sheet's).

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
        return Solution.from_pieces((20, 20), pieces, moves)

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
        elif not isinstance(game, Game) or game.num_colours != 4 or game.shape != (20, 20):
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
            if solution.num_colours != 4 or solution.shape != (20, 20):
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
        for colour in range(4):
            left = [name for name, here in zip(PIECE_NAMES, game.remaining[colour].tolist()) if here]
            if left:
                squares = sum(_piece_size(n) for n in left)
                problems.append(f"{COLOUR_NAMES[colour]} has {_plural(len(left), 'piece')} left "
                                f"({_plural(squares, 'square')}): {', '.join(left)}")
        if isinstance(solution, Solution) and not problems:
            replay = self._solution([m for _, m in game.history])
            if solution.grid.shape != (20, 20) or not np.array_equal(solution.grid, replay.grid):
                problems.append("the grid does not match the moves")
            elif solution.pieces != replay.pieces:
                problems.append("the pieces do not match the moves")
        return Verdict(tuple(problems))


# ---- by name, and the command line --------------------------------------------------------


def puzzle(name: str, *, same_colour_edges: bool = True, start: str = "any") -> Packing | All84:
    """A puzzle of the rule sheet by name: ``"8x10"`` (tetrominoes), ``"15x16"`` (pentominoes),
    either also turned (``"10x8"``, ``"16x15"``), or ``"all84"``.

    Raises
    ------
    ValueError
        Unknown name.
    """
    key = name.strip().lower().replace("×", "x").replace(" ", "")
    if key in ("all84", "all-84", "all_84"):
        return All84(start)
    try:
        height, width = (int(x) for x in key.split("x"))
    except ValueError:
        height = width = 0
    if tuple(sorted((height, width))) in ((8, 10), (15, 16)):
        return Packing((height, width), same_colour_edges=same_colour_edges)
    raise ValueError(f"unknown puzzle {name!r}: 8x10, 15x16 or all84 (or HxW with pieces)")


def parse_pieces(text: str) -> dict[str, int]:
    """``"pentominoes"``, ``"I4:4,O:4"`` or ``"F,I5:2"``: comma-separated names (pieces or
    groups of :data:`PIECE_GROUPS`), each with an optional ``:count`` (default 1).

    Raises
    ------
    ValueError
        An unknown name or a bad count.
    """
    pieces: dict[str, int] = collections.Counter()
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, _, count = item.partition(":")
        _expand(name.strip())
        try:
            pieces[name.strip()] += int(count) if count else 1
        except ValueError:
            raise ValueError(f"bad count in {item!r}") from None
    if not pieces:
        raise ValueError("no pieces given")
    return dict(pieces)


def add_solve_command(subparsers) -> argparse.ArgumentParser:
    """Adds ``solve`` to an argparse subparsers object (``parser.add_subparsers()``), for the
    ``blokus`` command line: ``blokus solve 8x10``, ``blokus solve 15x16 --no-same-colour-edges``,
    ``blokus solve all84``, ``blokus solve 6x10 --pieces pentominoes --count``.

    The solution goes to stdout as text (and to ``--out FILE``: SVG if FILE ends in .svg, else
    text), progress to stderr. The command (``args.func(args)``) returns the exit status: 0
    solved or counted, 1 when nothing was found in the time, 2 for a bad puzzle.
    """
    parser = subparsers.add_parser(
        "solve", help="solve a solo puzzle: 8x10, 15x16, all84, or any rectangle",
        description="Solve a solo puzzle of the rule sheet in C: the packings 8x10 (the 20 tetrominoes) "
                    "and 15x16 (the 48 pentominoes), or All 84 (one player places all four colours' "
                    "pieces); or any rectangle with --pieces.")
    parser.add_argument("puzzle", help="8x10, 15x16, all84, or HEIGHTxWIDTH with --pieces")
    parser.add_argument("--no-same-colour-edges", dest="same_colour_edges", action="store_false",
                        help="packings: the harder option, no two pieces of one colour share an edge")
    parser.add_argument("--pieces", metavar="LIST",
                        help="packings: the pieces, e.g. pentominoes, tetrominoes:4 or I4:2,O:2 "
                             "(copies take the colours blue, yellow, red, green in turn)")
    parser.add_argument("--start", choices=("any", "fixed"), default="any",
                        help="all84: first pieces on any free corner (rule sheet) or each colour's own "
                             "(default: any)")
    parser.add_argument("--seed", type=argtypes.seed, default=None, help="random seed (default: a fresh one)")
    parser.add_argument("--time-limit", type=argtypes.seconds, default=None, metavar="SECONDS",
                        help="give up after this long (default: search until solved)")
    parser.add_argument("--out", metavar="FILE", help="write the picture: SVG if FILE ends in .svg, else text")
    parser.add_argument("--count", action="store_true", help="packings: count the solutions instead")
    parser.add_argument("--limit", type=argtypes.count, default=None, help="with --count: stop at this many")
    parser.add_argument("--up-to-symmetry", action="store_true",
                        help="with --count: count rotations and reflections of a tiling once")
    parser.set_defaults(func=cmd_solve)
    return parser


def _reporter(stream):
    def report(info: dict) -> None:
        fields = ", ".join(f"{k} {v:,.1f}" if isinstance(v, float) else f"{k} {v:,}" for k, v in info.items())
        print(f"  ... {fields}", file=stream, flush=True)

    return report


def cmd_solve(args: argparse.Namespace) -> int:
    """Runs ``blokus solve`` (see :func:`add_solve_command`)."""
    err = sys.stderr
    try:
        if args.pieces:
            try:
                height, width = (int(x) for x in args.puzzle.lower().replace("×", "x").split("x"))
            except ValueError:
                raise ValueError(f"with --pieces the puzzle is HEIGHTxWIDTH, not {args.puzzle!r}") from None
            target = Packing((height, width), parse_pieces(args.pieces),
                             same_colour_edges=args.same_colour_edges)
        else:
            target = puzzle(args.puzzle, same_colour_edges=args.same_colour_edges, start=args.start)
        if args.count and not isinstance(target, Packing):
            raise ValueError("--count is for packings")
    except ValueError as exc:
        print(f"blokus solve: error: {exc}", file=err)
        return 2
    seed = secrets.randbits(64) if args.seed is None else args.seed
    print(f"{target!r}" + ("" if args.count else f", seed {seed}"), file=err, flush=True)
    t0 = time.perf_counter()
    if args.count:
        try:
            n = target.count_solutions(args.limit, up_to_symmetry=args.up_to_symmetry,
                                       time_limit=args.time_limit, progress=_reporter(err))
        except TimeoutError as exc:
            print(f"blokus solve: {exc}", file=err)
            return 1
        what = " up to symmetry" if args.up_to_symmetry else ""
        print(f"{n:,} solutions{what} ({time.perf_counter() - t0:.2f} s)")
        return 0
    solution = target.solve(seed=seed, time_limit=args.time_limit, progress=_reporter(err))
    elapsed = time.perf_counter() - t0
    if solution is None:
        print(f"no solution found in {elapsed:.2f} s", file=err)
        return 1
    verdict = target.check(solution)
    print(solution)
    print(f"solved in {elapsed:.2f} s (seed {seed}); check: {verdict}")
    if args.out:
        solution.save(args.out)
        print(f"picture written to {args.out}", file=err)
    return 0 if verdict else 1
