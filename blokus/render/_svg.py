"""SVG pictures: :func:`svg`, layer by layer as the package docstring lists them."""
from __future__ import annotations

import re
from xml.sax.saxutils import escape

import numpy as np

from blokus.placements import cell_text, column_letter, row_number
from blokus.render._scene import _is_tiling, _scene
from blokus.render._style import (
    _ATTACH_R,
    _CELL,
    _CLASSIC,
    _FONT_SIZE,
    _GRID,
    _HEAT_OPACITY,
    _HIGHLIGHT_OPACITY,
    _INK,
    _LABEL,
    _LAST_R,
    _LAST_W,
    _OUTLINE_W,
    _START_R,
    _START_W,
    _check_size,
    _heat_colour,
    _hex,
    _num,
)

_PREFIX = "bk-"  # of every class name in svg()
# The heat map's legend, in SVG units: the gap above it, its bar's height, the whole height
# (the labels under the bar included) and its number of swatches (odd: one at the middle value).
_LEGEND_GAP, _LEGEND_BAR = 6, 10
_LEGEND_HEIGHT = _LEGEND_GAP + _LEGEND_BAR + _FONT_SIZE + 5
_LEGEND_STEPS = 9
_CLASS = re.compile(r'class="([^"]*)"')


def svg(game, *, size=None, highlight=None, show_attachment_points: bool = False,
        last_move: bool = True, coordinates: bool = True, heat=None, legend: bool = False) -> str:
    """The board as SVG text: what a ``Game`` shows in Jupyter (``Game._repr_svg_``).

    The picture is described in the module docstring (``help(blokus.render)``). The text is
    deterministic: no timestamps, random ids or ``id`` attributes, so several boards can share
    a notebook page and the output can be compared with stored files.

    Parameters
    ----------
    game : blokus.Game, or a Tiling (such as blokus.puzzles.Solution)
        A tiling is drawn as its pieces in their colours, each outlined; only ``size``
        applies to it (default 24 pixels per cell).
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
    legend : bool
        Draw the heat map's colour scale under the board (module docstring); nothing when no
        cell of the heat map has a finite value, or without a heat map.

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
    if _is_tiling(game):
        return _CLASS.sub(_prefixed, _tiling_svg(game, size))
    if not isinstance(legend, (bool, np.bool_)):
        raise TypeError(f"legend must be a bool, not {type(legend).__name__}")
    scene = _scene(game, highlight, show_attachment_points, last_move, heat)
    margin = _CELL if coordinates else 0
    scale = bool(legend and scene.heat)
    out = _svg_open(scene, size, margin, _LEGEND_HEIGHT if scale else 0)
    out += _svg_cells(scene) + _svg_marks(scene)
    if coordinates:
        out += _svg_coordinates(scene)
    if scale:
        out += _svg_legend(scene, scene.height * _CELL + margin)
    out.append("</svg>")
    return _CLASS.sub(_prefixed, "\n".join(out) + "\n")


def _rect(cls: str, r: int, c: int, extra: str) -> str:
    k = _CELL
    return f'<rect class="{cls}" x="{c * k}" y="{r * k}" width="{k}" height="{k}" {extra}/>'


def _circle(cls: str, r: int, c: int, radius: float, extra: str) -> str:
    k = _CELL
    return (f'<circle class="{cls}" cx="{_num((c + 0.5) * k)}" cy="{_num((r + 0.5) * k)}" '
            f'r="{_num(radius * k)}" {extra}/>')


def _svg_open(scene, size, margin: int, below: int) -> list:
    """The <svg> element's start (its size and viewBox), the title and the empty board;
    ``below``: the units under the board and its column letters (the legend's)."""
    k, height, width = _CELL, scene.height, scene.width
    pad = 2  # room for the outline of a highlight on the board edge
    vb_x, vb_y = -margin - pad, -pad
    vb_w, vb_h = width * k + margin + 2 * pad, height * k + margin + below + 2 * pad
    px_w = vb_w if size is None else _check_size(size)
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(px_w)}" '
        f'height="{_num(px_w * vb_h / vb_w)}" viewBox="{vb_x} {vb_y} {vb_w} {vb_h}">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect class="board" x="0" y="0" width="{width * k}" height="{height * k}" fill="{_hex(scene.empty)}"/>',
    ]


def _svg_cells(scene) -> list:
    """Layers 1 to 3: the colours' cells, the heat map (each cell with a tooltip), the grid."""
    k, height, width = _CELL, scene.height, scene.width
    out = [_rect(f"cell c{colour}", r, c, f'fill="{_hex(rgb)}"') for r, c, colour, rgb in scene.cells]
    for r, c, value, rgb in scene.heat:
        tip = escape(f"{cell_text(r, c, height)}: {value:.4g}")
        out.append(f'<rect class="heat" x="{c * k}" y="{r * k}" width="{k}" height="{k}" fill="{_hex(rgb)}" '
                   f'fill-opacity="{_HEAT_OPACITY}"><title>{tip}</title></rect>')
    grid = [f"M{c * k} 0V{height * k}" for c in range(width + 1)]
    grid += [f"M0 {r * k}H{width * k}" for r in range(height + 1)]
    out.append(f'<path class="grid" d="{"".join(grid)}" fill="none" stroke="{_hex(_GRID)}" stroke-width="1"/>')
    return out


def _svg_marks(scene) -> list:
    """Layers 4 to 7: open starting squares, attachment points, the last move, the highlight."""
    k = _CELL
    out = [_circle("start", r, c, _START_R, f'fill="none" stroke="{_hex(rgb)}" stroke-width="{_num(_START_W * k)}"')
           for r, c, rgb in scene.starts]
    out += [_circle("attach", r, c, _ATTACH_R, f'fill="{_hex(scene.attach_rgb)}"') for r, c in scene.attach]
    out += [_circle("last", r, c, _LAST_R, f'fill="#ffffff" stroke="{_hex(_INK)}" stroke-width="{_num(_LAST_W * k)}"')
            for r, c in scene.last]
    out += [_rect("highlight", r, c, f'fill="#000000" fill-opacity="{_HIGHLIGHT_OPACITY}"') for r, c in scene.highlight]
    if scene.outline:
        d = "".join(f"M{x0 * k} {y0 * k}L{x1 * k} {y1 * k}" for (x0, y0), (x1, y1) in scene.outline)
        out.append(f'<path class="highlight-outline" d="{d}" fill="none" stroke="#000000" '
                   f'stroke-width="{_num(_OUTLINE_W * k)}" stroke-linecap="square"/>')
    return out


def _svg_coordinates(scene) -> list:
    """Layer 8: column letters under the board, row numbers from the bottom at its left."""
    k, height, width = _CELL, scene.height, scene.width
    lift = 0.35 * _FONT_SIZE  # baseline below the centre that centres the glyphs vertically
    out = [f'<g font-family="sans-serif" font-size="{_FONT_SIZE}" fill="{_hex(_LABEL)}" text-anchor="middle">']
    for c in range(width):
        y = _num((height + 0.5) * k + lift)
        out.append(f'<text class="coord col" x="{_num((c + 0.5) * k)}" y="{y}">{column_letter(c)}</text>')
    for r in range(height):
        y = _num((r + 0.5) * k + lift)
        out.append(f'<text class="coord row" x="{_num(-0.5 * k)}" y="{y}">{row_number(r, height)}</text>')
    out.append("</g>")
    return out


def _svg_legend(scene, top: int) -> list:
    """Layer 9: the heat map's colour scale, ``_LEGEND_STEPS`` swatches from the smallest value
    (left) to the largest, drawn as the board draws heat (the ramp at its opacity over an
    empty cell's colour), the two values written under its ends; one swatch when all are equal."""
    values = [value for _, _, value, _ in scene.heat]
    lo, hi = min(values), max(values)
    steps = 1 if lo == hi else _LEGEND_STEPS
    span = scene.width * _CELL
    y = top + _LEGEND_GAP
    out = [f'<g class="legend"><title>{escape(f"heat map: {lo:.4g} (pale yellow) to {hi:.4g} (dark red)")}</title>',
           f'<rect class="legend-back" x="0" y="{y}" width="{span}" height="{_LEGEND_BAR}" '
           f'fill="{_hex(scene.empty)}"/>']
    for i in range(steps):
        rgb = _heat_colour(1.0 if steps == 1 else i / (steps - 1))
        out.append(f'<rect class="legend-step" x="{_num(span * i / steps)}" y="{y}" width="{_num(span / steps)}" '
                   f'height="{_LEGEND_BAR}" fill="{_hex(rgb)}" fill-opacity="{_HEAT_OPACITY}"/>')
    text_y = _num(y + _LEGEND_BAR + _FONT_SIZE)
    ends = [(hi, 0, "start")] if steps == 1 else [(lo, 0, "start"), (hi, span, "end")]
    out += [f'<text class="legend-label" x="{x}" y="{text_y}" font-family="sans-serif" font-size="{_FONT_SIZE}" '
            f'fill="{_hex(_LABEL)}" text-anchor="{anchor}">{value:.4g}</text>' for value, x, anchor in ends]
    out.append("</g>")
    return out


def _tiling_svg(tiling, size) -> str:
    """A tiling: cells in their colour, pieces outlined, faint lines between cells."""
    k, grid = _CELL, tiling.grid
    height, width = grid.shape
    px_w = width * k if size is None else _check_size(size)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(px_w)}" '
           f'height="{_num(px_w * height / width)}" viewBox="0 0 {width * k} {height * k}">']
    for r in range(height):
        for c in range(width):
            colour = int(tiling.colours[r, c])
            out.append(f'<rect class="cell c{colour}" x="{c * k}" y="{r * k}" width="{k}" height="{k}" '
                       f'fill="{_hex(_CLASSIC[colour])}"/>')
    padded = np.pad(grid, 1, constant_values=-2)  # -2: outside, so the border is a piece edge
    thin: list[str] = []
    thick: list[str] = []
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
