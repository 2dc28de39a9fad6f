"""The rules' vocabulary that the C core exports (issue 12): variants, start rules, colours,
starting squares, players, piece sizes, the packing limits, ``Game.is_legal``,
``Game.open_starting_squares`` and the two move errors. Values from docs/rules.md."""
import numpy as np
import pytest

import blokus
from blokus import _core
from blokus.variants import START_RULES, VARIANTS, variant

CORNERS = ((0, 0), (0, 19), (19, 19), (19, 0))  # a20, t20, t1, a1: blue, yellow, red, green


def test_variants_and_start_rules():
    assert VARIANTS == ("classic", "classic_2", "classic_3", "classic_teams", "duo")
    assert START_RULES == ("any", "fixed")


@pytest.mark.parametrize("name, side, colours, players, player_colours, starts", [
    ("classic", 20, ("blue", "yellow", "red", "green"), 4, ((0,), (1,), (2,), (3,)), CORNERS),
    ("classic_2", 20, ("blue", "yellow", "red", "green"), 2, ((0, 2), (1, 3)), CORNERS),
    ("classic_3", 20, ("blue", "yellow", "red", "green"), 3, ((0,), (1,), (2,)), CORNERS),
    ("classic_teams", 20, ("blue", "yellow", "red", "green"), 4, ((0, 2), (1, 3), (0, 2), (1, 3)), CORNERS),
    ("duo", 14, ("purple", "orange"), 2, ((0,), (1,)), ((4, 4), (9, 9))),  # e10 and j5
])
def test_variant_facts(name, side, colours, players, player_colours, starts):
    v = variant(name)
    assert (v.side, v.colours, v.num_colours, v.num_players) == (side, colours, len(colours), players)
    assert v.player_colours == player_colours and v.starting_squares == starts
    game = blokus.Game(name)
    assert game.shape == (side, side) and game.num_players == players
    assert [game.colour_name(c) for c in range(game.num_colours)] == list(colours)


def test_unknown_variant():
    with pytest.raises(ValueError, match="unknown variant 'trigon'"):
        variant("trigon")


def test_piece_sizes_and_total_squares():
    sizes = dict(zip(blokus.PIECE_NAMES, _core.PIECE_SIZES))
    assert sorted(_core.PIECE_SIZES) == [1, 2, 3, 3] + [4] * 5 + [5] * 12
    assert sizes["1"] == 1 and sizes["O"] == 4 and sizes["X"] == 5
    assert sum(_core.PIECE_SIZES) == _core.TOTAL_SQUARES == 89


def test_packing_limits_are_what_packing_enforces():
    from blokus.puzzles import Packing

    limits = _core.PACK_LIMITS
    with pytest.raises(ValueError, match=f"the shorter at most {limits['max_narrow_side']}"):
        Packing((limits["max_narrow_side"] + 1, limits["max_narrow_side"] + 1), {"1": 1})
    with pytest.raises(ValueError, match=f"sides must be 1..{limits['max_side']}"):
        Packing((1, limits["max_side"] + 1), {"1": 1})


def test_open_starting_squares_by_start_rule():
    fixed, anywhere = blokus.Game("classic", start="fixed"), blokus.Game("classic", start="any")
    assert [fixed.open_starting_squares(c) for c in range(4)] == [[s] for s in CORNERS]
    assert anywhere.open_starting_squares(2) == list(CORNERS)
    anywhere.play("t1")  # blue takes red's corner under "any"
    assert anywhere.open_starting_squares(0) == []  # blue has placed a piece
    assert anywhere.open_starting_squares(1) == [(0, 0), (0, 19), (19, 0)]


def test_is_legal_follows_the_rules_and_changes_nothing():
    game = blokus.Game("duo", start="fixed")
    assert game.is_legal("e10") and not game.is_legal("j5")  # purple's own starting square is e10
    assert not game.is_legal([(20, 20)])  # off board: a real shape, but no placement
    assert game.history == []
    game.play("e10")
    assert not game.is_legal("e10")  # occupied, and not orange's starting square
    assert game.is_legal("j5")
    with pytest.raises(blokus.InvalidMoveError):
        game.is_legal("a1,c1")  # two cells that are not a piece


def test_move_errors_tell_syntax_from_rules():
    assert issubclass(blokus.InvalidMoveError, ValueError) and issubclass(blokus.IllegalMoveError, ValueError)
    assert not issubclass(blokus.InvalidMoveError, blokus.IllegalMoveError)
    with pytest.raises(blokus.InvalidMoveError, match="off the 14x14 board"):
        blokus.parse_move("z99", "duo")
    with pytest.raises(blokus.InvalidMoveError, match="cannot read the move text"):
        blokus.parse_move("e10,,", "duo")
    game = blokus.Game("duo", start="fixed")
    with pytest.raises(blokus.InvalidMoveError, match="not one of the 21 pieces"):
        game.play([(4, 4), (6, 6)])
    game.play("e10")
    with pytest.raises(blokus.IllegalMoveError, match="occupied") as info:
        game.play("e10")
    assert not isinstance(info.value, blokus.InvalidMoveError)


@pytest.mark.parametrize("variant_name, colour_scores, players, winners", [
    ("duo", [-5, -5], [-5, -5], [True, True]),  # a tie shares the win
    ("classic_2", [-10, -20, -5, -7], [-15, -27], [True, False]),  # blue+red, yellow+green
    ("classic_3", [-1, -2, -3, 15], [-1, -2, -3], [True, False, False]),  # green counts for nobody
    ("classic_teams", [-3, -10, -4, 15], [-7, 5, -7, 5], [False, True, False, True]),
    ("classic", [20, 15, -89, 20], [20, 15, -89, 20], [True, False, False, True]),
])
def test_player_results_from_colour_scores(variant_name, colour_scores, players, winners):
    from blokus.outcomes import results

    scores, won = results([colour_scores], variant_name)
    assert scores.tolist() == [players] and won.tolist() == [winners]


@pytest.mark.parametrize("variant_name, colour_scores, expected", [
    ("duo", [[-5, -5], [3, -40]], [[0.5, 0.5], [1, 0]]),  # two sides: the share of the win
    # blue and green tie for first: places 2 and 3 of 0..3 averaged; yellow above red only
    ("classic", [[20, 15, -89, 20]], [[5 / 6, 1 / 3, 0, 5 / 6]]),
    ("classic", [[-1, -2, -3, -4]], [[1, 2 / 3, 1 / 3, 0]]),
    ("classic", [[0, 0, 0, 0]], [[0.5, 0.5, 0.5, 0.5]]),
    ("classic_3", [[-1, -2, -3, 15]], [[1, 0.5, 0]]),  # green counts for nobody
    ("classic_2", [[-10, -20, -5, -7]], [[1, 0]]),  # blue+red -15 beat yellow+green -27
    ("classic_teams", [[-3, -10, -4, 15]], [[0, 1, 0, 1]]),  # two sides: 0+2 on -7, 1+3 on 5
])
def test_places_rank_the_sides(variant_name, colour_scores, expected):
    from blokus.outcomes import places

    assert places(colour_scores, variant_name) == pytest.approx(np.array(expected))


def test_player_results_refuse_impossible_scores():
    from blokus.outcomes import results

    with pytest.raises(ValueError, match="colour scores lie in \\[-89, 20\\]"):
        results([[21, 0]], "duo")
    with pytest.raises(ValueError, match="shape \\(n, 4\\)"):
        results([[0, 0]], "classic")


def test_sides_and_winners_of_a_game():
    assert variant("classic_teams").player_sides == (0, 1, 0, 1)
    assert variant("classic_3").player_sides == (0, 1, 2)
    game = blokus.Game("classic_2")
    assert game.winners() == [0, 1]  # before any move every player has -178
    game.play("a20")  # blue's monomino: player 0 leads by one square
    assert game.winners() == [0]
