"""What a picture of a game shows, worked out once for svg() and plot(): the cells, heat map,
open starting squares, attachment points, last move and highlight, in board cells; and the
other kind of picture, a tiling (a solo puzzle's solution), known by its attributes."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from blokus import _core
from blokus.placements import parse_move, placements
from blokus.render._style import _NEUTRAL, _heat_colour, _palette


class Tiling(Protocol):
    """What render draws besides a Game: a rectangle tiled by labelled pieces, such as
    ``blokus.puzzles.Solution``.

    Attributes
    ----------
    grid : ndarray of int, shape (H, W)
        Which piece covers each cell (labels from 0).
    colours : ndarray of int, shape (H, W)
        The colour index of each cell (classic's palette).
    """

    grid: np.ndarray
    colours: np.ndarray


def _is_tiling(obj) -> bool:
    return not isinstance(obj, _core.Game) and hasattr(obj, "grid") and hasattr(obj, "colours")


@dataclass
class _Scene:
    """What svg() and plot() draw, in board cells ((row, col), row 0 at the top)."""

    height: int
    width: int
    title: str
    empty: tuple
    cells: list = field(default_factory=list)  # (row, col, colour, rgb), row-major
    heat: list = field(default_factory=list)  # (row, col, value, rgb)
    starts: list = field(default_factory=list)  # (row, col, rgb)
    attach: list = field(default_factory=list)  # (row, col)
    attach_rgb: tuple = (0, 0, 0)
    last: list = field(default_factory=list)  # (row, col)
    highlight: list = field(default_factory=list)  # (row, col), row-major
    outline: list = field(default_factory=list)  # ((x0, y0), (x1, y1)) cell corners, y down


def _placement_cells(game, pid: int) -> list:
    table = placements(game.variant)
    cells = table.cells[pid][: int(table.size[pid])]
    return [(int(r), int(c)) for r, c in cells]


def _check_game(game) -> None:
    if not isinstance(game, _core.Game):
        raise TypeError(f"expected a blokus.Game, not {type(game).__name__}")


def _parse_highlight(game, highlight):
    """(cells, heat): a sorted list of (row, col) and/or an (H, W) float array (NaN = none)."""
    height, width = game.shape
    if highlight is None:
        return [], None
    if isinstance(highlight, (bool, np.bool_)):
        raise TypeError("highlight must be a placement id, a move text, cells or a heat map, not a bool")
    if isinstance(highlight, (int, np.integer)):
        pid = int(highlight)
        if not 0 <= pid < game.num_placements:
            raise ValueError(f"highlight placement id {pid} out of range({game.num_placements})")
        return sorted(set(_placement_cells(game, pid))), None
    if isinstance(highlight, str):
        return sorted(set(_placement_cells(game, parse_move(highlight, game.variant)))), None
    if not isinstance(highlight, (np.ndarray, list, tuple)):
        raise TypeError(
            "highlight must be a placement id (int), a move text (str), a sequence of (row, col) "
            f"cells, a bool (H, W) mask or an (H, W) heat map, not {type(highlight).__name__}")
    if isinstance(highlight, (list, tuple)) and len(highlight) == 0:
        return [], None
    try:
        arr = np.asarray(highlight)
    except ValueError as e:  # ragged nesting
        raise ValueError(f"highlight is neither (row, col) cells nor an (H, W) heat map: {e}") from None
    kind = arr.dtype.kind
    if kind == "b":
        if arr.shape != (height, width):
            raise ValueError(f"a bool highlight mask must have shape {(height, width)}, not {arr.shape}")
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(arr))], None
    if kind in "iu" and arr.ndim == 2 and arr.shape[1] == 2 and arr.shape != (height, width):
        cells = set()
        for r, c in arr.tolist():
            if not (0 <= r < height and 0 <= c < width):
                raise ValueError(f"highlight cell {(r, c)} is off the {height}x{width} board")
            cells.add((r, c))
        return sorted(cells), None
    if kind in "iuf":
        if arr.shape != (height, width):
            raise ValueError(
                f"a heat map must have the board's shape {(height, width)}, not {arr.shape} "
                "(cells are given as integer (row, col) pairs)")
        heat = arr.astype(float)
        if np.isinf(heat).any():
            raise ValueError("heat map values must be finite or NaN (no value)")
        return [], heat
    raise TypeError(f"highlight array of dtype {arr.dtype} is neither cells nor a heat map")


def _outline(cells) -> list:
    """Boundary edges of a set of cells, as ((x0, y0), (x1, y1)) in cell corners."""
    inside = set(cells)
    segments = []
    for r, c in sorted(inside):
        if (r - 1, c) not in inside:
            segments.append(((c, r), (c + 1, r)))
        if (r + 1, c) not in inside:
            segments.append(((c, r + 1), (c + 1, r + 1)))
        if (r, c - 1) not in inside:
            segments.append(((c, r), (c, r + 1)))
        if (r, c + 1) not in inside:
            segments.append(((c + 1, r), (c + 1, r + 1)))
    return segments


def _open_starts(game, palette) -> list:
    """(row, col, rgb) of every starting square still open to some colour's first piece."""
    takers: dict[tuple[int, int], list[int]] = {}
    for colour in range(game.num_colours):
        for square in game.open_starting_squares(colour):
            takers.setdefault(square, []).append(colour)
    return [(r, c, tuple(int(v) for v in palette[who[0]]) if len(who) == 1 else _NEUTRAL)
            for (r, c), who in sorted(takers.items())]


def _scene(game, highlight, show_attachment_points: bool, last_move: bool, heat_map=None) -> _Scene:
    _check_game(game)
    height, width = game.shape
    palette = _palette(game)
    cells, heat = _parse_highlight(game, highlight)
    if heat_map is not None:
        if heat is not None:
            raise ValueError("highlight is a heat map already: give one heat map, as highlight or as heat")
        _, heat = _parse_highlight(game, heat_map)
        if heat is None:
            raise ValueError("heat must be a float (or integer) array of the board's shape, not cells")
    turn = "game over" if game.is_over else f"{game.colour_name(game.to_move)} to move"
    moves = len(game.history)
    scene = _Scene(height, width,
                   title=f"Blokus {game.variant} (start {game.start}): {moves} move{'s' * (moves != 1)}, {turn}",
                   empty=tuple(int(v) for v in palette[-1]))
    board = np.asarray(game.board)
    for r, c in zip(*np.nonzero(board >= 0)):
        colour = int(board[r, c])
        scene.cells.append((int(r), int(c), colour, tuple(int(v) for v in palette[colour])))
    if heat is not None:
        finite = heat[np.isfinite(heat)]
        if finite.size:
            lo, hi = float(finite.min()), float(finite.max())
            for r, c in zip(*np.nonzero(np.isfinite(heat))):
                v = float(heat[r, c])
                t = 1.0 if hi == lo else (v - lo) / (hi - lo)
                scene.heat.append((int(r), int(c), v, _heat_colour(t)))
    scene.starts = _open_starts(game, palette)
    if show_attachment_points and not game.is_over:
        points = np.asarray(game.attachment_points(game.to_move))
        scene.attach = [(int(r), int(c)) for r, c in zip(*np.nonzero(points))]
        scene.attach_rgb = tuple(int(v) for v in palette[game.to_move])
    if last_move and game.history:
        scene.last = sorted(_placement_cells(game, game.history[-1][1]))
    scene.highlight = cells
    scene.outline = _outline(cells)
    return scene
