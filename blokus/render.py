"""Pictures of a game: an RGB array, SVG text (what Jupyter shows), a matplotlib drawing and
coloured terminal text.

- :func:`image` -- ``uint8 (H*k, W*k, 3)`` array (the environments' ``rgb_array``); NumPy only.
- :func:`svg` -- SVG text, deterministic (same game and options, same bytes); ``Game._repr_svg_``.
- :func:`plot` -- the same picture as :func:`svg`, drawn on a matplotlib ``Axes``; needs the
  optional ``plot`` extra (``pip install "blokus[plot]"``), imported only when called.
- :func:`text` / :func:`show` -- ``str(game)``, optionally with ANSI colours; ``Game.show``.

What :func:`svg` and :func:`plot` draw, bottom layer first:

1. the board, empty cells in light grey, and one square per occupied cell in its colour
   (classic: blue, yellow, red, green; Duo: purple, orange -- the palette of :func:`image`);
2. a heat map, given as ``heat`` or as ``highlight`` (translucent, see below);
3. the grid;
4. the starting squares still open: a ring on every empty starting square that a colour which
   has not placed a piece yet may still start on (``start="fixed"``: each colour's own square,
   classic a20 blue, t20 yellow, t1 red, a1 green, Duo e10 purple, j5 orange; ``start="any"``:
   every empty corner, or either Duo point). The ring has that colour when one colour may use the
   square, dark grey when several may;
5. with ``show_attachment_points``, a small dot in the colour to move on each of its attachment
   points (``game.attachment_points()``; before its first piece, its open starting squares);
   nothing once the game is over;
6. with ``last_move``, a white dot ringed in black on each cell of the last placement;
7. highlighted cells (a placement or a list of cells): darkened, with a black outline around
   the group;
8. with ``coordinates``, column letters ``a``.. under the board and row numbers counted from 1
   at the bottom at its left, as in move texts (``a1`` is the bottom-left cell).

``highlight`` takes one of:

- an ``int``: a placement id (``0 <= id < game.num_placements``), its cells highlighted;
- a ``str``: a move text such as ``"e10,e9"`` (read by :func:`blokus.parse_move`), likewise;
- cells: a sequence of ``(row, col)`` pairs (an integer array of shape ``(n, 2)``), or a bool
  array of shape ``(H, W)`` (True cells highlighted);
- a heat map: a float (or integer) array of shape ``(H, W)``. Finite values are coloured from
  pale yellow (the smallest finite value) to dark red (the largest; all of them when all are
  equal) at opacity 0.6 over the board; NaN cells get nothing. In the SVG each heat cell has a
  ``<title>`` (a tooltip) giving its cell and value.

SVG structure (for CSS or for tests): every drawn element carries a ``class``: ``bk-board``,
``bk-cell bk-c<colour>``, ``bk-heat``, ``bk-grid``, ``bk-start``, ``bk-attach``, ``bk-last``,
``bk-highlight``, ``bk-highlight-outline``, ``bk-coord bk-col``, ``bk-coord bk-row`` (prefixed,
so that a page's own CSS classes do not restyle an inlined board). A board cell ``(row, col)`` is the square
``x = 24 * col``, ``y = 24 * row`` of side 24 in the ``viewBox``, whatever ``size`` is.
"""
from __future__ import annotations

import math
import os
import re
import sys
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

import numpy as np

# RGB per colour index; the last row is an empty cell.
_CLASSIC = np.array([[30, 90, 200], [235, 190, 20], [210, 40, 40], [40, 150, 60], [235, 235, 235]], np.uint8)
_DUO = np.array([[120, 60, 170], [240, 130, 20], [235, 235, 235]], np.uint8)
_GRID = np.array([160, 160, 160], np.uint8)

_CELL = 24  # SVG user units per board cell: pixels per cell at the default size
_PREFIX = "bk-"  # of every class name in svg()
_CLASS = re.compile(r'class="([^"]*)"')
_NEUTRAL = (85, 85, 85)  # a starting square open to several colours
_INK = (34, 34, 34)  # outlines of the last-move dots
_LABEL = (68, 68, 68)  # coordinate labels
_FONT_SIZE = 11
# Heat-map ramp (ColorBrewer YlOrRd, 5 classes), smallest value first.
_HEAT_RAMP = np.array([[255, 255, 178], [254, 204, 92], [253, 141, 60], [240, 59, 32], [189, 0, 38]], float)
_HEAT_OPACITY = 0.6
_HIGHLIGHT_OPACITY = 0.25
# Marker geometry, in cell units (SVG: times _CELL).
_START_R, _START_W = 8 / 24, 2.5 / 24
_ATTACH_R = 4 / 24
_LAST_R, _LAST_W = 4 / 24, 1.5 / 24
_OUTLINE_W = 3 / 24

# ANSI SGR colour per colour index (256-colour palette), for text(ansi=True).
_ANSI = {4: ("38;5;27", "38;5;220", "38;5;160", "38;5;34"), 2: ("38;5;98", "38;5;208")}
_MARKS = {4: "BYRG", 2: "PO"}


def image(game, cell: int = 16) -> np.ndarray:
    """The board as an RGB image, one ``cell`` x ``cell`` square per board cell.

    Parameters
    ----------
    game : blokus.Game or blokus.puzzles.Solution
        A solo puzzle's solution is drawn from its ``colours`` grid (H, W may differ).
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
    if _is_solution(game):
        rgb = _CLASSIC[game.colours]  # -1 (empty) picks the last row
    else:
        rgb = _palette(game)[game.board]
    img = np.repeat(np.repeat(rgb, cell, axis=0), cell, axis=1)
    img[::cell, :] = _GRID
    img[:, ::cell] = _GRID
    return img


def _is_solution(obj) -> bool:
    """Whether obj is a solo puzzle's Solution (blokus.puzzles), drawn from its colours grid."""
    from blokus.puzzles import Solution  # late: puzzles imports render for its pictures

    return isinstance(obj, Solution)


def _solution_svg(solution, size) -> str:
    """A puzzle solution: cells in their colour, pieces outlined, faint lines between cells."""
    k, grid = _CELL, solution.grid
    height, width = grid.shape
    px_w = width * k if size is None else _check_size(size)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(px_w)}" '
           f'height="{_num(px_w * height / width)}" viewBox="0 0 {width * k} {height * k}">']
    for r in range(height):
        for c in range(width):
            colour = int(solution.colours[r, c])
            out.append(f'<rect class="cell c{colour}" x="{c * k}" y="{r * k}" width="{k}" height="{k}" '
                       f'fill="{_hex(_CLASSIC[colour])}"/>')
    padded = np.pad(grid, 1, constant_values=-2)  # -2: outside, so the border is a piece edge
    thin, thick = [], []
    for r in range(height + 1):
        for c in range(width):  # the edge above cell (r, c)
            (thick if padded[r, c + 1] != padded[r + 1, c + 1] else thin).append(f"M{c * k} {r * k}h{k}")
    for r in range(height):
        for c in range(width + 1):  # the edge left of cell (r, c)
            (thick if padded[r + 1, c] != padded[r + 1, c + 1] else thin).append(f"M{c * k} {r * k}v{k}")
    if thin:
        out.append(f'<path class="grid" d="{"".join(thin)}" stroke="#ffffff" stroke-opacity="0.35" '
                   f'stroke-width="1"/>')
    out.append(f'<path class="outline" d="{"".join(thick)}" stroke="{_hex(_INK)}" stroke-width="2.5" '
               f'stroke-linecap="square"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _prefixed(match) -> str:
    """A class attribute with every name prefixed: an SVG inlined in a page (Jupyter, Sphinx
    themes) shares the page's CSS, whose generic classes ("highlight", "grid") would restyle it."""
    return 'class="' + " ".join(_PREFIX + name for name in match[1].split()) + '"'


def _palette(game) -> np.ndarray:
    return _DUO if game.num_colours == 2 else _CLASSIC


# ------------------------------------------------------------------ the scene
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


def _cell_text(row: int, col: int, height: int) -> str:
    return f"{chr(ord('a') + col)}{height - row}"


def _placement_cells(game, pid: int) -> list:
    from blokus.placements import placements

    table = placements(game.variant)
    cells = table.cells[pid][: int(table.size[pid])]
    return [(int(r), int(c)) for r, c in cells]


def _check_game(game) -> None:
    from blokus import _core

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
        from blokus.placements import parse_move

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


def _heat_colour(t: float) -> tuple:
    x = min(max(t, 0.0), 1.0) * (len(_HEAT_RAMP) - 1)
    i = min(int(x), len(_HEAT_RAMP) - 2)
    f = x - i
    rgb = _HEAT_RAMP[i] * (1 - f) + _HEAT_RAMP[i + 1] * f
    return tuple(int(round(v)) for v in rgb)


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


# ------------------------------------------------------------------ SVG
def _num(x: float) -> str:
    x = round(float(x), 3)
    return str(int(x)) if x == int(x) else f"{x:g}"


def _hex(rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _check_size(size):
    if isinstance(size, bool) or not isinstance(size, (int, float, np.integer, np.floating)):
        raise TypeError(f"size must be a number of pixels, not {type(size).__name__}")
    if not (math.isfinite(size) and size > 0):
        raise ValueError(f"size must be a positive number of pixels, not {size}")
    return float(size)


def svg(game, *, size=None, highlight=None, show_attachment_points: bool = False,
        last_move: bool = True, coordinates: bool = True, heat=None) -> str:
    """The board as SVG text: what a ``Game`` shows in Jupyter (``Game._repr_svg_``).

    The picture is described in the module docstring (``help(blokus.render)``). The text is
    deterministic: no timestamps, random ids or ``id`` attributes, so several boards can share
    a notebook page and the output can be compared with stored files.

    Parameters
    ----------
    game : blokus.Game or blokus.puzzles.Solution
        A solo puzzle's solution is drawn as its pieces in their colours, each outlined; only
        ``size`` applies to it (default 24 pixels per cell).
    size : int or float, optional
        Width of the picture in pixels (the ``width`` attribute; ``height`` follows the aspect
        ratio). Default 24 pixels per board cell, plus one cell for the labels and 4 pixels of
        margin: 364 for Duo and 508 for classic with coordinates, 340 and 484 without.
    highlight : int, str, sequence of (row, col), bool or float ndarray (H, W), optional
        A placement id, a move text, cells, a cell mask or a heat map (module docstring).
    show_attachment_points : bool
        Dot the attachment points of the colour to move.
    last_move : bool
        Mark the cells of the last placement.
    coordinates : bool
        Draw column letters and row numbers (``a1`` bottom-left).
    heat : float ndarray (H, W), optional
        A heat map drawn together with a ``highlight`` of cells or a placement (one heat map
        at most: ``highlight`` then must not be one).

    Returns
    -------
    str
        A standalone ``<svg>`` element (SVG 1.1, ``xmlns`` set), no XML declaration.

    Raises
    ------
    TypeError
        ``game`` is not a ``blokus.Game``; ``highlight`` or ``size`` of an unsupported type.
    ValueError
        Placement id out of range, a move text that is not a placement, a cell off the board,
        a heat map or mask whose shape is not the board's, an infinite heat value, two heat
        maps, or a size that is not a positive number.
    """
    if _is_solution(game):
        return _CLASS.sub(_prefixed, _solution_svg(game, size))
    scene = _scene(game, highlight, show_attachment_points, last_move, heat)
    k = _CELL
    height, width = scene.height, scene.width
    margin = k if coordinates else 0
    pad = 2  # room for the outline of a highlight on the board edge
    vb_x, vb_y = -margin - pad, -pad
    vb_w, vb_h = width * k + margin + 2 * pad, height * k + margin + 2 * pad
    px_w = vb_w if size is None else _check_size(size)
    px_h = px_w * vb_h / vb_w

    def rect(cls, r, c, extra):
        return f'<rect class="{cls}" x="{c * k}" y="{r * k}" width="{k}" height="{k}" {extra}/>'

    def circle(cls, r, c, radius, extra):
        return (f'<circle class="{cls}" cx="{_num((c + 0.5) * k)}" cy="{_num((r + 0.5) * k)}" '
                f'r="{_num(radius * k)}" {extra}/>')

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(px_w)}" height="{_num(px_h)}" '
        f'viewBox="{vb_x} {vb_y} {vb_w} {vb_h}">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect class="board" x="0" y="0" width="{width * k}" height="{height * k}" fill="{_hex(scene.empty)}"/>',
    ]
    for r, c, colour, rgb in scene.cells:
        out.append(rect(f"cell c{colour}", r, c, f'fill="{_hex(rgb)}"'))
    for r, c, value, rgb in scene.heat:
        tip = escape(f"{_cell_text(r, c, height)}: {value:.4g}")
        out.append(f'<rect class="heat" x="{c * k}" y="{r * k}" width="{k}" height="{k}" fill="{_hex(rgb)}" '
                   f'fill-opacity="{_HEAT_OPACITY}"><title>{tip}</title></rect>')
    grid = [f"M{c * k} 0V{height * k}" for c in range(width + 1)]
    grid += [f"M0 {r * k}H{width * k}" for r in range(height + 1)]
    out.append(f'<path class="grid" d="{"".join(grid)}" fill="none" stroke="{_hex(_GRID)}" stroke-width="1"/>')
    for r, c, rgb in scene.starts:
        out.append(circle("start", r, c, _START_R,
                          f'fill="none" stroke="{_hex(rgb)}" stroke-width="{_num(_START_W * k)}"'))
    for r, c in scene.attach:
        out.append(circle("attach", r, c, _ATTACH_R, f'fill="{_hex(scene.attach_rgb)}"'))
    for r, c in scene.last:
        out.append(circle("last", r, c, _LAST_R,
                          f'fill="#ffffff" stroke="{_hex(_INK)}" stroke-width="{_num(_LAST_W * k)}"'))
    for r, c in scene.highlight:
        out.append(rect("highlight", r, c, f'fill="#000000" fill-opacity="{_HIGHLIGHT_OPACITY}"'))
    if scene.outline:
        d = "".join(f"M{x0 * k} {y0 * k}L{x1 * k} {y1 * k}" for (x0, y0), (x1, y1) in scene.outline)
        out.append(f'<path class="highlight-outline" d="{d}" fill="none" stroke="#000000" '
                   f'stroke-width="{_num(_OUTLINE_W * k)}" stroke-linecap="square"/>')
    if coordinates:
        out.append(f'<g font-family="sans-serif" font-size="{_FONT_SIZE}" fill="{_hex(_LABEL)}" text-anchor="middle">')
        lift = 0.35 * _FONT_SIZE  # baseline below the centre that centres the glyphs vertically
        for c in range(width):
            y = _num((height + 0.5) * k + lift)
            out.append(f'<text class="coord col" x="{_num((c + 0.5) * k)}" y="{y}">{chr(ord("a") + c)}</text>')
        for r in range(height):
            y = _num((r + 0.5) * k + lift)
            out.append(f'<text class="coord row" x="{_num(-0.5 * k)}" y="{y}">{height - r}</text>')
        out.append("</g>")
    out.append("</svg>")
    return _CLASS.sub(_prefixed, "\n".join(out) + "\n")


# ------------------------------------------------------------------ matplotlib
def plot(game, ax=None, *, size=None, highlight=None, show_attachment_points: bool = False,
         last_move: bool = True, coordinates: bool = True, heat=None):
    """The picture of :func:`svg`, drawn with matplotlib patches (for figures).

    Board cell ``(row, col)`` is the unit square with lower-left corner
    ``(col, H - 1 - row)`` in data coordinates, so ``a1`` is at the origin; the axes get an
    equal aspect and limits ``(0, W)``, ``(0, H)``. With ``coordinates`` the column letters
    and row numbers are the tick labels; without, the axis is switched off.

    Every artist added carries a ``gid`` naming its layer: ``"board"`` (one Rectangle),
    ``"cell"`` (one Rectangle per occupied cell, face colour the colour's RGB / 255),
    ``"heat"``, ``"start"``, ``"attach"``, ``"last"``, ``"highlight"`` (Rectangles or
    Circles, one per cell) and ``"grid"``, ``"highlight-outline"`` (LineCollections).

    Parameters
    ----------
    game : blokus.Game
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new ``pyplot`` figure with one Axes.
    size : int or float, optional
        Width in pixels of the new figure (at its dpi) when ``ax`` is None, default as in
        :func:`svg`; ignored when ``ax`` is given.
    highlight, show_attachment_points, last_move, coordinates, heat
        As in :func:`svg`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        matplotlib is not installed (``pip install "blokus[plot]"``).
    TypeError, ValueError
        As :func:`svg`.
    """
    try:
        import matplotlib  # noqa: F401
        from matplotlib.collections import LineCollection
        from matplotlib.patches import Circle, Rectangle
    except ImportError as e:
        raise ImportError('blokus.render.plot needs matplotlib: pip install "blokus[plot]"') from e
    scene = _scene(game, highlight, show_attachment_points, last_move, heat)
    height, width = scene.height, scene.width
    if ax is None:
        import matplotlib.pyplot as plt

        margin = 1 if coordinates else 0
        px = (width + margin) * _CELL + 4 if size is None else _check_size(size)
        dpi = plt.rcParams["figure.dpi"]
        _, ax = plt.subplots(figsize=(px / dpi, px / dpi * (height + margin) / (width + margin)), dpi=dpi)
    elif size is not None:
        _check_size(size)

    def rgb(c):
        return tuple(v / 255 for v in c)

    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    # Line widths and marker sizes in points follow the size of a cell on the figure.
    fig = ax.figure
    box = ax.get_position()
    inches = min(box.width * fig.get_figwidth() / width, box.height * fig.get_figheight() / height)
    pt = 72 * inches  # points per board cell

    def y_of(r):  # bottom edge of board row r
        return height - 1 - r

    ax.add_patch(Rectangle((0, 0), width, height, facecolor=rgb(scene.empty), edgecolor="none",
                           gid="board", zorder=0))
    for r, c, _, colour in scene.cells:
        ax.add_patch(Rectangle((c, y_of(r)), 1, 1, facecolor=rgb(colour), edgecolor="none", gid="cell", zorder=1))
    for r, c, _, colour in scene.heat:
        ax.add_patch(Rectangle((c, y_of(r)), 1, 1, facecolor=rgb(colour), edgecolor="none",
                               alpha=_HEAT_OPACITY, gid="heat", zorder=2))
    lines = [[(c, 0), (c, height)] for c in range(width + 1)] + [[(0, r), (width, r)] for r in range(height + 1)]
    ax.add_collection(LineCollection(lines, colors=[rgb(_GRID)], linewidths=max(pt / _CELL, 0.3),
                                     gid="grid", zorder=3))
    for r, c, colour in scene.starts:
        ax.add_patch(Circle((c + 0.5, y_of(r) + 0.5), _START_R, fill=False, edgecolor=rgb(colour),
                            linewidth=_START_W * pt, gid="start", zorder=4))
    for r, c in scene.attach:
        ax.add_patch(Circle((c + 0.5, y_of(r) + 0.5), _ATTACH_R, facecolor=rgb(scene.attach_rgb),
                            edgecolor="none", gid="attach", zorder=5))
    for r, c in scene.last:
        ax.add_patch(Circle((c + 0.5, y_of(r) + 0.5), _LAST_R, facecolor="white", edgecolor=rgb(_INK),
                            linewidth=_LAST_W * pt, gid="last", zorder=6))
    for r, c in scene.highlight:
        ax.add_patch(Rectangle((c, y_of(r)), 1, 1, facecolor="black", edgecolor="none",
                               alpha=_HIGHLIGHT_OPACITY, gid="highlight", zorder=7))
    if scene.outline:
        segments = [[(x0, height - y0), (x1, height - y1)] for (x0, y0), (x1, y1) in scene.outline]
        ax.add_collection(LineCollection(segments, colors="black", linewidths=_OUTLINE_W * pt,
                                         capstyle="projecting", gid="highlight-outline", zorder=8))
    for spine in ax.spines.values():
        spine.set_visible(False)
    if coordinates:
        ax.set_xticks([c + 0.5 for c in range(width)], [chr(ord("a") + c) for c in range(width)])
        ax.set_yticks([i + 0.5 for i in range(height)], [str(i + 1) for i in range(height)])
        ax.tick_params(length=0, labelsize=max(_FONT_SIZE * pt / _CELL, 6), labelcolor=rgb(_LABEL))
    else:
        ax.set_axis_off()
    return ax


# ------------------------------------------------------------------ terminal
def text(game, *, ansi: bool = False) -> str:
    """``str(game)``: one line per row from the top, ``.`` for empty cells and the colour's
    initial (``B Y R G``, Duo ``P O``), row numbers from the bottom and column letters.

    With ``ansi``, the initials are wrapped in ANSI SGR escape codes (bold, 256-colour
    foreground; the last placement's cells also in reverse video); removing the escape
    sequences gives back exactly ``str(game)``.

    Raises
    ------
    TypeError
        ``game`` is not a ``blokus.Game``.
    """
    _check_game(game)
    if not ansi:
        return str(game)
    height, width = game.shape
    marks, codes = _MARKS[game.num_colours], _ANSI[game.num_colours]
    last = set(_placement_cells(game, game.history[-1][1])) if game.history else set()
    board = game.board
    lines = []
    for r in range(height):
        row = board[r].tolist()
        cells = []
        for c, v in enumerate(row):
            if v < 0:
                cells.append(".")
            else:
                sgr = "1;" + codes[v] + (";7" if (r, c) in last else "")
                cells.append(f"\x1b[{sgr}m{marks[v]}\x1b[0m")
        lines.append(f"{height - r:2d} " + " ".join(cells))
    lines.append("   " + " ".join(chr(ord("a") + c) for c in range(width)))
    return "\n".join(lines)


def show(game, *, ansi: bool | None = None, file=None) -> None:
    """Print the text board (``Game.show``), in colour at a terminal.

    Parameters
    ----------
    ansi : bool, optional
        True: always colour; False: never. None (default): colour when ``file`` is a TTY and the
        ``NO_COLOR`` environment variable is unset or empty (https://no-color.org).
    file : writable text stream, optional
        Default ``sys.stdout``.
    """
    if file is None:
        file = sys.stdout
    if ansi is None:
        isatty = getattr(file, "isatty", None)
        ansi = bool(isatty and isatty()) and not os.environ.get("NO_COLOR")
    print(text(game, ansi=ansi), file=file)


__all__ = ["image", "plot", "show", "svg", "text"]
