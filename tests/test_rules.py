"""The rules of rules.md on hand-built and recorded positions.

* the worked scoring examples: -3 (only ``1`` and ``2`` left), +20 (all placed, ``1`` last),
  +15 (all placed, ``I5`` last), +15 (``1`` placed early, ``2`` last), the ``classic_2`` player
  sums, the ``classic_3`` shared green that counts for nobody and a tie that shares the win;
* player scores, winners and the player to move for every variant (``classic_2``: colour % 2;
  ``classic_3``: green played in rotation; ``classic_teams``: team sums);
* first-move counts: 58 (own corner), 232 (any corner), 414 (Duo, one point), 828 (Duo, either);
* each ``IllegalMoveError`` reason on a position where the move breaks exactly that rule
  (confirmed by the reference), the game being unchanged afterwards;
* automatic skips, ``is_out``, and the end of the game.

Positions are built by playing real moves: the games of ``constructed.py`` (found with the
reference, see there) and games of tests/data.
"""

import json
import os

import numpy as np
import pytest

import blokus

import constructed
from reference import (
    PIECE_NAMES,
    PIECE_SIZES,
    RefGame,
    parse_cells,
    piece_of,
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

DATA = os.path.join(os.path.dirname(__file__), "data")


def oracle(name, index):
    with open(os.path.join(DATA, name)) as f:
        return json.loads(f.readlines()[index])


def replay(variant, start, moves):
    game = blokus.Game(variant, start=start)
    for k, (colour, text) in enumerate(moves):
        assert game.to_move == colour, "move %d: %s" % (k, text)
        game.play(text)
    return game


def ints(xs):
    return [int(x) for x in xs]


def prefix_scores(moves, size, colours):
    """Colour scores after moves, from rules.md (-1 per square in hand, +15 / +20)."""
    left = [set(range(21)) for _ in range(colours)]
    last = [None] * colours
    for colour, text in moves:
        p = piece_of(parse_cells(text, size))
        left[colour].remove(p)
        last[colour] = p
    return [
        (20 if last[c] == 0 else 15) if not left[c] else -sum(PIECE_SIZES[p] for p in left[c])
        for c in range(colours)
    ]


def snapshot(game):
    return (
        game.board.copy(),
        [tuple(int(x) for x in h) for h in game.history],
        int(game.to_move),
        int(game.key),
        np.array(game.remaining, copy=True),
        ints(game.scores()),
        [game.legal_moves(c).tolist() for c in range(game.num_colours)],
    )


def assert_same(a, b):
    assert np.array_equal(a[0], b[0])
    assert a[1:4] == b[1:4]
    assert np.array_equal(a[4], b[4])
    assert a[5:] == b[5:]


# ------------------------------------------------------------------ constructed games
CONSTRUCTED = {
    "G20": (constructed.G20, [20, -32, -53, -38]),
    "G15_I5": (constructed.G15_I5, [15, -43, -54, -47]),
    "G15_2": (constructed.G15_2, [15, -40, -58, -38]),
    "G3": (constructed.G3, [-49, -41, -42, 20]),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CONSTRUCTED))
def test_constructed_games_are_legal_per_reference(name):
    # Guards the test data itself: every move legal for the colour to move, per the reference.
    moves, score = CONSTRUCTED[name]
    ref = RefGame("classic", "fixed")
    for colour, text in moves:
        assert ref.to_move == colour
        ref.play(parse_cells(text, 20))
    assert ref.to_move == -1
    assert ref.scores() == score == prefix_scores(moves, 20, 4)


@pytest.mark.parametrize("name", list(CONSTRUCTED))
def test_constructed_game_final_scores(name):
    moves, score = CONSTRUCTED[name]
    game = replay("classic", "fixed", moves)
    assert game.is_over
    assert ints(game.scores()) == score


# ------------------------------------------------------------------ worked examples
def test_blue_holding_only_1_and_2_scores_minus_3():
    moves = constructed.G20[:-2]  # blue's last two pieces are 2 (o4,p4) then 1 (n3)
    game = replay("classic", "fixed", moves)
    rem = np.asarray(game.remaining)
    assert rem[0].tolist() == [True, True] + [False] * 19
    assert ints(game.scores())[0] == -3
    assert ints(game.scores()) == prefix_scores(moves, 20, 4) == [-3, -32, -53, -38]


def test_blue_minus_3_in_a_pentobi_game():
    # classic_level4 game 3: blue's last move is the monomino and the domino stays in hand, so
    # just before that move blue holds 1 and 2: -3; at the end -2.
    rec = oracle("classic_level4.jsonl", 3)
    last_blue = max(k for k, (c, _) in enumerate(rec["moves"]) if c == 0)
    assert piece_of(parse_cells(rec["moves"][last_blue][1], 20)) == PIECE_NAMES.index("1")
    game = replay("classic", "fixed", rec["moves"][:last_blue])
    assert ints(game.scores())[0] == -3
    game.play(rec["moves"][last_blue][1])
    assert ints(game.scores())[0] == -2


def test_all_placed_monomino_last_scores_20():
    game = replay("classic", "fixed", constructed.G20)
    assert ints(game.scores())[0] == 20
    assert not np.asarray(game.remaining)[0].any()


def test_all_placed_I5_last_scores_15():
    moves = constructed.G15_I5
    assert moves[-1] == (0, "a11,a12,a13,a14,a15")
    game = replay("classic", "fixed", moves)
    assert ints(game.scores())[0] == 15


def test_monomino_early_domino_last_scores_15():
    moves = constructed.G15_2
    blue = [t for c, t in moves if c == 0]
    assert blue[1] == "d20"  # the monomino, blue's second piece
    assert blue[-1] == "h18,h19"  # the domino, last
    game = replay("classic", "fixed", moves)
    assert ints(game.scores())[0] == 15


def test_duo_all_placed_prefix_and_end():
    rec = oracle("duo_all_placed.jsonl", 0)
    moves = rec["moves"]
    game = replay("duo", "fixed", moves[:-2])  # purple's last two: a7,b7 (2) then m7 (1)
    assert ints(game.scores())[0] == -3
    game.play(moves[-2][1])
    assert ints(game.scores())[0] == -1
    game.play(moves[-1][1])
    assert ints(game.scores()) == [20, -58] == rec["score"]
    assert ints(game.player_scores()) == [20, -58]
    assert ints(game.winners()) == [0]


def test_classic_2_player_sums_with_a_bonus():
    # Colour scores [15, -40, -58, -38]: player 0 = blue + red = 15 - 58 = -43,
    # player 1 = yellow + green = -40 - 38 = -78.
    game = replay("classic_2", "fixed", constructed.G15_2)
    assert ints(game.scores()) == [15, -40, -58, -38]
    assert ints(game.player_scores()) == [-43, -78]
    assert ints(game.winners()) == [0]


def test_classic_3_green_counts_for_nobody():
    # Green +20 is the best colour score but belongs to no player: players are blue -49,
    # yellow -41, red -42, so yellow (player 1) wins alone.
    game = replay("classic_3", "fixed", constructed.G3)
    assert ints(game.scores()) == [-49, -41, -42, 20]
    assert ints(game.player_scores()) == [-49, -41, -42]
    assert ints(game.winners()) == [1]


def test_classic_3_tie_shares_the_win():
    # classic_random game 41 after 55 moves: blue -32, yellow -32, red -37, green -31.
    # Players 0 and 1 tie on -32 and share the win; green's -31 counts for nobody.
    rec = oracle("classic_random.jsonl", 41)
    moves = rec["moves"][:55]
    assert prefix_scores(moves, 20, 4) == [-32, -32, -37, -31]
    game = replay("classic_3", "fixed", moves)
    assert ints(game.scores()) == [-32, -32, -37, -31]
    assert ints(game.player_scores()) == [-32, -32, -37]
    assert ints(game.winners()) == [0, 1]


def test_classic_teams_sums_and_winners():
    # G20: [20, -32, -53, -38]: team {0, 2} = -33, team {1, 3} = -70.
    game = replay("classic_teams", "fixed", constructed.G20)
    assert ints(game.player_scores()) == [-33, -70, -33, -70]
    assert ints(game.winners()) == [0, 2]
    # G15_2: [15, -40, -58, -38]: team {0, 2} = -43, team {1, 3} = -78.
    game = replay("classic_teams", "fixed", constructed.G15_2)
    assert ints(game.player_scores()) == [-43, -78, -43, -78]
    assert ints(game.winners()) == [0, 2]


def test_classic_teams_odd_team_wins():
    # classic_level4 game 0: [-15, -8, -20, -4]: team {0,2} = -35, team {1,3} = -12.
    rec = oracle("classic_level4.jsonl", 0)
    game = replay("classic_teams", "fixed", rec["moves"])
    assert ints(game.scores()) == [-15, -8, -20, -4]
    assert ints(game.player_scores()) == [-35, -12, -35, -12]
    assert ints(game.winners()) == [1, 3]


@pytest.mark.parametrize("variant,players,winners", [
    ("classic", [-89] * 4, [0, 1, 2, 3]),
    ("classic_2", [-178, -178], [0, 1]),
    ("classic_3", [-89] * 3, [0, 1, 2]),
    ("classic_teams", [-178] * 4, [0, 1, 2, 3]),
    ("duo", [-89, -89], [0, 1]),
])
def test_scores_at_the_start(variant, players, winners):
    game = blokus.Game(variant)
    n = 2 if variant == "duo" else 4
    assert ints(game.scores()) == [-89] * n
    assert ints(game.player_scores()) == players
    assert ints(game.winners()) == winners


# ------------------------------------------------------------------ every variant, every position
VARIANT_GAMES = [
    pytest.param("G20", "fixed", constructed.G20, id="G20"),
    pytest.param("G3", "fixed", constructed.G3, id="G3"),
    pytest.param("G15_2", "fixed", constructed.G15_2, id="G15_2"),
] + [
    pytest.param(name, rec["start"], rec["moves"], id="%s-%d" % (name, i))
    for name in ("classic_level4.jsonl", "classic_any_corner.jsonl", "classic_random.jsonl")
    for i, rec in ((i, oracle(name, i)) for i in range(3))
]


@pytest.mark.parametrize("variant", ["classic", "classic_2", "classic_3", "classic_teams"])
@pytest.mark.parametrize("source,start,moves", VARIANT_GAMES)
def test_players_at_every_position(variant, source, start, moves):
    """Colour scores, player scores, winners and the player to move after every move."""
    game = blokus.Game(variant, start=start)
    greens = 0
    for k in range(len(moves) + 1):
        scores = prefix_scores(moves[:k], 20, 4)
        assert ints(game.scores()) == scores, k
        assert ints(game.player_scores()) == ref_player_scores(variant, scores), k
        assert ints(game.winners()) == ref_winners(variant, scores), k
        if k == len(moves):
            break
        colour, text = moves[k]
        assert game.to_move == colour, k
        assert game.player_to_move == ref_player_to_move(variant, colour, greens), k
        game.play(text)
        greens += colour == 3
    assert game.is_over
    assert game.player_to_move == -1


def test_classic_3_green_rotation():
    # In G3 green places all 21 pieces; its i-th piece (from 0) is placed by player i mod 3.
    game = blokus.Game("classic_3", start="fixed")
    placed = 0
    for colour, text in constructed.G3:
        assert game.to_move == colour
        if colour == 3:
            assert game.player_to_move == placed % 3, placed
            placed += 1
        else:
            assert game.player_to_move == colour
        game.play(text)
    assert placed == 21


def test_classic_2_players():
    game = blokus.Game("classic_2", start="fixed")
    for colour, text in constructed.G15_2:
        assert game.player_to_move == colour % 2
        game.play(text)


@pytest.mark.parametrize("variant,colours,players,shape", [
    ("classic", 4, 4, (20, 20)),
    ("classic_2", 4, 2, (20, 20)),
    ("classic_3", 4, 3, (20, 20)),
    ("classic_teams", 4, 4, (20, 20)),
    ("duo", 2, 2, (14, 14)),
])
def test_variant_sizes(variant, colours, players, shape):
    game = blokus.Game(variant)
    assert game.num_colours == colours
    assert game.num_players == players
    assert tuple(game.shape) == shape
    assert game.board.shape == shape
    assert np.asarray(game.remaining).shape == (colours, 21)
    assert game.to_move == 0 and game.player_to_move == 0


# ------------------------------------------------------------------ first moves
def covered(variant, ids):
    pl = blokus.placements(variant)
    out = []
    for i in ids:
        n = int(pl.size[i])
        out.append({(int(r), int(c)) for r, c in np.asarray(pl.cells[i, :n])})
    return out


CORNERS = [(0, 0), (0, 19), (19, 19), (19, 0)]


@pytest.mark.parametrize("variant", ["classic", "classic_2", "classic_3", "classic_teams"])
def test_first_moves_own_corner(variant):
    game = blokus.Game(variant, start="fixed")
    for c in range(4):
        ids = game.legal_moves(c)
        assert len(ids) == 58
        assert all(CORNERS[c] in cells for cells in covered(variant, ids))


@pytest.mark.parametrize("variant", ["classic", "classic_2", "classic_3", "classic_teams"])
def test_first_moves_any_corner(variant):
    game = blokus.Game(variant, start="any")
    for c in range(4):
        ids = game.legal_moves(c)
        assert len(ids) == 232
        cells = covered(variant, ids)
        for corner in CORNERS:
            assert sum(corner in cs for cs in cells) == 58
    # once blue has taken a corner, each other colour may take any of the other three
    game.play("a20")
    for c in (1, 2, 3):
        ids = game.legal_moves(c)
        assert len(ids) == 174
        assert not any((0, 0) in cs for cs in covered(variant, ids))


def test_default_start_is_any_corner():
    assert len(blokus.Game().legal_moves()) == 232
    assert len(blokus.Game("duo").legal_moves()) == 828


def test_duo_first_moves_fixed():
    game = blokus.Game("duo", start="fixed")
    points = [(4, 4), (9, 9)]
    for c in range(2):
        ids = game.legal_moves(c)
        assert len(ids) == 414
        assert all(points[c] in cs for cs in covered("duo", ids))


@pytest.mark.parametrize("first,other", [("e10", (9, 9)), ("j5", (4, 4))])
def test_duo_first_moves_either_point(first, other):
    game = blokus.Game("duo", start="any")
    for c in range(2):
        ids = game.legal_moves(c)
        assert len(ids) == 828
        cells = covered("duo", ids)
        assert sum((4, 4) in cs for cs in cells) == 414
        assert sum((9, 9) in cs for cs in cells) == 414
    game.play(first)  # purple covers one point; orange must cover the other
    ids = game.legal_moves()
    assert game.to_move == 1
    assert len(ids) == 414
    assert all(other in cs for cs in covered("duo", ids))


def test_other_colours_may_touch_along_edges():
    # Duo fixed: purple I5 e6-e10, orange I5 f5-j5 (orange's (9,5) touches purple's (8,4)
    # corner to corner), then purple's L4 d5,d4,e4,f4 lies along orange's edge at (10,5):
    # legal, since only a colour's own cells are forbidden along edges.
    moves = [(0, "e6,e7,e8,e9,e10"), (1, "f5,g5,h5,i5,j5"), (0, "d5,d4,e4,f4")]
    ref = RefGame("duo", "fixed")
    for _, text in moves:
        ref.play(parse_cells(text, 14))
    game = replay("duo", "fixed", moves)
    assert game.board[10, 5] == 0 and game.board[9, 5] == 1


# ------------------------------------------------------------------ illegal moves
FOUR_MONOMINOES = [(0, "a20"), (1, "t20"), (2, "t1"), (3, "a1")]
DUO_CLASH = [(0, "e6,e7,e8,e9,e10"), (1, "f5,g5,h5,i5,j5")]

ILLEGAL = [
    # (id, variant, start, moves before, move (text or cells), rule broken)
    ("off-board-top", "classic", "fixed", [], [(-1, 0), (0, 0)], "off board"),
    ("off-board-left", "classic", "fixed", [], [(0, 0), (0, -1)], "off board"),
    ("off-board-bottom-right", "classic", "fixed", FOUR_MONOMINOES[:2],
     [(19, 19), (19, 20), (18, 19)], "off board"),
    ("occupied", "duo", "fixed", DUO_CLASH, "f5", "occupied"),
    ("already-used", "classic", "fixed", FOUR_MONOMINOES, "b19", "already used"),
    ("edge", "classic", "fixed", FOUR_MONOMINOES, "b20,b19", "edge"),
    ("corner", "classic", "fixed", FOUR_MONOMINOES, "k10,l10", "corner"),
    ("starting-fixed", "classic", "fixed", [], "k10", "starting"),
    ("starting-fixed-other-corner", "classic", "fixed", [], "t20", "starting"),
    ("starting-any", "classic", "any", [], "k10", "starting"),
    ("starting-duo-fixed", "duo", "fixed", [], "j5", "starting"),
    ("starting-duo-any", "duo", "any", [(0, "e10")], "a1", "starting"),
    ("starting-yellow-fixed", "classic", "fixed", [(0, "a20")], "a19", "starting"),
]


def ref_position(variant, start, moves):
    ref = RefGame(variant, start)
    for _, text in moves:
        ref.play(parse_cells(text, ref.size))
    return ref


@pytest.mark.parametrize("case", ILLEGAL, ids=[c[0] for c in ILLEGAL])
def test_illegal_move_reason(case):
    _, variant, start, moves, move, rule = case
    ref = ref_position(variant, start, moves)
    cells = parse_cells(move, ref.size) if isinstance(move, str) else move
    assert ref.broken_rules(ref.to_move, cells) == {rule}  # the case breaks that rule alone
    game = replay(variant, start, moves)
    before = snapshot(game)
    with pytest.raises(blokus.IllegalMoveError) as info:
        game.play(move)
    assert rule in str(info.value).lower()
    assert isinstance(info.value, ValueError)
    assert_same(before, snapshot(game))


def test_illegal_move_error_is_value_error():
    assert issubclass(blokus.IllegalMoveError, ValueError)


def test_illegal_by_placement_id_names_rule():
    # The same rule, the move given as a placement id.
    game = replay("classic", "fixed", FOUR_MONOMINOES)
    before = snapshot(game)
    for text, rule in (("b19", "already used"), ("b20,b19", "edge"), ("k10,l10", "corner")):
        pid = blokus.parse_move(text, "classic")
        with pytest.raises(blokus.IllegalMoveError) as info:
            game.play(pid)
        assert rule in str(info.value).lower()
        assert_same(before, snapshot(game))


def test_off_board_text_is_rejected():
    game = blokus.Game("classic", start="fixed")
    before = snapshot(game)
    for text in ("a21,a20", "u20", "a20,a0"):
        with pytest.raises(ValueError):
            game.play(text)
        assert_same(before, snapshot(game))


def test_game_over():
    game = replay("classic", "fixed", constructed.G20)
    assert game.is_over
    assert game.to_move == -1
    assert game.player_to_move == -1
    for c in range(4):
        assert len(game.legal_moves(c)) == 0
        assert not game.legal_mask(c).any()
        assert game.is_out(c)
    before = snapshot(game)
    for move in (0, "k10", [(10, 9)]):
        with pytest.raises(blokus.IllegalMoveError) as info:
            game.play(move)
        assert "game over" in str(info.value).lower()
        assert_same(before, snapshot(game))


def test_undo_from_game_over():
    game = replay("classic", "fixed", constructed.G20)
    game.undo()
    assert not game.is_over
    assert game.to_move == 0
    assert ints(game.scores())[0] == -1
    assert len(game.legal_moves()) >= 1


# ------------------------------------------------------------------ skips
def test_duo_skip_when_orange_is_out():
    rec = oracle("duo_all_placed.jsonl", 0)
    moves = rec["moves"]
    game = blokus.Game("duo", start="fixed")
    for k, (colour, text) in enumerate(moves):
        game.play(text)
        k += 1
        out = rec["legal"][k][1] == 0
        assert game.is_out(1) == out, k
        if out and k < len(moves):
            assert game.to_move == 0, k  # orange is skipped: purple moves again
    # orange is out from move 18 on, and purple played the 12 moves after it in a row
    assert rec["legal"][18][1] == 0 and rec["legal"][17][1] > 0
    assert [c for c, _ in moves[18:]] == [0] * 12


def test_classic_skips_three_colours():
    moves = constructed.G20
    game = replay("classic", "fixed", moves[:-7])  # blue then plays its last 7 pieces alone
    assert [c for c, _ in moves[-7:]] == [0] * 7
    assert [bool(game.is_out(c)) for c in range(4)] == [False, True, True, True]
    for colour, text in moves[-7:]:
        assert game.to_move == 0
        game.play(text)
    assert game.is_out(0)  # all 21 placed: no legal placement left
    assert game.is_over


def test_nobody_is_out_at_the_start():
    for variant in ("classic", "classic_2", "classic_3", "classic_teams", "duo"):
        for start in ("any", "fixed"):
            game = blokus.Game(variant, start=start)
            assert not any(game.is_out(c) for c in range(game.num_colours))
            assert not game.is_over
