"""blokus.search.BatchedSearch: the batched PUCT search with an outside evaluator.

The search is checked against a plain Python PUCT written here from the formula in
blokus/search.py's text (the same selection rule, tie-break, first-play urgency and backup,
and the win shares of docs/rules.md), against exhaustive searches of small endgames, and
against the laws of the Dirichlet distribution.
"""
from __future__ import annotations

import gc
import math
import os
import random
import signal
import subprocess
import sys
import threading
import zlib

import numpy as np
import pytest
from test_api import current_rss_kb

import blokus
from blokus.search import BatchedSearch

import agent_positions as P

# --- a plain PUCT to compare with ------------------------------------------------------------

def win_shares(game: blokus.Game) -> list[float]:
    """docs/rules.md: the highest player score wins, equal highest share; in classic_teams the
    two members of a team share its score, and both get the team's share."""
    scores = game.player_scores()
    side = (lambda p: p % 2) if game.variant == "classic_teams" else (lambda p: p)
    best = max(scores)
    winning_sides = {side(p) for p, s in enumerate(scores) if s == best}
    return [1.0 / len(winning_sides) if s == best else 0.0 for s in scores]


class Node:
    def __init__(self, num_players: int):
        self.visits = 0
        self.value = [0.0] * num_players
        self.children: dict[int, Node] | None = None  # move -> node, once expanded
        self.priors: dict[int, float] = {}


def reference_search(game: blokus.Game, simulations: int, evaluator, c_puct: float,
                     fpu: float | None = None) -> Node:
    """The search as blokus/search.py states it, one simulation at a time. `evaluator(game)`
    gives (priors over all ids as float32, values per player as float32)."""
    players = game.num_players
    root = Node(players)

    def expand_and_value(node: Node, g: blokus.Game) -> list[float]:
        priors, values = evaluator(g)
        legal = g.legal_moves().tolist()
        total = sum(float(priors[m]) for m in legal)
        node.children = {}
        for m in legal:
            p = float(priors[m]) / total if total > 0 else 1.0 / len(legal)
            node.priors[m] = float(np.float32(p))  # the search keeps priors as float32
        return [float(v) for v in values]

    def backup(path, values):
        for node in path:
            node.visits += 1
            for p in range(players):
                node.value[p] += values[p]

    backup([root], expand_and_value(root, game))
    for _ in range(simulations):
        g, node, path = game.copy(), root, [root]
        while node.children is not None:
            p = g.player_to_move
            explore = c_puct * math.sqrt(node.visits)
            first = fpu if fpu is not None else node.value[p] / node.visits
            best, best_score = None, -math.inf
            for m, prior in node.priors.items():
                child = node.children.get(m)
                n = child.visits if child else 0
                q = child.value[p] / n if child else first
                score = q + explore * prior / (1.0 + n)
                if score > best_score or (score == best_score and m < best):
                    best, best_score = m, score
            g.play(best)
            node = node.children.setdefault(best, Node(players))
            path.append(node)
            if g.is_over:
                break
        values = win_shares(g) if g.is_over else expand_and_value(node, g)
        backup(path, values)
    return root


def uniform_zero(observations, remaining, masks):
    return masks.astype(np.float32), np.zeros((len(masks), 2), np.float32)


def hashed(obs: np.ndarray, num_players: int):
    """An evaluator's output that depends on the position only: priors and values from a hash
    of the observation, exactly representable in float32."""
    h = zlib.crc32(obs.tobytes())
    values = np.array([((h >> (5 * p)) % 17) / 16 for p in range(num_players)], np.float32)
    return h, values


def hashed_priors(h: int, num_placements: int) -> np.ndarray:
    return (1 + (np.arange(num_placements) * 7919 + h) % 13).astype(np.float32)


def batch_hashed(num_players: int, num_placements: int):
    def evaluate(observations, remaining, masks):
        priors = np.empty((len(masks), num_placements), np.float32)
        values = np.empty((len(masks), num_players), np.float32)
        for k, obs in enumerate(observations):
            h, values[k] = hashed(obs, num_players)
            priors[k] = hashed_priors(h, num_placements)
        return priors, values
    return evaluate


def single_hashed(game: blokus.Game):
    h, values = hashed(game.observation(), game.num_players)
    return hashed_priors(h, game.num_placements), values


def single_uniform_zero(game: blokus.Game):
    return game.legal_mask().astype(np.float32), np.zeros(game.num_players, np.float32)


def endgame(variant: str, seed: int, left: int) -> blokus.Game:
    """Seeded uniform-random play until at most `left` legal moves remain for the mover, or
    until the game would end with the next move."""
    rng = random.Random(seed)
    game = blokus.Game(variant, start="any")
    while True:
        moves = game.legal_moves().tolist()
        if len(moves) <= left:
            return game
        game.play(rng.choice(moves))
        if game.is_over:
            game.undo()
            return game


POSITIONS = {
    "duo-empty": lambda: blokus.Game("duo", start="fixed"),
    "duo-duel": lambda: P.replay("duo", *P.DUEL_ONE_WIN[0][1:]),
    "duo-solo": lambda: P.replay("duo", *P.SOLO_DECISIVE[0][1:]),
    "classic-end": lambda: endgame("classic", 3, 12),
    "classic_3-end": lambda: endgame("classic_3", 4, 12),
    "classic_teams-end": lambda: endgame("classic_teams", 5, 12),
    "classic_2-end": lambda: endgame("classic_2", 6, 12),
}


def root_visits(root: Node) -> dict[int, int]:
    return {m: c.visits for m, c in root.children.items()}


def search_visits(search: BatchedSearch, game: int = 0) -> dict[int, int]:
    ids, _, visits, _ = search.children(game)
    return {int(m): int(v) for m, v in zip(ids, visits) if v}


# --- 1. the same visits as the plain search --------------------------------------------------

@pytest.mark.parametrize("name", POSITIONS)
def test_uniform_zero_evaluator_visits_like_the_plain_search(name):
    game = POSITIONS[name]()
    sims = 150
    expected = root_visits(reference_search(game, sims, single_uniform_zero, c_puct=1.25))
    search = BatchedSearch([game], simulations=sims, dirichlet_fraction=0.0)
    search.run(lambda o, r, m: (m.astype(np.float32), np.zeros((len(m), game.num_players), np.float32)))
    assert search_visits(search) == expected
    assert search.visit_counts().sum() == sims


@pytest.mark.slow
@pytest.mark.parametrize("name", POSITIONS)
@pytest.mark.parametrize("fpu", [None, 0.0, 1.0])
def test_position_dependent_evaluator_visits_like_the_plain_search(name, fpu):
    """Values that differ per player and per position, priors that differ per move: the
    per-player backup and the point of view of each node's parent are what decide."""
    game = POSITIONS[name]()
    sims = 120
    root = reference_search(game, sims, single_hashed, c_puct=0.8, fpu=fpu)
    search = BatchedSearch([game], simulations=sims, c_puct=0.8, fpu=fpu, dirichlet_fraction=0.0)
    search.run(batch_hashed(game.num_players, game.num_placements))
    assert search_visits(search) == root_visits(root)
    expected_values = np.array(root.value) / root.visits
    np.testing.assert_allclose(search.root_values()[0], expected_values, rtol=1e-6)
    # one level down too: the most visited child's own children
    best = max(root.children, key=lambda m: root.children[m].visits)
    ids, _, visits, _ = search.children(0, [best])
    assert {int(m): int(v) for m, v in zip(ids, visits) if v} == root_visits(root.children[best])


def test_games_of_a_batch_search_as_they_would_alone():
    games = [POSITIONS[n]() for n in ("duo-empty", "duo-duel", "duo-solo")]
    evaluate = batch_hashed(2, games[0].num_placements)
    together = BatchedSearch(games, simulations=60, dirichlet_fraction=0.0).run(evaluate)
    for i, game in enumerate(games):
        alone = BatchedSearch([game], simulations=60, dirichlet_fraction=0.0).run(evaluate)
        np.testing.assert_array_equal(together.visit_counts()[i], alone.visit_counts()[0])


# --- 2. priors and terminal values steer the search ------------------------------------------

def test_priors_on_one_move_make_the_search_play_it():
    game = blokus.Game("duo", start="fixed")
    legal = game.legal_moves()
    for chosen in (int(legal.max()), int(legal[len(legal) // 2])):
        def evaluate(observations, remaining, masks, chosen=chosen):
            priors = np.full(masks.shape, 1e-3, np.float32)
            priors[0, chosen] = 1.0 if len(masks) and masks[0, chosen] else 1e-3
            return priors, np.zeros((len(masks), 2), np.float32)
        search = BatchedSearch([game], simulations=100, dirichlet_fraction=0.0).run(evaluate)
        assert search.best_moves()[0] == chosen
        np.testing.assert_array_equal(search.policy(0.0)[0].nonzero()[0], [chosen])
        assert search.visit_counts()[0, chosen] >= 90


def no_information(observations, remaining, masks):
    """Uniform priors and the value of knowing nothing: an even share for both players."""
    return masks.astype(np.float32), np.full((len(masks), 2), 0.5, np.float32)


@pytest.mark.parametrize("seed0,start,moves", P.DUEL_ONE_WIN,
                         ids=[f"seed{s}" for s, _, _ in P.DUEL_ONE_WIN])
def test_finds_the_only_winning_move_from_terminal_values_alone(seed0, start, moves):
    game = P.replay("duo", start, moves)
    win, outcome = P.only_winning_move(game)
    search = BatchedSearch([game], simulations=3000, dirichlet_fraction=0.0).run(no_information)
    assert search.best_moves()[0] == win, outcome


def test_solo_endgame_search_keeps_to_the_moves_that_can_still_win():
    for _, start, moves in P.SOLO_DECISIVE[:3]:
        game = P.replay("duo", start, moves)
        mover = game.to_move
        other = game.scores()[1 - mover]
        can_win = set()
        for move in game.legal_moves().tolist():
            game.play(move)
            if P.solo_range(game, mover)[1] > other:
                can_win.add(move)
            game.undo()
        search = BatchedSearch([game], simulations=1000, dirichlet_fraction=0.0).run(no_information)
        assert int(search.best_moves()[0]) in can_win


def last_move_position(variant: str, seed: int) -> blokus.Game:
    """Seeded random play to a position with at least two legal moves, each of which ends
    the game."""
    while True:
        rng, game = random.Random(seed), blokus.Game(variant, start="any")
        while not game.is_over:
            moves = game.legal_moves().tolist()
            ends = 0
            for move in moves:
                game.play(move)
                ends += game.is_over
                game.undo()
            if len(moves) >= 2 and ends == len(moves):
                return game
            game.play(rng.choice(moves))
        seed += 1000


@pytest.mark.parametrize("variant", ["duo", "classic_3", "classic_teams"])
def test_finished_positions_are_valued_by_the_rules(variant):
    """A root whose every move ends the game: the root's mean value per player is its own
    evaluation (zero) and the win shares of the finished games it visited, computed here
    from the final scores, weighted by their visits."""
    game = last_move_position(variant, 1)
    players, sims = game.num_players, 40
    search = BatchedSearch([game], simulations=sims, dirichlet_fraction=0.0)
    search.run(lambda o, r, m: (m.astype(np.float32), np.zeros((len(m), players), np.float32)))
    total = np.zeros(players)
    for move, visits in search_visits(search).items():
        g = game.copy()
        g.play(move)
        total += visits * np.array(win_shares(g))
    np.testing.assert_allclose(search.root_values()[0], total / (sims + 1), rtol=1e-6)
    assert total.any()  # some finished game is won by someone


# --- 3. masks, observations and the tree's moves ----------------------------------------------

def test_masked_moves_never_get_visits():
    game = P.replay("duo", *P.DUEL_ONE_WIN[1][1:])
    legal = game.legal_mask()

    def evaluate(observations, remaining, masks):  # almost all the weight on illegal moves
        priors = np.where(masks, 1e-6, 1.0).astype(np.float32)
        return priors, np.full((len(masks), 2), 0.5, np.float32)
    search = BatchedSearch([game], simulations=200, dirichlet_fraction=0.5, seed=3).run(evaluate)
    counts = search.visit_counts()[0]
    assert counts.sum() == 200
    assert not counts[~legal].any()
    ids, priors, _, _ = search.children(0)
    np.testing.assert_array_equal(ids, np.flatnonzero(legal))
    assert abs(float(priors.sum()) - 1.0) < 1e-5


def test_requests_show_the_leaf_as_a_game_would():
    game = blokus.Game("duo", start="fixed")
    search = BatchedSearch([game, game.copy()], simulations=3, dirichlet_fraction=0.0)
    first = search.pending()
    np.testing.assert_array_equal(first.games, [0, 1])
    np.testing.assert_array_equal(first.observations[1], game.observation())
    np.testing.assert_array_equal(first.masks[0], game.legal_mask())
    assert first.observations.dtype == np.int8 and first.masks.dtype == np.bool_
    assert first.observations.flags.writeable and first.masks.flags.writeable
    again = search.pending()  # the same leaves until they are evaluated
    np.testing.assert_array_equal(again.masks, first.masks)
    np.testing.assert_array_equal(first.remaining, np.ones((2, 2, 21)))  # nothing placed yet
    assert first.remaining.dtype == np.int8 and first.remaining.flags.writeable
    search.evaluate(*uniform_zero(first.observations, first.remaining, first.masks))
    # uniform priors, zero values: every score ties, so the lowest legal id is tried first
    second = search.pending()
    leaf = game.copy()
    move = int(game.legal_moves().min())
    leaf.play(move)
    np.testing.assert_array_equal(second.observations[0], leaf.observation())
    np.testing.assert_array_equal(second.masks[0], leaf.legal_mask())
    # seen from the colour to move (the second): its own 21 pieces first, then the first
    # colour's, which lacks the piece just placed
    hand = np.ones((2, 21), np.int8)
    hand[1, blokus.placements("duo").piece[move]] = 0
    np.testing.assert_array_equal(second.remaining[0], hand)
    np.testing.assert_array_equal(second.colours, [leaf.to_move] * 2)
    np.testing.assert_array_equal(second.players, [leaf.player_to_move] * 2)


def test_requests_show_the_pieces_in_hand_of_four_colours_from_the_mover():
    game = endgame("classic", 5, 9)
    search = BatchedSearch([game], simulations=2, dirichlet_fraction=0.0)
    request = search.pending()
    placed = np.zeros((4, 21), bool)  # each colour's pieces placed, from the history
    for colour, move in game.history:
        placed[colour, blokus.placements("classic").piece[move]] = True
    mover = game.to_move
    np.testing.assert_array_equal(request.remaining[0], ~np.roll(placed, -mover, axis=0))
    np.testing.assert_array_equal(request.remaining[0], game.remaining_from(mover))


def test_the_tree_holds_each_positions_legal_moves():
    game = endgame("classic_3", 8, 30)
    search = BatchedSearch([game], simulations=100, dirichlet_fraction=0.0)
    search.run(batch_hashed(3, game.num_placements))
    ids, _, visits, _ = search.children(0)
    for move in ids[visits > 1][:5].tolist():
        g = game.copy()
        g.play(move)
        child_ids = search.children(0, [move])[0]
        np.testing.assert_array_equal(child_ids, g.legal_moves() if not g.is_over else [])
        np.testing.assert_array_equal(np.sort(child_ids), np.sort(g.legal_moves()))


def test_the_search_works_on_copies():
    game = blokus.Game("duo", start="fixed")
    search = BatchedSearch([game], simulations=5, dirichlet_fraction=0.0)
    game.play(int(game.legal_moves()[0]))
    np.testing.assert_array_equal(search.pending().masks[0], blokus.Game("duo", start="fixed").legal_mask())


# --- 4. Dirichlet noise ----------------------------------------------------------------------

def noisy(games, seed, fraction=0.25, alpha=0.3, sims=20):
    return BatchedSearch(games, simulations=sims, dirichlet_alpha=alpha, dirichlet_fraction=fraction,
                         seed=seed).run(batch_hashed(2, games[0].num_placements))


def test_noise_is_reproducible_per_game_and_seed():
    games = [blokus.Game("duo", start="fixed"), P.replay("duo", *P.DUEL_ONE_WIN[0][1:])]
    a, b, c = noisy(games, 7), noisy(games, 7), noisy(games, 8)
    np.testing.assert_array_equal(a.children(0)[1], b.children(0)[1])
    np.testing.assert_array_equal(a.visit_counts(), b.visit_counts())
    assert not np.array_equal(a.children(0)[1], c.children(0)[1])
    # game i draws from stream (seed, i), whatever else is in the batch
    bigger = noisy(games + [games[0].copy()], 7)
    np.testing.assert_array_equal(bigger.children(1)[1], a.children(1)[1])


def test_noise_changes_the_root_priors_only():
    game = blokus.Game("duo", start="fixed")
    plain, mixed = noisy([game], 5, fraction=0.0), noisy([game], 5, fraction=0.25)
    h, _ = hashed(game.observation(), 2)
    given = hashed_priors(h, game.num_placements)[game.legal_moves()]
    given = np.sort(game.legal_moves()), given[np.argsort(game.legal_moves())]
    ids, priors, _, _ = plain.children(0)
    np.testing.assert_array_equal(ids, given[0])
    np.testing.assert_allclose(priors, given[1] / given[1].sum(), rtol=1e-6)
    _, noisy_priors, _, _ = mixed.children(0)
    noise = (noisy_priors - 0.75 * priors) / 0.25  # a distribution over the legal moves
    assert noise.min() >= -1e-6 and abs(noise.sum() - 1.0) < 1e-4 and np.ptp(noise) > 0.01
    # below the root the priors are the evaluator's, in both searches
    for move in (int(ids[np.argmax(plain.children(0)[2])]), int(ids[np.argmax(mixed.children(0)[2])])):
        for search in (plain, mixed):
            try:
                _, below, _, _ = search.children(0, [move])
            except KeyError:
                continue
            if len(below):
                g = game.copy()
                g.play(move)
                hb, _ = hashed(g.observation(), 2)
                p = hashed_priors(hb, g.num_placements)[np.sort(g.legal_moves())]
                np.testing.assert_allclose(below, p / p.sum(), rtol=1e-6)


@pytest.mark.parametrize("alpha", [0.03, 0.3, 2.5])
def test_noise_follows_the_dirichlet_distribution(alpha):
    """With fraction 1 the root's priors are the noise. For Dir(alpha) over n moves,
    E[sum x_i^2] = (alpha + 1) / (n alpha + 1); the mean over 300 games must be within 5
    standard errors of it (the standard deviation measured on NumPy's own Dirichlet draws)."""
    game = blokus.Game("duo", start="fixed")
    n, games = len(game.legal_moves()), 300
    search = BatchedSearch([game] * games, simulations=1, dirichlet_alpha=alpha, dirichlet_fraction=1.0,
                           seed=11).run(uniform_zero)
    sums = np.array([float((search.children(i)[1].astype(np.float64) ** 2).sum()) for i in range(games)])
    expected = (alpha + 1) / (n * alpha + 1)
    spread = (np.random.default_rng(0).dirichlet([alpha] * n, size=2000) ** 2).sum(axis=1).std()
    assert abs(sums.mean() - expected) < 5 * spread / math.sqrt(games), (sums.mean(), expected)


@pytest.mark.slow
@pytest.mark.parametrize("alpha", [5e-324, 1e-320, 1e-300])
def test_noise_at_a_tiny_alpha_is_all_on_one_move_drawn_uniformly(alpha):
    """As alpha goes to 0, Dir(alpha) over n moves goes to 1 on one move, each move with
    probability 1 / n (the largest of n draws of the same law). With fraction 1 the root's
    priors are the noise: one 1 and zeros, never NaN (log(U) / alpha overflowed to -inf for
    every move, and the priors were NaN). Over 600 games with n <= 12 moves, each move must be
    the one within 5 standard deviations of 600 / n times."""
    game = POSITIONS["classic-end"]()
    n, games = len(game.legal_moves()), 600
    search = BatchedSearch([game] * games, simulations=1, dirichlet_alpha=alpha, dirichlet_fraction=1.0,
                           seed=2).run(lambda o, r, m: (m.astype(np.float32), np.zeros((len(m), 4), np.float32)))
    chosen = []
    for i in range(games):
        ids, priors, _, _ = search.children(i)
        assert sorted(priors.tolist()) == [0.0] * (n - 1) + [1.0]
        chosen.append(int(ids[np.argmax(priors)]))
    counts = np.array([chosen.count(m) for m in game.legal_moves().tolist()])
    sd = math.sqrt(games * (1 / n) * (1 - 1 / n))
    assert (abs(counts - games / n) < 5 * sd).all(), counts


@pytest.mark.parametrize("alpha", [1e20, 1e300, sys.float_info.max])
def test_noise_at_a_huge_alpha_is_even(alpha):
    """As alpha grows, Dir(alpha) goes to 1 / n on each of the n moves."""
    game = blokus.Game("duo", start="fixed")
    search = BatchedSearch([game] * 3, simulations=1, dirichlet_alpha=alpha, dirichlet_fraction=1.0,
                           seed=4).run(uniform_zero)
    for i in range(3):
        priors = search.children(i)[1]
        np.testing.assert_allclose(priors, 1.0 / len(game.legal_moves()), rtol=1e-6)


@pytest.mark.parametrize("c_puct", [1e300, sys.float_info.max])
def test_a_huge_c_puct_ranks_by_prior_alone(c_puct):
    """With c_puct huge, Q(a) is nothing beside c_puct * P(a) * sqrt(N) / (1 + N(a)); with
    equal priors every move not yet visited comes first, ties to the lowest id, so k
    simulations visit the k lowest legal ids once each. (c_puct * sqrt(N) overflowed to
    infinity for N >= 2, every child scored infinity, and the lowest id took every visit.)"""
    game = blokus.Game("duo", start="fixed")
    sims = 20
    search = BatchedSearch([game], simulations=sims, c_puct=c_puct, dirichlet_fraction=0.0).run(uniform_zero)
    expected = np.zeros(game.num_placements, np.int32)
    expected[np.sort(game.legal_moves())[:sims]] = 1
    np.testing.assert_array_equal(search.visit_counts()[0], expected)


# --- 5. policy targets -------------------------------------------------------------------------

def test_policy_is_the_visit_distribution():
    game = blokus.Game("duo", start="fixed")
    search = BatchedSearch([game], simulations=50, dirichlet_fraction=0.0).run(batch_hashed(2, 13729))
    counts = search.visit_counts()[0].astype(np.float64)
    policy = search.policy(1.0)
    assert policy.dtype == np.float32 and policy.shape == (1, 13729)
    np.testing.assert_allclose(policy[0], counts / counts.sum(), rtol=1e-6)
    np.testing.assert_allclose(search.policy(0.5)[0], counts**2 / (counts**2).sum(), rtol=1e-5)
    sharp = search.policy(1e-3)[0]
    assert sharp[search.best_moves()[0]] > 0.99 and np.isfinite(sharp).all()


# --- 6. bad input ------------------------------------------------------------------------------

def fresh():
    game = P.replay("duo", *P.DUEL_ONE_WIN[0][1:])
    search = BatchedSearch([game, game.copy()], simulations=30, dirichlet_fraction=0.0)
    return search, search.pending()


def good(request):
    return request.masks.astype(np.float32), np.full((len(request.masks), 2), 0.5, np.float32)


@pytest.mark.parametrize("priors,values,error", [
    (lambda p: p[:1], None, ValueError),                      # wrong number of rows
    (lambda p: p[:, :-1], None, ValueError),                  # wrong number of columns
    (lambda p: p[0], None, ValueError),                       # 1-d
    (lambda p: p.astype(bool), None, TypeError),
    (lambda p: p.astype(complex), None, TypeError),
    (lambda p: p.astype(str), None, TypeError),
    (lambda p: np.where(p > 0, np.nan, p), None, ValueError),
    (lambda p: -p, None, ValueError),
    (lambda p: np.where(p > 0, np.inf, p), None, ValueError),
    (None, lambda v: v + 1.0, ValueError),                    # values out of [0, 1]
    (None, lambda v: v - 1.0, ValueError),
    (None, lambda v: v * np.nan, ValueError),
    (None, lambda v: v[:, :1], ValueError),
    (None, lambda v: v.astype(object), TypeError),
])
def test_bad_evaluations_raise_and_change_nothing(priors, values, error):
    search, request = fresh()
    p, v = good(request)
    before = search.visit_counts()
    with pytest.raises(error):
        search.evaluate(priors(p) if priors else p, values(v) if values else v)
    np.testing.assert_array_equal(search.visit_counts(), before)
    # the same leaves are still waiting, and the search goes on as if nothing happened
    np.testing.assert_array_equal(search.pending().masks, request.masks)
    search.evaluate(p, v)
    reference, ref_request = fresh()
    reference.evaluate(*good(ref_request))
    np.testing.assert_array_equal(search.visit_counts(), reference.visit_counts())
    np.testing.assert_array_equal(search.pending().masks, reference.pending().masks)


def test_values_of_the_player_to_move_in_two_player_variants():
    """(K,) values are the mover's share; the other player's is 1 - v."""
    game = POSITIONS["duo-duel"]()
    flat, full = (BatchedSearch([game], simulations=50, dirichlet_fraction=0.0) for _ in range(2))
    while not flat.done:
        a, b = flat.pending(), full.pending()
        v = np.array([zlib.crc32(o.tobytes()) % 9 / 8 for o in a.observations], np.float32)  # exact
        both = np.zeros((len(v), 2), np.float32)
        both[np.arange(len(v)), b.players] = v
        both[np.arange(len(v)), 1 - b.players] = 1 - v
        flat.evaluate(a.masks.astype(np.float32), v)
        full.evaluate(b.masks.astype(np.float32), both)
    np.testing.assert_array_equal(flat.visit_counts(), full.visit_counts())
    np.testing.assert_allclose(flat.root_values(), full.root_values(), rtol=1e-6)
    three = BatchedSearch([POSITIONS["classic_3-end"]()], simulations=5)
    request = three.pending()
    with pytest.raises(ValueError, match=r"shape \(1, 3\)"):
        three.evaluate(request.masks.astype(np.float32), np.full(1, 0.5, np.float32))


def test_evaluate_needs_leaves_handed_out():
    search, request = fresh()
    search.evaluate(*good(request))
    with pytest.raises(RuntimeError, match="pending"):  # not asked for since
        search.evaluate(*good(request))
    search.run(lambda o, r, m: (m.astype(np.float32), np.full((len(m), 2), 0.5, np.float32)))
    assert search.done and len(search.pending().games) == 0
    counts = search.visit_counts()
    with pytest.raises(RuntimeError, match="done"):
        search.evaluate(np.zeros((0, 13729), np.float32), np.zeros((0, 2), np.float32))
    np.testing.assert_array_equal(search.visit_counts(), counts)
    assert (counts.sum(axis=1) == 30).all()


def test_masked_prior_sums_of_zero_give_uniform_priors():
    search, request = fresh()
    _, v = good(request)
    search.evaluate(np.where(request.masks, 0.0, 1.0).astype(np.float32), v)
    _, priors, _, _ = search.children(0)
    np.testing.assert_allclose(priors, 1.0 / len(priors))


@pytest.mark.parametrize("kwargs,error", [
    ({"simulations": 0}, ValueError),
    ({"simulations": True}, TypeError),
    ({"simulations": 2.5}, TypeError),
    ({"c_puct": -1.0}, ValueError),
    ({"c_puct": float("nan")}, ValueError),
    ({"c_puct": "1"}, TypeError),
    ({"c_puct": 10**400}, ValueError),
    ({"fpu": 1.5}, ValueError),
    ({"dirichlet_alpha": 0.0}, ValueError),
    ({"dirichlet_fraction": 1.5}, ValueError),
    ({"seed": -1}, ValueError),
    ({"seed": 1.0}, TypeError),
])
def test_bad_parameters_raise(kwargs, error):
    with pytest.raises(error):
        BatchedSearch([blokus.Game("duo")], **kwargs)


def test_bad_games_raise():
    over = blokus.Game("duo")
    while not over.is_over:
        over.play(int(over.legal_moves()[0]))
    with pytest.raises(ValueError, match="1 to"):
        BatchedSearch([])
    with pytest.raises(TypeError, match="blokus.Game"):
        BatchedSearch([blokus.Game("duo"), "duo"])
    with pytest.raises(TypeError):
        BatchedSearch(blokus.Game("duo"))
    with pytest.raises(ValueError, match="over"):
        BatchedSearch([over])
    with pytest.raises(ValueError, match="one variant"):
        BatchedSearch([blokus.Game("duo"), blokus.Game("classic")])


def test_children_bad_paths():
    search, request = fresh()
    search.evaluate(*good(request))
    with pytest.raises(ValueError):
        search.children(2)
    with pytest.raises(ValueError):
        search.children(0, [13729])
    with pytest.raises(KeyError):
        search.children(0, [int(np.flatnonzero(~request.masks[0])[0])])  # not a legal move
    # uniform priors: the lowest legal id is the first leaf, which waits for its evaluation
    assert search.best_moves()[0] == -1
    assert search.children(0, [int(np.flatnonzero(request.masks[0])[0])])[0].size == 0


# --- 7. threads, Ctrl-C, memory ----------------------------------------------------------------

@pytest.mark.slow
def test_ctrl_c_in_the_middle_of_a_walk_leaves_a_search_that_goes_on():
    """While a walk runs with the GIL released, another thread's call raises RuntimeError; a
    SIGINT then stops the walk between two parts of 64 games, and the next pending() finishes
    it: the search ends as one never interrupted. (Every move of the root ends the game, so
    after the root's evaluation each game runs all its simulations in one walk.)"""
    game = last_move_position("duo", 1)
    games, sims = [game] * 1024, 2000
    search = BatchedSearch(games, simulations=sims, dirichlet_fraction=0.0)
    request = search.pending()

    def watch():
        while True:
            try:
                search.done
            except RuntimeError:  # "being run by another thread"
                os.kill(os.getpid(), signal.SIGINT)
                return

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    with pytest.raises(KeyboardInterrupt):
        search.evaluate(*uniform_zero(request.observations, request.remaining, request.masks))
    thread.join()
    with pytest.raises(RuntimeError):  # the leaves handed out were taken
        search.evaluate(*uniform_zero(request.observations, request.remaining, request.masks))
    if not search.done:  # stopped between parts (else the signal came with the last one)
        assert len(search.pending().games) == 0  # finishes the walk: nothing left to evaluate
    assert search.done
    whole = BatchedSearch(games[:64], simulations=sims, dirichlet_fraction=0.0).run(uniform_zero)
    counts = search.visit_counts()
    assert (counts == whole.visit_counts()[0]).all()


@pytest.mark.slow
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's quarantine keeps freed trees, so RSS grows under it; "
                           "the plain test run checks this")
def test_searches_do_not_grow_memory():
    games = [POSITIONS["duo-duel"](), POSITIONS["classic_3-end"]()]

    def searches(n):
        for i in range(n):
            game = games[i % 2]
            players = game.num_players
            BatchedSearch([game] * 4, simulations=20, seed=i).run(
                lambda o, r, m: (m.astype(np.float32), np.full((len(m), players), 0.5, np.float32)))

    searches(20)  # warm up
    gc.collect()
    before = current_rss_kb()
    searches(400)
    gc.collect()
    assert current_rss_kb() - before < 4 * 1024


def test_a_search_larger_than_the_machine_is_refused_before_it_reserves_anything():
    """2**20 games (the most) of 2**24 simulations (the most) would reserve 844 TB for their
    nodes alone (48 bytes per simulation and game): refused at once, the figures in the message."""
    with pytest.raises(MemoryError, match=r"1048576 games of 16777216 simulations reserves 844\d{6} MB") as info:
        BatchedSearch([blokus.Game("duo")] * 2**20, simulations=2**24)
    assert "%" not in str(info.value)


@pytest.mark.slow
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's quarantine keeps freed memory, so RSS grows under it; "
                           "the plain test run checks this")
def test_refused_and_dropped_searches_give_their_memory_back():
    """A refused search kept nothing (it reserved, and partly used, 1.3 GB and kept it); a
    dropped one of 8192 games gives back its 150 MB even when smaller blocks were taken after
    it (each game's edges and nodes were blocks of their own on the heap, which the blocks
    taken after it pinned). Margin: 16 MB, for what the allocator keeps of its own. In a fresh
    interpreter: in this one, memory the earlier tests freed would be reused and hide the
    search's."""
    code = f"""
import gc, sys
sys.path.insert(0, {os.path.dirname(__file__)!r})
import blokus
from blokus.search import BatchedSearch
from test_api import current_rss_kb
game = blokus.Game("duo")
gc.collect()
before = current_rss_kb()
for _ in range(3):
    try:
        BatchedSearch([game] * 2**20, simulations=2**24)
    except MemoryError:
        pass
    else:
        raise SystemExit("not refused")
search = BatchedSearch([game] * 8192, simulations=8)
held = current_rss_kb() - before
pins = [bytearray(2000) for _ in range(200)]
del search
gc.collect()
print(held, current_rss_kb() - before)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    held, kept = map(int, out.split())
    assert held > 100 * 1024  # 18 KB per game: the search is there
    assert kept < 16 * 1024


def test_an_evaluation_that_uses_the_search_while_it_is_read_is_refused():
    """An array-like whose conversion evaluates the same leaves first: the outer call must not
    apply a second evaluation to leaves that are no longer pending."""
    search, request = fresh()
    p, v = good(request)

    class Sneaky:
        def __array__(self, dtype=None, copy=None):
            search.evaluate(p, v)
            search.pending()
            return p

    with pytest.raises(RuntimeError, match="changed"):
        search.evaluate(Sneaky(), v)
    reference, ref_request = fresh()
    reference.evaluate(*good(ref_request))  # the inner evaluation only
    np.testing.assert_array_equal(search.visit_counts(), reference.visit_counts())
