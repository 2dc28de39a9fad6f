"""Game records in Blokus SGF (``.blksgf``), the format Pentobi reads and writes.

>>> import blokus, blokus.sgf
>>> game = blokus.Game("duo", start="fixed")
>>> game.play("e10"); game.play("j5,j6")
>>> blokus.sgf.dumps(game, PB="Ann")
'(;GM[Blokus Duo]CA[UTF-8]PB[Ann];B[e10];W[j5,j6])'
>>> blokus.sgf.loads("(;GM[Blokus Duo];B[e10];W[j5,j6])").history == game.history
True

The format (Blokus SGF, as Pentobi writes it): an SGF (FF[4]) collection of game trees. The root node's
``GM`` names the variant, each later node holds one move: ``B``/``W`` in Duo, ``1`` .. ``4`` (blue,
yellow, red, green) with four colours, valued by the placed cells (``a1,b1,a2``; rows counted from
the bottom, docs/rules.md "Board, coordinates, colours"). Passes are not written.

What Pentobi's format cannot say is recorded in two application properties of ours, in the root
node and only when needed, so that Pentobi still opens the file as the game it can play:

``BKV``
    Our variant name, written for ``classic_teams`` (``GM[Blokus]BKV[classic_teams]``), for which
    Blokus SGF has no ``GM``. On reading it must agree with ``GM``.
``BKS``
    The start rule, written as ``BKS[any]`` for a ``start="any"`` game. Without it a record is
    ``start="fixed"``, the rule Pentobi plays (docs/rules.md, "Starting squares").
"""
from blokus.sgf._records import GAME_NAMES, VARIANT_OF_GAME_NAME, dumps, loads, read, records, write

__all__ = ["GAME_NAMES", "VARIANT_OF_GAME_NAME", "dumps", "loads", "records", "read", "write"]
