"""Tests of the search kept between moves: ``blokus._core.mcts(..., tree=_core.mcts_tree())``
(engine/mcts.c's bk_mcts_advance).

The kept counts follow from how the tree grows (mcts.c's simulate): a node d moves below the
root is expanded once it has more than 1 + d / 2 visits, so the simulations that reach it end
there (at a leaf) for its first 2 visits at depth 1, 3 at depth 2 or 3, 4 at depth 4, and the
others go on through its children; the kept simulations, those through the children of the new
root, then add to the new ones. Legality is checked against ``Game.legal_moves()``.
"""
from __future__ import annotations

import threading

import pytest

from blokus import _core
from blokus.game import Game

import agent_positions as P
from mcts_helpers import assert_contract, legal_set, search

VARIANTS = ("classic", "classic_2", "classic_3", "classic_teams", "duo")


def test_kept_simulations_are_those_below_the_moves_played():
    game = Game("duo", start="fixed")
    tree = _core.mcts_tree()
    first = search(game, tree, 600, seed=1)
    move, visits = first["ids"][0], first["visits"][0]
    game.play(move)
    second = search(game, tree, 300, seed=2)
    assert visits > 2 and second["simulations"] == visits - 2 + 300  # its first 2 visits ended at it
    assert_contract(game, second)
    # the same position again: the whole tree is kept
    third = search(game, tree, 200, seed=3)
    assert third["simulations"] == second["simulations"] + 200
    assert_contract(game, third)


# A Duo game whose last 5 moves are forced: from FORCED_ROOT on, each position until the end has
# one legal move (the 5 moves of FORCED), so every simulation from there follows the same line
# and the kept counts below each depth follow from the expansion rule alone.
FORCED_GAME = [2403, 11828, 6288, 2122, 4569, 174, 8734, 10979, 5436, 4022, 3512, 7090, 4235, 8783,
               8152, 8058, 103, 1722, 642, 12918, 1065, 10262, 12098, 504, 208, 602, 3897, 11129,
               1711, 10704]
FORCED_ROOT = 25
FORCED = FORCED_GAME[FORCED_ROOT:]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_kept_simulations_follow_the_expansion_rule(depth):
    # n simulations from the root all pass the forced line's node at depth 1; the node at depth d
    # keeps n - (leaf visits above and at it): 2 at depth 1, 3 at 2, 3 at 3 (2.5 rounds up),
    # 4 at 4 (simulate's threshold 1 + d / 2, exceeded).
    game = P.replay("duo", "fixed", FORCED_GAME[:FORCED_ROOT])
    line = game.copy()
    for move in FORCED:
        assert line.legal_moves().tolist() == [move]
        line.play(move)
    assert line.is_over
    n, ends = 100, {1: 2, 2: 3, 3: 3, 4: 4}
    tree = _core.mcts_tree()
    first = search(game, tree, n, seed=1)
    assert first["ids"] == [FORCED[0]] and first["simulations"] == n
    assert first["pv"] == FORCED[:len(first["pv"])] and len(first["pv"]) >= depth
    for move in FORCED[:depth]:
        game.play(move)
    kept = search(game, tree, 1, seed=2)["simulations"] - 1
    assert kept == n - sum(ends[d] for d in range(1, depth + 1))


def test_players_values_cover_the_new_simulations_only():
    game = Game("duo", start="fixed")
    tree = _core.mcts_tree()
    search(game, tree, 400, seed=1)
    again = search(game, tree, 1, seed=2)
    # one new simulation: each player's share of the win is that playout's, 0, 1/2 or 1
    assert again["simulations"] == 401
    assert sorted(again["pwins"]) in ([0.0, 1.0], [0.5, 0.5])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("start", ("any", "fixed"))
def test_a_search_kept_along_a_game_plays_legal_moves(variant, start):
    game = Game(variant, start=start)
    tree = _core.mcts_tree()
    seed = 0
    while not game.is_over and len(game.history) < 24:
        result = search(game, tree, 40, seed=seed)
        assert_contract(game, result)
        assert result["simulations"] >= 40
        # the reply the search expected, when it has one, else its own move: either way a line
        # that the kept tree has searched (and the rules allow)
        for move in result["pv"][:2]:
            if not game.is_over and move in legal_set(game):
                game.play(move)
        seed += 1


def test_positions_that_do_not_follow_start_afresh():
    tree = _core.mcts_tree()
    game = Game("duo", start="fixed")
    first = search(game, tree, 300, seed=1)
    game.play(first["ids"][0])
    game.play(first["pv"][1])
    assert search(game, tree, 50, seed=2)["simulations"] >= 50  # two moves on: kept
    assert search(Game("duo", start="fixed"), tree, 50, seed=3)["simulations"] == 50  # before the root
    assert search(Game("duo", start="fixed"), tree, 50, seed=4)["simulations"] == 100  # the same root
    assert search(Game("duo", start="any"), tree, 50, seed=5)["simulations"] == 50  # another start rule
    assert search(Game("classic_2"), tree, 50, seed=6)["simulations"] == 50  # another variant
    sibling = Game("classic_2")
    sibling.play(int(sibling.legal_moves()[0]))
    assert search(sibling, tree, 50, seed=7)["simulations"] >= 50
    other = Game("classic_2")
    other.play(int(other.legal_moves()[1]))  # not below the root's line
    assert search(other, tree, 50, seed=8)["simulations"] == 50
    # other parameters or threads: a new search
    assert search(other, tree, 50, seed=9, exploration=0.3)["simulations"] == 50
    assert search(other, tree, 50, seed=10, threads=2)["simulations"] == 50


def test_threads_1_is_deterministic_with_a_kept_tree():
    def line(seed):
        game, tree, out = Game("duo", start="fixed"), _core.mcts_tree(), []
        for k in range(4):
            result = search(game, tree, 150, seed=seed + k)
            out.append(result)
            game.play(result["ids"][0])
        return out

    assert line(5) == line(5)
    assert line(5) != line(6)


def test_a_kept_tree_with_threads_keeps_every_trees_subtree():
    game = Game("classic", start="fixed")
    tree = _core.mcts_tree()
    first = search(game, tree, 400, seed=1, threads=3)
    game.play(first["ids"][0])
    second = search(game, tree, 90, seed=2, threads=3)
    assert_contract(game, second)
    assert second["simulations"] > 90  # each tree searched the move played, so each keeps some


@pytest.mark.slow
def test_a_tree_in_use_is_left_alone():
    game = Game("duo", start="fixed")
    tree = _core.mcts_tree()
    results, errors = [], []

    def run(seed):
        try:
            results.append(search(game, tree, 20_000, seed=seed))
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(results) == 2
    for result in results:
        assert_contract(game, result)
        # one searched the holder's tree, the other on its own or after it: never both at once
        assert result["simulations"] in (20_000, 40_000)


@pytest.mark.parametrize("tree", [5, "tree", object()])
def test_bad_tree(tree):
    with pytest.raises(TypeError, match="mcts_tree"):
        _core.mcts(Game("duo"), simulations=5, tree=tree)


@pytest.mark.parametrize("threads", [2**40, -2**40, 2**62])
def test_threads_out_of_range_name_the_limit(threads):
    with pytest.raises(ValueError, match=r"threads must be in \[1, 64\]"):
        _core.mcts(Game("duo"), simulations=5, threads=threads)


def test_the_agent_reuses_its_search_along_a_game():
    from blokus.agents import MCTSAgent, make_agent

    def play(agent, plies=6):
        game, counts = Game("duo", start="fixed"), []
        for _ in range(plies):
            found = agent.search(game)
            assert_contract(game, {"ids": found.ids.tolist(), "visits": found.visits.tolist(),
                                   "simulations": found.simulations, "values": found.values.tolist(),
                                   "wins": found.win_probability.tolist(), "pv": found.principal_variation.tolist()})
            counts.append(found.simulations)
            game.play(int(found.ids[0]))  # both colours by the same agent: each move below its last root
        return list(game.history), counts

    moves, counts = play(MCTSAgent(200, threads=1, seed=4))
    assert counts[0] == 200 and all(n > 200 for n in counts[1:])
    assert play(MCTSAgent(200, threads=1, seed=4)) == (moves, counts)  # seeded: the same game
    assert play(make_agent("mcts:sims=200:threads=1:reuse=1", seed=4)) == (moves, counts)
    assert play(MCTSAgent(200, threads=1, reuse=False, seed=4))[1] == [200] * 6
    assert play(make_agent("mcts:sims=200:threads=1:reuse=0", seed=4))[1] == [200] * 6


@pytest.mark.parametrize("reuse", [2, -1, 0.5])
def test_bad_reuse(reuse):
    from blokus.agents import MCTSAgent

    with pytest.raises(ValueError, match="reuse must be True or False"):
        MCTSAgent(10, reuse=reuse)


@pytest.mark.parametrize("reuse", [True, False])
def test_a_copied_or_pickled_agent_searches_on_its_own(reuse):
    import copy
    import pickle

    from blokus.agents import MCTSAgent

    agent = MCTSAgent(60, threads=1, reuse=reuse, seed=2)
    game = Game("duo", start="fixed")
    agent.search(game)
    for other in (copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))):
        # the same stream of seeds, but none of the original's kept simulations
        assert other.search(game).simulations == 60
        assert (other._tree is None) == (not reuse)
    assert agent.search(game).simulations == (120 if reuse else 60)
