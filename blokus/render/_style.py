"""How the pictures look: the palettes, sizes and marker geometry every drawing shares, and
the small conversions they all use."""
from __future__ import annotations

import math

import numpy as np

from blokus.variants import variant

# RGB per colour name (the variants' colour names, blokus.variants: a variant's palette is its
# colours' rows, so a new variant with these names needs nothing here), and of an empty cell.
_RGB = {"blue": (30, 90, 200), "yellow": (235, 190, 20), "red": (210, 40, 40), "green": (40, 150, 60),
        "purple": (120, 60, 170), "orange": (240, 130, 20)}
_EMPTY = (235, 235, 235)
# A tiling's colour indices are classic's colours (blokus.puzzles); the last row is an empty cell.
_CLASSIC = np.array([*(_RGB[name] for name in variant("classic").colours), _EMPTY], np.uint8)
_GRID = np.array([160, 160, 160], np.uint8)

_CELL = 24  # SVG user units per board cell: pixels per cell at the default size
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

# ANSI SGR colour per colour name (256-colour palette), for text(ansi=True).
_ANSI = {"blue": "38;5;27", "yellow": "38;5;220", "red": "38;5;160", "green": "38;5;34", "purple": "38;5;98",
         "orange": "38;5;208"}


def _palette(game) -> np.ndarray:
    """uint8 (C + 1, 3): RGB per colour index of the game's variant, then an empty cell's."""
    return np.array([*(_RGB[name] for name in variant(game.variant).colours), _EMPTY], np.uint8)


def _ansi_codes(game) -> tuple:
    """The ANSI SGR colour of each colour index of the game's variant."""
    return tuple(_ANSI[name] for name in variant(game.variant).colours)


def _heat_colour(t: float) -> tuple:
    x = min(max(t, 0.0), 1.0) * (len(_HEAT_RAMP) - 1)
    i = min(int(x), len(_HEAT_RAMP) - 2)
    f = x - i
    rgb = _HEAT_RAMP[i] * (1 - f) + _HEAT_RAMP[i + 1] * f
    return tuple(int(round(v)) for v in rgb)


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
