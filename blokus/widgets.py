"""An interactive board for Jupyter (JupyterLab, Notebook 7, the classic Notebook): ``Board``.

>>> import blokus.sgf
>>> from blokus.widgets import Board
>>> board = Board(blokus.sgf.read("game.blksgf")[0])   # or Board(), Board.load("game.blksgf")  # doctest: +SKIP
>>> board                                               # the last cell value shows it  # doctest: +SKIP

What it does in the browser:

- the position at ``board.ply`` (0 = the empty board, ``len(board.game.history)`` = the last),
  drawn by :func:`blokus.render.svg`; a slider and the buttons ``|<`` ``<`` ``>`` ``>|`` step
  through the history, and so do the arrow keys, Home and End once the board has the keyboard
  focus (click it);
- a click on a cell selects it: the legal placements of the colour to move that cover it are
  listed (``board.candidates``); pointing at one outlines it on the board, clicking it plays it;
- an overlay (``board.overlay``) over the board: ``"placements"`` (a heat map: how many legal
  placements of the colour to move cover each cell, of one piece if ``board.piece`` names one),
  ``"attachment"`` (the attachment points of the colour to move), ``"territory"``
  (:func:`blokus.analysis.territory`: the colour to move's cells dark red, the other colours' pale
  yellow) or ``"mcts"`` (:func:`blokus.analysis.move_values` with ``board.agent``: each cell's
  share of the search's visits spent on moves covering it);
- a file picker that loads a ``.blksgf`` record (Blokus SGF, :mod:`blokus.sgf`; its first game).

Its state is a plain :class:`blokus.Game`, ``board.game``: the whole record, which clicks play on.
A move played while an earlier position is shown replaces the moves after it (the board is an
analysis board). After changing ``board.game`` yourself, call ``board.refresh()``.

The browser side is ``widgets.js``, an anywidget ES module: it only draws the SVG it is sent and
reports clicks, so every rule is decided here, by the engine. Needs the ``widgets`` extra
(``pip install "blokus[widgets]"``: anywidget, which brings ipywidgets).
"""
from __future__ import annotations

import inspect
import os
import pathlib

import numpy as np

from blokus._optional import needs

with needs("widgets", "blokus.widgets"):
    import anywidget
    import ipywidgets
    import traitlets

from blokus import _core, analysis, render, sgf
from blokus.agents import MCTSAgent, make_agent
from blokus.game import Game
from blokus.placements import placements

__all__ = ["Board", "OVERLAYS"]

OVERLAYS = ("none", "placements", "attachment", "territory", "mcts")


def _position(game: Game, ply: int) -> Game:
    """The game after its first ``ply`` moves, a new Game (``game`` unchanged)."""
    view = game.copy()
    for _ in range(len(game.history) - ply):
        view.undo()
    return view


def _cells_of(table, pids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of every cell of the placements ``pids``, flattened."""
    cells = np.asarray(table.cells[pids], dtype=np.intp)  # (n, 5, 2), padded with -1
    used = cells[:, :, 0] >= 0
    return cells[:, :, 0][used], cells[:, :, 1][used]


class Board(anywidget.AnyWidget):
    """An interactive Blokus board (module docstring): a ``blokus.Game`` shown in Jupyter.

    Parameters
    ----------
    game : blokus.Game, optional
        The game to show and play on; it is held, not copied (``board.game is game``). Default a
        new ``Game(variant, start=start)``.
    variant, start : str
        Of the new game when ``game`` is None (``blokus.Game``'s values).

    Attributes
    ----------
    The traitlets synchronised with the browser (``board.observe(f, "ply")`` follows them):

    ply : int
        The position shown: the first ``ply`` moves of ``game.history`` (0 to ``length``).
    length : int
        ``len(game.history)``, read only.
    cell : list
        ``[row, col]`` of the selected cell, or ``[]``; set by a click.
    candidates : list of dict
        The legal placements of the colour to move at ``ply`` that cover ``cell``, largest
        piece first, then by placement id: ``{"id", "move", "piece", "size"}``; read only.
    preview : int
        A placement id outlined on the board (the candidate pointed at), or -1.
    overlay : str
        One of ``OVERLAYS``.
    piece : str
        For the ``"placements"`` overlay: a name from ``blokus.PIECE_NAMES`` or ``""`` (all).
    agent : str
        The MCTS agent string of the ``"mcts"`` overlay (default ``"mcts:sims=2000"``).
    seed : int
        Seed of that search (the same position and seed give the same heat map).
    pieces : list of str
        Names of the pieces the colour to move still has, read only.
    status : str
        One line about the position shown (turn, last move, scores) or the last error.
    svg : str
        The picture drawn, :func:`blokus.render.svg` of the position with the overlay.

    Raises
    ------
    TypeError
        ``game`` is not a ``blokus.Game``.
    ValueError
        Unknown variant or start rule.
    """

    # The browser side's text, read once. Given as paths, anywidget would connect every board to
    # the file's change signal by a closure over the board, which holds it (and what it made)
    # for good: no board, closed or not, would ever be freed.
    _esm = pathlib.Path(__file__).with_name("widgets.js").read_text(encoding="utf-8")
    _css = pathlib.Path(__file__).with_name("widgets.css").read_text(encoding="utf-8")

    ply = traitlets.Int(0).tag(sync=True)
    length = traitlets.Int(0).tag(sync=True)
    cell = traitlets.List(traitlets.Int(), default_value=[]).tag(sync=True)
    candidates = traitlets.List(default_value=[]).tag(sync=True)
    preview = traitlets.Int(-1).tag(sync=True)
    overlay = traitlets.Enum(OVERLAYS, default_value="none").tag(sync=True)
    piece = traitlets.Unicode("").tag(sync=True)
    agent = traitlets.Unicode("mcts:sims=2000").tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    pieces = traitlets.List(traitlets.Unicode(), default_value=[]).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)

    def __init__(self, game: Game | None = None, *, variant: str = "duo", start: str = "fixed", **kwargs):
        if game is None:
            game = Game(variant, start=start)
        elif not isinstance(game, _core.Game):
            raise TypeError(f"expected a blokus.Game, not {type(game).__name__}")
        self._game = game
        self._error = ""
        self._cached: tuple = (None, (None, ""))  # (what an overlay was computed for, its result)
        super().__init__(**kwargs)
        self._made = self._child_widgets(kwargs)
        self.on_msg(self._on_message)
        self.refresh(ply=len(game.history))

    # traitlets' HasTraits.__new__(*args, **kwargs) would hide the signature from help() and Sphinx
    __signature__ = inspect.signature(__init__).replace(
        parameters=list(inspect.signature(__init__).parameters.values())[1:])

    _made: list = []  # what close() closes besides the board; empty until __init__ has run

    def _child_widgets(self, given: dict) -> list:
        """The widgets the construction made for this board's traits (its ``layout``), not those
        passed in ``given``: ipywidgets keeps each in its registry until it is closed."""
        passed = {id(value) for value in given.values()}
        values = (getattr(self, name) for name in self.trait_names())
        return [v for v in values if isinstance(v, ipywidgets.Widget) and id(v) not in passed]

    # ---------------------------------------------------------------- Python API
    def close(self) -> None:
        """Close the board and the widgets it made (its ``layout``), so that ipywidgets'
        registry lets go of all of them; a layout passed in stays open (it is the caller's)."""
        for widget in self._made:
            widget.close()
        self._made = []
        super().close()

    @property
    def game(self) -> Game:
        """The game shown, the whole record (``ply`` may show an earlier position of it)."""
        return self._game

    @property
    def position(self) -> Game:
        """The position shown, a new ``Game`` holding the first ``ply`` moves."""
        return _position(self._game, self.ply)

    @classmethod
    def load(cls, source: str | os.PathLike, **kwargs) -> Board:
        """A board on the first game of a Blokus SGF record (:func:`blokus.sgf.records`, the
        main line of any variations): a path, or the record's text itself.

        Raises
        ------
        OSError
            The file cannot be read.
        ValueError
            Not a Blokus SGF record, or one with an illegal move (:mod:`blokus.sgf`).
        """
        return cls(_read_record(source), **kwargs)

    def show_game(self, game: Game) -> None:
        """Show another game (held, not copied), at its last position."""
        if not isinstance(game, _core.Game):
            raise TypeError(f"expected a blokus.Game, not {type(game).__name__}")
        self._game = game
        self.refresh(ply=len(game.history))

    def play(self, move) -> int:
        """Play a move at the position shown: a placement id, a move text or cells, as
        ``Game.play`` takes. Moves after ``ply`` are dropped first; ``ply`` moves on by one.

        Returns
        -------
        int
            The placement id played.

        Raises
        ------
        blokus.IllegalMoveError
            The move is not legal there (the game and the board are unchanged).
        """
        view = self.position
        view.play(move)  # raises before anything changes
        pid = view.history[-1][1]
        while len(self._game.history) > self.ply:
            self._game.undo()
        self._game.play(pid)
        self.refresh(ply=self.ply + 1)
        return pid

    def refresh(self, ply: int | None = None) -> None:
        """Redraw from ``game`` (after it was changed outside the board), showing ``ply``
        (default: the same ply, or the last if the game got shorter)."""
        length = len(self._game.history)
        ply = min(self.ply if ply is None else ply, length)
        with self.hold_trait_notifications():
            self.length = length
            self.cell = []
            self.preview = -1
            if self.ply != ply:
                self.ply = ply  # _redraw follows from the observer
        self._redraw()

    # ---------------------------------------------------------------- browser events
    def _on_message(self, _widget, content, _buffers) -> None:
        """Messages from widgets.js: ``{"event": "play", "id": pid}`` and
        ``{"event": "load", "text": record}``; an error becomes the status line."""
        event = content.get("event") if isinstance(content, dict) else None
        try:
            if event == "play":
                self.play(int(content["id"]))
            elif event == "load":
                self.show_game(_read_record(str(content["text"])))
            else:
                raise ValueError(f"unknown message from the browser: {content!r}")
        except (ValueError, TypeError, KeyError, OverflowError) as e:
            self._error = f"{type(e).__name__}: {e}"
            self._redraw()

    @traitlets.validate("ply")
    def _valid_ply(self, proposal):
        ply = proposal["value"]
        if not 0 <= ply <= len(self._game.history):
            raise traitlets.TraitError(f"ply {ply} out of range(0, {len(self._game.history) + 1})")
        return ply

    @traitlets.validate("cell")
    def _valid_cell(self, proposal):
        cell = list(proposal["value"])
        height, width = self._game.shape
        if cell and not (len(cell) == 2 and 0 <= cell[0] < height and 0 <= cell[1] < width):
            raise traitlets.TraitError(f"cell must be [] or [row, col] on the {height}x{width} board, not {cell}")
        return cell

    @traitlets.validate("piece")
    def _valid_piece(self, proposal):
        if proposal["value"] not in ("",) + tuple(_core.PIECE_NAMES):
            raise traitlets.TraitError(f"piece must be '' or one of {_core.PIECE_NAMES}, not {proposal['value']!r}")
        return proposal["value"]

    @traitlets.validate("agent")
    def _valid_agent(self, proposal):
        try:
            agent = make_agent(proposal["value"])
        except ValueError as e:
            raise traitlets.TraitError(f"agent: {e}") from None
        if not isinstance(agent, MCTSAgent):
            raise traitlets.TraitError(
                f"agent must be an MCTS agent string ('mcts:sims=2000'), not {proposal['value']!r}")
        return proposal["value"]

    @traitlets.observe("ply")
    def _on_ply(self, _change) -> None:
        self.cell = []
        self.preview = -1
        self._redraw()

    @traitlets.observe("cell", "preview", "overlay", "piece", "agent", "seed")
    def _on_view(self, _change) -> None:
        self._redraw()

    # ---------------------------------------------------------------- drawing
    def _redraw(self) -> None:
        view = self.position
        table = placements(view.variant)
        legal = np.empty(0, np.int32) if view.is_over else np.asarray(view.legal_moves())
        candidates = []
        if self.cell and legal.size:
            r, c = self.cell
            covers = (table.cells[legal] == (r, c)).all(axis=2).any(axis=1)
            ids = legal[covers]
            ids = ids[np.lexsort((ids, -table.size[ids]))]
            candidates = [{"id": int(p), "move": view.move_text(int(p)),
                           "piece": _core.PIECE_NAMES[int(table.piece[p])], "size": int(table.size[p])}
                          for p in ids]
        what = (view.key, len(view.history), self.overlay, self.piece, self.agent, self.seed)
        if self._cached[0] != what:  # a click or a preview must not search again
            self._cached = (what, self._overlay(view, legal))
        heat, note = self._cached[1]
        if 0 <= self.preview < view.num_placements:
            highlight: int | list[tuple[int, ...]] | None = int(self.preview)
        else:
            highlight = [tuple(self.cell)] if self.cell else None
        with self.hold_trait_notifications():
            self.candidates = candidates
            self.pieces = [] if view.is_over else [
                _core.PIECE_NAMES[i] for i in np.flatnonzero(np.asarray(view.remaining[view.to_move]))]
            self.svg = render.svg(view, highlight=highlight, heat=heat,
                                  show_attachment_points=self.overlay == "attachment")
            self.status = self._error or self._describe(view) + note
        self._error = ""

    def _overlay(self, view: Game, legal: np.ndarray):
        """(heat map or None, a note for the status line) of the overlay chosen."""
        if self.overlay in ("none", "attachment") or view.is_over and self.overlay != "territory":
            return None, ""
        height, width = view.shape
        if self.overlay == "placements":
            table = placements(view.variant)
            ids = legal
            if self.piece:
                ids = ids[table.piece[ids] == _core.PIECE_NAMES.index(self.piece)]
            counts = np.zeros((height, width))
            np.add.at(counts, _cells_of(table, ids), 1)
            counts[counts == 0] = np.nan
            return counts, f" | {ids.size} legal placements of {self.piece or 'any piece'}"
        if self.overlay == "territory":
            owner = analysis.territory(view)
            mine = 0 if view.is_over else view.to_move
            heat = np.where(owner == mine, 1.0, np.where(owner >= 0, 0.0, np.nan))
            return heat, f" | territory: {view.colour_name(mine)} {int((owner == mine).sum())} cells"
        rows = analysis.move_values(view, self.agent, top=None, seed=self.seed)  # "mcts"
        table = placements(view.variant)
        heat = np.zeros((height, width))
        for row in rows:
            np.add.at(heat, _cells_of(table, np.array([row["id"]])), row["share"])
        heat[heat == 0] = np.nan
        best = rows[0]
        return heat, f" | {self.agent}: best {best['move']} ({best['share']:.0%} of visits, value {best['value']:.2f})"

    def _describe(self, view: Game) -> str:
        parts = [f"{view.variant}, move {self.ply} of {len(self._game.history)}"]
        if view.history:
            colour, pid = view.history[-1]
            parts.append(f"last {view.colour_name(colour)} {view.move_text(pid)}")
        parts.append("game over" if view.is_over else f"{view.colour_name(view.to_move)} to move")
        scores = view.scores()
        parts.append("scores " + " ".join(f"{view.colour_name(c)} {s}" for c, s in enumerate(scores)))
        return ", ".join(parts)


def _read_record(source) -> Game:
    """The first game of a Blokus SGF record given as a path or as its text (variations: the
    main line)."""
    if isinstance(source, str) and source.lstrip().startswith("("):
        text = source
    else:
        text = pathlib.Path(source).read_text(encoding="utf-8")
    games = sgf.records(text, mainline=True)
    if not games:
        raise ValueError("the record holds no game")
    return games[0][0]
