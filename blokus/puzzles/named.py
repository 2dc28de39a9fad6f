"""The rule sheet's puzzles by name."""
from __future__ import annotations

from blokus.puzzles.all84 import All84
from blokus.puzzles.packing import Packing


def puzzle(name: str, *, same_colour_edges: bool = True, start: str = "any") -> Packing | All84:
    """A puzzle of the rule sheet by name: ``"8x10"`` (tetrominoes), ``"15x16"`` (pentominoes),
    either also turned (``"10x8"``, ``"16x15"``), or ``"all84"``.

    Raises
    ------
    ValueError
        Unknown name.
    """
    key = name.strip().lower().replace("×", "x").replace(" ", "")
    if key in ("all84", "all-84", "all_84"):
        return All84(start)
    try:
        height, width = (int(x) for x in key.split("x"))
    except ValueError:
        height = width = 0
    if tuple(sorted((height, width))) in ((8, 10), (15, 16)):
        return Packing((height, width), same_colour_edges=same_colour_edges)
    raise ValueError(f"unknown puzzle {name!r}: 8x10, 15x16 or all84 (or HxW with pieces)")
