"""Where a colour can still go: distances from its attachment points, reachable cells and
territory (the definitions are in ``blokus.analysis``'s docstring)."""
from __future__ import annotations

import numpy as np

from blokus.game import Game


def _shift_or(mask: np.ndarray, steps) -> np.ndarray:
    """OR of ``mask`` shifted by each (dr, dc) in ``steps`` (cells shifted off the board are
    dropped, none wrap around): bool, same shape."""
    height, width = mask.shape
    padded = np.pad(mask, 1)
    out = np.zeros_like(mask)
    for dr, dc in steps:
        out |= padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
    return out


_EDGE = ((-1, 0), (1, 0), (0, -1), (0, 1))
_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))  # 8 neighbours and the cell


def _check_colour(game: Game, colour: int) -> int:
    if not isinstance(colour, (int, np.integer)) or isinstance(colour, bool):
        raise TypeError(f"colour must be an int, not {type(colour).__name__}")
    colour = int(colour)
    if not 0 <= colour < game.num_colours:
        raise ValueError(f"colour {colour!r} out of range({game.num_colours})")
    return colour


def _open_cells(board: np.ndarray, colour: int) -> np.ndarray:
    """Empty cells not edge-adjacent to ``colour``'s cells: bool (H, W)."""
    free = board < 0
    return free & ~_shift_or(board == colour, _EDGE)


def _distances(board: np.ndarray, seeds: np.ndarray, colour: int) -> np.ndarray:
    """Breadth-first search by 8-neighbour dilation: int32 (H, W), -1 where unreachable."""
    allowed = _open_cells(board, colour)
    dist = np.full(board.shape, -1, dtype=np.int32)
    frontier = seeds & allowed
    seen = frontier.copy()
    step = 0
    while frontier.any():
        dist[frontier] = step
        frontier = _shift_or(frontier, _KING) & allowed & ~seen
        seen |= frontier
        step += 1
    return dist


def distances(game: Game, colour: int) -> np.ndarray:
    """Distance map of a colour (module docstring, "distance").

    Returns
    -------
    numpy.ndarray
        int32, shape (H, W): the least number of 8-neighbour steps (edge or corner) from one of
        the colour's attachment points to the cell through its open cells; 0 on an attachment
        point, -1 where the cell is not reachable (occupied, forbidden or cut off).

    Raises
    ------
    ValueError
        Colour out of range.
    TypeError
        Colour not an int.
    """
    colour = _check_colour(game, colour)
    return _distances(np.asarray(game.board), game.attachment_points(colour), colour)


def reachable(game: Game, colour: int) -> np.ndarray:
    """Cells the colour could still ever cover, an upper bound (module docstring, "reachable";
    rules: docs/rules.md, "Placing a piece").

    Returns
    -------
    numpy.ndarray
        bool, shape (H, W).

    Raises
    ------
    ValueError
        Colour out of range.
    TypeError
        Colour not an int.
    """
    return distances(game, colour) >= 0


def _territory(dist: np.ndarray) -> np.ndarray:
    """int8 (H, W) owner from a (C, H, W) distance stack (-1 unreachable); -1 for nobody."""
    big = np.iinfo(np.int32).max
    d = np.where(dist < 0, big, dist)
    order = np.sort(d, axis=0)
    best = np.argmin(d, axis=0)
    owner = np.where((order[0] < order[1]) & (order[0] < big), best, -1)
    return owner.astype(np.int8)


def territory(game: Game) -> np.ndarray:
    """Territory estimate (module docstring, "territory"): each cell's owner.

    Returns
    -------
    numpy.ndarray
        int8, shape (H, W): the colour that reaches the cell strictly sooner (fewer 8-neighbour
        steps from its attachment points through its open cells) than every other colour, -1
        where no colour does (a tie, or unreachable for all, or occupied).
    """
    board = np.asarray(game.board)
    dist = np.stack([_distances(board, game.attachment_points(c), c)
                     for c in range(game.num_colours)])
    return _territory(dist)
