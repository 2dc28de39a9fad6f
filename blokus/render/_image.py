"""RGB arrays: :func:`image`, the environments' ``rgb_array``."""
from __future__ import annotations

import numpy as np

from blokus.render._scene import _is_tiling
from blokus.render._style import _CLASSIC, _GRID, _palette


def image(game, cell: int = 16) -> np.ndarray:
    """The board as an RGB image, one ``cell`` x ``cell`` square per board cell.

    Parameters
    ----------
    game : blokus.Game, or a Tiling (such as blokus.puzzles.Solution)
        A tiling is drawn from its ``colours`` grid (H, W may differ).
    cell : int
        Side of a board cell in pixels (>= 2); a one-pixel grid line is drawn at
        the top and left of each cell.

    Returns
    -------
    ndarray, uint8, shape (H * cell, W * cell, 3)
        Occupied cells in their colour's RGB (classic: blue (30, 90, 200), yellow
        (235, 190, 20), red (210, 40, 40), green (40, 150, 60); Duo: purple
        (120, 60, 170), orange (240, 130, 20)), empty cells (235, 235, 235), grid
        (160, 160, 160). Row 0 of the board is at the top, as in ``game.board``.

    Raises
    ------
    ValueError
        ``cell`` < 2.
    """
    if cell < 2:
        raise ValueError(f"cell must be at least 2 pixels, not {cell}")
    if _is_tiling(game):
        rgb = _CLASSIC[game.colours]  # -1 (empty) picks the last row
    else:
        rgb = _palette(game)[game.board]
    img = np.repeat(np.repeat(rgb, cell, axis=0), cell, axis=1)
    img[::cell, :] = _GRID
    img[:, ::cell] = _GRID
    return img
