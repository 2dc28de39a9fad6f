"""Solo puzzles (docs/rules.md, "Solo puzzles"): each one checked, and solved in C.

Packings -- lay pieces so that they tile a rectangle exactly, no corner or first-move rule:

>>> import blokus.puzzles as pz
>>> puzzle = pz.Packing.tetrominoes()                  # the 20 tetrominoes (5 per colour) in 8x10
>>> solution = puzzle.solve(seed=1)
>>> bool(puzzle.check(solution))
True
>>> pz.Packing((3, 20), {"pentominoes": 1}).count_solutions(up_to_symmetry=True)
2

- :class:`Packing` ``(shape, pieces, *, same_colour_edges=True)``: any rectangle and any multiset
  of the 21 pieces; :meth:`Packing.tetrominoes` (8x10) and :meth:`Packing.pentominoes` (15x16) are
  the rule sheet's, ``same_colour_edges=False`` its harder option (two pieces of one colour may
  not share an edge).
- :func:`all84` ``(start="any")``: a classic :class:`blokus.Game` to play "All 84" yourself (one
  person moves all four colours, turn order and passes as usual, and tries to place every piece);
  :class:`All84` checks a game or solution and searches for one.
- :class:`Solution`: ``grid`` (int16 labels), ``pieces``, ``colours`` (int8), ``moves``; text and
  SVG pictures. :class:`Verdict`: what ``check`` says.
- :func:`puzzle` ``("8x10" | "15x16" | "all84")``: the rule sheet's puzzles by the names that
  ``blokus solve`` takes.

Colours are 0 blue, 1 yellow, 2 red, 3 green, as in a classic game.
"""
from __future__ import annotations

from blokus.puzzles import problems as _problems
from blokus.puzzles import shapes as _shapes
from blokus.puzzles.all84 import All84, all84
from blokus.puzzles.named import puzzle
from blokus.puzzles.packing import Packing
from blokus.puzzles.pieces import COLOUR_NAMES, NUM_COLOURS, PIECE_NAMES, parse_pieces
from blokus.puzzles.pieces import PIECE_GROUPS as _PIECE_GROUPS
from blokus.puzzles.solution import Progress, Solution, Verdict

#: Names that stand for several pieces in a ``pieces`` mapping: one of each member, times the count.
PIECE_GROUPS: dict[str, tuple[str, ...]] = _PIECE_GROUPS  # documented here, defined in pieces.py

_piece_size = _shapes._piece_size  # private, kept here for tests/test_puzzles.py
_same_colour_contacts = _problems._same_colour_contacts

__all__ = ["PIECE_NAMES", "COLOUR_NAMES", "NUM_COLOURS", "PIECE_GROUPS", "Progress", "Solution", "Verdict",
           "Packing", "all84", "All84", "puzzle", "parse_pieces"]
