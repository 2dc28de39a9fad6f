"""The Python API contract of ``blokus.Game`` (issue 2), value by value.

* construction: variants, ``start`` keyword-only, bad values raise ``ValueError``;
* ``board``: ``(H, W)`` int8, -1 empty, read-only, a live view, valid after ``del game``;
* ``remaining``: ``(colours, 21)`` bool, live; ``legal_mask`` agrees with ``legal_moves``;
* ``play`` accepts an int, a NumPy int, text in any cell order and case, an iterable of
  ``(row, col)``; malformed input raises ``TypeError`` / ``ValueError`` and changes nothing;
* ``undo`` (``IndexError`` at the start), ``copy``, ``copy.copy`` / ``deepcopy``, pickle, ``==``,
  ``key`` (a hash of the position: equal for transpositions);
* ``repr`` / ``str``; 100,000 play/undo cycles do not grow memory;
* ``random_playouts``: shape, dtype, seeded reproducibility, scores in the rules' range.
"""

import copy
import gc
import os
import pickle
import re
import resource
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import blokus

import constructed
from reference import PIECE_NAMES, VARIANTS

ALL_VARIANTS = list(VARIANTS)


def ints(xs):
    return [int(x) for x in xs]


def history(game):
    return [tuple(int(x) for x in h) for h in game.history]


def cells(variant, pid):
    pl = blokus.placements(variant)
    n = int(pl.size[pid])
    return [(int(r), int(c)) for r, c in np.asarray(pl.cells[pid, :n])]


def state(game):
    return (
        game.board.copy(),
        history(game),
        int(game.to_move),
        int(game.key),
        np.array(game.remaining, copy=True),
        ints(game.scores()),
    )


def same_state(a, b):
    return (
        np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        and np.array_equal(a[4], b[4]) and a[5] == b[5]
    )


def play_some(game, n, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        moves = game.legal_moves()
        if len(moves) == 0:
            break
        game.play(int(moves[rng.integers(len(moves))]))
    return game


# ------------------------------------------------------------------ construction
@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("start", ["any", "fixed"])
def test_construct(variant, start):
    game = blokus.Game(variant, start=start)
    assert game.to_move == 0
    assert not game.is_over
    assert game.history == [] or len(game.history) == 0


def test_default_is_classic():
    game = blokus.Game()
    assert tuple(game.shape) == (20, 20)
    assert game.num_colours == 4 and game.num_players == 4


@pytest.mark.parametrize("kwargs", [
    {"variant": "chess"}, {"variant": "Classic5"}, {"variant": ""},
    {"variant": "duo", "start": "corner"}, {"start": "random"},
])
def test_bad_variant_or_start(kwargs):
    with pytest.raises(ValueError):
        blokus.Game(**kwargs)


def test_start_is_keyword_only():
    with pytest.raises(TypeError):
        blokus.Game("classic", "any")


# ------------------------------------------------------------------ board view
@pytest.mark.parametrize("variant,shape", [("classic", (20, 20)), ("duo", (14, 14))])
def test_board_initial(variant, shape):
    board = blokus.Game(variant).board
    assert board.shape == shape
    assert board.dtype == np.int8
    assert np.all(board == -1)


def test_board_read_only():
    game = blokus.Game()
    board = game.board
    assert not board.flags.writeable
    with pytest.raises(ValueError):
        board[0, 0] = 1
    with pytest.raises(ValueError):
        game.board[:] = 0
    assert np.all(game.board == -1)


def test_board_is_live():
    game = blokus.Game("classic", start="fixed")
    board = game.board
    snap = board.copy()
    game.play("a20,b20,c20,c19,c18")
    assert [int(board[r, c]) for r, c in [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]] == [0] * 5
    assert int((board != -1).sum()) == 5
    assert np.all(snap == -1)  # .copy() keeps a snapshot
    game.play("t20")
    assert board[0, 19] == 1
    game.undo()
    assert board[0, 19] == -1
    game.undo()
    assert np.all(board == -1)


@pytest.mark.slow
def test_board_survives_game_deletion():
    game = blokus.Game("duo", start="fixed")
    game.play("e10")
    game.play("j5,j6")
    board = game.board
    del game
    gc.collect()
    # churn the allocator so freed memory would be reused
    junk = [blokus.Game("duo") for _ in range(200)]
    for g in junk:
        play_some(g, 4)
    del junk
    gc.collect()
    expected = np.full((14, 14), -1, dtype=np.int8)
    expected[4, 4] = 0
    expected[9, 9] = 1
    expected[8, 9] = 1
    assert np.array_equal(board, expected)
    assert board.base is not None


def test_remaining_view():
    game = blokus.Game("classic", start="fixed")
    rem = game.remaining
    assert rem.shape == (4, 21)
    assert rem.dtype == np.bool_
    assert rem.all()
    game.play("a20,b20,c20,d20,e20")  # blue's I5
    i5 = PIECE_NAMES.index("I5")
    now = np.asarray(game.remaining)
    assert not now[0, i5]
    assert int(now.sum()) == 4 * 21 - 1
    game.play("t20")  # yellow's monomino
    now = np.asarray(game.remaining)
    assert not now[1, 0] and now[0, 0]


def test_remaining_is_live():
    game = blokus.Game("classic", start="fixed")
    rem = game.remaining
    game.play("a20,b20")
    assert not rem[0, PIECE_NAMES.index("2")]
    game.undo()
    assert rem.all()


# ------------------------------------------------------------------ legal moves
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_legal_mask_agrees_with_legal_moves(variant):
    n = len(np.asarray(blokus.placements(variant).piece))
    game = blokus.Game(variant)
    for ply in range(30):
        for c in [None] + list(range(game.num_colours)):
            moves = game.legal_moves(c)
            mask = game.legal_mask(c)
            assert moves.dtype == np.int32
            assert mask.dtype == np.bool_
            assert mask.shape == (n,)
            assert np.array_equal(np.flatnonzero(mask), moves)
            assert np.all(np.diff(moves) > 0)  # ascending, no repeats
        if game.is_over:
            break
        assert np.array_equal(game.legal_moves(), game.legal_moves(game.to_move))
        play_some(game, 1, seed=ply)


def test_legal_moves_is_a_value():
    # legal_moves / legal_mask return arrays of ids, not buffers reused by later calls.
    game = blokus.Game("classic", start="fixed")
    blue = game.legal_moves(0)
    blue_copy = blue.copy()
    mask = game.legal_mask(0)
    mask_copy = mask.copy()
    game.legal_moves(2)
    game.legal_mask(2)
    game.play(int(blue[0]))
    game.legal_moves()
    game.legal_mask()
    assert np.array_equal(blue, blue_copy)
    assert np.array_equal(mask, mask_copy)


# ------------------------------------------------------------------ play input forms
FIRST = "c18,c19,a20,b20,c20"  # blue's L5 in the top-left corner


def _played(move):
    game = blokus.Game("classic", start="fixed")
    game.play(move)
    return history(game)


@pytest.mark.parametrize("form", [
    "int", "np.int32", "np.int64", "np.intp", "np.uint16",
    "text", "text-shuffled", "text-upper", "text-mixed",
    "list-of-tuples", "tuple-of-tuples", "list-of-lists", "generator", "ndarray",
])
def test_play_input_forms(form):
    pid = blokus.parse_move(FIRST, "classic")
    rc = cells("classic", pid)
    move = {
        "int": pid,
        "np.int32": np.int32(pid),
        "np.int64": np.int64(pid),
        "np.intp": np.intp(pid),
        "np.uint16": np.uint16(pid),
        "text": FIRST,
        "text-shuffled": "a20,c18,c20,b20,c19",
        "text-upper": "C18,C19,A20,B20,C20",
        "text-mixed": "b20,A20,c19,C18,c20",
        "list-of-tuples": list(reversed(rc)),
        "tuple-of-tuples": tuple(rc),
        "list-of-lists": [list(x) for x in rc],
        "generator": (x for x in rc),
        "ndarray": np.array(rc),
    }[form]
    assert _played(move) == [(0, pid)]


@pytest.mark.parametrize("bad", [None, 1.5, 3.0, object()])
def test_play_bad_type(bad):
    game = blokus.Game()
    before = state(game)
    with pytest.raises(TypeError):
        game.play(bad)
    assert same_state(before, state(game))


@pytest.mark.parametrize("bad", [
    "", "zz", "a20,,b20", "a", "20a", "a20;b20", "a20,a20", "a20,b19",
    -1, 30433, 10**12,
    [], [(0, 0), (0, 0)], [(0, 0), (0, 2)], [(0, 0), (1, 1)],
    [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5)],
    [(0,)], [(0, 0, 0)],
])
def test_play_malformed(bad):
    game = blokus.Game()
    before = state(game)
    with pytest.raises((ValueError, TypeError)):
        game.play(bad)
    assert same_state(before, state(game))


def test_play_bad_id_is_value_error():
    game = blokus.Game("duo")
    for bad in (-1, 13729, 2**31):
        with pytest.raises(ValueError):
            game.play(bad)


# ------------------------------------------------------------------ undo / copy / pickle / key
def test_undo_at_start():
    game = blokus.Game()
    with pytest.raises(IndexError):
        game.undo()
    game.play("a20")
    game.undo()
    with pytest.raises(IndexError):
        game.undo()


def test_undo_restores_fresh_game():
    fresh = blokus.Game("duo")
    game = blokus.Game("duo")
    play_some(game, 10)
    for _ in range(10):
        game.undo()
    assert same_state(state(game), state(fresh))
    assert game.key == fresh.key
    assert game == fresh


@pytest.mark.parametrize("how", ["method", "copy.copy", "copy.deepcopy"])
def test_copy_is_independent(how):
    game = play_some(blokus.Game("classic"), 12)
    dup = {"method": lambda g: g.copy(), "copy.copy": copy.copy, "copy.deepcopy": copy.deepcopy}[how](game)
    assert dup is not game
    assert dup.key == game.key
    assert same_state(state(dup), state(game))
    before = state(game)
    dup_board = dup.board
    play_some(dup, 3, seed=5)
    assert same_state(before, state(game))
    assert not np.shares_memory(dup_board, game.board)
    dup_before = state(dup)
    game.undo()
    game.undo()
    assert same_state(dup_before, state(dup))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(protocol):
    for variant, start in (("classic_3", "fixed"), ("duo", "any")):
        game = play_some(blokus.Game(variant, start=start), 15, seed=protocol)
        back = pickle.loads(pickle.dumps(game, protocol=protocol))
        assert history(back) == history(game)
        assert same_state(state(back), state(game))
        assert back.key == game.key
        assert back.player_to_move == game.player_to_move
        assert back.num_players == game.num_players
        assert np.array_equal(back.legal_moves(), game.legal_moves())
        # the copy plays on and undoes like the original
        back.undo()
        game.undo()
        assert same_state(state(back), state(game))
        assert back == game


@pytest.mark.parametrize("how", ["method", "copy.copy", "copy.deepcopy", "pickle"])
def test_copies_compare_equal(how):
    game = play_some(blokus.Game("classic_2"), 9)
    dup = {
        "method": lambda g: g.copy(),
        "copy.copy": copy.copy,
        "copy.deepcopy": copy.deepcopy,
        "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    }[how](game)
    assert dup == game
    assert not (dup != game)
    play_some(dup, 1)
    assert dup != game
    dup.undo()
    assert dup == game


def test_pickle_finished_game():
    game = blokus.Game("classic", start="fixed")
    for _, text in constructed.G20:
        game.play(text)
    back = pickle.loads(pickle.dumps(game))
    assert back.is_over and back.to_move == -1
    assert ints(back.scores()) == [20, -32, -53, -38]


def test_start_rule_is_kept_by_copies():
    game = blokus.Game("duo", start="fixed")
    for dup in (game.copy(), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert len(dup.legal_moves()) == 414
    game = blokus.Game("duo", start="any")
    for dup in (game.copy(), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert len(dup.legal_moves()) == 828


def test_equality():
    a = blokus.Game("duo")
    b = blokus.Game("duo")
    assert a == b
    a.play("e10")
    assert a != b
    b.play("e10")
    assert a == b
    b.undo()
    b.play("e10,f10")
    assert a != b
    assert (a == 5) is False
    assert a != "duo"


def test_key_is_int_and_tracks_position():
    a = blokus.Game("classic", start="fixed")
    b = blokus.Game("classic", start="fixed")
    assert isinstance(a.key, int)
    assert a.key == b.key
    k0 = a.key
    keys = set()
    for pid in a.legal_moves().tolist():
        a.play(pid)
        keys.add(a.key)
        a.undo()
    assert len(keys) == 58  # 58 different positions, 58 different hashes
    assert k0 not in keys
    assert a.key == k0


# Classic fixed: blue's second and third pieces in either order (the domino c19,d19 and the
# monomino b18 each touch blue's V3 corner piece only), the other colours' moves the same.
TRANSPOSE_X = ["a20,a19,b20", "t20", "t1", "a1", "b18", "s19,r19", "s2,r2", "b2,c2",
               "c19,d19", "q18,p18,o18", "q3,p3,o3", "d3,e3,f3"]
TRANSPOSE_Y = TRANSPOSE_X[:4] + ["c19,d19"] + TRANSPOSE_X[5:8] + ["b18"] + TRANSPOSE_X[9:]


def test_key_of_a_transposition():
    from reference import RefGame, parse_cells

    for seq in (TRANSPOSE_X, TRANSPOSE_Y):  # both orders are legal (test data check)
        ref = RefGame("classic", "fixed")
        for m in seq:
            ref.play(parse_cells(m, 20))
    x = blokus.Game("classic", start="fixed")
    y = blokus.Game("classic", start="fixed")
    for m in TRANSPOSE_X:
        x.play(m)
    for m in TRANSPOSE_Y:
        y.play(m)
    assert np.array_equal(x.board, y.board)
    assert x.to_move == y.to_move == 0
    assert x.key == y.key  # a hash of the position, not of the move order
    # and a different position has a different key
    y.undo()
    assert x.key != y.key


def test_history_records_colour_and_id():
    game = blokus.Game("duo", start="fixed")
    game.play("e10")
    game.play("j5,j6")
    assert history(game) == [
        (0, blokus.parse_move("e10", "duo")),
        (1, blokus.parse_move("j5,j6", "duo")),
    ]


# ------------------------------------------------------------------ text
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_repr_names_variant_and_move_count(variant):
    game = blokus.Game(variant)
    r = repr(game)
    assert variant in r
    assert re.search(r"\b0\b", r)
    play_some(game, 3)
    r = repr(game)
    assert variant in r
    assert re.search(r"\b3\b", r)
    if variant == "classic":
        assert "classic_" not in r


@pytest.mark.parametrize("variant,size", [("classic", 20), ("duo", 14)])
def test_str_draws_board(variant, size):
    game = blokus.Game(variant)
    s0 = str(game)
    assert isinstance(s0, str)
    assert len(s0.splitlines()) >= size
    play_some(game, 2)
    assert str(game) != s0


@pytest.mark.parametrize("text,variant", [
    ("a20,c20", "classic"),  # not a piece
    ("a20,b19", "classic"),  # not connected along edges
    ("zz", "duo"),
    ("", "duo"),
    ("o1", "duo"),  # column o is off the 14x14 board
    ("a15", "duo"),  # row 15 is off the 14x14 board
    ("u1", "classic"),
    ("a20,b20,c20,d20,e20,f20", "classic"),  # six cells
    ("a20", "chess"),
])
def test_parse_move_rejects(text, variant):
    with pytest.raises(ValueError):
        blokus.parse_move(text, variant)


def test_placements_bad_variant():
    with pytest.raises(ValueError):
        blokus.placements("chess")


def test_move_text_and_parse_move_types():
    game = blokus.Game("duo")
    pid = blokus.parse_move("e10,f10", "duo")
    assert isinstance(pid, int)
    assert isinstance(game.move_text(pid), str)
    assert game.move_text(pid) == "e10,f10"


# ------------------------------------------------------------------ memory
def current_rss_kb():
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * resource.getpagesize() // 1024
    except OSError:  # not Linux: fall back to the peak
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


@pytest.mark.slow
def test_play_undo_cycles_do_not_grow_memory():
    game = blokus.Game("classic", start="fixed")
    for _, text in constructed.G20[:20]:
        game.play(text)
    moves = game.legal_moves().tolist()
    assert len(moves) > 50
    texts = [game.move_text(m) for m in moves[:50]]
    key, board = game.key, game.board.copy()

    def cycle(n):
        for i in range(n):
            game.play(moves[i % len(moves)])
            game.undo()
        for t in texts:
            game.play(t)
            game.undo()

    cycle(2000)  # warm up
    gc.collect()
    rss0 = current_rss_kb()
    cycle(100_000)
    gc.collect()
    rss1 = current_rss_kb()
    assert rss1 - rss0 < 4 * 1024, "RSS grew by %d kB over 100,000 play/undo" % (rss1 - rss0)

    tracemalloc.start()
    try:
        t0, _ = tracemalloc.get_traced_memory()
        cycle(20_000)
        gc.collect()
        t1, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert t1 - t0 < 64 * 1024, "Python-level memory grew by %d bytes" % (t1 - t0)
    assert game.key == key and np.array_equal(game.board, board)
    assert len(game.history) == 20


# ------------------------------------------------------------------ random playouts
VALID_SCORES = set(range(-89, 0)) | {15, 20}


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_random_playouts(variant):
    colours = VARIANTS[variant][1]
    out = np.asarray(blokus.random_playouts(variant, 64, 7))
    assert out.shape == (64, colours)
    assert np.issubdtype(out.dtype, np.integer)
    assert set(out.ravel().tolist()) <= VALID_SCORES
    again = np.asarray(blokus.random_playouts(variant, 64, 7))
    assert np.array_equal(out, again)
    other = np.asarray(blokus.random_playouts(variant, 64, 8))
    assert not np.array_equal(out, other)
    # every colour places at least its first piece in a random game (any start rule:
    # a free corner or point is always left for it), and nobody scores -89
    assert out.min() >= -88
    # games differ from one another
    assert len({tuple(r) for r in out.tolist()}) > 1


def test_random_playouts_threads_agree_with_serial():
    # random_playouts releases the GIL: concurrent calls must give the serial results.
    import threading

    seeds = [11, 12, 13, 14]
    serial = [np.asarray(blokus.random_playouts("duo", 300, s)) for s in seeds]
    results = [None] * len(seeds)

    def run(i):
        results[i] = np.asarray(blokus.random_playouts("duo", 300, seeds[i]))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(seeds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(serial, results):
        assert np.array_equal(a, b)


def test_random_playouts_bad_variant():
    with pytest.raises(ValueError):
        blokus.random_playouts("chess", 1, 0)


def test_random_playouts_zero_games():
    out = np.asarray(blokus.random_playouts("classic", 0, 0))
    assert out.shape == (0, 4)


def test_random_playouts_single_game():
    one = np.asarray(blokus.random_playouts("duo", 1, 3))
    assert one.shape == (1, 2)
    assert set(one.ravel().tolist()) <= VALID_SCORES


def test_move_text_allows_spaces_around_cells():
    # "e10, e9" is the domino covering (4, 4) and (5, 4) on Duo's board
    assert blokus.parse_move("e10, e9", "duo") == blokus.parse_move("e9,e10", "duo")
    with pytest.raises(ValueError):
        blokus.parse_move("e10 e9", "duo")


def test_first_move_error_names_open_starting_squares():
    game = blokus.Game("classic", start="fixed")
    with pytest.raises(blokus.IllegalMoveError, match=r"open to it: a20\)"):
        game.play("t20")  # yellow's corner, while blue must start at a20 (0, 0)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_random_playouts_seed_out_of_range(seed):
    with pytest.raises(ValueError, match="seed"):
        blokus.random_playouts("duo", 1, seed)


def test_colour_name():
    game = blokus.Game("duo")
    assert [game.colour_name(c) for c in range(2)] == ["purple", "orange"]
    with pytest.raises(ValueError):
        game.colour_name(-1)


def test_random_playouts_streams_do_not_alias():
    # game i of one seed must not be game 0 of another seed (seed ^ i * constant)
    pairs = blokus.random_playouts("classic", 2, 0)
    other = blokus.random_playouts("classic", 1, 0xD1B54A32D192ED03)
    assert not np.array_equal(pairs[1], other[0])


def test_random_playouts_do_not_depend_on_chunking():
    # the binding plays in chunks of 4096 games between signal checks
    many = blokus.random_playouts("duo", 5000, 11)
    assert np.array_equal(many[:100], blokus.random_playouts("duo", 100, 11))


@pytest.mark.parametrize("text", ["a01", "a010", "e0010"])
def test_move_text_rejects_leading_zeros(text):
    with pytest.raises(ValueError):
        blokus.parse_move(text, "duo")


def test_names_with_nul_are_rejected():
    with pytest.raises(ValueError):
        blokus.Game("duo\x00x")
    with pytest.raises(ValueError):
        blokus.Game("duo", start="fixed\x00x")


def test_games_support_weak_references():
    import weakref

    game = blokus.Game("duo")
    ref = weakref.ref(game)
    assert ref() is game


def test_import_without_pettingzoo():
    import subprocess
    import sys

    code = "import sys; sys.modules['pettingzoo'] = None; import blokus; print(blokus.Game('duo').shape)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(14, 14)"


def test_import_leaves_the_optional_dependencies_alone():
    # import blokus registers the Gymnasium ids without importing Gymnasium (blokus._gym_registration)
    root = os.path.dirname(os.path.dirname(os.path.abspath(blokus.__file__)))
    code = ("import blokus, sys; "
            "print(sorted(m for m in ('gymnasium', 'pettingzoo', 'torch', 'matplotlib') if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_submodules_load_on_first_use():
    # the README uses blokus.render, blokus.analysis, ... after a bare `import blokus`
    code = ("import blokus, sys; assert 'blokus.sgf' not in sys.modules; "
            "print(blokus.sgf.dumps(blokus.Game('duo', start='fixed')), blokus.render.svg(blokus.Game('duo'))[:4])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["(;GM[Blokus", "Duo]CA[UTF-8])", "<svg"]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        blokus.nothing
