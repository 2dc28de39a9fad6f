"""The board's transpose as data augmentation, in the variants whose starting squares it keeps.

Mirroring Duo's board in its main diagonal (cell (r, c) to (c, r)) keeps both starting points,
(4, 4) and (9, 9) (docs/rules.md, "Starting squares"), so a transposed position is a Duo
position of the same value, its legal moves the transposes of the position's. The other symmetries of
the square swap the two starting points and are not used. On the 20x20 board no symmetry but the
identity keeps every colour's starting corner (the transpose swaps yellow's (0, 19) and green's
(19, 0), and the others move blue's or red's), so the classic variants train without one
(``keeps_starts``). Each placement's transpose is a placement of the same piece, found by its
set of cells (``blokus.placements``).
"""
from __future__ import annotations

import functools

import numpy as np

from blokus.placements import placements
from blokus.variants import variant as variant_facts


def keeps_starts(variant: str) -> bool:
    """Whether the transpose maps each colour's starting square to itself."""
    return all(row == col for row, col in variant_facts(variant).starting_squares)


@functools.cache
def transpose_ids(variant: str = "duo") -> np.ndarray:
    """int64 (A,): the id of each placement's transpose (an involution: ``t[t] == arange(A)``)."""
    table = placements(variant)
    cells = np.asarray(table.cells)
    key = {frozenset(map(tuple, c[c[:, 0] >= 0])): a for a, c in enumerate(cells)}
    return np.array([key[frozenset((col, row) for row, col in c[c[:, 0] >= 0])] for c in cells], np.int64)


def transpose_rows(rows: np.ndarray, observations: np.ndarray, masks: np.ndarray, policy: np.ndarray,
                   variant: str = "duo") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positions at ``rows`` (bool (N,)) transposed, the others as they are: observations
    (N, C + 1, H, W), legal masks (N, A) and dense policy targets (N, A); new arrays."""
    t = transpose_ids(variant)
    observations, masks, policy = observations.copy(), masks.copy(), policy.copy()
    observations[rows] = observations[rows].swapaxes(-1, -2)
    masks[rows] = masks[rows][:, t]  # the transpose's mask at id a is the mask at t[a]
    policy[rows] = policy[rows][:, t]
    return observations, masks, policy
