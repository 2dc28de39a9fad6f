"""blokus.widgets.Board, its Python side: the browser's clicks are simulated as the traitlets it
sets (``cell``, ``ply``, ``overlay``, ...) and the custom messages it sends (play, load)."""
import os
import re

import numpy as np
import pytest

import blokus
from blokus import sgf

pytest.importorskip("anywidget", reason='blokus.widgets needs anywidget: pip install -e ".[widgets]"')
import traitlets  # noqa: E402  (anywidget brings it)

from blokus.widgets import Board  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "data")
E10 = (4, 4)  # purple's starting square in Duo under the fixed start rule
J5 = (9, 9)  # orange's


def click(board, row, col):
    board.cell = [row, col]


def send(board, content):
    """What widgets.js's model.send(content) delivers to the kernel."""
    board._handle_custom_msg(content, [])


def heat_cells(svg):
    """{cell text: value} of the heat map's tooltips in an SVG from blokus.render."""
    return dict(re.findall(r'class="bk-heat"[^>]*><title>(\w+): ([-\d.e+]+)</title>', svg))


def test_a_new_board_shows_an_empty_duo_game_held_as_a_plain_game():
    game = blokus.Game("duo", start="fixed")
    board = Board(game)
    assert board.game is game
    assert (board.ply, board.length) == (0, 0)
    assert "purple to move" in board.status
    assert board.svg.startswith("<svg")


def test_a_click_on_the_starting_square_lists_every_first_placement():
    # Under the fixed start rule purple's first piece must cover e10, so the placements covering
    # e10 are all of its first placements: 414 (README; Pentobi's move generator agrees).
    board = Board(variant="duo")
    click(board, *E10)
    ids = [c["id"] for c in board.candidates]
    assert len(ids) == 414 == len(set(ids))
    assert set(ids) == set(blokus.Game("duo", start="fixed").legal_moves().tolist())
    table = blokus.placements("duo")
    sizes = [c["size"] for c in board.candidates]
    assert sizes == sorted(sizes, reverse=True)  # largest piece first
    assert all(E10 in map(tuple, table.cells[i][: table.size[i]].tolist()) for i in ids)


def test_a_click_far_from_the_starting_square_lists_nothing():
    board = Board(variant="duo")
    click(board, 13, 0)  # a1: no piece reaches from there to e10 (at most 4 cells apart)
    assert board.candidates == []


def test_playing_a_candidate_by_its_message_plays_it_on_the_game():
    board = Board(variant="duo")
    click(board, *E10)
    monomino = next(c for c in board.candidates if c["piece"] == "1")
    assert monomino["move"] == "e10"
    send(board, {"event": "play", "id": monomino["id"]})
    assert board.game.history == [(0, monomino["id"])]
    assert (board.ply, board.length, board.cell) == (1, 1, [])
    assert "orange to move" in board.status
    click(board, *J5)  # orange's square: again all of its first placements, by symmetry 414
    assert len(board.candidates) == 414


def test_an_illegal_play_message_leaves_the_game_unchanged_and_says_why():
    board = Board(variant="duo")
    table = blokus.placements("duo")
    far = int(np.flatnonzero((table.piece == 0) & (table.anchor_row == 13) & (table.anchor_col == 0))[0])
    send(board, {"event": "play", "id": far})  # the monomino on a1 misses e10
    assert board.game.history == []
    assert "IllegalMoveError" in board.status and "starting square" in board.status
    send(board, {"event": "dance"})
    assert "unknown message" in board.status
    send(board, {"event": "play", "id": 2**70})
    assert board.game.history == [] and "Error" in board.status


def test_stepping_back_shows_the_earlier_position_and_a_move_there_replaces_the_rest():
    game = sgf.loads(open(os.path.join(DATA, "pentobi_duo.blksgf")).readline())
    moves = [pid for _, pid in game.history]
    board = Board(game)
    assert board.ply == len(moves)
    board.ply = 2
    assert [pid for _, pid in board.position.history] == moves[:2]
    assert len(board.game.history) == len(moves)  # only shown, nothing undone
    assert "move 2 of" in board.status
    with pytest.raises(traitlets.TraitError):
        board.ply = len(moves) + 1
    alternative = next(p for p in board.position.legal_moves().tolist() if p != moves[2])
    board.play(alternative)
    assert [pid for _, pid in board.game.history] == moves[:2] + [alternative]
    assert (board.ply, board.length) == (3, 3)


def test_the_placements_overlay_of_the_x_counts_its_placements_per_cell():
    # Purple's first X must cover e10: one of its 5 squares lies there, 5 placements, all on the
    # board, centred on e10 or on one of its 4 edge neighbours. Their union is the 13 cells within
    # 2 edge steps of e10: e10 is covered 5 times, each edge neighbour twice (centre there or at
    # e10), each diagonal neighbour twice (by the two centres beside it), the 4 cells 2 steps
    # straight away once.
    board = Board(variant="duo")
    board.overlay, board.piece = "placements", "X"
    heat = heat_cells(board.svg)
    assert len(heat) == 13
    assert heat["e10"] == "5"
    assert sorted(heat.values()) == ["1"] * 4 + ["2"] * 8 + ["5"]
    assert "5 legal placements of X" in board.status
    with pytest.raises(traitlets.TraitError):
        board.piece = "Q"


def test_the_attachment_overlay_dots_the_open_starting_square():
    board = Board(variant="duo")
    board.overlay = "attachment"
    assert board.svg.count('class="bk-attach"') == 1  # before its first piece: e10 only


def test_the_territory_overlay_before_any_piece_is_the_nearer_starting_square():
    # With no piece down every empty cell is open, so a colour's distance to a cell is its king
    # distance from its starting square; purple owns the cells strictly nearer to e10 than j5.
    board = Board(variant="duo")
    board.overlay = "territory"
    rows, cols = np.mgrid[0:14, 0:14]
    to_e10 = np.maximum(abs(rows - 4), abs(cols - 4))
    to_j5 = np.maximum(abs(rows - 9), abs(cols - 9))
    heat = heat_cells(board.svg)
    mine = {k for k, v in heat.items() if float(v) == 1}
    assert len(mine) == int((to_e10 < to_j5).sum())
    assert len(heat) - len(mine) == int((to_j5 < to_e10).sum())
    assert "a14" in mine and "n1" not in mine  # the corner next to e10, the one next to j5


def test_the_mcts_overlay_heats_only_cells_a_first_piece_can_cover():
    board = Board(variant="duo")
    board.agent = "mcts:sims=200"
    board.overlay = "mcts"
    heat = heat_cells(board.svg)
    assert heat
    # A first piece covers e10 and spans at most 4 cells in each direction from it.
    for text in heat:
        col, row = ord(text[0]) - ord("a"), 14 - int(text[1:])
        assert max(abs(row - 4), abs(col - 4)) <= 4
    shares = [float(v) for v in heat.values()]
    assert max(shares) <= 1 and "mcts:sims=200: best" in board.status
    again = board.svg
    board.seed = 0
    assert board.svg == again  # same position and seed, same search
    for bad in ("greedy", "mcts:sims=-1"):
        with pytest.raises(traitlets.TraitError):
            board.agent = bad
    assert board.agent == "mcts:sims=200"


def test_loading_a_record_by_path_text_and_message():
    path = os.path.join(DATA, "pentobi_duo.blksgf")
    first = sgf.read(path, mainline=True)[0]
    board = Board.load(path)
    assert board.game.history == first.history
    board = Board()
    send(board, {"event": "load", "text": open(path).read()})
    assert board.game.history == first.history and board.ply == len(first.history)
    send(board, {"event": "load", "text": "(;GM[Go])"})
    assert "unsupported variant" in board.status
    assert board.game.history == first.history


def test_a_selected_cell_is_on_the_board():
    board = Board(variant="duo")
    with pytest.raises(traitlets.TraitError):
        board.cell = [14, 0]
    with pytest.raises(TypeError):
        Board("duo")


def test_refresh_follows_changes_made_outside():
    game = blokus.Game("duo", start="fixed")
    board = Board(game)
    game.play("e10")
    board.refresh(ply=1)
    assert board.length == 1 and "last purple e10" in board.status
    game.undo()
    board.refresh()
    assert (board.ply, board.length) == (0, 0)


def _open_widgets():
    """ipywidgets' registry of open widgets, {model id: widget}: a module dict since ipywidgets 8,
    ``Widget.widgets`` before."""
    from ipywidgets.widgets import widget
    return widget._instances if hasattr(widget, "_instances") else widget.Widget.widgets


@pytest.mark.slow
def test_closed_boards_leave_nothing_registered():
    import gc
    import weakref

    import ipywidgets
    registry = _open_widgets()
    before = dict(registry)
    boards, layouts = [], []
    for _ in range(5):
        board = Board()
        assert registry[board.model_id] is board and registry[board.layout.model_id] is board.layout
        boards.append(weakref.ref(board))
        layouts.append(weakref.ref(board.layout))
        board.close()
        board.close()  # a second close is harmless
    del board
    gc.collect()
    assert registry == before
    assert all(ref() is None for ref in boards + layouts)  # nothing else holds them: memory is freed
    # a layout passed in is the caller's: it stays open, and usable by another widget
    shared = ipywidgets.Layout(width="300px")
    board = Board(layout=shared)
    board.close()
    assert registry[shared.model_id] is shared
    shared.close()
    assert registry == before
