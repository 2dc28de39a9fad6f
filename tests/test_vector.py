"""The batched engine ``blokus.VectorGame`` (issue 4), checked against its contract.

* lockstep with plain ``blokus.Game`` objects: N games of every variant and both start rules are
  stepped with the same seeded random legal actions as N separate games, through the end of each
  game and Gymnasium's next-step autoreset (a finished game's action is ignored and the game
  restarts from the empty board): ``board``, ``to_move``, ``legal_mask``, ``num_legal``,
  ``scores``, ``done``, ``observation`` (from the colour to move; once over, colour 0, or the
  learner's colour after ``step_with_opponents``),
  ``remaining``, ``ply`` and the episode statistics (length, final scores, winners by rules.md's
  player table, count) agree exactly at every step;
* recorded games side by side in one batch (Pentobi games with their per-position legal counts
  and final scores, constructed games where a colour places all 21 pieces for +15 / +20, tie
  games for shared wins in ``classic``, ``classic_2``, ``classic_3``, ``classic_teams`` and Duo):
  recorded colour to move, recorded ``num_legal``, recorded final scores, episode winners;
* construction: defaults (Duo, fixed start), shapes and dtypes of every view, rules.md's
  first-move counts (Duo 414 / 828, classic 58 / 232), bad arguments raise ``ValueError``;
* views are read-only, and live (a kept reference follows every step and reset);
  ``legal_ids()`` and ``legal_bits()`` agree with ``legal_mask``;
* ``step`` input: every integer dtype (also big-endian and non-contiguous) is accepted, floats
  and other dtypes raise ``TypeError``, wrong shapes ``ValueError``; an illegal or out-of-range
  id (also one that would wrap around to a legal id if cast to 32 bits) in any slot raises
  ``ValueError`` naming that slot, with nothing played (every view unchanged, RNG streams
  untouched); the action of a finished game is ignored whatever it is;
* built-in policies: every move ``step_policy("random")`` / ``("greedy")`` makes is found by
  diffing boards and replayed on a ``blokus.Game`` (so it must be legal and the whole state must
  follow); greedy plays a largest legal piece and, among those, one with the most attachment
  points for itself after the move and then the fewest left for the other colours (recomputed
  here with reference.py); greedy's ties go different ways in different games; the random
  policy's first Duo moves are uniform over the 414 legal placements (chi-square);
* ``step_with_opponents`` / ``play_opponents`` for several variants and seats: the learner's
  move and then the opponents' moves (replayed from the board) until the learner's player is to
  move again (rules.md's player of the colour to move, ``classic_3`` green in rotation); the
  greedy opponent plays largest pieces; the learner not on move in some game, or an illegal
  learner action, raises ``ValueError`` naming that game with nothing applied;
* seeds: thread counts 1, 2, 4 and the default give identical arrays at every step for the same
  seed (random and greedy self-play, learner vs opponents; 1, 5, 7 and 96 games); the same seed
  reproduces a run, ``reset(seed)`` restarts the RNG streams, and the games of a batch do not
  share one stream; batches stepped at once from two Python threads end as when stepped alone.

Moves the engine chooses itself are found by diffing boards (vector_helpers.replay_new_pieces);
when a learner is out of moves and the opponents play on, several pieces of a colour can come in
one call and their order (hence the +20 bonus) is not certain: such a game is then checked
loosely (cells, hands, ply, scores from the hands, turn, planes) until its reset.
"""

import json
import os
import warnings

import numpy as np
import pytest

import blokus

import constructed
from env_helpers import player_of
from recorded_games import CLASSIC_SHARED_WIN, CLASSIC_TEAMS_DRAW, DUO_DRAW
from vector_helpers import (
    ALL_VARIANTS,
    VIEW_SPECS,
    VIEWS,
    Ambiguous,
    EpisodeStats,
    absolute_hands,
    assert_row_matches,
    assert_same_snapshot,
    check_greedy_choice,
    check_row_loosely,
    dims,
    expected_winner_row,
    greedy_report,
    names_index,
    placement_of_cells,
    placement_size,
    replay_new_pieces,
    sizes_of,
    snapshot,
)

BOTH_STARTS = ["fixed", "any"]
FIRST_MOVES = {("duo", "fixed"): 414, ("duo", "any"): 828, ("classic", "fixed"): 58, ("classic", "any"): 232}


def random_actions(games, rng, filler=0):
    """A seeded random legal action for every live game, ``filler`` for finished ones."""
    acts = np.full(len(games), filler, dtype=np.int32)
    for i, g in enumerate(games):
        if not g.is_over:
            acts[i] = rng.choice(g.legal_moves())
    return acts


def actions_from_mask(vg, rng, filler=0):
    """A seeded random legal action per game, read off the batch's own mask."""
    mask = np.asarray(vg.legal_mask)
    acts = np.full(mask.shape[0], filler, dtype=np.int32)
    for i in range(mask.shape[0]):
        ids = np.flatnonzero(mask[i])
        if len(ids):
            acts[i] = rng.choice(ids)
    return acts


def illegal_id(mask_row):
    """An in-range placement id that is not legal."""
    ids = np.flatnonzero(~np.asarray(mask_row))
    return int(ids[len(ids) // 2])


def advance_random(vg, games, rng, steps):
    """Play ``steps`` random legal steps on vg and on its shadow games (no game may end)."""
    for _ in range(steps):
        acts = random_actions(games, rng)
        vg.step(acts)
        for g, a in zip(games, acts):
            g.play(int(a))
        assert not any(g.is_over for g in games)


# ------------------------------------------------------------------ lockstep with blokus.Game
@pytest.mark.slow
@pytest.mark.parametrize("start", BOTH_STARTS)
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_lockstep_with_games(variant, start):
    n = 4
    rng = np.random.default_rng(ALL_VARIANTS.index(variant) * 10 + BOTH_STARTS.index(start))
    vg = blokus.VectorGame(n, variant, start=start, seed=5)
    games = [blokus.Game(variant, start=start) for _ in range(n)]
    stats = EpisodeStats(n, variant)
    for i, g in enumerate(games):
        assert_row_matches(vg, i, g, "initial")
    stats.check(vg, "initial")
    resets = np.zeros(n, dtype=int)
    for step in range(400):
        acts = random_actions(games, rng)
        was_over = [g.is_over for g in games]
        vg.step(acts)
        for i in range(n):
            if was_over[i]:
                games[i] = blokus.Game(variant, start=start)
                resets[i] += 1
            else:
                games[i].play(int(acts[i]))
                if games[i].is_over:
                    stats.finished(i, games[i])
            assert_row_matches(vg, i, games[i], f"step {step}")
        stats.check(vg, f"step {step}")
        if (resets >= 2).all() and all(len(g.history) >= 3 for g in games):
            break
    assert (resets >= 2).all(), "every game should have ended and been reset twice"


# ------------------------------------------------------------------ recorded games in one batch
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def oracle_games(name, count):
    """(moves, final colour scores, legal counts) of the first games of an oracle file."""
    with open(os.path.join(DATA, name)) as f:
        recs = [json.loads(line) for line in f.readlines()[:count]]
    return [([tuple(m) for m in r["moves"]], r["score"], r["legal"]) for r in recs]


# final scores as documented with the data (constructed.py, recorded_games.py)
CONSTRUCTED = {
    "G20": (constructed.G20, [20, -32, -53, -38]),
    "G15_I5": (constructed.G15_I5, [15, -43, -54, -47]),
    "G15_2": (constructed.G15_2, [15, -40, -58, -38]),
    "G3": (constructed.G3, [-49, -41, -42, 20]),
    "CLASSIC_TEAMS_DRAW": (CLASSIC_TEAMS_DRAW, [-30, -28, -27, -29]),
    "CLASSIC_SHARED_WIN": (CLASSIC_SHARED_WIN, [-33, -25, -25, -28]),
}


def recorded_batch(variant, start):
    if (variant, start) == ("duo", "fixed"):
        return oracle_games("duo_all_placed.jsonl", 1) + oracle_games("duo_level5.jsonl", 3) + [
            (DUO_DRAW, [-28, -28], None)]
    if (variant, start) == ("duo", "any"):
        return oracle_games("duo_any_start.jsonl", 4)
    if (variant, start) == ("classic", "any"):
        return oracle_games("classic_any_corner.jsonl", 4)
    if variant == "classic":
        names = ["G20", "G15_I5", "G3", "CLASSIC_SHARED_WIN"]
        return [(CONSTRUCTED[k][0], CONSTRUCTED[k][1], None) for k in names] + oracle_games("classic_level4.jsonl", 2)
    names = {"classic_2": ["CLASSIC_TEAMS_DRAW", "G15_2", "G20"], "classic_3": ["CLASSIC_SHARED_WIN", "G3", "G15_I5"],
             "classic_teams": ["CLASSIC_TEAMS_DRAW", "G20", "G3"]}[variant]
    return [(CONSTRUCTED[k][0], CONSTRUCTED[k][1], None) for k in names]


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant, start",
    [("duo", "fixed"), ("duo", "any"), ("classic", "fixed"), ("classic", "any"), ("classic_2", "fixed"),
     ("classic_3", "fixed"), ("classic_teams", "fixed")],
)
def test_recorded_games_in_a_batch(variant, start):
    """Recorded games of different lengths (Pentobi games, constructed games that place all 21
    pieces with the +15 / +20 bonus, tie games) played side by side: the colour to move is the
    recorded one, num_legal is the recorded count, the final scores are the recorded ones and the
    episode winners follow rules.md's player table; finished games wait (their actions ignored)
    until the next step resets them; the whole state agrees with blokus.Game throughout."""
    batch = recorded_batch(variant, start)
    n = len(batch)
    ids = [[blokus.parse_move(text, variant) for _, text in moves] for moves, _, _ in batch]
    vg = blokus.VectorGame(n, variant, start=start, seed=0)
    games = [blokus.Game(variant, start=start) for _ in range(n)]
    stats = EpisodeStats(n, variant)
    longest = max(len(m) for m in ids)
    for k in range(longest + 2):
        acts = np.full(n, -1, dtype=np.int32)  # finished games: any action is ignored
        for i, (moves, _, legal) in enumerate(batch):
            if k < len(moves):
                colour = moves[k][0]
                assert int(vg.to_move[i]) == colour, f"game {i} move {k}: recorded colour {colour} to move"
                if legal is not None:
                    assert int(vg.num_legal[i]) == legal[k][colour], f"game {i} move {k}: recorded legal count"
                acts[i] = ids[i][k]
            elif not games[i].is_over:  # restarted after its record: its first legal move
                acts[i] = games[i].legal_moves()[0]
        was_over = [g.is_over for g in games]
        vg.step(acts)
        for i, (moves, score, _) in enumerate(batch):
            if was_over[i]:
                games[i] = blokus.Game(variant, start=start)
            else:
                games[i].play(int(acts[i]))
                if k == len(moves) - 1:
                    assert vg.done[i], f"game {i}: over after its last recorded move"
                    np.testing.assert_array_equal(vg.scores[i], score, err_msg=f"game {i}: recorded final scores")
                    stats.finished(i, games[i])
            assert_row_matches(vg, i, games[i], f"move {k}")
        stats.check(vg, f"move {k}")
    np.testing.assert_array_equal(vg.episodes, 1)
    for i, (moves, score, _) in enumerate(batch):
        assert int(vg.episode_length[i]) == len(moves)
        np.testing.assert_array_equal(vg.episode_scores[i], score)
        np.testing.assert_array_equal(vg.episode_winners[i], expected_winner_row(variant, score))


# ------------------------------------------------------------------ construction
def test_defaults_duo_fixed():
    with pytest.warns(FutureWarning, match='will play "classic".*variant="duo"'):
        vg = blokus.VectorGame(2)
    assert vg.variant == "duo" and vg.board.shape == (2, 14, 14)
    assert vg.legal_mask.shape == (2, 13729)
    np.testing.assert_array_equal(vg.num_legal, [414, 414])
    game = blokus.Game("duo", start="fixed")
    for i in range(2):
        assert_row_matches(vg, i, game, "defaults")
    np.testing.assert_array_equal(vg.episodes, [0, 0])


def test_a_variant_given_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert blokus.VectorGame(1, "duo").variant == "duo"
        assert blokus.VectorGame(1, variant="classic").variant == "classic"


def test_remaining_is_a_bool_view_like_game_remaining():
    vg = blokus.VectorGame(2, "duo", seed=0)
    hands = vg.remaining  # taken before the step: a view, it follows it
    assert hands.dtype == blokus.Game("duo").remaining.dtype == np.bool_ and not hands.flags.writeable
    actions = np.argmax(vg.legal_mask, axis=1)  # purple's first legal placement in each game
    vg.step(actions)
    pieces = blokus.placements("duo").piece[actions]
    for i in range(2):  # orange to move: its own hand first (all 21 pieces), then purple's, less one
        assert hands[i, 0].all() and hands[i, 1].sum() == 20 and not hands[i, 1, pieces[i]]


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_shapes_and_dtypes(variant):
    n = 3
    h, w, c, p, a = dims(variant)
    vg = blokus.VectorGame(n, variant, seed=0)
    for name, (dtype, shape) in VIEW_SPECS.items():
        arr = getattr(vg, name)
        assert isinstance(arr, np.ndarray), name
        assert arr.dtype == dtype, (name, arr.dtype)
        assert arr.shape == shape(n, h, w, c, p, a), (name, arr.shape)
    np.testing.assert_array_equal(vg.board, -1)
    np.testing.assert_array_equal(vg.to_move, 0)
    np.testing.assert_array_equal(vg.done, False)
    np.testing.assert_array_equal(vg.ply, 0)
    np.testing.assert_array_equal(vg.scores, -89)
    np.testing.assert_array_equal(vg.remaining, 1)


@pytest.mark.parametrize("variant, start", sorted(FIRST_MOVES))
def test_first_move_counts(variant, start):
    vg = blokus.VectorGame(4, variant, start=start, seed=0)
    np.testing.assert_array_equal(vg.num_legal, FIRST_MOVES[variant, start])
    np.testing.assert_array_equal(vg.legal_mask.sum(axis=1), FIRST_MOVES[variant, start])


@pytest.mark.parametrize(
    "args, kwargs",
    [((0, "duo"), {}), ((-1, "duo"), {}), ((2, "chess"), {}), ((2, "Duo"), {}), ((2, "duo"), {"start": "corner"}),
     ((2, "classic"), {"start": ""}), ((2, "duo"), {"num_threads": 0}), ((2, "duo"), {"num_threads": -2})],
)
def test_bad_constructor_arguments(args, kwargs):
    with pytest.raises(ValueError):
        blokus.VectorGame(*args, **kwargs)


def test_unknown_policy_and_opponent():
    vg = blokus.VectorGame(2, "duo", seed=0)
    before = snapshot(vg)
    with pytest.raises(ValueError):
        vg.step_policy("best")
    with pytest.raises(ValueError):
        vg.step_with_opponents(np.asarray(actions_from_mask(vg, np.random.default_rng(0))), opponent="best")
    with pytest.raises(ValueError):
        vg.play_opponents(opponent="best")
    assert_same_snapshot(before, snapshot(vg), "after unknown policy names")


# ------------------------------------------------------------------ views
def test_views_read_only():
    vg = blokus.VectorGame(2, "classic", seed=0)
    for name in VIEWS:
        arr = getattr(vg, name)
        assert not arr.flags.writeable, name
        idx = (0,) * arr.ndim
        with pytest.raises(ValueError):
            arr[idx] = arr[idx]
        with pytest.raises(ValueError):
            arr[...] = 0


def test_views_live():
    n = 3
    vg = blokus.VectorGame(n, "duo", seed=1)
    kept = {name: getattr(vg, name) for name in VIEWS}
    rng = np.random.default_rng(1)
    changed = set()
    seen_done = False
    for _ in range(200):
        before = snapshot(vg)
        vg.step(actions_from_mask(vg, rng))
        for name in VIEWS:
            np.testing.assert_array_equal(kept[name], getattr(vg, name), err_msg=f"kept {name} is stale")
            if not np.array_equal(before[name], kept[name]):
                changed.add(name)
        seen_done |= bool(vg.done.any())
        if seen_done and changed == set(VIEWS):
            break
    assert changed == set(VIEWS), f"never changed through a kept reference: {set(VIEWS) - changed}"
    vg.reset()
    for name in VIEWS:
        np.testing.assert_array_equal(kept[name], getattr(vg, name), err_msg=f"kept {name} stale after reset")
    np.testing.assert_array_equal(kept["board"], -1)
    np.testing.assert_array_equal(kept["ply"], 0)
    np.testing.assert_array_equal(kept["done"], False)
    np.testing.assert_array_equal(kept["num_legal"], 414)


def check_ids_and_bits(vg, what=""):
    mask = np.asarray(vg.legal_mask)
    n, a = mask.shape
    ids = vg.legal_ids()
    assert ids.dtype == np.int32, what
    width = int(mask.sum(axis=1).max())
    assert ids.shape == (n, width), (what, ids.shape)
    for i in range(n):
        want = np.flatnonzero(mask[i])
        np.testing.assert_array_equal(ids[i, : len(want)], want, err_msg=f"{what}: legal_ids row {i}")
        np.testing.assert_array_equal(ids[i, len(want):], -1, err_msg=f"{what}: legal_ids padding row {i}")
    bits = vg.legal_bits()
    assert bits.dtype == np.uint8 and bits.shape == (n, (a + 7) // 8), (what, bits.dtype, bits.shape)
    np.testing.assert_array_equal(bits, np.packbits(mask, axis=1), err_msg=f"{what}: legal_bits")


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_legal_ids_and_bits(variant):
    vg = blokus.VectorGame(5, variant, seed=3)
    check_ids_and_bits(vg, "initial")
    saw_done = False
    for step in range(150):
        vg.step_policy("random")
        check_ids_and_bits(vg, f"step {step}")
        saw_done |= bool(vg.done.any())
        if saw_done and step > 40:
            break
    assert saw_done


def test_legal_ids_all_finished():
    """When every game is over, legal_ids has no columns (the max of num_legal is 0)."""
    vg = blokus.VectorGame(1, "duo", seed=4)
    for _ in range(200):
        vg.step_policy("random")
        if vg.done[0]:
            break
    assert vg.done[0]
    assert vg.legal_ids().shape == (1, 0)
    np.testing.assert_array_equal(vg.legal_bits(), 0)


# ------------------------------------------------------------------ step input checks
def first_duo_actions(n):
    """Purple's monomino on (4, 4) and the largest legal id, for every game (fresh Duo, fixed)."""
    small = placement_of_cells("duo", {(4, 4)})
    assert small is not None and small < 127
    game = blokus.Game("duo", start="fixed")
    assert game.legal_mask()[small]
    return small, int(game.legal_moves()[-1])


@pytest.mark.parametrize(
    "dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", ">i4", ">i8", "intp"]
)
def test_step_accepts_integer_dtypes(dtype):
    n = 3
    small, large = first_duo_actions(n)
    dt = np.dtype(dtype)
    fits = np.iinfo(dt).max >= large
    acts = [small, large, small] if fits else [small] * n
    ref = blokus.VectorGame(n, "duo", seed=0)
    got = blokus.VectorGame(n, "duo", seed=0)
    ref.step(np.asarray(acts, dtype=np.int32))
    got.step(np.asarray(acts, dtype=dt))
    assert_same_snapshot(snapshot(ref), snapshot(got), f"actions as {dtype}")
    assert int(got.ply.sum()) == n


def test_step_accepts_non_contiguous_actions():
    n = 3
    small, large = first_duo_actions(n)
    ref = blokus.VectorGame(n, "duo", seed=0)
    got = blokus.VectorGame(n, "duo", seed=0)
    acts = np.asarray([small, large, large], dtype=np.int32)
    wide = np.repeat(acts, 2)[::2]
    assert not wide.flags.c_contiguous
    ref.step(acts)
    got.step(wide)
    assert_same_snapshot(snapshot(ref), snapshot(got), "non-contiguous actions")
    rev = blokus.VectorGame(n, "duo", seed=0)
    rev.step(acts[::-1].copy()[::-1])  # a negative-stride view of the same values
    assert_same_snapshot(snapshot(ref), snapshot(rev), "negative-stride actions")


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bool", "complex128", "object", "U5"])
def test_step_rejects_non_integer_dtypes(dtype):
    n = 3
    small, _ = first_duo_actions(n)
    vg = blokus.VectorGame(n, "duo", seed=0)
    before = snapshot(vg)
    if dtype == "U5":
        acts = np.asarray([str(small)] * n)
    elif dtype == "bool":
        acts = np.ones(n, dtype=bool)
    else:
        acts = np.asarray([small] * n).astype(dtype)
    with pytest.raises(TypeError):
        vg.step(acts)
    assert_same_snapshot(before, snapshot(vg), f"after {dtype} actions")


@pytest.mark.parametrize("shape", [(), (2,), (4,), (3, 1), (1, 3), (0,)])
def test_step_rejects_wrong_shapes(shape):
    n = 3
    small, _ = first_duo_actions(n)
    vg = blokus.VectorGame(n, "duo", seed=0)
    before = snapshot(vg)
    with pytest.raises(ValueError):
        vg.step(np.full(shape, small, dtype=np.int32))
    assert_same_snapshot(before, snapshot(vg), f"after shape {shape}")


def bad_values(variant, mask_row, legal):
    """(label, value, dtype) of bad actions for one slot: illegal in range, out of range, and
    values that only a silent cast would turn into the legal id ``legal``."""
    a = len(mask_row)
    return [
        ("illegal", illegal_id(mask_row), np.int32),
        ("A", a, np.int32),
        ("A+1000", a + 1000, np.int32),
        ("-1", -1, np.int32),
        ("int32 max", 2**31 - 1, np.int32),
        ("int32 min", -(2**31), np.int32),
        ("wraps to legal (int64)", 2**32 + legal, np.int64),
        ("negative wraps to legal (int64)", legal - 2**32, np.int64),
        ("wraps to legal (uint64)", 2**63 + legal, np.uint64),
        ("uint16 A+", min(a + 5, 65535), np.uint16),
    ]


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_bad_action_in_any_slot(variant):
    n = 4
    rng = np.random.default_rng(7)
    vg = blokus.VectorGame(n, variant, seed=11)
    twin = blokus.VectorGame(n, variant, seed=11)
    games = [blokus.Game(variant, start="fixed") for _ in range(n)]
    advance_random(vg, games, rng, 3)
    # the twin reaches the same position through the same moves
    replay = np.asarray([[m for _, m in g.history] for g in games], dtype=np.int32)
    for col in replay.T:
        twin.step(col)
    assert_same_snapshot(snapshot(vg), snapshot(twin), "twin")
    good = random_actions(games, rng)
    for k in range(n):
        mask_row = np.asarray(vg.legal_mask[k])
        for label, value, dtype in bad_values(variant, mask_row, int(good[k])):
            acts = good.astype(dtype)
            acts[k] = value
            before = snapshot(vg)
            with pytest.raises(ValueError) as info:
                vg.step(acts)
            assert names_index(info.value, k), f"slot {k}, {label}: error does not name game {k}: {info.value}"
            assert_same_snapshot(before, snapshot(vg), f"slot {k}, {label}: state changed by a refused step")
    # two bad slots: one of them is named, nothing applied
    acts = good.copy()
    acts[1] = -1
    acts[3] = illegal_id(np.asarray(vg.legal_mask[3]))
    before = snapshot(vg)
    with pytest.raises(ValueError) as info:
        vg.step(acts)
    assert names_index(info.value, 1) or names_index(info.value, 3), str(info.value)
    assert_same_snapshot(before, snapshot(vg), "two bad slots")
    # nothing half-applied, RNG streams included: the refused calls leave no trace
    vg.step(good)
    twin.step(good)
    assert_same_snapshot(snapshot(vg), snapshot(twin), "after the refused steps, a good step")
    for _ in range(5):
        vg.step_policy("random")
        twin.step_policy("random")
        assert_same_snapshot(snapshot(vg), snapshot(twin), "random policy after refused steps")


def run_until_some_done(vg, rng, max_steps=300):
    for _ in range(max_steps):
        if vg.done.any():
            return
        vg.step(actions_from_mask(vg, rng))
    raise AssertionError("no game ended")


@pytest.mark.parametrize("value, dtype", [(-1, np.int32), (13729, np.int32), (2**40, np.int64), (0, np.int32)])
def test_finished_game_action_ignored(value, dtype):
    n = 3
    rng = np.random.default_rng(3)
    vg = blokus.VectorGame(n, "duo", seed=2)
    run_until_some_done(vg, rng)
    done = np.asarray(vg.done).copy()
    acts = actions_from_mask(vg, rng).astype(dtype)
    acts[done] = value
    vg.step(acts)
    fresh = blokus.Game("duo", start="fixed")
    for i in np.flatnonzero(done):
        assert_row_matches(vg, i, fresh, f"reset game {i} (its action {value} ignored)")


# ------------------------------------------------------------------ built-in policies
def follow_policy(vg, variant, start, policy, steps, on_move=None, stop_when_reset=True):
    """Step ``policy`` and replay each game's new piece on its own blokus.Game."""
    n = vg.board.shape[0]
    games = [blokus.Game(variant, start=start) for _ in range(n)]
    stats = EpisodeStats(n, variant)
    resets = np.zeros(n, dtype=int)
    for step in range(steps):
        was_over = [g.is_over for g in games]
        vg.step_policy(policy)
        for i in range(n):
            what = f"{policy} step {step} game {i}"
            if was_over[i]:
                games[i] = blokus.Game(variant, start=start)
                resets[i] += 1
            else:
                moves, _ = replay_new_pieces(games[i], vg.board[i], on_move=on_move, what=what)
                assert len(moves) == 1, f"{what}: {policy} placed {len(moves)} pieces in one step"
                if games[i].is_over:
                    stats.finished(i, games[i])
            assert_row_matches(vg, i, games[i], what)
        stats.check(vg, f"{policy} step {step}")
        if stop_when_reset and (resets > 0).all():
            break
    return games, resets


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant, start",
    [(v, "fixed") for v in ALL_VARIANTS] + [("duo", "any"), ("classic", "any")],
)
def test_random_policy_moves_are_legal(variant, start):
    vg = blokus.VectorGame(4, variant, start=start, seed=21)
    _, resets = follow_policy(vg, variant, start, "random", 400)
    assert (resets > 0).all()


@pytest.mark.parametrize(
    "variant, start", [(v, "fixed") for v in ALL_VARIANTS] + [("duo", "any"), ("classic", "any")]
)
def test_greedy_policy_plays_largest_legal_piece(variant, start):
    def largest(game, move):
        sizes = sizes_of(variant, game.legal_moves())
        assert placement_size(variant, move) == sizes.max(), (
            f"greedy placed a {placement_size(variant, move)}-square piece while a "
            f"{sizes.max()}-square one was legal"
        )

    vg = blokus.VectorGame(3, variant, start=start, seed=8)
    _, resets = follow_policy(vg, variant, start, "greedy", 400, on_move=largest)
    assert (resets > 0).all()


@pytest.mark.slow
@pytest.mark.parametrize("variant, start, steps", [("duo", "fixed", 60), ("duo", "any", 60),
                                                   ("classic", "fixed", 70), ("classic", "any", 12),
                                                   ("classic_3", "fixed", 12)])
def test_greedy_tie_break_criteria(variant, start, steps):
    """Every greedy move is one of the moves the criteria allow, recomputed with reference.py."""
    checked = []

    def criteria(game, move):
        check_greedy_choice(game, move, f"{variant}/{start} ply {len(game.history)}")
        checked.append(move)

    vg = blokus.VectorGame(3, variant, start=start, seed=9)
    follow_policy(vg, variant, start, "greedy", steps, on_move=criteria, stop_when_reset=False)
    assert len(checked) >= min(steps, 20)


@pytest.mark.parametrize("start", BOTH_STARTS)
def test_greedy_first_duo_move(start):
    """On the empty Duo board, greedy's choices are worked out here: a pentomino on the start
    point whose attachment points are the most (8); the other colour keeps its one start point.
    The candidates tie, so a batch of 64 games (own RNG streams) should not all pick the same."""
    game = blokus.Game("duo", start=start)
    rows, best = greedy_report(game)
    assert {rows[m][0] for m in best} == {5}
    assert {rows[m][1] for m in best} == {8}
    assert len(best) >= 2
    vg = blokus.VectorGame(64, "duo", start=start, seed=123)
    vg.step_policy("greedy")
    chosen = []
    for i in range(64):
        moves, _ = replay_new_pieces(blokus.Game("duo", start=start), vg.board[i], what=f"game {i}")
        assert len(moves) == 1
        chosen.append(moves[0])
    assert set(chosen) <= best, f"greedy chose {set(chosen) - best}, not among the best {sorted(best)}"
    assert len(set(chosen)) >= 2, "greedy ties are broken at random, per game"


def test_random_policy_uniform_first_move():
    """Purple's first Duo move under "random" is uniform over its 414 legal placements."""
    n = 414 * 12
    vg = blokus.VectorGame(n, "duo", start="fixed", seed=2024)
    vg.step_policy("random")
    board = np.asarray(vg.board)
    counts = {}
    for i in range(n):
        cells = {(int(r), int(c)) for r, c in zip(*np.nonzero(board[i] == 0))}
        m = placement_of_cells("duo", cells)
        assert m is not None
        counts[m] = counts.get(m, 0) + 1
    legal = set(int(m) for m in blokus.Game("duo", start="fixed").legal_moves())
    assert set(counts) <= legal
    obs = np.asarray([counts.get(m, 0) for m in sorted(legal)], dtype=float)
    expected = n / len(legal)
    chi2 = float(((obs - expected) ** 2 / expected).sum())
    dof = len(legal) - 1
    # mean dof, sd sqrt(2 dof) = 28.7: a generous 6-sigma bound for a fixed seed
    assert chi2 < dof + 6 * np.sqrt(2 * dof), f"chi-square {chi2:.0f} with {dof} degrees of freedom"


# ------------------------------------------------------------------ learner vs opponents
def follow_opponents(vg, variant, seat, opponent, calls, rng, greedy_full=False):
    """step_with_opponents with random learner moves; replay everything on blokus.Game.

    When a call brings several pieces of some colours (the learner's player is out of moves and
    the opponents play on) and their order cannot be rebuilt, the game is followed loosely
    (vector_helpers.check_row_loosely) until its reset."""
    n = vg.board.shape[0]
    games = [blokus.Game(variant, start="fixed") for _ in range(n)]
    loose = [None] * n  # the last board of a game followed loosely
    stats = EpisodeStats(n, variant)
    counts = {"opponent moves": 0, "checked rows": 0, "finished": 0, "resets": 0, "uncertain order": 0,
              "loose rows": 0}

    def on_move(game, move):
        assert player_of(game) != seat, "an opponent moved the learner's colour"
        counts["opponent moves"] += 1
        if opponent == "greedy":
            if greedy_full:
                check_greedy_choice(game, move, "greedy opponent")
            else:
                sizes = sizes_of(variant, game.legal_moves())
                assert placement_size(variant, move) == sizes.max(), "greedy opponent: not a largest piece"

    def sync(i, what):
        if loose[i] is None:
            colour = view_colour_of(vg, i, seat)
            hands = absolute_hands(vg.remaining[i], colour)
            prev = np.array(games[i].board)
            try:
                _, certain = replay_new_pieces(games[i], vg.board[i], hands, on_move=on_move, what=what)
            except Ambiguous:
                certain = False
            if not certain:  # another order of the same pieces may differ in the +20 bonus
                loose[i] = prev
                counts["uncertain order"] += 1
        if loose[i] is not None:
            check_row_loosely(vg, i, variant, "fixed", seat, loose[i], what)
            loose[i] = np.array(vg.board[i])
            counts["loose rows"] += 1
            if vg.done[i]:
                stats.finished_loosely(i, vg)
                counts["finished"] += 1
            return
        if games[i].is_over:
            stats.finished(i, games[i])
            counts["finished"] += 1
        else:
            assert player_of(games[i]) == seat, \
                f"{what}: the opponents stopped with player {player_of(games[i])} to move"
        assert_row_matches(vg, i, games[i], what, over_view=seat)
        counts["checked rows"] += 1

    vg.play_opponents(opponent=opponent, seat=seat)
    for i in range(n):
        sync(i, "play_opponents")
    for call in range(calls):
        acts = actions_from_mask(vg, rng)  # the masks equal the shadow games' (checked in sync)
        was_over = [bool(vg.done[i]) for i in range(n)]
        vg.step_with_opponents(acts, opponent=opponent, seat=seat)
        for i in range(n):
            what = f"call {call} game {i}"
            if was_over[i]:
                games[i] = blokus.Game(variant, start="fixed")
                loose[i] = None
                counts["resets"] += 1
            elif loose[i] is None:
                games[i].play(int(acts[i]))
            sync(i, what)
        stats.check(vg, f"call {call}")
    return counts


def view_colour_of(vg, i, over_view=0):
    return over_view if vg.done[i] else int(vg.to_move[i])


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant, seat, opponent",
    [("duo", 0, "greedy"), ("duo", 1, "greedy"), ("duo", 1, "random"), ("classic", 0, "random"),
     ("classic", 2, "greedy"), ("classic_2", 1, "greedy"), ("classic_3", 0, "random"),
     ("classic_3", 1, "greedy"), ("classic_teams", 3, "random")],
)
def test_step_with_opponents_follows_rules(variant, seat, opponent):
    rng = np.random.default_rng(ALL_VARIANTS.index(variant) * 10 + seat)
    vg = blokus.VectorGame(3, variant, seed=31)
    counts = follow_opponents(vg, variant, seat, opponent, 60 if variant == "duo" else 45, rng,
                              greedy_full=(variant == "duo"))
    assert counts["opponent moves"] > 0
    assert counts["finished"] > 0 and counts["resets"] > 0, counts
    assert counts["checked rows"] > 2 * counts["loose rows"], counts


def test_step_with_opponents_learner_not_to_move():
    """seat 1 on fresh Duo games: purple (player 0) is to move everywhere, game 0 is named."""
    vg = blokus.VectorGame(3, "duo", seed=0)
    acts = actions_from_mask(vg, np.random.default_rng(0))
    before = snapshot(vg)
    with pytest.raises(ValueError) as info:
        vg.step_with_opponents(acts, opponent="greedy", seat=1)
    assert names_index(info.value, 0), str(info.value)
    assert_same_snapshot(before, snapshot(vg), "refused step_with_opponents")


def test_step_with_opponents_names_the_odd_game():
    """Drive three Duo games apart (a pass or a reset) until exactly one live game has the other
    colour to move; the learner call for the majority seat must name that game."""
    rng = np.random.default_rng(5)
    vg = blokus.VectorGame(3, "duo", seed=6)
    twin = blokus.VectorGame(3, "duo", seed=6)
    for _ in range(400):
        acts = actions_from_mask(vg, rng)
        vg.step(acts)
        twin.step(acts)
        tm = np.asarray(vg.to_move)
        if vg.done.any():
            continue
        values, counts = np.unique(tm, return_counts=True)
        if len(values) == 2:
            break
    else:
        pytest.fail("the games never went out of step")
    seat = int(values[np.argmax(counts)])
    odd = int(np.flatnonzero(tm != seat)[0])
    acts = actions_from_mask(vg, rng)
    before = snapshot(vg)
    with pytest.raises(ValueError) as info:
        vg.step_with_opponents(acts, opponent="random", seat=seat)
    assert names_index(info.value, odd), f"game {odd} is not on the learner's turn: {info.value}"
    assert_same_snapshot(before, snapshot(vg), "refused step_with_opponents")
    # an illegal learner action in one slot is refused too, naming the slot
    ok = [i for i in range(3) if i != odd]
    for k in ok:
        bad = acts.copy()
        bad[k] = illegal_id(np.asarray(vg.legal_mask[k]))
        bad[odd] = acts[odd]
        with pytest.raises(ValueError):
            vg.step_with_opponents(bad, opponent="random", seat=seat)
        assert_same_snapshot(before, snapshot(vg), "refused illegal learner action")
    # RNG streams untouched by the refusals
    for _ in range(4):
        vg.step_policy("random")
        twin.step_policy("random")
    assert_same_snapshot(snapshot(vg), snapshot(twin), "after refused calls")


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_step_with_opponents_illegal_learner_action(variant):
    n = 3
    vg = blokus.VectorGame(n, variant, seed=12)
    twin = blokus.VectorGame(n, variant, seed=12)
    rng = np.random.default_rng(0)
    acts = actions_from_mask(vg, rng)
    vg.step_with_opponents(acts, seat=0)
    twin.step_with_opponents(acts, seat=0)
    acts = actions_from_mask(vg, rng)
    for k in range(n):
        for value in (illegal_id(np.asarray(vg.legal_mask[k])), -1, dims(variant)[4]):
            bad = acts.copy()
            bad[k] = value
            before = snapshot(vg)
            with pytest.raises(ValueError) as info:
                vg.step_with_opponents(bad, opponent="greedy", seat=0)
            assert names_index(info.value, k), str(info.value)
            assert_same_snapshot(before, snapshot(vg), f"slot {k} value {value}")
    vg.step_with_opponents(acts, seat=0)
    twin.step_with_opponents(acts, seat=0)
    assert_same_snapshot(snapshot(vg), snapshot(twin), "greedy opponents after refused calls")


# ------------------------------------------------------------------ threads and seeds
def run_trace(variant, n, threads, seed, mode, steps):
    vg = blokus.VectorGame(n, variant, num_threads=threads, seed=seed)
    rng = np.random.default_rng(99)
    trace = [snapshot(vg)]
    if mode.startswith("opponents"):
        opponent = mode.split("-")[1]
        vg.play_opponents(opponent=opponent, seat=1)
        trace.append(snapshot(vg))
    for _ in range(steps):
        if mode == "random":
            vg.step_policy("random")
        elif mode == "greedy":
            vg.step_policy("greedy")
        else:
            vg.step_with_opponents(actions_from_mask(vg, rng), opponent=opponent, seat=1)
        trace.append(snapshot(vg))
    return trace


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["random", "greedy", "opponents-greedy", "opponents-random"])
@pytest.mark.parametrize("variant, n", [("duo", 7), ("classic", 5), ("duo", 1)])
def test_thread_counts_give_identical_results(variant, n, mode):
    steps = {"duo": 80, "classic": 110}[variant]
    if mode.startswith("opponents"):
        steps //= 2
    base = run_trace(variant, n, 1, 77, mode, steps)
    assert base[-1]["episodes"].sum() > 0, "the run should cross game ends and resets"
    for threads in (1, 2, 4, None):
        other = run_trace(variant, n, threads, 77, mode, steps)
        for k, (a, b) in enumerate(zip(base, other)):
            assert_same_snapshot(a, b, f"{mode}: threads={threads} vs 1, step {k}")


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_thread_counts_large_batch(variant):
    """More games than threads by far: the same arrays after many steps of each policy."""
    def run(threads):
        vg = blokus.VectorGame(96, variant, num_threads=threads, seed=2025)
        rng = np.random.default_rng(4)
        for _ in range(10):
            vg.step_with_opponents(actions_from_mask(vg, rng), opponent="greedy", seat=0)
        for _ in range(30):
            vg.step_policy("random")
        for _ in range(30):
            vg.step_policy("greedy")
        return snapshot(vg)

    base = run(1)
    assert base["episodes"].sum() > 0
    for threads in (2, 4, 3):
        assert_same_snapshot(base, run(threads), f"threads={threads}")


def test_two_batches_stepped_from_two_python_threads():
    """step releases the GIL: two batches stepped at the same time from two Python threads end
    exactly as when stepped one after the other (no state shared between batches)."""
    import threading

    def run(variant, seed, out):
        vg = blokus.VectorGame(16, variant, seed=seed, num_threads=2)
        for k in range(60):
            vg.step_policy("random" if k % 2 else "greedy")
        out[variant, seed] = snapshot(vg)

    alone, together = {}, {}
    jobs = [("duo", 1), ("classic", 2), ("duo", 3)]
    for variant, seed in jobs:
        run(variant, seed, alone)
    threads = [threading.Thread(target=run, args=(v, s, together)) for v, s in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for key in jobs:
        assert_same_snapshot(alone[key], together[key], f"{key} stepped alongside other batches")


def test_seeds():
    def trace(seed, n=6):
        vg = blokus.VectorGame(n, "duo", seed=seed, num_threads=2)
        out = []
        for _ in range(8):
            vg.step_policy("random")
            out.append(np.array(vg.board))
        return vg, out

    vg, a = trace(5)
    _, b = trace(5)
    _, c = trace(6)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert any(not np.array_equal(x, y) for x, y in zip(a, c)), "different seeds gave the same games"
    last = a[-1]
    assert len({last[i].tobytes() for i in range(last.shape[0])}) > 1, "the games of a batch share one stream"
    # reset(seed) restarts the streams: the same run again
    vg.reset(seed=5)
    np.testing.assert_array_equal(vg.board, -1)
    np.testing.assert_array_equal(vg.ply, 0)
    np.testing.assert_array_equal(vg.done, False)
    for x in a:
        vg.step_policy("random")
        np.testing.assert_array_equal(vg.board, x)
    # greedy too
    g1 = blokus.VectorGame(6, "duo", seed=3)
    g2 = blokus.VectorGame(6, "duo", seed=3)
    for _ in range(10):
        g1.step_policy("greedy")
        g2.step_policy("greedy")
    assert_same_snapshot(snapshot(g1), snapshot(g2), "greedy with the same seed")


def test_reset_without_seed():
    vg = blokus.VectorGame(3, "classic", seed=1)
    for _ in range(5):
        vg.step_policy("random")
    vg.reset()
    game = blokus.Game("classic", start="fixed")
    for i in range(3):
        assert_row_matches(vg, i, game, "after reset()")


# ------------------------------------------------------------------ review fixes: reset, seeds, threads, fork
def test_reset_clears_episode_statistics():
    vg = blokus.VectorGame(2, "duo", seed=1)
    while not vg.episodes.all():
        vg.step_policy("random")
    vg.reset(1)
    assert not vg.episodes.any() and not vg.episode_length.any() and not vg.episode_scores.any()
    assert not vg.episode_winners.any()


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_seed_out_of_range(seed):
    with pytest.raises(ValueError, match="seed"):
        blokus.VectorGame(2, "duo", seed=seed)
    with pytest.raises(ValueError, match="seed"):
        blokus.VectorGame(2, "duo", seed=0).reset(seed)


def test_two_python_threads_on_one_batch_do_not_hang():
    import threading

    vg = blokus.VectorGame(64, "duo", num_threads=2, seed=2)
    errors = []

    def work():
        for _ in range(300):
            try:
                vg.step_policy("random")
            except RuntimeError as err:  # the other thread's step is running
                errors.append(str(err))

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "stepping from two threads hung"
    assert all("another thread" in e for e in errors)


def test_forked_child_can_step_and_exit():
    import os
    import subprocess
    import sys

    code = (
        "import os, signal, blokus\n"
        "vg = blokus.VectorGame(8, 'duo', num_threads=2, seed=3)\n"
        "vg.step_policy('random')\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    signal.alarm(20)\n"
        "    vg.step_policy('greedy'); del vg\n"
        "    os._exit(0)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(os.waitstatus_to_exitcode(status))\n"
    )
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0", "the forked child hung or failed"


@pytest.mark.parametrize("variant", ["classic_2", "classic_teams"])
def test_greedy_counts_only_opponents_as_others(variant):
    """classic_2 and classic_teams: a player's other colour (classic_2) or partner (teams) is not
    an opponent, so greedy's second criterion counts only the other side's attachment points."""
    rng = np.random.default_rng(4)
    game = blokus.Game(variant, start="fixed")
    vg = blokus.VectorGame(1, variant, seed=5)
    for _ in range(8):  # every colour has placed twice: attachment points are diagonal cells only
        move = int(rng.choice(game.legal_moves()))
        game.play(move)
        vg.step(np.array([move]))
    mover = game.to_move
    friends = {c for c in range(4) if c % 2 == mover % 2}  # blue+red against yellow+green
    moves = game.legal_moves()
    sizes = sizes_of(variant, moves)
    best, chosen = None, []
    for move in moves[sizes == sizes.max()]:
        after = game.copy()
        after.play(int(move))
        own = int(after.attachment_points(mover).sum())
        others = sum(int(after.attachment_points(c).sum()) for c in range(4) if c not in friends)
        key = (own, -others)
        if best is None or key > best:
            best, chosen = key, [int(move)]
        elif key == best:
            chosen.append(int(move))
    before = np.array(vg.board[0])
    vg.step_policy("greedy")
    placed = np.argwhere((np.asarray(vg.board[0]) >= 0) & (before < 0))
    text = ",".join(f"{chr(ord('a') + int(c))}{20 - int(r)}" for r, c in placed)
    assert blokus.parse_move(text, variant) in chosen
