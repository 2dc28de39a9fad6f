"""blokus.analysis: per-colour position metrics, their timeline, and the engine's move values.

Expected values come from outside the code under test: the oracle's exact legal-move counts per
colour (tests/data/*.jsonl, see test_oracle.py), counts worked out by hand on small positions
(drawn in the comments), the piece set of docs/rules.md ("Pieces": 89 squares; sizes 1:1, 2:1,
3:2, 4:5, 5:12), Chebyshev distances on an empty board, and a plain queue-based flood fill
written here independently of the module's NumPy dilation.
"""

import collections
import json
import os
import random

import numpy as np
import pytest

import blokus
from blokus import analysis
from blokus.agents import GreedyAgent, MCTSAgent, RandomAgent

DATA = os.path.join(os.path.dirname(__file__), "data")
START_PIECES = {1: 1, 2: 1, 3: 2, 4: 5, 5: 12}
KEYS = {"colour", "colour_name", "score", "mobility", "attachment_points", "squares_placed",
        "squares_left", "pieces_left", "pieces_left_1", "pieces_left_2", "pieces_left_3",
        "pieces_left_4", "pieces_left_5", "reachable", "territory"}


def records(name):
    with open(os.path.join(DATA, name + ".jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def replay(record, plies=None):
    game = blokus.Game(record["variant"], start=record["start"])
    for _, text in record["moves"][:plies]:
        game.play(text)
    return game


def by_colour(game):
    return {row["colour"]: row for row in analysis.metrics(game)}


# ------------------------------------------------------------------ an independent reference
def ref_distances(game, colour):
    """Plain breadth-first search with a queue: {(row, col): steps} over the colour's open cells
    (empty, no edge shared with its own cells), 8-neighbour steps, from its attachment points."""
    board = game.board.tolist()
    height, width = game.shape

    def open_cell(r, c):
        if board[r][c] != -1:
            return False
        return all(not (0 <= r + dr < height and 0 <= c + dc < width) or board[r + dr][c + dc] != colour
                   for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))

    attach = game.attachment_points(colour)
    dist = {}
    queue = collections.deque()
    for r in range(height):
        for c in range(width):
            if attach[r, c] and open_cell(r, c):
                dist[(r, c)] = 0
                queue.append((r, c))
    while queue:
        r, c = queue.popleft()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nr, nc = r + dr, c + dc
                if (0 <= nr < height and 0 <= nc < width and (nr, nc) not in dist
                        and open_cell(nr, nc)):
                    dist[(nr, nc)] = dist[(r, c)] + 1
                    queue.append((nr, nc))
    return dist


def ref_territory(game):
    """{colour: set of cells it reaches strictly sooner than every other colour}."""
    dists = [ref_distances(game, c) for c in range(game.num_colours)]
    out = {c: set() for c in range(game.num_colours)}
    for c, mine in enumerate(dists):
        for cell, d in mine.items():
            if all(d < other.get(cell, float("inf")) for o, other in enumerate(dists) if o != c):
                out[c].add(cell)
    return out


def cells_of(mask):
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(mask))}


# ------------------------------------------------------------------ shape of the records
def test_metrics_records_shape():
    game = blokus.Game("classic")
    rows = analysis.metrics(game)
    assert [row["colour"] for row in rows] == [0, 1, 2, 3]
    assert [row["colour_name"] for row in rows] == ["blue", "yellow", "red", "green"]
    for row in rows:
        assert set(row) == KEYS
        for key, value in row.items():
            assert type(value) is (str if key == "colour_name" else int), key
    assert len(game.history) == 0  # unchanged


# ------------------------------------------------------------------ empty board
@pytest.mark.parametrize("variant,start,size", [("classic", "fixed", 20), ("classic", "any", 20),
                                                ("duo", "fixed", 14), ("duo", "any", 14),
                                                ("classic_3", "fixed", 20)])
def test_empty_board(variant, start, size):
    game = blokus.Game(variant, start=start)
    # attachment points before the first piece: the starting squares open to the colour
    # (rules.md "Starting squares"): any: every free corner / both Duo points; fixed: its own.
    open_starts = (4 if variant != "duo" else 2) if start == "any" else 1
    # first placements (rules.md, "Starting squares"): classic 58 per corner (232 for any of the
    # four); Duo 414 per starting point (828 for either)
    first_moves = 414 * open_starts if variant == "duo" else 58 * open_starts
    for row in analysis.metrics(game):
        assert row["mobility"] == first_moves
        assert row["attachment_points"] == open_starts
        assert row["squares_placed"] == 0 and row["squares_left"] == 89
        assert row["pieces_left"] == 21
        assert [row[f"pieces_left_{s}"] for s in range(1, 6)] == [START_PIECES[s] for s in range(1, 6)]
        assert row["score"] == -89
        # nothing is occupied or forbidden and the board is one 8-connected region
        assert row["reachable"] == size * size


def chebyshev_territory(starts, size):
    """Cells strictly Chebyshev-closer to each starting square than to every other one."""
    out = [0] * len(starts)
    for r in range(size):
        for c in range(size):
            d = [max(abs(r - sr), abs(c - sc)) for sr, sc in starts]
            best = min(d)
            if d.count(best) == 1:
                out[d.index(best)] += 1
    return out


def test_empty_board_territory_fixed():
    # On an empty board, 8-neighbour steps are the Chebyshev distance to the colour's start.
    duo = [row["territory"] for row in analysis.metrics(blokus.Game("duo", start="fixed"))]
    assert duo == chebyshev_territory([(4, 4), (9, 9)], 14)
    # by hand: (4, 4) and (9, 9) are mirror images in the anti-diagonal r + c = 13, whose 14
    # cells are ties; every other cell is strictly nearer the start on its side: 182 / 2 each
    assert duo == [91, 91]
    classic = [row["territory"] for row in analysis.metrics(blokus.Game("classic", start="fixed"))]
    assert classic == chebyshev_territory([(0, 0), (0, 19), (19, 19), (19, 0)], 20)
    # by hand: a cell of blue's 10x10 quadrant is at most 9 steps from (0, 0) and at least 10
    # from every other corner, so each colour owns exactly its quadrant
    assert classic == [100, 100, 100, 100]


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_empty_board_territory_any_is_all_ties(variant):
    # Under start="any" every colour has the same starting squares, so every cell is a tie.
    assert [row["territory"] for row in analysis.metrics(blokus.Game(variant, start="any"))] == \
        [0] * blokus.Game(variant).num_colours


# ------------------------------------------------------------------ hand-built positions
def test_duo_monomino():
    # Duo, fixed: purple's monomino on e10 = (4, 4).
    game = blokus.Game("duo", start="fixed")
    game.play("e10")
    purple, orange = analysis.metrics(game)
    assert purple["attachment_points"] == 4            # d11, f11, d9, f9: the four diagonals
    assert orange["attachment_points"] == 1            # its starting square j5 = (9, 9)
    assert purple["squares_placed"] == 1 and purple["squares_left"] == 88
    assert purple["pieces_left_1"] == 0 and purple["pieces_left"] == 20
    assert orange["squares_placed"] == 0 and orange["squares_left"] == 89
    assert purple["score"] == -88 and orange["score"] == -89
    # purple: 196 cells - 1 occupied - 4 forbidden (e11, d10, f10, e9); orange: - 1 occupied
    assert purple["reachable"] == 196 - 1 - 4
    assert orange["reachable"] == 196 - 1
    assert purple["mobility"] == len(game.legal_moves(0))
    assert orange["mobility"] == len(game.legal_moves(1)) == 414   # game.legal_moves() is orange's


def test_duo_v3_attachment_points_by_hand():
    # Purple's V3 on e10, e11, f10 = (4, 4), (3, 4), (4, 5):
    #   row 2   . x . x .        x: attachment points d12 (2, 3), f12 (2, 5),
    #   row 3   . - P - x                             g11 (3, 6), d9 (5, 3), g9 (5, 6)
    #   row 4   . - P P -        -: forbidden (edge-adjacent)
    #   row 5   . x - - x
    #          c  d e f g
    game = blokus.Game("duo", start="fixed")
    game.play("e10,e11,f10")
    purple = analysis.metrics(game)[0]
    assert purple["attachment_points"] == 5
    assert cells_of(game.attachment_points(0)) == {(2, 3), (2, 5), (3, 6), (5, 3), (5, 6)}
    # 3 occupied; forbidden: (2,4), (3,3), (3,5), (4,3), (4,6), (5,4), (5,5) = 7
    assert purple["reachable"] == 196 - 3 - 7
    assert purple["squares_placed"] == 3 and purple["squares_left"] == 86
    assert [purple[f"pieces_left_{s}"] for s in range(1, 6)] == [1, 1, 1, 5, 12]


def test_classic_pieces_and_attachment_by_hand():
    # Classic, any start: blue I5 on the top row from the corner, yellow the monomino in the
    # top-right corner, red the domino in the bottom-right corner.
    game = blokus.Game("classic", start="any")
    game.play("a20,b20,c20,d20,e20")     # blue (0, 0)..(0, 4)
    game.play("t20")                     # yellow (0, 19)
    game.play("t1,t2")                   # red (19, 19), (18, 19)
    blue, yellow, red, green = analysis.metrics(game)
    assert blue["attachment_points"] == 1      # (1, 5) only: (1, -1) is off the board
    assert yellow["attachment_points"] == 1    # (1, 18)
    assert red["attachment_points"] == 1       # (17, 18)
    assert green["attachment_points"] == 1     # the one free corner, (19, 0)
    assert (blue["squares_placed"], yellow["squares_placed"], red["squares_placed"]) == (5, 1, 2)
    assert (blue["squares_left"], yellow["squares_left"], red["squares_left"]) == (84, 88, 87)
    assert [blue[f"pieces_left_{s}"] for s in range(1, 6)] == [1, 1, 2, 5, 11]
    assert [yellow[f"pieces_left_{s}"] for s in range(1, 6)] == [0, 1, 2, 5, 12]
    assert [red[f"pieces_left_{s}"] for s in range(1, 6)] == [1, 0, 2, 5, 12]
    assert green["squares_placed"] == 0 and green["pieces_left"] == 21
    # blue: 400 - 8 occupied - forbidden (1,0)..(1,4) and (0,5)
    assert blue["reachable"] == 400 - 8 - 6
    # green has not moved: nothing is forbidden to it, all free cells connect to (19, 0)
    assert green["reachable"] == 400 - 8
    for row in (blue, yellow, red, green):
        assert row["squares_placed"] + row["squares_left"] == 89
        assert row["mobility"] == len(game.legal_moves(row["colour"]))


# Duo, fixed. Purple walls itself along column e and row 9; orange's row 8 and its pieces on
# f9, g9, g8 shut the mouth. Purple's reachable cells are marked r (d/f columns are its
# forbidden cells, '-'):
#   14 r r r - P .
#   13 r r r - P .
#   12 r - r - P .
#   11 - P - - P .
#   10 r - P - P .
#    9 r - P P - O O
#    8 O O O O O . O
#      a b c d e f g
WALLED = ["e14,e13,e12,e11,e10",   # purple I5 (0..4, 4)
          "j5,j6,i6,i7,h7",         # orange W from its starting square (9, 9)
          "d9,c9,c10",              # purple V3 (5, 3), (5, 2), (4, 2)
          "g8,g9,f9",               # orange V3 (6, 6), (5, 6), (5, 5): covers purple's f9
          "b11",                    # purple monomino (3, 1)
          "a8,b8,c8,d8,e8"]         # orange I5 (6, 0..4): covers purple's b8 and e8 corners
WALLED_REACH = {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 2), (4, 0), (5, 0)}


def test_walled_in_reachable_by_hand():
    game = blokus.Game("duo", start="fixed")
    for move in WALLED:
        game.play(move)
    assert game.to_move == 0
    purple, orange = analysis.metrics(game)
    assert cells_of(game.attachment_points(0)) == {(2, 0), (2, 2), (4, 0)}
    assert purple["attachment_points"] == 3
    assert cells_of(analysis.reachable(game, 0)) == WALLED_REACH
    assert purple["reachable"] == 10
    # orange cannot get into the pocket (purple's column e and orange's own forbidden row 9
    # close it), and purple cannot get out: the pocket is all purple's, the rest all orange's
    assert purple["territory"] == 10
    assert orange["territory"] == orange["reachable"]
    assert not (cells_of(analysis.reachable(game, 1)) & WALLED_REACH)
    assert purple["mobility"] == len(game.legal_moves(0)) > 0
    assert purple["squares_placed"] == 9 and orange["squares_placed"] == 13
    dist = analysis.distances(game, 0)
    assert dist[2, 0] == dist[2, 2] == dist[4, 0] == 0 and dist[5, 0] == 1 and dist[0, 0] == 2


def test_cut_off_pocket_by_hand():
    # Orange's I5 on row 9 and I4 down column 8 close the bottom-right corner on itself: its
    # 20 cells rows 10-13 x cols 9-13 hold 8 forbidden cells and 12 open ones that no orange
    # corner touches, so none is reachable.
    #   5 . O O O O O      occupied: purple 1 + 2, orange 5 + 4 = 12
    #   4 O . . . . .      orange-forbidden: row 8 cols 9-13 (5), (9, 8), row 10 cols 9-13 (5),
    #   3 O . . . . .                        col 7 rows 10-13 (4), col 9 rows 11-13 (3) = 18
    #   2 O . . . . .      cut off: 12
    #   1 O . . . . .
    #     i j k l m n
    game = blokus.Game("duo", start="fixed")
    for move in ["e10", "j5,k5,l5,m5,n5", "d11,d12", "i1,i2,i3,i4"]:
        game.play(move)
    orange = analysis.metrics(game)[1]
    assert orange["attachment_points"] == 2    # (8, 8) and (9, 7)
    assert orange["reachable"] == 196 - 12 - 18 - 12
    pocket = {(r, c) for r in range(11, 14) for c in range(10, 14)}
    assert not (cells_of(analysis.reachable(game, 1)) & pocket)


# ------------------------------------------------------------------ oracle mobility
@pytest.mark.slow
@pytest.mark.parametrize("name,index,plies", [("duo_random", 0, [0, 1, 7, 15, 21, 25]),
                                              ("duo_any_start", 0, [0, 1, 2, 10, 20]),
                                              ("classic_random", 0, [0, 3, 17, 40, 59]),
                                              ("classic_any_corner", 1, [0, 2, 5, 30])])
def test_mobility_matches_oracle(name, index, plies):
    record = records(name)[index]
    for k in plies:
        game = replay(record, k)
        assert [row["mobility"] for row in analysis.metrics(game)] == record["legal"][k], k


# ------------------------------------------------------------------ reference flood fill
@pytest.mark.parametrize("name,index,plies", [("duo_random", 1, [0, 1, 4, 9, 14, 20, 30]),
                                              ("duo_any_start", 2, [1, 6, 12, 24]),
                                              ("classic_random", 1, [0, 4, 12, 30, 50, 59])])
def test_reachable_and_territory_match_reference(name, index, plies):
    record = records(name)[index]
    for k in plies:
        game = replay(record, k)
        rows = analysis.metrics(game)
        ref_terr = ref_territory(game)
        owner = analysis.territory(game)
        assert owner.shape == game.shape and owner.dtype == np.int8
        free = int((game.board < 0).sum())
        for c, row in enumerate(rows):
            ref = ref_distances(game, c)
            dist = analysis.distances(game, c)
            assert dist.dtype == np.int32 and dist.shape == game.shape
            assert {cell: int(dist[cell]) for cell in cells_of(dist >= 0)} == ref, (k, c)
            assert row["reachable"] == len(ref)
            assert cells_of(owner == c) == ref_terr[c], (k, c)
            assert row["territory"] == len(ref_terr[c])
            assert 0 <= row["territory"] <= row["reachable"] <= free
            assert row["squares_placed"] == int((game.board == c).sum())
        assert sum(row["territory"] for row in rows) <= free
        assert not (cells_of(owner >= 0) & cells_of(game.board >= 0))


# ------------------------------------------------------------------ timeline
def test_timeline_full_game_against_oracle():
    record = records("duo_random")[2]
    game = replay(record)
    assert game.is_over
    rows = analysis.timeline(game)
    moves = record["moves"]
    assert len(rows) == (len(moves) + 1) * 2
    assert [(r["ply"], r["colour"]) for r in rows] == [(p, c) for p in range(len(moves) + 1) for c in (0, 1)]
    # ply 0: the empty board
    empty = analysis.metrics(blokus.Game("duo", start="fixed"))
    assert [{k: r[k] for k in KEYS} for r in rows[:2]] == empty
    assert rows[0]["move"] is None and rows[0]["move_colour"] is None and rows[0]["to_move"] == 0
    # last rows: the final position
    assert [{k: r[k] for k in KEYS} for r in rows[-2:]] == analysis.metrics(game)
    assert rows[-1]["to_move"] == -1
    for ply in range(len(moves) + 1):
        pair = rows[2 * ply:2 * ply + 2]
        assert [r["mobility"] for r in pair] == record["legal"][ply], ply
        if ply:
            colour, text = moves[ply - 1]
            assert all(r["move_colour"] == colour for r in pair)
            assert sorted(pair[0]["move"].split(",")) == sorted(text.split(","))
            assert pair[0]["move"] == game.move_text(game.history[ply - 1][1])
            before = rows[2 * (ply - 1) + colour]
            after = pair[colour]
            size = len(text.split(","))
            assert after["squares_placed"] - before["squares_placed"] == size
            assert before["squares_left"] - after["squares_left"] == size
            assert before[f"pieces_left_{size}"] - after[f"pieces_left_{size}"] == 1
    assert [rows[-2 + c]["score"] for c in (0, 1)] == record["score"]
    assert all(r["mobility"] == 0 for r in rows[-2:])


def test_timeline_classic_midgame_unchanged():
    record = records("classic_random")[2]
    game = replay(record, 12)
    key, history = game.key, list(game.history)
    rows = analysis.timeline(game)
    assert game.key == key and game.history == history
    assert len(rows) == 13 * 4
    assert [{k: r[k] for k in KEYS} for r in rows[-4:]] == analysis.metrics(game)
    middle = replay(record, 5)
    assert [{k: r[k] for k in KEYS} for r in rows[20:24]] == analysis.metrics(middle)


def test_timeline_empty_game():
    rows = analysis.timeline(blokus.Game("classic_2", start="fixed"))
    assert len(rows) == 4 and all(r["ply"] == 0 for r in rows)


# ------------------------------------------------------------------ move_values
def test_move_values():
    record = records("duo_random")[0]
    game = replay(record, 6)
    key, history, board = game.key, list(game.history), game.board.copy()
    rows = analysis.move_values(game, "mcts:sims=400", top=8, seed=3)
    assert game.key == key and game.history == history and np.array_equal(game.board, board)
    assert 1 <= len(rows) <= 8
    legal = set(game.legal_moves().tolist())
    visits = [r["visits"] for r in rows]
    assert visits == sorted(visits, reverse=True)
    assert [r["rank"] for r in rows] == list(range(len(rows)))
    for r in rows:
        assert r["id"] in legal
        assert r["move"] == game.move_text(r["id"])
        assert r["colour"] == game.to_move
        assert r["piece"] in blokus.PIECE_NAMES
        assert r["size"] == len(r["move"].split(","))
        assert 0.0 <= r["value"] <= 1.0
        assert 0.0 <= r["share"] <= 1.0
    assert sum(r["share"] for r in rows) <= 1.0 + 1e-9
    ratio = {round(r["share"] / r["visits"], 12) for r in rows if r["visits"]}
    assert len(ratio) <= 1                   # share is proportional to visits
    assert len({r["id"] for r in rows}) == len(rows)
    # the move the agent would play is the first one
    agent = MCTSAgent(simulations=400, seed=3)
    assert rows[0]["id"] == int(agent.search(game).ids[0])


def test_move_values_seeded_and_top_none():
    game = blokus.Game("duo", start="fixed")
    game.play("e10")
    a = analysis.move_values(game, "mcts:sims=300", top=None, seed=7)
    b = analysis.move_values(game, "mcts:sims=300", top=None, seed=7)
    assert a == b
    assert sum(r["visits"] for r in a) <= 300
    assert sum(r["share"] for r in a) == pytest.approx(1.0)
    total = sum(r["visits"] for r in a)
    assert all(r["share"] == pytest.approx(r["visits"] / total) for r in a)
    assert len(analysis.move_values(game, MCTSAgent(simulations=100, seed=1), top=3)) <= 3


@pytest.mark.parametrize("agent", ["greedy", "random", "nosuch", "greedy:sims=5", "MCTS"])
def test_move_values_not_mcts(agent):
    # the message names what is accepted
    with pytest.raises(ValueError, match="MCTS agent.*'mcts:sims=2000'"):
        analysis.move_values(blokus.Game("duo", start="fixed"), agent)


@pytest.mark.parametrize("agent,message", [("mcts:sims=0", "simulations"), ("mcts:bogus=1", "bogus"),
                                           ("mcts:sims=x", "sims")])
def test_move_values_bad_mcts_string(agent, message):
    with pytest.raises(ValueError, match=message):
        analysis.move_values(blokus.Game("duo", start="fixed"), agent)


@pytest.mark.parametrize("agent", [RandomAgent(seed=1), GreedyAgent(seed=1)])
def test_move_values_agent_objects(agent):
    with pytest.raises(ValueError, match="MCTS"):
        analysis.move_values(blokus.Game("duo"), agent)


def test_move_values_bad_top():
    with pytest.raises(ValueError, match="top"):
        analysis.move_values(blokus.Game("duo"), "mcts:sims=10", top=0)


def test_move_values_game_over():
    game = replay(records("duo_all_placed")[0])
    assert game.is_over
    with pytest.raises(ValueError, match="over"):
        analysis.move_values(game, "mcts:sims=10")
    # the metrics of a finished game still work: nobody can move
    assert all(row["mobility"] == 0 for row in analysis.metrics(game))


# ------------------------------------------------------------------ errors
def test_bad_colour():
    game = blokus.Game("duo")
    with pytest.raises(ValueError):
        analysis.distances(game, 2)
    with pytest.raises(ValueError):
        analysis.reachable(game, -1)
    with pytest.raises(TypeError):
        analysis.reachable(game, "0")


def test_evaluate_gives_each_player_its_chances():
    game = blokus.Game("classic_teams", start="fixed")
    rng = random.Random(3)
    for _ in range(24):
        game.play(rng.choice(game.legal_moves().tolist()))
    before = game.history
    rows = analysis.evaluate(game, "mcts:sims=200", seed=2)
    assert game.history == before
    assert [r["player"] for r in rows] == [0, 1, 2, 3] and {r["simulations"] for r in rows} == {200}
    # partners share one score, so one win: equal chances, and the two teams' chances sum to 1
    assert rows[0]["win_probability"] == rows[2]["win_probability"]
    assert rows[1]["win_probability"] == rows[3]["win_probability"]
    assert rows[0]["win_probability"] + rows[1]["win_probability"] == pytest.approx(1.0)
    # a final score is at most 0 squares left plus the 20-point bonus for each of two colours,
    # and at least all 89 squares of both colours left
    assert all(-178 <= r["expected_score"] <= 40 for r in rows)
    with pytest.raises(ValueError, match="MCTS agent"):
        analysis.evaluate(game, "greedy")


def test_move_values_report_win_probability_and_expected_score():
    game = blokus.Game("duo", start="fixed")
    rows = analysis.move_values(game, "mcts:sims=300", top=None, seed=4)
    assert all(0.0 <= r["win_probability"] <= 1.0 and 0.0 <= r["raw_win_probability"] <= 1.0 for r in rows)
    # each move's value is (1 - w) x its raw win share + w x a margin term in [0, 1], w = 0.375
    # (the default margin weight with two sides)
    w = 0.375
    assert all((1 - w) * r["raw_win_probability"] <= r["value"] <= (1 - w) * r["raw_win_probability"] + w
               for r in rows)
    assert all(-89 <= r["expected_score"] <= 20 for r in rows)
