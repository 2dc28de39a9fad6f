"""Tests of the search's static evaluation of a Duo position (csrc/engine/evaluation.h) through
``blokus._core.evaluation``, and of how the search mixes it into its values.

The features are recomputed here from their definitions (squares from the board, legal
placements from ``Game.legal_moves``), the value is checked to be the logistic function of a
linear function of them per phase, to call decided positions by the rules' outcome, and a
simulation's value with ``evaluation=1`` to be the evaluation of the position its playout starts
from.
"""
from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import numpy as np
import pytest
from random_games import random_game

import blokus
from blokus import _core, sgf

DATA = Path(__file__).resolve().parent / "data"
PHASE_ENDS = (10, 16, 22, 30)  # placements on the board where the next phase's weights begin (evaluation.h)


def positions(games, seed=0, start="fixed"):
    """Every position with a colour to move of `games` random Duo games."""
    for k in range(games):
        game = blokus.Game("duo", start=start)
        rng = random.Random(seed * 1000 + k)
        while not game.is_over:
            yield game.copy()
            game.play(rng.choice(game.legal_moves().tolist()))


def test_only_duo_positions_with_a_colour_to_move_have_one():
    for variant in ("classic", "classic_2", "classic_3", "classic_teams"):
        with pytest.raises(ValueError, match="only Duo"):
            _core.evaluation(blokus.Game(variant))
    game = random_game("duo", 1, 200)
    assert game.is_over
    with pytest.raises(ValueError, match="game over"):
        _core.evaluation(game)
    with pytest.raises(TypeError):
        _core.evaluation("duo")


@pytest.mark.parametrize("start", ["fixed", "any"])
def test_features_and_phase_follow_their_definitions(start):
    for game in positions(6, seed=2, start=start):
        value, phase, x = _core.evaluation(game)
        squares = [int((game.board == c).sum()) for c in (0, 1)]
        moves = [len(game.legal_moves(c)) for c in (0, 1)]
        expected = [1.0, float(game.to_move == 1), squares[0] - squares[1],
                    math.log1p(moves[0]) - math.log1p(moves[1])]
        assert x.dtype == np.float64 and x.shape == (4,)
        assert x.tolist() == pytest.approx(expected, abs=1e-12)
        assert phase == sum(len(game.history) >= end for end in PHASE_ENDS)
        assert 0.0 < value < 1.0


def recorded_positions():
    """Every position with a colour to move of Pentobi's Duo games in tests/data (longer games
    than random ones: they reach the last phase)."""
    for record in sgf.read(DATA / "pentobi_duo.blksgf", mainline=True):
        game = blokus.Game("duo", start=record.start)
        for _, move in record.history:
            yield game.copy()
            game.play(move)


def test_the_value_is_logistic_in_the_features_per_phase():
    # evaluation.h: 1 / (1 + exp(-w . x)), w the weights of the phase: over positions of one
    # phase, the log odds are a linear function of the features (float32 weights aside)
    rows: dict[int, list] = {}
    for game in itertools.chain(positions(40, seed=3), recorded_positions()):
        value, phase, x = _core.evaluation(game)
        rows.setdefault(phase, []).append((x, math.log(value / (1.0 - value))))
    assert sorted(rows) == [0, 1, 2, 3, 4]
    for phase, pairs in rows.items():
        x = np.array([p[0] for p in pairs])
        y = np.array([p[1] for p in pairs])
        assert np.linalg.matrix_rank(x) == 4 and len(y) > 4, phase   # more positions than weights
        w = np.linalg.lstsq(x, y, rcond=None)[0]
        assert np.abs(x @ w - y).max() < 1e-9, phase


def decided_positions():
    """Positions of random Duo games where one colour has no legal placement left, the other has
    one and has placed more squares: by the rules that other colour has won (the first can never
    place again, and squares left decide the score)."""
    found = []
    for game in positions(400, seed=4):
        moves = [len(game.legal_moves(c)) for c in (0, 1)]
        squares = [int((game.board == c).sum()) for c in (0, 1)]
        for out, other in ((0, 1), (1, 0)):
            if moves[out] == 0 and moves[other] > 0 and squares[other] > squares[out] + 5:
                found.append((game, other))
    return found


def test_decided_positions_are_called_for_their_winner():
    found = decided_positions()
    assert {winner for _, winner in found} == {0, 1} and len(found) >= 20
    for game, winner in found:
        value, _, _ = _core.evaluation(game)
        chance = value if winner == 0 else 1.0 - value
        assert chance > 0.9, (game.history, winner)


@pytest.mark.parametrize("plies", [0, 1, 12, 13])
def test_with_weight_1_a_simulation_is_worth_the_evaluation_of_its_leaf(plies):
    # mcts.h: a simulation's value is (1 - l) its playout's + l the evaluation of the position the
    # playout starts from; with l = 1, one simulation from the root visits one move, whose value
    # is the evaluation of the position after it, for the colour making it
    game = random_game("duo", 5, plies)
    mover = game.to_move
    ids, visits, values, *_ = _core.mcts(game, simulations=1, seed=plies, threads=1, evaluation=1.0)
    assert visits.tolist() == [1]
    after = game.copy()
    after.play(int(ids[0]))
    colour_0 = _core.evaluation(after)[0]
    assert values[0] == pytest.approx(colour_0 if mover == 0 else 1.0 - colour_0, rel=1e-6)


def test_with_weight_0_the_search_is_the_playouts_alone():
    # evaluation=0 takes the evaluation out: the same search in Duo as in a variant without one,
    # so its values are a playout's (place and margin): with margin=0 a single simulation's value
    # is 0.9 place + 0.1 (1 + tanh(margin / 20)) / 2, its place being 0, 1/2 or 1
    game = random_game("duo", 6, 12)
    _, _, values, *_ = _core.mcts(game, simulations=1, seed=1, threads=1, evaluation=0.0, margin=0.0)
    place = (values[0] - 0.05) / 0.9
    assert min(abs(place - p) for p in (0.0, 0.5, 1.0)) < 0.06
