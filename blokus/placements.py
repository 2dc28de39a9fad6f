"""The placement table: every way to lay one orientation of one piece on the board."""
from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from blokus import _core
from blokus.variants import VARIANTS
from blokus.variants import variant as variant_facts


class Placements(NamedTuple):
    """Placement table of a variant; row ``i`` describes placement id ``i``.

    Attributes
    ----------
    piece : ndarray, int8, shape (A,)
        Index into ``blokus.PIECE_NAMES``.
    orientation : ndarray, int8, shape (A,)
        One of the 91 fixed orientations (grouped by piece).
    anchor_row, anchor_col : ndarray, int8, shape (A,)
        Top-left corner of the orientation's bounding box on the board.
    cells : ndarray, int8, shape (A, 5, 2)
        ``(row, col)`` of each cell, row-major, padded with -1.
    size : ndarray, int8, shape (A,)
        Number of cells.

    Notes
    -----
    ``A`` is 30,433 on the classic 20x20 board and 13,729 on Duo's 14x14.
    """

    piece: np.ndarray
    orientation: np.ndarray
    anchor_row: np.ndarray
    anchor_col: np.ndarray
    cells: np.ndarray
    size: np.ndarray


def placements(variant: str = "classic") -> Placements:
    """The placement table of a variant: read-only, one shared table per board size (the
    variant's ``geometry``, ``blokus.variants``).

    Raises
    ------
    ValueError
        Unknown variant. TypeError: ``variant`` is not a str.
    """
    if variant not in VARIANTS:
        _core.placement_table(variant)  # raises the same error as every other entry point
    return _table(variant_facts(variant).geometry)


@functools.lru_cache(maxsize=None)
def _table(geometry: int) -> Placements:
    """The table of placement-table index ``geometry``, made from the first variant that has it."""
    arrays = _core.placement_table(next(v for v in VARIANTS if variant_facts(v).geometry == geometry))
    for a in arrays:
        a.flags.writeable = False
    return Placements(*arrays)


def cell_text(row: int, col: int, height: int) -> str:
    """The name of cell ``(row, col)`` (row 0 at the top) of a board of ``height`` rows: its
    column's letter, then its row's number, e.g. ``"a20"`` for (0, 0) on the classic board
    (docs/rules.md, "Board, coordinates, colours"; the C core writes moves alike,
    csrc/core/movetext.c)."""
    return f"{column_letter(col)}{row_number(row, height)}"


def column_letter(col: int) -> str:
    """The letter of board column ``col``: ``a`` at the left."""
    return chr(ord("a") + col)


def row_number(row: int, height: int) -> int:
    """The number of board row ``row`` (0 at the top) of a board of ``height`` rows: 1 at the
    bottom."""
    return height - row


def parse_move(text: str, variant: str = "classic") -> int:
    """The placement id of a move's text form, e.g. ``"a20,b20,c20"``.

    Cells may come in any order and letters in either case; columns are
    letters from ``a`` at the left, rows numbers from 1 at the bottom
    (docs/rules.md, "Board, coordinates, colours").

    Raises
    ------
    IllegalMoveError
        A cell is off the board.
    ValueError
        The text is not a list of cells, or the cells are not one of the 21 pieces.
    TypeError
        ``text`` is not a str.
    """
    return _core.parse_move(text, variant)
