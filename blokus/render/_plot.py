"""matplotlib drawings: :func:`plot`, the picture of :func:`blokus.render.svg` as patches."""
from __future__ import annotations

from blokus._optional import needs
from blokus.placements import column_letter
from blokus.render._scene import _scene
from blokus.render._style import (
    _ATTACH_R,
    _CELL,
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
)


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
    ModuleNotFoundError
        matplotlib is not installed (``pip install "blokus[plot]"``).
    TypeError, ValueError
        As :func:`svg`.
    """
    with needs("plot", "blokus.render.plot"):
        import matplotlib  # noqa: F401
    scene = _scene(game, highlight, show_attachment_points, last_move, heat)
    if ax is None:
        ax = _new_axes(scene, size, coordinates)
    elif size is not None:
        _check_size(size)
    pt = _points_per_cell(ax, scene)
    _plot_cells(ax, scene, pt)
    _plot_marks(ax, scene, pt)
    _plot_frame(ax, scene, pt, coordinates)
    return ax


def _rgb(c) -> tuple:
    return tuple(v / 255 for v in c)


def _new_axes(scene, size, coordinates: bool):
    """A new pyplot figure of :func:`svg`'s width in pixels, with one Axes."""
    import matplotlib.pyplot as plt

    margin = 1 if coordinates else 0
    px = (scene.width + margin) * _CELL + 4 if size is None else _check_size(size)
    dpi = plt.rcParams["figure.dpi"]
    _, ax = plt.subplots(figsize=(px / dpi, px / dpi * (scene.height + margin) / (scene.width + margin)), dpi=dpi)
    return ax


def _points_per_cell(ax, scene) -> float:
    """Sets the limits and aspect; line widths and marker sizes in points follow the size of
    a cell on the figure."""
    ax.set_xlim(0, scene.width)
    ax.set_ylim(0, scene.height)
    ax.set_aspect("equal")
    fig, box = ax.figure, ax.get_position()
    inches = min(box.width * fig.get_figwidth() / scene.width, box.height * fig.get_figheight() / scene.height)
    return 72 * inches


def _plot_cells(ax, scene, pt: float) -> None:
    """Layers 1 to 3: the board, the colours' cells, the heat map, the grid."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    height, width = scene.height, scene.width
    ax.add_patch(Rectangle((0, 0), width, height, facecolor=_rgb(scene.empty), edgecolor="none",
                           gid="board", zorder=0))
    for r, c, _, colour in scene.cells:
        ax.add_patch(Rectangle((c, height - 1 - r), 1, 1, facecolor=_rgb(colour), edgecolor="none", gid="cell",
                               zorder=1))
    for r, c, _, colour in scene.heat:
        ax.add_patch(Rectangle((c, height - 1 - r), 1, 1, facecolor=_rgb(colour), edgecolor="none",
                               alpha=_HEAT_OPACITY, gid="heat", zorder=2))
    lines = [[(c, 0), (c, height)] for c in range(width + 1)] + [[(0, r), (width, r)] for r in range(height + 1)]
    ax.add_collection(LineCollection(lines, colors=[_rgb(_GRID)], linewidths=max(pt / _CELL, 0.3),
                                     gid="grid", zorder=3))


def _plot_marks(ax, scene, pt: float) -> None:
    """Layers 4 to 7: open starting squares, attachment points, the last move, the highlight."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle, Rectangle

    height = scene.height
    for r, c, colour in scene.starts:
        ax.add_patch(Circle((c + 0.5, height - 0.5 - r), _START_R, fill=False, edgecolor=_rgb(colour),
                            linewidth=_START_W * pt, gid="start", zorder=4))
    for r, c in scene.attach:
        ax.add_patch(Circle((c + 0.5, height - 0.5 - r), _ATTACH_R, facecolor=_rgb(scene.attach_rgb),
                            edgecolor="none", gid="attach", zorder=5))
    for r, c in scene.last:
        ax.add_patch(Circle((c + 0.5, height - 0.5 - r), _LAST_R, facecolor="white", edgecolor=_rgb(_INK),
                            linewidth=_LAST_W * pt, gid="last", zorder=6))
    for r, c in scene.highlight:
        ax.add_patch(Rectangle((c, height - 1 - r), 1, 1, facecolor="black", edgecolor="none",
                               alpha=_HIGHLIGHT_OPACITY, gid="highlight", zorder=7))
    if scene.outline:
        segments = [[(x0, height - y0), (x1, height - y1)] for (x0, y0), (x1, y1) in scene.outline]
        ax.add_collection(LineCollection(segments, colors="black", linewidths=_OUTLINE_W * pt,
                                         capstyle="projecting", gid="highlight-outline", zorder=8))


def _plot_frame(ax, scene, pt: float, coordinates: bool) -> None:
    """Layer 8: no spines; the coordinates as tick labels, or no axis at all."""
    for spine in ax.spines.values():
        spine.set_visible(False)
    if not coordinates:
        ax.set_axis_off()
        return
    ax.set_xticks([c + 0.5 for c in range(scene.width)], [column_letter(c) for c in range(scene.width)])
    ax.set_yticks([i + 0.5 for i in range(scene.height)], [str(i + 1) for i in range(scene.height)])
    ax.tick_params(length=0, labelsize=max(_FONT_SIZE * pt / _CELL, 6), labelcolor=_rgb(_LABEL))
