"""The placement table: every way to lay one orientation of one piece on the board."""
from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from blokus import _core
from blokus.game import VARIANTS


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
    """The placement table of a variant: read-only, one shared table per board size.

    Raises
    ------
    ValueError
        Unknown variant.
    """
    if variant not in VARIANTS:
        _core.placement_table(variant)  # raises the same error as every other entry point
    return _table("duo" if variant == "duo" else "classic")


@functools.lru_cache(maxsize=None)
def _table(variant: str) -> Placements:
    arrays = _core.placement_table(variant)
    for a in arrays:
        a.flags.writeable = False
    return Placements(*arrays)


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
