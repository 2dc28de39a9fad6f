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
- a file picker that loads a ``.blksgf`` record (Blokus SGF, :mod:`blokus.sgf`; its first game);
- the colour scale of the overlay's heat map under the board (``render.svg(legend=True)``);
- the move list (``board.moves``; click a move to go to it) and each colour's pieces in hand
  at the position shown (``board.hands``);
- with a review (:func:`blokus.analysis.review`; ``Board(game, review=...)`` or
  ``board.show_review(review)``), the win-probability curve under the board (``board.curve``;
  click a point to go to that move) and each move's label in the move list.

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
from xml.sax.saxutils import escape

import numpy as np

from blokus._optional import needs

with needs("widgets", "blokus.widgets"):
    import anywidget
    import ipywidgets
    import traitlets

from blokus import _core, analysis, render, sgf
from blokus.agents import MCTSAgent, make_agent
from blokus.analysis import Review
from blokus.game import Game
from blokus.placements import placements
from blokus.render._style import _hex, _palette
from blokus.variants import variant as variant_facts

__all__ = ["Board", "OVERLAYS"]

OVERLAYS = ("none", "placements", "attachment", "territory", "mcts")
# The curve's plotting area in SVG units: position k of n reviewed at x = CURVE_WIDTH * k / n,
# win probability p at y = CURVE_HEIGHT * (1 - p).
CURVE_WIDTH, CURVE_HEIGHT = 300, 100
# Fill of a move's point on the curve and of its label in the move list, by review label
# (the heat ramp's yellow to dark red for the costly ones).
LABEL_COLOURS = {"best": "#ffffff", "good": "#d9d9d9", "inaccuracy": "#fecc5c", "mistake": "#fd8d3c",
                 "blunder": "#bd0026"}


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
    review : blokus.analysis.Review, optional
        A review of the game or of its first moves (``blokus.analysis.review``): its curve and
        labels are shown (``show_review``). Without ``game``, the board shows a copy of
        ``review.game``.
    variant, start : str
        Of the new game when ``game`` and ``review`` are None (``blokus.Game``'s values).

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
    hands : list of dict
        Per colour (index order), its pieces in hand at ``ply``: ``{"colour": int,
        "colour_name": str, "rgb": "#rrggbb", "pieces": [names, blokus.PIECE_NAMES order],
        "squares": int}`` (the squares of those pieces); read only.
    shapes : dict
        Each piece name's squares ``[[row, col], ...]`` in one orientation, for drawing the
        hands; read only.
    moves : list of dict
        Per move of ``game`` (the whole record): ``{"ply": int (1 for the first move),
        "colour": int, "colour_name": str, "move": str, "label": str, "loss": float or None,
        "best_move": str}``; ``label`` (``"best"`` to ``"blunder"``), ``loss`` (the mover's
        loss in win probability) and ``best_move`` come from the review, and are ``""``,
        None and ``""`` for a move it does not cover; read only.
    reviewed : int
        How many moves of ``game`` the review covers: the moves it shares with the reviewed
        game, from the first (0 without a review; a move played over them cuts it); read only.
    curve : str
        SVG of the review's win-probability curve over positions 0 to ``reviewed`` (``""``
        without a review), read only: one line (``bk-curve-line``) per player in the colour of
        its first colour, position ``k`` at ``x = 300 * k / reviewed`` and win probability
        ``p`` at ``y = 100 * (1 - p)`` (``CURVE_WIDTH``, ``CURVE_HEIGHT``); per move ``k``
        a point (``bk-curve-point``, ``data-ply="k"``) on the mover's line, filled by its
        label (``LABEL_COLOURS``); per position a clickable column (``bk-curve-hit``,
        ``data-ply``); a vertical line at ``ply`` (``bk-curve-now``) when it is reviewed.
    status : str
        One line about the position shown (turn, last move, scores) or the last error.
    svg : str
        The picture drawn, :func:`blokus.render.svg` of the position with the overlay.

    Raises
    ------
    TypeError
        ``game`` is not a ``blokus.Game``, or ``review`` not a ``blokus.analysis.Review``.
    ValueError
        Unknown variant or start rule, or a review whose moves (variant, start rule) are not
        the first moves of ``game``.
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
    hands = traitlets.List(default_value=[]).tag(sync=True)
    shapes = traitlets.Dict(default_value={}).tag(sync=True)
    moves = traitlets.List(default_value=[]).tag(sync=True)
    reviewed = traitlets.Int(0).tag(sync=True)
    curve = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)

    def __init__(self, game: Game | None = None, *, review: Review | None = None, variant: str = "duo",
                 start: str = "fixed", **kwargs):
        _check_review(review)
        if game is None:
            game = Game(variant, start=start) if review is None else review.game.copy()
        elif not isinstance(game, _core.Game):
            raise TypeError(f"expected a blokus.Game, not {type(game).__name__}")
        elif review is not None and _shared_moves(game, review.game) < len(review.game.history):
            raise ValueError("the review is of another game: its moves are not the first moves of game "
                             "(Board(review=review) shows the reviewed game)")
        self._game = game
        self._review = review
        self._error = ""
        self._cached: tuple = (None, (None, ""))  # (what an overlay was computed for, its result)
        super().__init__(**kwargs)
        self._made = self._child_widgets(kwargs)
        self.shapes = _shapes()
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

    @property
    def review(self) -> Review | None:
        """The review shown (``show_review``), or None."""
        return self._review

    def show_game(self, game: Game) -> None:
        """Show another game (held, not copied), at its last position; drops the review."""
        if not isinstance(game, _core.Game):
            raise TypeError(f"expected a blokus.Game, not {type(game).__name__}")
        self._game = game
        self._review = None
        self.refresh(ply=len(game.history))

    def show_review(self, review: Review | None) -> None:
        """Show a review (:func:`blokus.analysis.review`): its win-probability curve under the
        board and its labels in the move list; None removes it. When the board's game is not
        the reviewed game (other moves, variant or start rule), the board shows a copy of
        ``review.game`` at its last position instead.

        Raises
        ------
        TypeError
            ``review`` is not a ``blokus.analysis.Review`` or None.
        """
        _check_review(review)
        if review is not None and _shared_moves(self._game, review.game) < len(review.game.history):
            self._game = review.game.copy()
            self._review = review
            self.refresh(ply=len(self._game.history))
            return
        self._review = review
        self._redraw()

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
        ``{"event": "load", "text": record}`` (which drops the review); an error becomes the
        status line."""
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
        reviewed = 0 if self._review is None else _shared_moves(self._game, self._review.game)
        with self.hold_trait_notifications():
            self.candidates = candidates
            self.pieces = [] if view.is_over else [
                _core.PIECE_NAMES[i] for i in np.flatnonzero(np.asarray(view.remaining[view.to_move]))]
            self.hands = _hands(view)
            self.moves = self._moves(reviewed)
            self.reviewed = reviewed
            self.curve = "" if self._review is None else _curve_svg(self._review, reviewed, self.ply)
            self.svg = render.svg(view, highlight=highlight, heat=heat, legend=True,
                                  show_attachment_points=self.overlay == "attachment")
            self.status = self._error or self._describe(view) + note
        self._error = ""

    def _moves(self, reviewed: int) -> list[dict]:
        """The ``moves`` trait: every move of the game, the review's judgement of the first
        ``reviewed``."""
        rows = self._review.rows[:reviewed] if self._review is not None else []
        out = []
        for ply, (colour, pid) in enumerate(self._game.history, 1):
            row = rows[ply - 1] if ply <= reviewed else None
            out.append({"ply": ply, "colour": int(colour), "colour_name": self._game.colour_name(int(colour)),
                        "move": self._game.move_text(int(pid)), "label": row["label"] if row else "",
                        "loss": float(row["loss"]) if row else None, "best_move": row["best_move"] if row else ""})
        return out

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


def _check_review(review) -> None:
    if review is not None and not isinstance(review, Review):
        raise TypeError(f"expected a blokus.analysis.Review (blokus.analysis.review(game)) or None, "
                        f"not {type(review).__name__}")


def _shared_moves(game: Game, reviewed: Game) -> int:
    """How many first moves ``game`` shares with the reviewed game (0 for another variant or
    start rule, whose placement ids mean other moves)."""
    if (game.variant, game.start) != (reviewed.variant, reviewed.start):
        return 0
    shared = 0
    for move, other in zip(game.history, reviewed.history):
        if tuple(move) != tuple(other):
            break
        shared += 1
    return shared


def _shapes() -> dict:
    """Each piece's squares in its first orientation, moved to row 0 and column 0."""
    table = placements("duo")
    out = {}
    for index, name in enumerate(_core.PIECE_NAMES):
        pid = int(np.flatnonzero(np.asarray(table.piece) == index)[0])
        cells = np.asarray(table.cells[pid][: table.size[pid]], dtype=int)
        out[name] = (cells - cells.min(axis=0)).tolist()
    return out


def _hands(view: Game) -> list[dict]:
    """The ``hands`` trait: each colour's pieces not yet placed."""
    palette = _palette(view)
    out = []
    for colour in range(view.num_colours):
        left = np.flatnonzero(np.asarray(view.remaining[colour]))
        out.append({"colour": colour, "colour_name": view.colour_name(colour), "rgb": _hex(palette[colour]),
                    "pieces": [_core.PIECE_NAMES[i] for i in left],
                    "squares": int(sum(_core.PIECE_SIZES[i] for i in left))})
    return out


def _curve_svg(review: Review, reviewed: int, ply: int) -> str:
    """The ``curve`` trait (its docstring describes the picture) for the first ``reviewed``
    moves, marking ``ply``."""
    step = CURVE_WIDTH / max(reviewed, 1)
    out = _curve_frame(review, reviewed, step)
    if 0 <= ply <= reviewed:
        out.append(f'<path class="bk-curve-now" d="M{_x(step, ply)} 0V{CURVE_HEIGHT}" stroke="#222222" '
                   f'stroke-width="1.5"/>')
    out += _curve_lines(review, reviewed, step) + _curve_points(review, reviewed, step)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _x(step: float, k: int) -> float:
    return round(step * k, 3)


def _y(p: float) -> float:
    return round(CURVE_HEIGHT * (1 - float(p)), 3)


def _curve_frame(review: Review, reviewed: int, step: float) -> list[str]:
    """The curve's <svg> start, its background, axis labels and the clickable column of each
    position (under everything else, so a point is clicked before its column)."""
    width, height = CURVE_WIDTH + 40, CURVE_HEIGHT + 28  # room for the axis labels
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="bk-curve" width="{width}" '
           f'height="{height}" viewBox="-34 -8 {width} {height}">',
           f"<title>{review.game.variant}: win probability per move, review by {escape(review.agent)}</title>",
           f'<rect class="bk-curve-area" x="0" y="0" width="{CURVE_WIDTH}" height="{CURVE_HEIGHT}" fill="#f7f7f7"/>',
           f'<path class="bk-curve-half" d="M0 {_y(0.5)}H{CURVE_WIDTH}" stroke="#aaaaaa" stroke-dasharray="3 3"/>']
    axis = 'class="bk-curve-axis" font-family="sans-serif" font-size="10" fill="#444444" text-anchor="end"'
    out += [f'<text {axis} x="-4" y="{_y(p) + 4}">{p:.0%}</text>' for p in (1.0, 0.5, 0.0)]
    out.append(f'<text {axis} x="{CURVE_WIDTH}" y="{CURVE_HEIGHT + 14}">moves played</text>')
    out += [f'<rect class="bk-curve-hit" data-ply="{k}" x="{_x(step, k) - step / 2:.3f}" y="0" width="{step:.3f}" '
            f'height="{CURVE_HEIGHT}" fill="#000000" fill-opacity="0"><title>move {k}</title></rect>'
            for k in range(reviewed + 1)]
    return out


def _curve_lines(review: Review, reviewed: int, step: float) -> list[str]:
    """One polyline per player, in the colour of its first colour."""
    game = review.game
    palette = _palette(game)
    out = []
    for player, colours in enumerate(variant_facts(game.variant).player_colours):
        points = " ".join(f"{_x(step, k)},{_y(review.curve[k, player])}" for k in range(reviewed + 1))
        out.append(f'<polyline class="bk-curve-line" data-player="{player}" points="{points}" fill="none" '
                   f'stroke="{_hex(palette[colours[0]])}" stroke-width="2"><title>player {player} '
                   f'({", ".join(game.colour_name(c) for c in colours)})</title></polyline>')
    return out


def _curve_points(review: Review, reviewed: int, step: float) -> list[str]:
    """A point per reviewed move on its mover's line, filled by its label, ringed in the
    mover's colour; the costly labels drawn larger."""
    palette = _palette(review.game)
    out = []
    for row in review.rows[:reviewed]:
        k, label = row["ply"], row["label"]
        tip = (f"{k}. {row['colour_name']} {row['move']}: {row['win_probability_before']:.0%} -> "
               f"{row['win_probability_after']:.0%} ({label})")
        out.append(f'<circle class="bk-curve-point bk-curve-{label}" data-ply="{k}" cx="{_x(step, k)}" '
                   f'cy="{_y(review.curve[k, row["player"]])}" r="{5 if label in ("mistake", "blunder") else 3.5}" '
                   f'fill="{LABEL_COLOURS[label]}" stroke="{_hex(palette[row["colour"]])}" stroke-width="1.5">'
                   f"<title>{escape(tip)}</title></circle>")
    return out


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
