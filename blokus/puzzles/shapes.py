"""The pieces' shapes: each piece's fixed orientations, as cell sets at the top-left."""
from __future__ import annotations

import functools
from typing import Iterable

import numpy as np

from blokus import _core
from blokus.placements import placements
from blokus.puzzles.pieces import PIECE_NAMES


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
    return _core.PIECE_SIZES[PIECE_NAMES.index(name)]
