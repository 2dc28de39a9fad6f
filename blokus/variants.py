"""The variants and start rules, as the C core defines them (csrc/core/variants.c): ``VARIANTS``,
``START_RULES`` and ``variant(name)``, the facts of one variant (docs/rules.md, "Variants"). The
package keeps no per-variant fact of its own: it reads them all here.

>>> from blokus.variants import variant
>>> variant("duo").colours, variant("duo").starting_squares
(('purple', 'orange'), ((4, 4), (9, 9)))
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from blokus import _core

#: The variants' names: classic (4 players), classic_2, classic_3, classic_teams, duo.
VARIANTS: tuple[str, ...] = _core.VARIANTS
#: The start rules: "any" (the rule sheet's: any free starting square, Duo's either point) and
#: "fixed" (each colour its own, as Pentobi plays).
START_RULES: tuple[str, ...] = _core.START_RULES


@dataclass(frozen=True)
class Variant:
    """The facts of one variant.

    Attributes
    ----------
    name : str
    side : int
        Cells per side of the square board: 20, or 14 in Duo.
    num_colours, num_players : int
    colours : tuple of str
        Colour names in turn order (colour index i is ``colours[i]``).
    starting_squares : tuple of (row, col)
        One per colour: colour i's own under ``start="fixed"``.
    player_colours : tuple of tuple of int
        Per player, the colours its score counts (classic_3's shared green counts for nobody).
    player_sides : tuple of int
        Per player, its side: players whose scores are made of the same colours (classic_teams'
        partners) share one, numbered by its first player.
    geometry : int
        Index of its placement table (``blokus.placements``): variants of one board side share
        one.
    sgf_game : str
        The ``GM`` value of its game records (Pentobi's, e.g. ``"Blokus Duo"``); classic and
        classic_teams share ``"Blokus"``.
    weight_set : str
        The playout and prior weights its searches use: ``"classic"`` (20x20) or ``"duo"``.
    """

    name: str
    side: int
    num_colours: int
    num_players: int
    colours: tuple[str, ...]
    starting_squares: tuple[tuple[int, int], ...]
    player_colours: tuple[tuple[int, ...], ...]
    player_sides: tuple[int, ...]
    geometry: int
    sgf_game: str
    weight_set: str


@functools.lru_cache(maxsize=None)
def variant(name: str) -> Variant:
    """The facts of variant ``name``.

    Raises
    ------
    ValueError
        Unknown variant. TypeError: ``name`` is not a str.
    """
    return Variant(name=name, **_core.variant_info(name))
