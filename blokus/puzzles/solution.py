"""Solutions (pieces on a grid, with text and SVG pictures) and verdicts (what ``check`` says)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from blokus import render
from blokus.puzzles.pieces import _int

_COLOUR_MARKS = "BYRG"

Progress = Callable[[dict], object]


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
