"""Tests of the search tree's memory (engine/mcts_tree.h, mcts_memory.c): it grows with the
simulations, not with the moves each position has, and a tree held to a budget prunes its least
visited subtrees and searches on.

Sizes from mcts_tree.h: a considered move costs 4 bytes, a move the search touched 32 more, a
position reached 64. A tree that made every considered move a 56-byte node at each expansion, as
the search did before, held about 3.6 KB per simulation from the Duo opening (a position there
has hundreds of moves, and one in about eight simulations expands one).
"""
from __future__ import annotations

import pytest

from blokus import _core
from blokus.agents import MCTSAgent
from blokus.game import Game

import agent_positions as P


def searched_tree(game, simulations, seed=1, **options):
    """(bytes, prunings, result) of a search kept in a fresh holder."""
    tree = _core.mcts_tree()
    result = _core.mcts(game, simulations=simulations, seed=seed, threads=1, tree=tree, **options)
    return (*_core.mcts_tree_memory(tree), result)


def test_a_fresh_holder_holds_no_memory():
    assert _core.mcts_tree_memory(_core.mcts_tree()) == (0, 0)
    with pytest.raises(TypeError, match="mcts_tree"):
        _core.mcts_tree_memory(object())


def test_the_tree_grows_with_the_simulations_not_the_moves():
    game = Game("duo", start="fixed")
    assert len(game.legal_moves()) > 300          # every position of the opening has hundreds
    small, prunings, _ = searched_tree(game, 2000)
    large, _, _ = searched_tree(game, 8000)
    assert prunings == 0
    assert large < 1536 * 8000                    # under 1.5 KB a simulation (room to double), not 3.6 KB
    # 6000 more simulations add about as much again each time, not a position's moves each
    assert large - small < 1536 * 6000


def test_a_tree_at_its_cap_prunes_and_keeps_its_figures():
    game = Game("duo", start="fixed")
    free, free_prunings, _ = searched_tree(game, 3000)
    capped, prunings, (ids, visits, values, sims, *_rest) = searched_tree(game, 3000, max_nodes=200)
    assert free_prunings == 0 and prunings >= 1
    assert capped < free
    # the root's figures survive pruning: every simulation still counts through one root move
    assert sims == 3000 and visits.sum() == 3000
    assert set(ids.tolist()) <= set(game.legal_moves().tolist())
    assert ((values >= 0) & (values <= 1)).all()


def test_a_pruned_tree_still_finds_the_only_winning_move():
    """At seed210 of the one-win endgames, a tree of 30 positions that stopped growing when full
    missed the win for half the seeds; pruning its least visited subtrees finds it."""
    seed0, start, moves = next(p for p in P.DUEL_ONE_WIN if p[0] == 210)
    game = P.replay("duo", start, moves)
    win, outcome = P.only_winning_move(game)
    for seed in range(5):
        _, prunings, (ids, *_rest) = searched_tree(game, 3000, seed=seed, max_nodes=30)
        assert prunings >= 1                      # 3000 simulations need more than 30 positions
        assert int(ids[0]) == win, (seed, outcome)
        assert MCTSAgent(3000, max_nodes=30, threads=1, seed=seed)(game) == win


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["duo", "classic", "classic_3"])
def test_a_tree_pruned_again_and_again_plays_legal_games(variant):
    agent = MCTSAgent(150, max_nodes=20, threads=1, seed=3)
    game = Game(variant, start="fixed")
    while not game.is_over:
        move = agent(game)
        assert move in set(game.legal_moves().tolist())
        game.play(move)
