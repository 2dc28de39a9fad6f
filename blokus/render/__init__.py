"""Pictures of a game: an RGB array, SVG text (what Jupyter shows), a matplotlib drawing and
coloured terminal text.

- :func:`image` -- ``uint8 (H*k, W*k, 3)`` array (the environments' ``rgb_array``); NumPy only.
- :func:`svg` -- SVG text, deterministic (same game and options, same bytes); ``Game._repr_svg_``.
- :func:`plot` -- the same picture as :func:`svg`, drawn on a matplotlib ``Axes``; needs the
  optional ``plot`` extra (``pip install "blokus[plot]"``), imported only when called.
- :func:`text` / :func:`show` -- ``str(game)``, optionally with ANSI colours; ``Game.show``.

Besides a ``Game``, :func:`image` and :func:`svg` draw a :class:`Tiling` (anything with a
``grid`` of piece labels and a ``colours`` grid, such as a solo puzzle's ``Solution``).

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
   at the bottom at its left, as in move texts (``a1`` is the bottom-left cell);
9. :func:`svg` only, with ``legend=True`` and a heat map: its colour scale under the board, as
   wide as the board: 9 swatches of the heat colours (as drawn on the board) from the smallest
   finite value at the left to the largest at the right, the two values written under its
   ends (one swatch and one value when all are equal).

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
``bk-highlight``, ``bk-highlight-outline``, ``bk-coord bk-col``, ``bk-coord bk-row``, and the
legend's group ``bk-legend`` holding ``bk-legend-back``, ``bk-legend-step`` and
``bk-legend-label`` (prefixed,
so that a page's own CSS classes do not restyle an inlined board). A board cell ``(row, col)`` is the square
``x = 24 * col``, ``y = 24 * row`` of side 24 in the ``viewBox``, whatever ``size`` is.
"""
from blokus.render._image import image
from blokus.render._plot import plot
from blokus.render._scene import Tiling
from blokus.render._svg import svg
from blokus.render._text import show, text

__all__ = ["Tiling", "image", "plot", "show", "svg", "text"]
