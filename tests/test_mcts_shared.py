"""Tests of the search whose threads share one tree (``shared=True``, engine/mcts.c): its figures
keep the search's contract, it finds what the plain search finds, its tree is pruned and kept
between moves as the plain search's is, and with one thread it is the plain search.

Its moves depend on how the threads were scheduled, so these tests assert what holds whatever
the timing. tests/c/mcts_threads.c runs it under ThreadSanitizer.
"""
from __future__ import annotations

import pytest

from blokus import _core
from blokus.agents import MCTSAgent, make_agent
from blokus.game import Game

import agent_positions as P
from mcts_helpers import assert_contract, search


@pytest.mark.parametrize("variant", ["duo", "classic", "classic_3", "classic_teams"])
def test_a_shared_search_keeps_the_contract(variant):
    game = Game(variant, start="fixed")
    for _ in range(3):
        result = search(game, None, 600, seed=1, threads=2, shared=True)
        assert result["simulations"] == 600
        assert_contract(game, result)
        game.play(result["ids"][0])


def test_with_one_thread_shared_is_the_plain_search():
    game = Game("duo", start="fixed")
    assert search(game, None, 500, seed=3, shared=True) == search(game, None, 500, seed=3)


def test_two_threads_on_one_tree_find_the_only_winning_move():
    """seed210 of the one-win endgames: the mover has exactly one winning move (exhaustive
    search), which the plain search finds in 3000 simulations."""
    _, start, moves = next(p for p in P.DUEL_ONE_WIN if p[0] == 210)
    game = P.replay("duo", start, moves)
    win, outcome = P.only_winning_move(game)
    for seed in range(3):
        assert search(game, None, 3000, seed=seed, threads=2, shared=True)["ids"][0] == win, (seed, outcome)


def test_a_shared_tree_at_its_cap_prunes_as_often_and_still_finds_the_win():
    # a pruning waits until no simulation is under way (their paths would be gone), but it is
    # not put off: the tree, held to 30 positions, is pruned about as often as one thread's
    _, start, moves = next(p for p in P.DUEL_ONE_WIN if p[0] == 210)
    game = P.replay("duo", start, moves)
    win, _ = P.only_winning_move(game)
    plain, shared = _core.mcts_tree(), _core.mcts_tree()
    search(game, plain, 3000, seed=1, max_nodes=30)
    result = search(game, shared, 3000, seed=1, threads=2, shared=True, max_nodes=30)
    assert _core.mcts_tree_memory(shared)[1] >= _core.mcts_tree_memory(plain)[1] / 2 >= 10
    assert_contract(game, result)
    assert result["ids"][0] == win


def test_a_kept_shared_tree_keeps_the_subtree_of_the_move_played():
    game = Game("classic", start="fixed")
    tree = _core.mcts_tree()
    first = search(game, tree, 800, seed=1, threads=2, shared=True)
    game.play(first["ids"][0])
    second = search(game, tree, 100, seed=2, threads=2, shared=True)
    assert_contract(game, second)
    # the move played had the most visits of the root: its subtree is kept under the 100 new,
    # all of its visits but the two that ended at its position before it was expanded
    assert second["simulations"] >= 100 + first["visits"][0] - 2


def test_the_agent_string_reaches_the_search():
    agent = make_agent("mcts:sims=40:threads=2:shared=1", seed=1)
    assert agent.options["shared"] is True and agent.options["threads"] == 2
    assert agent.search(Game("duo", start="fixed")).simulations == 40
    with pytest.raises(ValueError, match="shared"):
        MCTSAgent(10, shared=2)
