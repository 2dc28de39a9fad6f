"""Hypothesis properties over random games of every variant and start rule.

A game is drawn as (variant, start rule, a list of integers); each integer picks one of the
legal moves of the colour to move. On the positions reached:

* undo restores the exact earlier state (board, history, key, to_move, remaining, scores);
* copies (``copy()``, ``copy.copy``, ``copy.deepcopy``, pickle) are independent;
* ``legal_mask`` agrees with ``legal_moves`` for every colour;
* every legal move plays without error (on a copy), the legal set equals the reference's
  (``reference.py``, from rules.md), and other placement ids raise ``IllegalMoveError`` naming a
  rule they break, leaving the game unchanged;
* the board view agrees with the history (each placement's cells carry its colour, all else -1),
  and ``remaining``, scores, player scores, winners, ``to_move`` (skips), ``is_out``, ``is_over``
  and ``player_to_move`` follow from the history by the rules.
"""

import copy
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blokus

from reference import (
    PIECE_SIZES,
    VARIANTS,
    RefGame,
    attachment_points,
)
from reference import (
    player_scores as ref_player_scores,
)
from reference import (
    player_to_move as ref_player_to_move,
)
from reference import (
    winners as ref_winners,
)

ALL_VARIANTS = list(VARIANTS)
SETTINGS = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
REASONS = ("off board", "occupied", "already used", "edge", "corner", "starting")


@st.composite
def game_specs(draw, max_plies=90):
    variant = draw(st.sampled_from(ALL_VARIANTS))
    start = draw(st.sampled_from(["any", "fixed"]))
    n = draw(st.integers(0, max_plies))
    picks = draw(st.lists(st.integers(0, 2**16), min_size=n, max_size=n))
    return variant, start, picks


def build(spec, on_ply=None):
    variant, start, picks = spec
    game = blokus.Game(variant, start=start)
    for x in picks:
        moves = game.legal_moves()
        if len(moves) == 0:
            break
        if on_ply is not None:
            on_ply(game)
        game.play(int(moves[x % len(moves)]))
    return game


def history(game):
    return [tuple(int(x) for x in h) for h in game.history]


def state(game):
    return {
        "board": game.board.copy(),
        "history": history(game),
        "to_move": int(game.to_move),
        "key": int(game.key),
        "remaining": np.array(game.remaining, copy=True),
        "scores": [int(s) for s in game.scores()],
        "player_scores": [int(s) for s in game.player_scores()],
        "winners": [int(w) for w in game.winners()],
        "player_to_move": int(game.player_to_move),
        "is_over": bool(game.is_over),
        "legal": [game.legal_moves(c).tolist() for c in range(game.num_colours)],
    }


def assert_state(a, b):
    assert a.keys() == b.keys()
    for k in a:
        if isinstance(a[k], np.ndarray):
            assert np.array_equal(a[k], b[k]), k
        else:
            assert a[k] == b[k], k


def cells_of(pl, pid):
    n = int(pl.size[pid])
    return [(int(r), int(c)) for r, c in np.asarray(pl.cells[pid, :n])]


def reference_of(game, variant, start):
    """The reference position with the engine's history placed on it."""
    pl = blokus.placements(variant)
    ref = RefGame(variant, start)
    for colour, pid in history(game):
        ref.place(colour, cells_of(pl, pid))
    return ref


_ID_BY_CELLS = {}


def id_by_cells(variant):
    """Engine placement id of each cell set (the table itself is checked in test_geometry)."""
    if variant not in _ID_BY_CELLS:
        pl = blokus.placements(variant)
        _ID_BY_CELLS[variant] = {
            frozenset(cells_of(pl, i)): i for i in range(len(np.asarray(pl.piece)))
        }
    return _ID_BY_CELLS[variant]


def reference_ids(ref, variant, colour):
    """Engine placement ids of the reference's legal placements."""
    index = id_by_cells(variant)
    return {index[ref.table.cellsets[i]] for i in np.flatnonzero(ref.legal_mask(colour))}


# ------------------------------------------------------------------ properties
@pytest.mark.slow
@SETTINGS
@given(game_specs())
def test_undo_restores_exact_state(spec):
    snaps = []
    game = build(spec, on_ply=lambda g: snaps.append(state(g)))
    final = state(game)
    # one step out and back
    if not game.is_over:
        moves = game.legal_moves()
        game.play(int(moves[len(moves) // 2]))
        game.undo()
        assert_state(final, state(game))
    # all the way back to the start
    for snap in reversed(snaps):
        game.undo()
        assert_state(snap, state(game))
    assert len(game.history) == 0
    fresh = blokus.Game(spec[0], start=spec[1])
    assert_state(state(fresh), state(game))


@SETTINGS
@given(game_specs(), st.sampled_from(["method", "copy", "deepcopy", "pickle"]))
def test_copies_are_independent(spec, how):
    game = build(spec)
    dup = {
        "method": lambda g: g.copy(),
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    }[how](game)
    before, dup_before = state(game), state(dup)
    assert_state(before, dup_before)
    if not dup.is_over:
        dup.play(int(dup.legal_moves()[0]))
        assert_state(before, state(game))
        dup.undo()
    if len(game.history):
        game.undo()
        assert_state(dup_before, state(dup))


@SETTINGS
@given(game_specs())
def test_equality_follows_the_position(spec):
    game = build(spec)
    dup = game.copy()
    assert dup == game
    if not game.is_over:
        dup.play(int(dup.legal_moves()[-1]))
        assert dup != game
        assert dup.key != game.key
        dup.undo()
        assert dup == game
    again = build(spec)  # the same moves from scratch
    assert again == game and again.key == game.key


@SETTINGS
@given(game_specs())
def test_legal_mask_agrees_with_legal_moves(spec):
    game = build(spec)
    n = len(np.asarray(blokus.placements(spec[0]).piece))
    colours = list(range(game.num_colours)) + ([None] if not game.is_over else [])
    for c in colours:
        moves = game.legal_moves(c)
        mask = game.legal_mask(c)
        assert mask.shape == (n,) and mask.dtype == np.bool_
        assert moves.dtype == np.int32
        assert np.array_equal(np.flatnonzero(mask), moves)


@pytest.mark.slow
@SETTINGS
@given(game_specs(), st.randoms(use_true_random=False))
def test_legal_moves_play_and_others_raise(spec, rnd):
    variant, start, _ = spec
    game = build(spec)
    ref = reference_of(game, variant, start)
    for c in range(game.num_colours):
        ids = reference_ids(ref, variant, c)
        assert set(game.legal_moves(c).tolist()) == ids, "colour %d" % c
    pl = blokus.placements(variant)
    if game.is_over:
        before = state(game)
        for pid in rnd.sample(range(len(np.asarray(pl.piece))), 10):
            try:
                game.play(pid)
            except blokus.IllegalMoveError as e:
                assert "game over" in str(e).lower()
            else:
                raise AssertionError("a move was accepted after the game ended")
            assert_state(before, state(game))
        return
    colour = game.to_move
    n_filled = int((game.board != -1).sum())
    legal = game.legal_moves().tolist()
    for pid in legal:
        dup = game.copy()
        dup.play(pid)
        assert history(dup)[-1] == (colour, pid)
        cs = cells_of(pl, pid)
        assert all(dup.board[r, c] == colour for r, c in cs)
        assert int((dup.board != -1).sum()) == n_filled + len(cs)
        assert not np.asarray(dup.remaining)[colour, int(pl.piece[pid])]
    before = state(game)
    others = sorted(set(range(len(np.asarray(pl.piece)))) - set(legal))
    for pid in rnd.sample(others, min(40, len(others))):
        try:
            game.play(pid)
        except blokus.IllegalMoveError as e:
            msg = str(e).lower()
        else:
            raise AssertionError("illegal placement %d was accepted" % pid)
        broken = ref.broken_rules(colour, cells_of(pl, pid))
        assert broken, pid
        assert any(reason in msg for reason in broken), (pid, broken, msg)
        assert_state(before, state(game))


@pytest.mark.slow
@SETTINGS
@given(game_specs())
def test_state_agrees_with_history(spec):
    variant, start, _ = spec
    game = build(spec)
    pl = blokus.placements(variant)
    size, colours, _ = VARIANTS[variant]
    hist = history(game)
    # board
    expected = np.full((size, size), -1, dtype=np.int8)
    for colour, pid in hist:
        for r, c in cells_of(pl, pid):
            assert expected[r, c] == -1  # placements never overlap
            expected[r, c] = colour
    assert game.board.dtype == np.int8
    assert np.array_equal(game.board, expected)
    # remaining pieces and scores
    rem = np.ones((colours, 21), dtype=bool)
    last = [None] * colours
    for colour, pid in hist:
        p = int(pl.piece[pid])
        assert rem[colour, p]  # each piece at most once
        rem[colour, p] = False
        last[colour] = p
    assert np.array_equal(np.asarray(game.remaining), rem)
    scores = []
    for c in range(colours):
        left = sum(PIECE_SIZES[p] for p in range(21) if rem[c, p])
        scores.append(-left if left else (20 if last[c] == 0 else 15))
    assert [int(s) for s in game.scores()] == scores
    assert [int(s) for s in game.player_scores()] == ref_player_scores(variant, scores)
    assert [int(w) for w in game.winners()] == ref_winners(variant, scores)
    # turn order with skips, is_out, is_over, player to move
    ref = reference_of(game, variant, start)
    can_move = [ref.count_legal(c) > 0 for c in range(colours)]
    assert [bool(game.is_out(c)) for c in range(colours)] == [not m for m in can_move]
    assert game.is_over == (not any(can_move))
    expected_to_move = ref.next_mover(hist[-1][0]) if hist else 0
    assert game.to_move == expected_to_move
    greens = sum(1 for c, _ in hist if c == 3)
    assert game.player_to_move == ref_player_to_move(variant, expected_to_move, greens)


def points_with_placements(ref, colour):
    """The attachment points at which move generation produces a placement of `colour`: each
    legal placement at the first attachment point it covers, in row-major order (its cells'
    lowest rank among the points)."""
    board = ref.board2d()
    points = np.flatnonzero(attachment_points(board, colour, []).ravel())
    rank = np.full(ref.size * ref.size + 1, len(points))  # the sentinel cell and other cells: no point
    rank[points] = np.arange(len(points))
    firsts = rank[ref.table.flat[ref.legal_mask(colour)]].min(axis=1, initial=len(points))
    return set(points.tolist()), set(points[np.unique(firsts)].tolist())


@pytest.mark.slow
@SETTINGS
@given(game_specs())
def test_a_point_without_placement_never_gets_one(spec):
    """The search's playouts pass over the attachment points known to produce no placement
    (core/movegen.h's bk_dead_points): placements only take cells and pieces away, and an
    earlier point that stops being one becomes forbidden, so such a point produces none at
    every later position of the game."""
    variant, start, _ = spec
    game = build(spec)
    pl = blokus.placements(variant)
    ref = RefGame(variant, start)
    dead = [set() for _ in range(ref.num_colours)]
    for colour, pid in history(game):
        ref.place(colour, cells_of(pl, pid))
        for c in range(ref.num_colours):
            if ref.is_first(c):
                continue  # the starting squares: no marks
            points, live = points_with_placements(ref, c)
            assert not dead[c] & live
            dead[c] |= points - live
