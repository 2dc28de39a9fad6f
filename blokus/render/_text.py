"""Text boards: :func:`text` (``str(game)``, optionally in ANSI colour) and :func:`show`."""
from __future__ import annotations

import os
import sys

from blokus.placements import column_letter, row_number
from blokus.render._scene import _check_game, _placement_cells
from blokus.render._style import _ansi_codes
from blokus.variants import variant


def text(game, *, ansi: bool = False) -> str:
    """``str(game)``: one line per row from the top, ``.`` for empty cells and the colour's
    initial (``B Y R G``, Duo ``P O``), row numbers from the bottom and column letters.

    With ``ansi``, the initials are wrapped in ANSI SGR escape codes (bold, 256-colour
    foreground; the last placement's cells also in reverse video); removing the escape
    sequences gives back exactly ``str(game)``.

    Raises
    ------
    TypeError
        ``game`` is not a ``blokus.Game``.
    """
    _check_game(game)
    height, width = game.shape
    marks = [name[0].upper() for name in variant(game.variant).colours]
    codes = _ansi_codes(game)
    last = set(_placement_cells(game, game.history[-1][1])) if ansi and game.history else set()

    def mark(r: int, c: int, v: int) -> str:
        if v < 0:
            return "."
        if not ansi:
            return marks[v]
        return f"\x1b[1;{codes[v]}{';7' if (r, c) in last else ''}m{marks[v]}\x1b[0m"

    lines = [f"{row_number(r, height):2d} " + " ".join(mark(r, c, v) for c, v in enumerate(row))
             for r, row in enumerate(game.board.tolist())]
    lines.append("   " + " ".join(column_letter(c) for c in range(width)))
    return "\n".join(lines)


def show(game, *, ansi: bool | None = None, file=None) -> None:
    """Print the text board (``Game.show``), in colour at a terminal.

    Parameters
    ----------
    ansi : bool, optional
        True: always colour; False: never. None (default): colour when ``file`` is a TTY and the
        ``NO_COLOR`` environment variable is unset or empty (https://no-color.org).
    file : writable text stream, optional
        Default ``sys.stdout``.
    """
    if file is None:
        file = sys.stdout
    if ansi is None:
        isatty = getattr(file, "isatty", None)
        ansi = bool(isatty and isatty()) and not os.environ.get("NO_COLOR")
    print(text(game, ansi=ansi), file=file)
