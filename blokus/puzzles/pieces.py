"""Multisets of pieces: piece and group names, colours, and the ``pieces`` argument of a packing."""
from __future__ import annotations

import collections
import operator
from typing import Mapping, Sequence

from blokus import _core
from blokus.variants import variant

PIECE_NAMES: tuple[str, ...] = tuple(_core.PIECE_NAMES)
COLOUR_NAMES: tuple[str, ...] = variant("classic").colours
NUM_COLOURS = len(COLOUR_NAMES)
#: Names that stand for several pieces in a ``pieces`` mapping: one of each member, times the count.
PIECE_GROUPS: dict[str, tuple[str, ...]] = {
    "monomino": ("1",),
    "domino": ("2",),
    "trominoes": ("I3", "V3"),
    "tetrominoes": ("I4", "L4", "T4", "O", "Z4"),
    "pentominoes": ("I5", "L5", "Y", "N", "P", "U", "V5", "T5", "W", "Z5", "F", "X"),
    "all": PIECE_NAMES,
}


def _expand(name: str) -> tuple[str, ...]:
    if name in PIECE_GROUPS:
        return PIECE_GROUPS[name]
    if name in PIECE_NAMES:
        return (name,)
    raise ValueError(f"unknown piece {name!r}: pieces are {', '.join(PIECE_NAMES)}; "
                     f"groups {', '.join(PIECE_GROUPS)}")


def _int(value, what: str, low: int = -2**31, high: int = 2**31 - 1) -> int:
    """An integer (no float, no rounding) in [low, high], else TypeError/ValueError naming it."""
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, not {value!r}") from None
    if not low <= number <= high:
        raise ValueError(f"{what} must be in [{low}, {high}], not {number}")
    return number


def _count(value, name) -> int:
    try:
        count = int(value.__index__())
    except (AttributeError, TypeError):
        raise TypeError(f"the count of {name!r} must be an int, not {value!r}") from None
    if count < 0:
        raise ValueError(f"the count of {name!r} must be >= 0, not {count}")
    return count


def _kinds(pieces) -> dict[tuple[str, int], int]:
    """``{(name, colour): count}`` from a ``pieces`` argument of :class:`Packing`."""
    kinds: collections.Counter = collections.Counter()
    if isinstance(pieces, Mapping):
        for key, value in pieces.items():
            count = _count(value, key)
            for name in _expand(key):
                for colour in range(NUM_COLOURS):  # copies take the colours in turn
                    kinds[name, colour] += count // NUM_COLOURS + (colour < count % NUM_COLOURS)
    elif isinstance(pieces, Sequence) and not isinstance(pieces, str):
        if len(pieces) > NUM_COLOURS:
            raise ValueError(f"at most {NUM_COLOURS} colours, not {len(pieces)}")
        for colour, hand in enumerate(pieces):
            if not isinstance(hand, Mapping):
                raise TypeError(f"colour {colour}'s pieces must be a mapping name -> count, not {hand!r}")
            for key, value in hand.items():
                count = _count(value, key)
                for name in _expand(key):
                    kinds[name, colour] += count
    else:
        raise TypeError(f"pieces must be a mapping name -> count or a list of them per colour, not {pieces!r}")
    return {k: v for k, v in sorted(kinds.items(), key=lambda kv: (PIECE_NAMES.index(kv[0][0]), kv[0][1])) if v}


def parse_pieces(text: str) -> dict[str, int]:
    """``"pentominoes"``, ``"I4:4,O:4"`` or ``"F,I5:2"``: comma-separated names (pieces or
    groups of :data:`PIECE_GROUPS`), each with an optional ``:count`` (default 1).

    Raises
    ------
    ValueError
        An unknown name or a bad count.
    """
    pieces: dict[str, int] = collections.Counter()
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, _, count = item.partition(":")
        _expand(name.strip())
        try:
            pieces[name.strip()] += int(count) if count else 1
        except ValueError:
            raise ValueError(f"bad count in {item!r}") from None
    if not pieces:
        raise ValueError("no pieces given")
    return dict(pieces)
