"""Tests of blokus.agents (RandomAgent, GreedyAgent, MCTSAgent, make_agent, parse_agents, Search)
and of the C functions behind them (blokus._core.policy_move, blokus._core.mcts).

Expected values come from the rules and from independent computation: legality is checked
against ``game.legal_moves()``, greedy's rule is recomputed move by move with ``Game.copy()`` and
``Game.attachment_points``, and MCTS is checked on Duo endgames solved by exhaustive search
(tests/agent_positions.py). Run with ``-s`` to see the strength figures.
"""
from __future__ import annotations

import inspect
import math
import os
import random
import signal
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_games import random_game

import blokus
from blokus import _core
from blokus.agents import GreedyAgent, MCTSAgent, RandomAgent, Search, make_agent, parse_agents

import agent_positions as P

MARGIN = 0.375  # the default weight of the margin in a playout's value with two sides (MCTSAgent's margin)
VARIANTS = ("classic", "classic_2", "classic_3", "classic_teams", "duo")
STARTS = ("any", "fixed")


# --- helpers -----------------------------------------------------------------------------------

def snapshot(game):
    return (list(game.history), game.board.copy(), game.remaining.copy(), game.key, game.to_move)


def assert_unchanged(game, before):
    history, board, remaining, key, to_move = before
    assert list(game.history) == history
    assert np.array_equal(game.board, board)
    assert np.array_equal(game.remaining, remaining)
    assert game.key == key
    assert game.to_move == to_move


def legal_set(game):
    return set(game.legal_moves().tolist())


def random_walk(variant, start, seed):
    """Yields the positions of one uniformly random game (the same Game object, advanced)."""
    rng = random.Random(seed)
    game = blokus.Game(variant, start=start)
    while not game.is_over:
        yield game
        game.play(rng.choice(game.legal_moves().tolist()))


def finished_game(variant="duo", seed=0):
    return random_game(variant, seed)


def placed_size(game, move):
    """Number of cells a placement fills, read off the board after playing it on a copy."""
    after = game.copy()
    after.play(move)
    return int((after.board >= 0).sum() - (game.board >= 0).sum())


def greedy_best(game, rivals):
    """The moves greedy's rule allows: largest piece; then most attachment points for the mover
    after the move; then fewest summed over `rivals`. Computed independently, move by move."""
    colour = game.to_move
    filled = int((game.board >= 0).sum())
    afters = {}
    for move in game.legal_moves().tolist():
        after = game.copy()
        after.play(move)
        afters[move] = after
    size = {m: int((a.board >= 0).sum()) - filled for m, a in afters.items()}
    largest = max(size.values())
    rank = {}
    for move, after in afters.items():
        if size[move] == largest:
            own = int(after.attachment_points(colour).sum())
            theirs = sum(int(after.attachment_points(k).sum()) for k in rivals)
            rank[move] = (own, -theirs)
    best = max(rank.values())
    return {m for m, r in rank.items() if r == best}


def rivals_of_mover(game):
    """Colours whose score does not count for the player to move (player_weights)."""
    weights = _core.player_weights(game.variant)
    return [k for k in range(game.num_colours) if weights[game.player_to_move][k] == 0]


def greedy_picks(game, seeds=24):
    picks = {_core.policy_move(game, "greedy", s) for s in range(seeds)}
    picks.add(GreedyAgent(seed=seeds)(game))
    return picks


def wilson(p, n, z=1.96):
    """Wilson score interval of a proportion p observed over n trials."""
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


# --- 1. legality and purity ----------------------------------------------------------------

@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_builtin_agents_return_a_legal_int_and_leave_the_game_unchanged(variant, start):
    agents = [RandomAgent(seed=1), GreedyAgent(seed=2), MCTSAgent(20, seed=3),
              make_agent("mcts:sims=8:c=0.3:rave=0", seed=4)]
    checked = 0
    for game in random_walk(variant, start, seed=f"{variant}/{start}"):
        if len(game.history) % 4:
            continue
        legal = legal_set(game)
        for agent in agents:
            before = snapshot(game)
            move = agent(game)
            assert type(move) is int, (agent.name, type(move))
            assert move in legal, (agent.name, move, len(game.history))
            assert_unchanged(game, before)
        checked += 1
    assert checked >= 5


def test_mcts_search_and_policy_move_leave_the_game_unchanged_midgame():
    game = P.replay("classic_3", "fixed", [])
    rng = random.Random(3)
    for _ in range(30):
        game.play(rng.choice(game.legal_moves().tolist()))
    before = snapshot(game)
    _core.mcts(game, simulations=200, seed=1)
    _core.policy_move(game, "greedy", 1)
    _core.policy_move(game, "random", 1)
    assert_unchanged(game, before)
    game.play(rng.choice(game.legal_moves().tolist()))  # still playable from the same state


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("start", ["fixed", "any"])
@pytest.mark.parametrize("variant", ["classic", "classic_2", "classic_3", "classic_teams", "duo"])
def test_mcts_plays_full_games_with_legal_moves_only(variant, start, threads):
    agent = make_agent(f"mcts:sims=50:threads={threads}", seed=11)
    game = blokus.Game(variant, start=start)
    movers = set()
    while not game.is_over:
        move = agent(game)
        assert move in legal_set(game), (len(game.history), move)
        movers.add(game.to_move)
        game.play(move)
    colours = range(game.num_colours)
    assert game.is_over and all(game.is_out(c) for c in colours)
    assert movers == set(colours)           # green too, in classic_3 by rotation
    assert game.to_move == -1


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_mcts_with_rave_margin_and_replies_plays_full_games_with_legal_moves_only(variant):
    # the last good replies are a colour's (in classic_3 the shared colour's, by rotation): a
    # stored reply is played only when legal for the colour to move; RAVE updates the children of
    # the colour that played a placement later, in classic_3 the shared colour's too
    agent = make_agent("mcts:sims=50:threads=1:rave=0.7:margin=0.375:replies=1", seed=12)
    game = blokus.Game(variant, start="any")
    while not game.is_over:
        search = agent.search(game)
        move = int(search.ids[0])
        assert move in legal_set(game), (len(game.history), move)
        assert ((0 <= search.values) & (search.values <= 1)).all()  # the standardised margin's value
        game.play(move)
    assert all(game.is_out(c) for c in range(game.num_colours))


@pytest.mark.parametrize("option", ["rave=0.7", "margin=0.375", "replies=1", "c=1.5", "exploration=0"])
def test_rave_exploration_margin_and_replies_reach_the_search(option):
    # each changes what the same seeded search finds (its visits or values): they are not ignored
    game = midgame_position()
    off = "mcts:sims=300:threads=1:reuse=0:rave=0:margin=0:replies=0"
    plain = make_agent(off, seed=5).search(game)
    other = make_agent(f"{off}:{option}", seed=5).search(game)
    assert other.simulations == plain.simulations == 300
    assert (plain.ids.tolist(), plain.visits.tolist(), plain.values.tolist()) != \
        (other.ids.tolist(), other.visits.tolist(), other.values.tolist())


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_mcts_opening_searches_pentominoes_only(variant):
    # The playouts and the prior consider only pentominoes in every colour's first two moves
    # (csrc/engine/move_features.h), so an opening search never tries a smaller piece, though the
    # first move of any size is legal.
    game = blokus.Game(variant, start="fixed")
    assert {placed_size(game, m) for m in game.legal_moves().tolist()} == {1, 2, 3, 4, 5}
    for _ in range(2 * game.num_colours):
        search = MCTSAgent(200, seed=len(game.history)).search(game)
        assert {placed_size(game, m) for m in search.ids.tolist()} == {5}, len(game.history)
        game.play(int(search.ids[0]))


# --- 2. reproducibility ------------------------------------------------------------------

def self_play(spec, seed, variant, start="fixed"):
    agent = make_agent(spec, seed=seed)
    game = blokus.Game(variant, start=start)
    while not game.is_over:
        game.play(agent(game))
    return [m for _, m in game.history]


@pytest.mark.parametrize("variant", ["duo", "classic_2"])
@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:sims=30:threads=1", "mcts:sims=30:threads=2",
                                  "mcts:sims=31:threads=3"])
def test_same_seed_same_game(spec, variant):
    first = self_play(spec, 5, variant)
    assert len(first) > 10
    assert self_play(spec, 5, variant) == first


def test_agents_with_the_same_seed_agree_when_interleaved():
    for cls in (RandomAgent, GreedyAgent, lambda seed: MCTSAgent(25, seed=seed)):
        a, b = cls(seed=9), cls(seed=9)
        game = blokus.Game("duo", start="any")
        while not game.is_over:
            move = a(game)
            assert b(game) == move
            game.play(move)


def test_random_with_different_seeds_differs():
    games = {tuple(self_play("random", seed, "duo")) for seed in range(4)}
    assert len(games) == 4


@given(seed=st.integers(0, 2**64 - 1), plies=st.integers(0, 24), walk=st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_core_choices_are_functions_of_position_and_seed(seed, plies, walk):
    rng = random.Random(walk)
    game = blokus.Game("duo", start="any")
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves().tolist()))
    if game.is_over:
        return
    legal = legal_set(game)
    for policy in ("random", "greedy"):
        move = _core.policy_move(game, policy, seed)
        assert move in legal
        assert _core.policy_move(game.copy(), policy, seed) == move
    first = _core.mcts(game, simulations=12, seed=seed)
    again = _core.mcts(game.copy(), simulations=12, seed=seed)
    for x, y in zip(first[:3], again[:3]):
        assert np.array_equal(x, y)
    assert first[3] == again[3] == 12


def test_random_is_uniform_over_the_legal_moves():
    game = P.replay("duo", *P.SOLO_DECISIVE[1][1:])
    legal = sorted(legal_set(game))
    assert len(legal) == 9
    agent = RandomAgent(seed=2024)
    draws = 9000
    counts = {m: 0 for m in legal}
    for _ in range(draws):
        counts[agent(game)] += 1            # KeyError if ever illegal
    # each count is Binomial(9000, 1/9): mean 1000, sd 29.8; allow 5 sd
    assert all(abs(c - 1000) <= 150 for c in counts.values()), counts


# --- 3. greedy's rule ----------------------------------------------------------------------

@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_greedy_follows_its_rule(variant, start):
    checked = ties = 0
    for game in random_walk(variant, start, seed=f"greedy/{variant}/{start}"):
        if len(game.history) % 6 != 1:
            continue
        best = greedy_best(game, rivals_of_mover(game))
        picks = greedy_picks(game)
        assert picks <= best, (len(game.history), picks, best)
        if len(best) >= 2:                  # "remaining ties at random"
            ties += 1
            assert len(picks) >= 2, (len(game.history), best)
        checked += 1
    assert checked >= 3 and ties >= 1       # both parts of the rule were exercised


def test_greedy_largest_piece_first_on_the_empty_duo_board():
    game = blokus.Game("duo", start="fixed")
    sizes = {placed_size(game, m) for m in greedy_picks(game, seeds=10)}
    assert sizes == {5}                     # every first placement of a pentomino is legal


@pytest.mark.parametrize("variant,start,moves", P.PARTNER_MATTERS,
                         ids=[f"{v}-{len(m)}" for v, _, m in P.PARTNER_MATTERS])
def test_greedy_does_not_treat_the_partner_colour_as_an_opponent(variant, start, moves):
    game = P.replay(variant, start, moves)
    rivals = rivals_of_mover(game)
    partner_aware = greedy_best(game, rivals)
    everyone = greedy_best(game, [k for k in range(4) if k != game.to_move])
    assert not partner_aware & everyone     # the position separates the two readings
    assert len(rivals) == 2 and game.to_move not in rivals
    assert greedy_picks(game) <= partner_aware


# --- 4. MCTS against exhaustive search ---------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("seed0,start,moves", P.SOLO_DECISIVE,
                         ids=[f"seed{s}" for s, _, _ in P.SOLO_DECISIVE])
def test_mcts_reaches_the_best_score_of_a_solo_endgame(seed0, start, moves, threads):
    game = P.replay("duo", start, moves)
    mover = game.to_move
    assert game.is_out(1 - mover)
    rival = game.scores()[1 - mover]        # final: the other colour never moves again
    memo, reach = {}, {}
    for move in game.legal_moves().tolist():
        game.play(move)
        reach[move] = P.solo_range(game, mover, memo)
        game.undo()
    best = max(hi for _, hi in reach.values())
    best_moves = {m for m, (_, hi) in reach.items() if hi == best}
    winning = {m for m, (_, hi) in reach.items() if hi > rival}
    assert best_moves == winning and len(winning) < len(reach)   # the position is as described
    for seed in range(3):
        before = snapshot(game)
        search = MCTSAgent(3000, threads=threads, seed=seed).search(game)
        assert_unchanged(game, before)
        assert int(search.ids[0]) in best_moves, (seed, int(search.ids[0]), reach, best)
        assert MCTSAgent(3000, threads=threads, seed=seed)(game) == int(search.ids[0])
        assert search.visits.sum() == search.simulations == 3000
        # the value is (1 - w) x win share + w x a squashed margin in [0, 1], w = MARGIN:
        for move, value, win, score in zip(search.ids.tolist(), search.values.tolist(),
                                           search.win_probability.tolist(), search.expected_score.tolist()):
            lo, hi = reach[move]
            assert lo <= score <= hi, (move, score, reach[move])   # a mean of reachable finals
            if lo > rival:                  # every continuation wins
                assert value >= 1 - MARGIN and win == 1.0, (move, value, win, reach[move], rival)
            if hi < rival:                  # every continuation loses
                assert value <= MARGIN and win == 0.0, (move, value, win, reach[move], rival)
        # the principal variation starts with the move played and is a legal line
        line = search.principal_variation.tolist()
        assert line[0] == int(search.ids[0])
        after = game.copy()
        for move in line:
            assert move in legal_set(after)
            after.play(move)
        # the players' figures are means over every simulation: all of them are reachable
        wins, scores = search.player_win_probability, search.player_expected_score
        assert wins.shape == scores.shape == (2,) and wins.sum() == pytest.approx(1.0)
        assert scores[1 - mover] == rival       # the other colour never moves again
        assert min(lo for lo, _ in reach.values()) <= scores[mover] <= best


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("seed0,start,moves", P.DUEL_ONE_WIN,
                         ids=[f"seed{s}" for s, _, _ in P.DUEL_ONE_WIN])
def test_mcts_finds_the_only_winning_move(seed0, start, moves, threads):
    game = P.replay("duo", start, moves)
    assert not game.is_out(1 - game.to_move)
    win, outcome = P.only_winning_move(game)
    for seed in range(3):
        assert MCTSAgent(3000, threads=threads, seed=seed)(game) == win, (seed, outcome)


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("seed0,start,moves", P.CLASSIC_2_ONE_WIN,
                         ids=[f"seed{s}" for s, _, _ in P.CLASSIC_2_ONE_WIN])
def test_mcts_finds_the_only_winning_move_of_a_classic_2_player(seed0, start, moves, threads):
    game = P.replay("classic_2", start, moves)
    partner = (game.to_move + 2) % 4               # the mover's other colour, still in the game
    assert not game.is_out(partner) and len(game.legal_moves(partner))
    win, outcome = P.only_winning_move(game)
    # 20000, not 3000 as in Duo: at seed29 three losing moves win most playouts, and their
    # refutations (four colours deep) take the search longer to find
    for seed in range(3):
        assert MCTSAgent(20000, threads=threads, seed=seed)(game) == win, (seed, outcome)


def centre_distance(game, move):
    """Distance from the 20x20 board's centre to the centre of the placement's nearest cell, at
    least 2, read off the board after playing it on a copy."""
    after = game.copy()
    after.play(move)
    rows, cols = np.nonzero((after.board >= 0) & (game.board < 0))
    return max(2.0, float(np.hypot(rows - 9.5, cols - 9.5).min()))


@pytest.mark.parametrize("variant", ["classic_2", "classic"])
def test_mcts_opening_heads_for_the_centre(variant):
    # In the first 8 placements on the 20x20 board the tree considers only the moves that come
    # within 0.3 squares as near the centre as the nearest pentomino (csrc/engine/prior.h), though
    # pentominoes farther away are legal.
    game = blokus.Game(variant, start="fixed")
    for ply in range(8):
        pentominoes = [m for m in game.legal_moves().tolist() if placed_size(game, m) == 5]
        distance = {m: centre_distance(game, m) for m in pentominoes}
        near = {m for m, d in distance.items() if d <= min(distance.values()) + 0.3}
        assert len(near) < len(distance), ply
        search = MCTSAgent(300, seed=ply).search(game)
        assert set(search.ids.tolist()) <= near, ply
        game.play(int(search.ids[0]))


# A Duo game (fixed starts) after 29 moves, the first of benchmarks/oracle_games.txt: blue (0) to
# move, with 5 legal moves.
DUO_ENDGAME = ["f9,e10,f10,g10,f11", "j5,k5,k6", "c6,d6,d7,e7,e8", "l4,m4,n4", "f4,e5,f5,g5,h5", "l7,l8",
               "g12,h12,i12,j12,k12", "m6", "j2,j3,i4,j4,k4", "n7,n8,n9,n10", "l9,m9,m10,l11,m11",
               "i6,g7,h7,i7", "n12,n13,l14,m14,n14", "k9,j10,k10,l10", "h1,i1,h2,g3,h3", "j1,k1,l1,k2,k3",
               "m1,m2,n2,l3,m3", "g9,h9,h10,h11,i11", "g8,h8,i8,i9,j9", "a2,a3,a4,a5,b5",
               "e13,f13,d14,e14,f14", "j6,j7,k7,k8", "c11,d11,c12,d12", "a12,a13,b13,a14", "l5,m5,n5,n6",
               "b1,c1,d1,e1", "c3,d3,e3", "a9,a10,b10", "a7,b7"]


def test_mcts_tries_every_move_once_a_node_has_16_visits_per_move():
    # Without exploration or RAVE the search keeps to one move (its value stays the best); once
    # the root has more than 16 visits per move, each simulation tries a move never visited
    # until none is left: of 17 per move, 16 per move + 1 on the one move, then one on each other.
    game = blokus.Game("duo", start="fixed")
    for cells in DUO_ENDGAME:
        game.play(cells)
    n = len(game.legal_moves())
    assert n == 5
    options = dict(threads=1, seed=1, exploration=0.0, rave=0.0)
    assert _core.mcts(game, simulations=16 * n, **options)[1].tolist() == [16 * n]
    search = _core.mcts(game, simulations=17 * n, **options)
    assert sorted(search[0].tolist()) == sorted(game.legal_moves().tolist())
    assert search[1].tolist() == [16 * n + 1] + [1] * (n - 1)


# --- 5. search statistics ------------------------------------------------------------------

def stats_positions():
    duo = blokus.Game("duo", start="fixed")
    yield "duo-empty", duo
    rng = random.Random(1)
    for variant, plies in (("classic", 20), ("classic_3", 27), ("classic_teams", 40)):
        game = blokus.Game(variant, start="any")
        for _ in range(plies):
            game.play(rng.choice(game.legal_moves().tolist()))
        yield f"{variant}-{plies}", game


STATS_POSITIONS = list(stats_positions())


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("name,game", STATS_POSITIONS, ids=[name for name, _ in STATS_POSITIONS])
def test_search_statistics(name, game, threads):
    before = snapshot(game)
    legal = legal_set(game)
    sims = 300
    search = MCTSAgent(sims, threads=threads, seed=7).search(game)
    assert_unchanged(game, before)
    assert isinstance(search, Search)
    assert search.simulations == sims
    ids, visits, values = search.ids, search.visits, search.values
    assert ids.dtype == np.int32 and visits.dtype == np.int64 and values.dtype == np.float64
    assert len(ids) == len(visits) == len(values) >= 1
    assert set(ids.tolist()) <= legal and len(set(ids.tolist())) == len(ids)
    assert np.all(np.diff(visits) <= 0) and visits.min() >= 1
    assert visits.sum() <= sims
    assert visits.sum() == sims             # every simulation goes through one root move
    assert np.all((values >= 0) & (values <= 1))
    # the root's children are the legal moves with a positive prior, all of them in Duo (the
    # moves nearest the centre only in a 20x20 opening, which these positions are past)
    move_ids, _, _, log_priors = _core.prior_features(game)
    assert set(ids.tolist()) <= set(move_ids[log_priors > -np.inf].tolist())
    # the players' shares of the win are means over the simulations, each a whole win split
    # between the sides (in classic_teams both players of a team get the team's share)
    per_side = 2 if name.startswith("classic_teams") else 1
    assert search.player_win_probability.sum() == pytest.approx(per_side)
    assert np.all((search.win_probability >= 0) & (search.win_probability <= 1))


def by_move(result):
    """{placement id: (visits, sum of values, sum of win shares)} of a _core.mcts result."""
    ids, visits, values, _, wins, *_ = result
    return {int(m): (int(n), v * n, w * n) for m, n, v, w in zip(ids, visits, values, wins)}


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("variant", ["duo", "classic_3"])
def test_one_thread_is_the_first_tree_of_many(variant, threads):
    # Root parallelisation (mcts.h): tree k draws from stream (seed, k) and runs its share alone,
    # so with `threads` trees and threads * n simulations, tree 0 is the one-thread search of n
    # simulations and the others add to it: every move's visits and sums grow, each other
    # simulation adding one visit and a value and win share in [0, 1].
    game = blokus.Game(variant)
    n = 200
    for seed in range(2):
        one = by_move(_core.mcts(game, simulations=n, seed=seed, threads=1))
        assert one == by_move(_core.mcts(game, simulations=n, seed=seed))  # threads=1: the default
        many = by_move(_core.mcts(game, simulations=threads * n, seed=seed, threads=threads))
        assert set(one) <= set(many)
        for move, (visits, value, win) in one.items():
            more, more_value, more_win = many[move]
            assert more >= visits, move
            for total, part in ((more_value, value), (more_win, win)):
                assert -1e-9 <= total - part <= more - visits + 1e-9, move
        assert sum(v for v, _, _ in many.values()) - sum(v for v, _, _ in one.values()) == (threads - 1) * n
        assert one != {m: x for m, x in many.items() if m in one}  # the other trees did search


@pytest.mark.parametrize("threads", [2, 4])
def test_fewer_simulations_than_threads(threads):
    game = blokus.Game("duo")
    search = MCTSAgent(1, threads=threads, seed=1).search(game)
    assert search.simulations == 1 and search.visits.tolist() == [1]
    assert int(search.ids[0]) in legal_set(game) and search.principal_variation[0] == search.ids[0]


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_search_on_threads(threads):
    # a search of a minute is stopped by SIGINT from another thread, and the interpreter goes on
    game = blokus.Game("duo")
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            _core.mcts(game, seconds=60.0, threads=threads, seed=1)
    finally:
        timer.cancel()
    assert _core.mcts(game, simulations=20, threads=threads, seed=1)[3] == 20


def test_threads_default_to_the_cores_this_process_may_use():
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert MCTSAgent(10).options["threads"] == min(expected, 64)
    assert make_agent("mcts:sims=10:threads=3").options["threads"] == 3


def midgame_position():
    game = blokus.Game("classic", start="fixed")
    rng = random.Random(4)
    for _ in range(12):
        game.play(rng.choice(game.legal_moves().tolist()))
    return game


def duo_position(plies, seed):
    game = blokus.Game("duo", start="fixed")
    rng = random.Random(seed)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves().tolist()))
    return game


def unvisited(game, simulations, seed=1):
    """How many of the root's children (its legal moves with a positive prior) a one-thread
    search of `simulations` leaves unvisited."""
    _, _, _, log_priors = _core.prior_features(game)
    return int((log_priors > -np.inf).sum()) - len(_core.mcts(game, simulations=simulations, seed=seed, threads=1)[0])


def test_a_root_with_16_visits_per_child_tries_its_unvisited_children():
    # mcts.c's select_child: once a node's visits exceed 16 per child, each simulation through it
    # goes to an unvisited child while one is left. The root has n children (every legal Duo
    # move has a positive prior) and j visits before simulation j (0-based), so simulations
    # 0 .. 16n choose freely and each one after visits a new child: the u children left
    # unvisited by 16n + 1 simulations are down to max(0, u - k) after k more, and every legal
    # move has a visit after 17n + 1. A seeded search of more simulations begins as one of fewer.
    game = duo_position(14, seed=14)
    n = len(game.legal_moves())
    assert n == int((_core.prior_features(game)[3] > -np.inf).sum())
    u = unvisited(game, 16 * n + 1)
    assert 0 < u < n                        # the prior leaves moves unvisited: the rule matters
    for k in (1, 2, u // 2, u - 1, u, u + 1, n):
        assert unvisited(game, 16 * n + 1 + k) == max(0, u - k), k
    search = MCTSAgent(17 * n + 1, threads=1, reuse=False, seed=1).search(game)
    assert sorted(search.ids.tolist()) == sorted(game.legal_moves().tolist())


@pytest.mark.parametrize("variant", ["classic", "classic_2"])
def test_a_move_whose_prior_is_0_is_never_a_child(variant):
    # On the 20x20 board, in the first 8 placements, only the moves nearest the centre have a
    # prior > 0 (prior.h); the others, pentominoes among them, are not children of the root:
    # with 17n + 1 simulations every one of the n children is visited (the rule of 16 visits per
    # child above) and no other move ever is.
    game = blokus.Game(variant, start="fixed")
    for ply in range(2):
        ids, _, _, log_priors = _core.prior_features(game)
        positive = set(ids[log_priors > -np.inf].tolist())
        pruned = set(ids[log_priors == -np.inf].tolist())
        assert positive and any(placed_size(game, m) == 5 for m in pruned), ply
        search = MCTSAgent(17 * len(positive) + 1, threads=1, reuse=False, seed=ply).search(game)
        assert set(search.ids.tolist()) == positive, ply
        game.play(int(search.ids[0]))
    for _ in range(6):                      # 8 pieces down: every legal move is considered
        game.play(int(game.legal_moves()[0]))
    assert np.isfinite(_core.prior_features(game)[3]).all()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("temperature", [1e-300, 5e-324])
def test_a_cold_prior_leaves_only_the_best_scored_moves(variant, temperature):
    # prior.h: a child's prior is exp((s - s_max) / T). As T goes to 0 every move scored below
    # the best has a prior of 0 (the tree does not consider it) and the best ones keep 1: the
    # root's children are exactly the moves of the highest log prior.
    for plies in (0, 2, 9, 30):
        game = random_game(variant, seed=plies, plies=plies)
        if game.is_over:
            continue
        ids, _, _, log_priors = _core.prior_features(game)
        best = set(ids[log_priors == log_priors.max()].tolist())
        search = MCTSAgent(64, threads=1, reuse=False, seed=plies, prior_temperature=temperature).search(game)
        assert set(search.ids.tolist()) == best, plies


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_sharp_prior_plays_legal_moves(variant):
    # Before, exp(w . x / T) overflowed float32 from T ~ 0.3 down: no move kept a prior, a node
    # was expanded without children and the search played an uninitialised node (a crash).
    agent = make_agent("mcts:sims=20:threads=1:prior_temperature=0.1")
    for plies in (0, 2, 9, 30):
        game = random_game(variant, seed=plies, plies=plies)
        if not game.is_over:
            assert agent(game) in legal_set(game), plies


def test_search_by_time_and_by_count():
    game = blokus.Game("duo", start="any")
    by_time = MCTSAgent(seconds=0.05, seed=1).search(game)
    assert by_time.simulations >= 1 and int(by_time.ids[0]) in legal_set(game)
    ids, visits, values, sims, *_ = _core.mcts(game, seconds=0.05, seed=1)
    assert sims >= 1 and len(ids) >= 1
    # both given, time long: the simulation count is reached first
    assert MCTSAgent(40, seconds=600, seed=1).search(game).simulations == 40
    assert _core.mcts(game, simulations=40, seconds=600.0)[3] == 40
    # both given, count unreachable in the time: the clock stops it
    assert _core.mcts(game, simulations=10**9, seconds=0.05)[3] < 10**9


@pytest.mark.parametrize("threads", [1, 2])
def test_a_limit_in_cpu_seconds_lets_every_thread_use_that_much_cpu(threads):
    # cpu_seconds: the search ends only once the process's CPU clock, which its threads advance
    # together, has gone on by `seconds` per thread: however busy the machine, it used at least
    # that much CPU (a bound the stopping rule guarantees, not a timing).
    game = blokus.Game("duo", start="any")
    agent = MCTSAgent(2**62, seconds=0.05, cpu_seconds=True, threads=threads, reuse=False, seed=1)
    before = time.process_time()
    search = agent.search(game)
    assert time.process_time() - before >= 0.05 * threads
    assert search.simulations < 2**62 and int(search.ids[0]) in legal_set(game)
    assert make_agent("mcts:seconds=0.05:cpu=1").options["cpu"] is True


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["duo", "classic_2", "classic"])
def test_early_stop_1_plays_the_move_of_the_whole_search(variant):
    # A search stopped once its most visited move leads by more than the simulations left
    # cannot have played another: the rest of the search could not have overtaken it.
    stopped_early = 0
    for i, game in enumerate(random_walk(variant, "fixed", seed=7)):
        if i % 6:
            continue
        whole = MCTSAgent(600, threads=1, reuse=False, seed=i).search(game)
        early = MCTSAgent(600, threads=1, reuse=False, early_stop=1, seed=i).search(game)
        assert whole.simulations == 600 and early.simulations <= 600
        assert early.ids[0] == whole.ids[0]
        stopped_early += early.simulations < 600
    assert stopped_early >= 2


def test_early_stop_with_one_legal_move_stops_after_about_half():
    # One move: it leads by every simulation run, so f = 1 stops once more than half are run.
    game = next(g for g in random_walk("duo", "fixed", seed=3) if len(g.legal_moves()) == 1)
    search = MCTSAgent(1000, threads=1, reuse=False, early_stop=1, seed=0).search(game)
    assert 500 < search.simulations < 600
    assert MCTSAgent(1000, threads=1, reuse=False, seed=0).search(game).simulations == 1000


def test_make_agent_parameters_reach_the_search():
    game = blokus.Game("duo", start="fixed")
    assert make_agent("mcts:sims=7", seed=1).search(game).simulations == 7
    assert make_agent("mcts:simulations=9:c=0:rave=0", seed=1).search(game).simulations == 9
    assert make_agent("mcts:seconds=0.05", seed=1).search(game).simulations >= 1
    assert make_agent("mcts:sims=7:threads=2", seed=1).search(game).simulations == 7
    options = make_agent("mcts:sims=7:c=0.25:prior_temperature=1.5:rave=0.125:margin=0.25:evaluation=0.75:replies=0"
                         ":early_stop=0.5:max_nodes=99").options
    keys = ("exploration", "prior_temperature", "rave", "margin", "evaluation", "replies", "early_stop", "max_nodes")
    assert {k: options[k] for k in keys} == {"exploration": 0.25, "prior_temperature": 1.5, "rave": 0.125,
                                             "margin": 0.25, "evaluation": 0.75, "replies": False, "early_stop": 0.5,
                                             "max_nodes": 99}
    assert make_agent("mcts:exploration=0.75").options["exploration"] == 0.75
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy"), GreedyAgent)
    assert make_agent("mcts:sims=7:c=0.5").name == "mcts:sims=7:c=0.5"
    assert make_agent("greedy").name == "greedy"



def test_growth_gives_a_colours_kth_placement_growth_to_the_k_times_the_budget():
    # Duo: blue's and yellow's first placements get the budget, their third 1.5 ** 2 times it.
    game = blokus.Game("duo", start="fixed")
    agent = make_agent("mcts:sims=100:growth=1.5:reuse=0:threads=1", seed=1)
    budgets = []
    for _ in range(6):
        search = agent.search(game)
        budgets.append(search.simulations)
        game.play(int(search.ids[0]))
    assert budgets == [100, 100, 150, 150, 225, 225]
    assert make_agent("mcts:sims=100:growth=0.8:reuse=0:threads=1", seed=1).search(game).simulations == 51

# --- 6. errors -----------------------------------------------------------------------------

def test_finished_game_is_refused():
    game = finished_game()
    for call in (lambda: _core.mcts(game, simulations=10),
                 lambda: _core.policy_move(game, "random", 0),
                 lambda: _core.policy_move(game, "greedy", 0),
                 lambda: MCTSAgent(10, seed=0).search(game),
                 lambda: MCTSAgent(10, seed=0)(game),
                 lambda: RandomAgent(seed=0)(game),
                 lambda: GreedyAgent(seed=0)(game)):
        with pytest.raises(ValueError):
            call()


@pytest.mark.parametrize("not_a_game", ["duo", None, 3, np.full((14, 14), -1, np.int8)],
                         ids=["str", "None", "int", "array"])
def test_non_game_is_a_type_error(not_a_game):
    with pytest.raises(TypeError):
        _core.mcts(not_a_game, simulations=5)
    with pytest.raises(TypeError):
        _core.policy_move(not_a_game, "random", 0)
    with pytest.raises(TypeError):
        _core.policy_move(not_a_game, "greedy", 0)
    with pytest.raises(TypeError):
        MCTSAgent(5, seed=0)(not_a_game)
    with pytest.raises(TypeError):
        RandomAgent(seed=0)(not_a_game)


@pytest.mark.parametrize("kwargs", [
    {}, {"simulations": 0}, {"simulations": -1}, {"simulations": -1, "seconds": 1.0},
    {"simulations": 10, "seconds": -0.5}, {"seconds": -1.0}, {"simulations": 10, "seconds": math.nan},
    {"simulations": 10, "exploration": -0.01}, {"simulations": 10, "exploration": math.nan},
    {"simulations": 10, "exploration": math.inf},
    {"simulations": 10, "prior_temperature": 0.0}, {"simulations": 10, "prior_temperature": -1.0},
    {"simulations": 10, "prior_temperature": math.nan}, {"simulations": 10, "prior_temperature": math.inf},
    {"simulations": 10, "rave": -0.1}, {"simulations": 10, "rave": math.nan}, {"simulations": 10, "rave": math.inf},
    {"simulations": 10, "max_nodes": 0}, {"simulations": 10, "max_nodes": -5},
    {"simulations": 10, "margin": -0.1}, {"simulations": 10, "margin": 0.5}, {"simulations": 10, "margin": math.nan},
    {"simulations": 10, "threads": 0}, {"simulations": 10, "threads": -1}, {"simulations": 10, "threads": 65},
    {"simulations": 10, "early_stop": -0.5}, {"simulations": 10, "early_stop": math.nan},
    {"simulations": 10, "early_stop": math.inf},
], ids=repr)
def test_core_mcts_bad_parameters(kwargs):
    game = blokus.Game("duo")
    before = snapshot(game)
    with pytest.raises(ValueError):
        _core.mcts(game, **kwargs)
    assert_unchanged(game, before)


def test_core_policy_move_bad_policy_and_seed():
    game = blokus.Game("duo")
    with pytest.raises(ValueError, match="minimax"):
        _core.policy_move(game, "minimax", 0)
    with pytest.raises(ValueError):
        _core.policy_move(game, "random", -1)


@pytest.mark.parametrize("kwargs", [
    {"simulations": 0}, {"simulations": -3}, {"seconds": 0}, {"seconds": -1.0},
    {"seconds": math.nan}, {"simulations": 0, "seconds": 1.0},
], ids=repr)
def test_mcts_agent_rejects_bad_counts_and_times(kwargs):
    with pytest.raises(ValueError):
        MCTSAgent(**kwargs)


@pytest.mark.parametrize("spec", [
    "mcts:sims=0", "mcts:sims=-5", "mcts:seconds=0", "mcts:seconds=-1",
    "mcts:c=-1", "mcts:exploration=-0.5", "mcts:c=1e999", "mcts:rave=-1", "mcts:rave=1e999", "mcts:rave=nan",
    "mcts:max_nodes=0", "mcts:c=nan", "mcts:threads=0", "mcts:threads=65", "mcts:threads=-1",
    "mcts:margin=0.5", "mcts:margin=-0.5", "mcts:replies=2", "mcts:replies=-1",
])
def test_make_agent_rejects_out_of_range_values(spec):
    # make_agent's docstring: ValueError for "a value that is not a number or is out of range";
    # MCTSAgent's: ValueError for "a parameter out of range". An agent that only fails at its
    # first move would pass parse_agents' check and stop a match midway.
    with pytest.raises(ValueError):
        make_agent(spec)


@pytest.mark.parametrize("name", ["exploration", "rave"])
@pytest.mark.parametrize("value", [-0.5, -1e-300, math.inf, -math.inf, math.nan], ids=repr)
def test_bad_exploration_and_rave_are_named(name, value):
    # both must be >= 0 and finite (MCTSAgent's docstring); the message names the parameter
    game = blokus.Game("duo")
    before = snapshot(game)
    with pytest.raises(ValueError, match=f"{name} must be >= 0 and finite"):
        _core.mcts(game, simulations=10, **{name: value})
    with pytest.raises(ValueError, match=f"{name} must be >= 0 and finite"):
        MCTSAgent(10, **{name: value})
    assert_unchanged(game, before)
    key = {"exploration": "c", "rave": "rave"}[name]
    with pytest.raises(ValueError, match=f"{name} must be >= 0 and finite"):
        make_agent(f"mcts:{key}={-1 if value < 0 else '1e999'}")


@pytest.mark.parametrize("removed", ["widening", "bias"])
def test_the_removed_parameters_are_rejected(removed):
    # progressive widening and progressive bias are gone from the search (mcts.h): an agent
    # string naming them is refused with the parameters there are, and so is the keyword
    known = [f"{key}=" for key in blokus.agents.AGENTS["mcts"][1]]
    assert "rave=" in known and "c=" in known and f"{removed}=" not in known
    with pytest.raises(ValueError, match=f"bad parameter '{removed}=1'") as error:
        make_agent(f"mcts:sims=10:{removed}=1")
    assert str(error.value).endswith(f"(parameters of mcts: {', '.join(known)})")
    with pytest.raises(TypeError, match=removed):
        MCTSAgent(10, **{removed: 1.0})
    with pytest.raises(TypeError, match=removed):
        _core.mcts(blokus.Game("duo"), simulations=10, **{removed: 1.0})


def test_the_defaults_are_the_engines():
    # _core.MCTS_DEFAULTS is bk_mcts_defaults(): a search given them is the search given nothing
    defaults = dict(_core.MCTS_DEFAULTS)
    assert set(defaults) == {"exploration", "prior_temperature", "rave", "margin", "evaluation", "replies",
                             "early_stop", "max_nodes"}
    game = midgame_position()
    plain = _core.mcts(game, simulations=200, seed=3, threads=1)
    given = _core.mcts(game, simulations=200, seed=3, threads=1, **defaults)
    assert all(np.array_equal(x, y) for x, y in zip(plain, given))
    for change in ({"rave": 0.0}, {"prior_temperature": 1.0}):
        changed = _core.mcts(game, simulations=200, seed=3, threads=1, **dict(defaults, **change))
        assert not all(np.array_equal(x, y) for x, y in zip(plain, changed)), change  # the comparison can fail
    # the static evaluation is Duo's alone: on by default there, nothing in classic
    without = _core.mcts(game, simulations=200, seed=3, threads=1, **dict(defaults, evaluation=0.0))
    assert all(np.array_equal(x, y) for x, y in zip(plain, without))
    duo = duo_position(12, 4)
    plain = _core.mcts(duo, simulations=200, seed=3, threads=1)
    without = _core.mcts(duo, simulations=200, seed=3, threads=1, **dict(defaults, evaluation=0.0))
    assert not all(np.array_equal(x, y) for x, y in zip(plain, without))
    # MCTSAgent's defaults, _core.mcts's documented signature and the docstring's numbers
    options = MCTSAgent(10).options
    assert {k: options[k] for k in defaults} == defaults
    signature = inspect.signature(_core.mcts).parameters
    assert {k: signature[k].default for k in defaults} == defaults
    text = " ".join(MCTSAgent.__doc__.split())
    for name in ("exploration", "prior_temperature", "rave", "margin", "evaluation", "max_nodes"):
        assert f"default {defaults[name]}" in text, name
    assert "default on" in text and defaults["replies"] is True
    assert defaults["margin"] is None       # the variant's weight (test_the_margins_default_weight)


@pytest.mark.parametrize("variant, weight", [("duo", MARGIN), ("classic_teams", MARGIN), ("classic_2", MARGIN),
                                             ("classic_3", 0.2), ("classic", 0.2)])
def test_the_margins_default_weight(variant, weight):
    # the margin's weight by default (MCTSAgent's margin): 0.375 with two sides, the weight the
    # endgame tests here bound values by; 0.2 with three or four sides
    game = blokus.Game(variant, start="fixed")
    rng = random.Random(5)
    for _ in range(8):
        game.play(rng.choice(game.legal_moves().tolist()))
    search = [_core.mcts(game, simulations=300, seed=3, threads=1, **margin)
              for margin in ({}, {"margin": weight}, {"margin": 0.375 if weight != MARGIN else 0.2})]
    assert all(np.array_equal(x, y) for x, y in zip(search[0], search[1]))
    assert not all(np.array_equal(x, y) for x, y in zip(search[0], search[2]))  # the comparison can fail


@pytest.mark.parametrize("max_nodes", [1, 10])
def test_tiny_tree_still_gives_a_legal_move(max_nodes):
    for game in (blokus.Game("duo", start="fixed"), P.replay("classic_3", "any", [])):
        before = snapshot(game)
        move = MCTSAgent(200, max_nodes=max_nodes, seed=2)(game)
        assert move in legal_set(game)
        assert_unchanged(game, before)


@pytest.mark.parametrize("max_nodes", [1, 10, 1000])
def test_tiny_tree_with_more_root_moves_than_nodes_still_gives_a_legal_move(max_nodes):
    game = P.replay(*P.BIG_ROOT)
    legal = legal_set(game)
    assert len(legal) > 1024                # more root moves than the tree may hold
    search = MCTSAgent(100, max_nodes=max_nodes, seed=1).search(game)
    assert search.simulations == 100
    assert len(search.ids) >= 1 and set(search.ids.tolist()) <= legal
    assert MCTSAgent(100, max_nodes=max_nodes, seed=1)(game) in legal


@pytest.mark.parametrize("spec,named", [
    ("minimax", "minimax"), ("Greedy", "Greedy"), ("mcts:depth=3", "depth"),
    ("greedy:sims=3", "sims"), ("mcts:sims", "sims"), ("mcts:sims=lots", "lots"),
    ("mcts:sims=1.5", "1.5"), ("mcts:c=high", "high"), ("mcts:seconds=soon", "soon"),
])
def test_make_agent_errors_name_the_culprit(spec, named):
    with pytest.raises(ValueError, match=named):
        make_agent(spec)


def test_parse_agents():
    assert parse_agents("mcts:sims=500,c=0.5,greedy") == ["mcts:sims=500:c=0.5", "greedy"]
    assert parse_agents("random") == ["random"]
    assert parse_agents("greedy,random") == ["greedy", "random"]
    assert parse_agents("mcts,sims=5") == ["mcts:sims=5"]
    assert parse_agents("greedy,mcts:sims=5,rave=0,c=0.2") == ["greedy", "mcts:sims=5:rave=0:c=0.2"]
    for text in ("", "c=1,greedy", "greedy,,random", "greedy,", ",greedy", "bogus",
                 "greedy,bogus", "random,sims=5"):
        with pytest.raises(ValueError):
            parse_agents(text)


# --- 7. strength ---------------------------------------------------------------------------

def duo_match(spec_a, spec_b, games=100):
    """Win share of spec_a (a tie counts 1/2) over `games` Duo games, seats alternating."""
    points = 0.0
    for i in range(games):
        a, b = make_agent(spec_a, seed=2 * i), make_agent(spec_b, seed=2 * i + 1)
        seat = i % 2                        # a's colour (= player in Duo)
        players = (a, b) if seat == 0 else (b, a)
        game = blokus.Game("duo", start="fixed")
        while not game.is_over:
            game.play(players[game.to_move](game))
        winners = game.winners()
        if seat in winners:
            points += 1 / len(winners)
    return points / games


@pytest.mark.parametrize("spec_a,spec_b", [("greedy", "random")])
def test_strength_greedy_beats_random(spec_a, spec_b):
    share = duo_match(spec_a, spec_b)
    lo, hi = wilson(share, 100)
    print(f"\n{spec_a} vs {spec_b}: win share {share:.3f}, Wilson 95% [{lo:.3f}, {hi:.3f}]")
    assert lo > 0.5


@pytest.mark.slow  # a match of searches
@pytest.mark.parametrize("spec_a,spec_b", [("mcts:sims=500", "greedy")])
def test_strength_mcts_beats_greedy(spec_a, spec_b):
    share = duo_match(spec_a, spec_b)
    lo, hi = wilson(share, 100)
    print(f"\n{spec_a} vs {spec_b}: win share {share:.3f}, Wilson 95% [{lo:.3f}, {hi:.3f}]")
    assert lo > 0.5


def test_wilson_interval_hand_worked():
    # p = 0.5, n = 100: centre 0.5, half-width 1.96 * sqrt(0.0025 + 0.000096) / 1.038416 = 0.0962
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.5 - 0.0962, abs=2e-4) and hi == pytest.approx(0.5 + 0.0962, abs=2e-4)


def test_mcts_values_count_a_team_win_as_a_whole_win():
    # classic_teams: blue+red play greedy against random yellow+green; 30 plies in, the greedy
    # team is far ahead, so winning is near certain and a won game is worth (nearly) 1 to its
    # side, not half of it (Search.win_probability: a side's share of the win, 1 alone), and the
    # value is at least its (1 - w) part.
    game = blokus.Game("classic_teams")
    agents = [make_agent("greedy", seed=1), make_agent("random", seed=2)]
    for _ in range(30):
        game.play(agents[game.to_move % 2](game))
    scores = game.player_scores()
    assert game.to_move == 2 and scores[0] == scores[2] and scores[0] - scores[1] >= 10
    search = MCTSAgent(500, seed=1).search(game)
    assert search.win_probability[0] > 0.9
    assert search.values[0] >= (1 - MARGIN) * search.win_probability[0]
