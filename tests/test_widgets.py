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


# ------------------------------------------------------------------ the review's parts
def hand_review():
    """A review of purple e10, orange j5 (Duo, fixed start) written by hand: purple's move cost it
    0.25 of win probability (a blunder: 0.20 or more), orange's 0.03 (good: below 0.05)."""
    from blokus.analysis import Review

    game = blokus.Game("duo", start="fixed")
    game.play("e10")
    game.play("j5")
    curve = np.array([[0.5, 0.5], [0.25, 0.75], [0.28, 0.72]])
    rows = []
    for ply, (colour, pid), label, best in ((1, game.history[0], "blunder", "e8,d9,e9,f9,e10"),
                                            (2, game.history[1], "good", "j5,j6")):
        before, after = curve[ply - 1, colour], curve[ply, colour]
        rows.append({"ply": ply, "colour": colour, "colour_name": game.colour_name(colour), "player": colour,
                     "move": game.move_text(pid), "id": pid, "best_move": best, "best_id": -1,
                     "win_probability_before": before, "win_probability_after": after, "loss": before - after,
                     "label": label})
    return Review(game, rows, curve, "by hand")


def curve_points(svg):
    """{ply: (cx, cy, fill, radius)} of the curve's move points."""
    found = re.findall(r'<circle class="bk-curve-point [^"]*" data-ply="(\d+)" cx="([-\d.]+)" cy="([-\d.]+)" '
                       r'r="([\d.]+)" fill="(#\w+)"', svg)
    return {int(k): (float(x), float(y), fill, float(r)) for k, x, y, r, fill in found}


def test_a_review_draws_its_curve_with_a_point_per_move_on_the_movers_line():
    review = hand_review()
    board = Board(review=review)
    assert board.game.history == review.game.history and board.game is not review.game
    assert (board.reviewed, board.ply) == (2, 2)
    # 2 moves over 300 units: x = 0, 150, 300; y = 100 * (1 - p). Purple's blunder on purple's line
    # at 0.25 (y 75), big and dark red; orange's good move on orange's line at 0.72 (y 28).
    assert curve_points(board.curve) == {1: (150, 75, "#bd0026", 5), 2: (300, 28, "#d9d9d9", 3.5)}
    lines = dict(re.findall(r'data-player="(\d)" points="([^"]*)"', board.curve))
    assert lines == {"0": "0.0,50.0 150.0,75.0 300.0,72.0", "1": "0.0,50.0 150.0,25.0 300.0,28.0"}
    assert re.findall(r'class="bk-curve-hit" data-ply="(\d+)"', board.curve) == ["0", "1", "2"]
    assert 'class="bk-curve-now" d="M300.0 0V100"' in board.curve
    board.ply = 1  # what a click on the first point sets
    assert 'class="bk-curve-now" d="M150.0 0V100"' in board.curve and "move 1 of 2" in board.status


def test_the_move_list_carries_the_reviews_labels_until_a_move_replaces_them():
    board = Board(hand_review().game.copy(), review=hand_review())
    assert [(m["ply"], m["colour_name"], m["move"], m["label"]) for m in board.moves] == [
        (1, "purple", "e10", "blunder"), (2, "orange", "j5", "good")]
    assert board.moves[0]["loss"] == pytest.approx(0.25) and board.moves[0]["best_move"] == "e8,d9,e9,f9,e10"
    board.ply = 1
    board.play("j5,j6")  # another orange move: the review still judges purple's, not this one
    assert board.reviewed == 1
    assert [(m["move"], m["label"], m["loss"]) for m in board.moves][1] == ("j5,j6", "", None)
    assert set(curve_points(board.curve)) == {1}
    assert re.findall(r'class="bk-curve-hit" data-ply="(\d+)"', board.curve) == ["0", "1"]
    board.show_review(None)
    assert board.curve == "" and board.reviewed == 0 and {m["label"] for m in board.moves} == {""}


def test_showing_a_review_of_another_game_shows_that_game_and_a_new_game_drops_it():
    review = hand_review()
    board = Board(variant="duo")
    board.show_review(review)
    assert board.game.history == review.game.history and board.review is review and board.reviewed == 2
    same = board.game
    board.show_review(review)  # the same moves: the board keeps its game
    assert board.game is same
    board.show_game(blokus.Game("duo", start="fixed"))
    assert board.review is None and board.curve == ""
    with pytest.raises(TypeError, match="Review"):
        board.show_review(review.rows)
    with pytest.raises(TypeError, match="Review"):
        Board(review="review.csv")
    with pytest.raises(ValueError, match="another game"):
        Board(blokus.Game("duo", start="fixed"), review=review)  # the empty game lacks e10 and j5
    assert board.review is None


def test_a_real_review_is_shown_whole():
    from blokus.analysis import review

    game = sgf.loads(open(os.path.join(DATA, "pentobi_duo.blksgf")).readline())
    for _ in range(len(game.history) - 4):
        game.undo()
    board = Board(game, review=review(game, "mcts:sims=50", seed=1, solve=0, workers=1))
    assert board.reviewed == 4 and set(curve_points(board.curve)) == {1, 2, 3, 4}
    assert all(m["label"] in ("best", "good", "inaccuracy", "mistake", "blunder") for m in board.moves)


def test_hands_list_each_colours_pieces_and_squares():
    # Duo: 21 pieces of 1 + 2 + 2 * 3 + 5 * 4 + 12 * 5 = 89 squares each; purple's monomino leaves 88.
    board = Board(variant="duo")
    board.play("e10")
    purple, orange = board.hands
    assert (purple["colour_name"], purple["rgb"], len(purple["pieces"]), purple["squares"]) == (
        "purple", "#783caa", 20, 88)
    assert "1" not in purple["pieces"] and orange["pieces"] == list(blokus.PIECE_NAMES) and orange["squares"] == 89
    board.ply = 0
    assert board.hands[0]["squares"] == 89
    # The shapes: as many squares as the name says, and the X's plus sign.
    assert sorted(map(tuple, board.shapes["X"])) == [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]
    assert [len(board.shapes[n]) for n in ("1", "2", "V3", "O", "F")] == [1, 2, 3, 4, 5]


def test_an_overlays_heat_map_gets_its_colour_scale():
    # The X's placements cover cells 1, 2 or 5 times (test above): the scale runs from 1 to 5.
    board = Board(variant="duo")
    assert "bk-legend" not in board.svg
    board.overlay, board.piece = "placements", "X"
    assert re.findall(r'class="bk-legend-label"[^>]*>([^<]*)<', board.svg) == ["1", "5"]
