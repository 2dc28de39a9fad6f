"""``blokus.Game``: one game held in C, with the Python conveniences around it."""
from __future__ import annotations

from blokus import _core
from blokus.variants import VARIANTS, variant

__all__ = ["Game", "VARIANTS"]


def _restore(cls, variant, start, moves):
    game = cls(variant, start=start)
    for move in moves:
        game.play(move)
    return game


class Game(_core.Game):
    """A game of Blokus (docs/rules.md).

    Parameters
    ----------
    variant : {"classic", "classic_2", "classic_3", "classic_teams", "duo"}
        Classic 20x20 for 4, 2 (blue+red against yellow+green) or 3 players
        (green shared, its score ignored), 2-vs-2 teams, or Blokus Duo 14x14.
    start : {"any", "fixed"}
        ``"any"``: the rule sheet's rule, a first piece covers any free corner
        (Duo: either starting point). ``"fixed"``: each colour its own
        starting square, as Pentobi plays.

    Raises
    ------
    ValueError
        Unknown variant or start rule.

    Notes
    -----
    Colours are indices in turn order: classic 0 blue, 1 yellow, 2 red,
    3 green; Duo 0 purple, 1 orange. Moves are placement ids (see
    ``blokus.placements``), texts such as ``"a20,b20,c20"`` or cells.

    ``copy()`` and pickling carry the game itself: a subclass that adds
    attributes must copy them, and pickling rebuilds it as
    ``cls(variant, start=start)`` before replaying the moves.
    """

    __slots__ = ("__weakref__",)

    def colour_name(self, colour: int) -> str:
        """Name of a colour index: blue, yellow, red, green or, in Duo, purple, orange.

        Raises
        ------
        ValueError
            Colour out of range.
        """
        if not 0 <= colour < self.num_colours:
            raise ValueError(f"colour {colour!r} out of range({self.num_colours})")
        return variant(self.variant).colours[colour]

    def __reduce__(self):
        return (_restore, (type(self), self.variant, self.start, [m for _, m in self.history]))

    def __repr__(self) -> str:
        turn = "over" if self.is_over else f"{self.colour_name(self.to_move)} to move"
        moves = len(self.history)
        return f"<blokus.Game {self.variant!r} start={self.start!r}: {moves} move{'s' * (moves != 1)}, {turn}>"

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter: ``blokus.render.svg(self)`` with its defaults."""
        from blokus import render  # here and below: `import blokus` leaves render to its first use

        return render.svg(self)

    def show(self, *, ansi: bool | None = None, file=None) -> None:
        """Print the text board (``str(self)``), with ANSI colours at a terminal.

        Parameters
        ----------
        ansi : bool, optional
            True: always colour; False: never. None (default): colour when ``file`` is a TTY
            and the ``NO_COLOR`` environment variable is unset or empty.
        file : writable text stream, optional
            Default ``sys.stdout``.
        """
        from blokus import render

        render.show(self, ansi=ansi, file=file)

    def __str__(self) -> str:
        from blokus import render

        return render.text(self)
