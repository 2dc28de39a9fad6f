"""Pictures of a game: an RGB image array (matplotlib-free)."""
from __future__ import annotations

import numpy as np

# RGB per colour index; the last row is an empty cell.
_CLASSIC = np.array([[30, 90, 200], [235, 190, 20], [210, 40, 40], [40, 150, 60], [235, 235, 235]], np.uint8)
_DUO = np.array([[120, 60, 170], [240, 130, 20], [235, 235, 235]], np.uint8)
_GRID = np.array([160, 160, 160], np.uint8)


def image(game, cell: int = 16) -> np.ndarray:
    """The board as an RGB image, one ``cell`` x ``cell`` square per board cell.

    Parameters
    ----------
    game : blokus.Game
    cell : int
        Side of a board cell in pixels (>= 2); a one-pixel grid line is drawn at
        the top and left of each cell.

    Returns
    -------
    ndarray, uint8, shape (H * cell, W * cell, 3)

    Raises
    ------
    ValueError
        ``cell`` < 2.
    """
    if cell < 2:
        raise ValueError(f"cell must be at least 2 pixels, not {cell}")
    palette = _DUO if game.num_colours == 2 else _CLASSIC
    rgb = palette[game.board]  # -1 (empty) picks the last row
    img = np.repeat(np.repeat(rgb, cell, axis=0), cell, axis=1)
    img[::cell, :] = _GRID
    img[:, ::cell] = _GRID
    return img
