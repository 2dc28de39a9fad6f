"""blokus.analysis.review, `blokus review`, and the calibration measures and maps behind
evaluate's win probabilities."""
import csv
import itertools
import math
import sys

import numpy as np
import pytest

import blokus
import blokus.sgf
from blokus import analysis
from blokus.analysis import _calibration as cal
from blokus.analysis._review import COLUMNS, THRESHOLDS, label
from blokus.cli import main

# A Duo game of Pentobi level 5 (tests/data/duo_level5.jsonl, game 7) to 24 moves: purple to move
# wins by 16 points with best play, whose only move is the O piece c1,d1,c2,d2 (the solver, 200k
# positions); the monomino b9 instead loses by 4.
WON_ENDGAME = ["f9,e10,f10,g10,f11", "j5,k5,i6,j6,i7", "i8,j8,k8,h9,i9", "l6,l7,m7,l8,l9",
               "j10,k10,l10,m10,k11", "g7,f8,g8,h8,g9", "e7,c8,d8,e8,d9", "d5,f5,d6,e6,f6",
               "c5,b6,c6,a7,b7", "n8,n9,n10,n11,n12", "e3,d4,e4,f4", "h10,h11,g12,h12,g13",
               "e12,e13,e14,f14,g14", "j2,j3,k3,l3,l4", "i2,g3,h3,i3,i4", "k1,l1,m1,n1",
               "a1,a2,a3,a4,a5", "j12,i13,j13,i14,j14", "l12,m12,l13,m13,l14", "f1,g1,h1,i1,f2",
               "c10,c11,d11", "c3,d3,b4,c4", "g5,h5,h6,h7", "n4,m5,n5,n6"]
BEST, BLUNDER = "c1,d1,c2,d2", "b9"
AGENT = "mcts:sims=200"


def duo(moves):
    game = blokus.Game("duo", start="fixed")
    for move in moves:
        game.play(move)
    return game


def played_out(game):
    """The game finished by the solver's best moves."""
    while not game.is_over:
        game.play(analysis.solve(game).best_moves[0])
    return game


@pytest.fixture(scope="module")
def blundered():
    game = played_out(duo(WON_ENDGAME + [BLUNDER]))
    return game, analysis.review(game, AGENT, seed=1, workers=2, progress=False)


def test_the_endgame_is_won_and_the_blunder_loses_it():
    # the premise of the tests below, by the solver alone
    position = duo(WON_ENDGAME)
    won = analysis.solve(position, max_nodes=200_000)
    assert won.margin == 16 and won.players == (0,) and position.move_text(won.best_moves[0]) == BEST
    assert len(won.best_moves) == 1
    lost = analysis.solve(duo(WON_ENDGAME + [BLUNDER]), max_nodes=200_000)
    assert lost.players == (1,) and lost.margin == 4


def test_review_labels_the_move_that_loses_a_won_endgame_a_blunder(blundered):
    game, review = blundered
    assert len(review) == len(game.history)
    row = review[len(WON_ENDGAME)]
    assert (row["ply"], row["colour_name"], row["player"], row["move"]) == (25, "purple", 0, BLUNDER)
    assert row["best_move"] == BEST and game.move_text(row["best_id"]) == BEST
    assert row["exact_before"] and row["exact_after"]
    assert row["win_probability_before"] == 1.0 and row["win_probability_after"] == 0.0
    assert row["loss"] == 1.0 and row["label"] == "blunder"
    # orange then plays the solver's moves: each keeps its win, proven best
    for later in review[len(WON_ENDGAME) + 1:]:
        if later["player"] == 1:
            assert later["label"] == "best" and later["win_probability_after"] == 1.0


def test_review_labels_the_winning_move_best():
    game = played_out(duo(WON_ENDGAME + [BEST]))
    row = analysis.review(game, AGENT, seed=2, progress=False)[len(WON_ENDGAME)]
    assert row["move"] == BEST and row["label"] == "best" and row["loss"] == 0.0
    assert row["win_probability_after"] == 1.0


def test_review_after_the_last_move_is_the_result(blundered):
    game, review = blundered
    scores = game.player_scores()
    assert scores[1] > scores[0]  # orange won
    last = review[-1]
    mine = last["player"]
    assert last["win_probability_after"] == float(mine == 1) and last["exact_after"]
    assert last["expected_score_after"] == scores[mine]
    assert review.curve.shape == (len(game.history) + 1, 2)
    assert review.curve[-1].tolist() == [0.0, 1.0]
    assert np.allclose(review.curve.sum(axis=1), 1.0)


def test_review_rows_are_the_curve_from_the_movers_side(blundered):
    _, review = blundered
    for row in review:
        assert row["win_probability_before"] == review.curve[row["ply"] - 1, row["player"]]
        assert row["win_probability_after"] == review.curve[row["ply"], row["player"]]
        assert row["loss"] == pytest.approx(row["win_probability_before"] - row["win_probability_after"])
        assert row["label"] in analysis._review.LABELS
        assert list(row) == list(COLUMNS)


def test_review_does_not_depend_on_the_workers():
    game = duo(WON_ENDGAME[:8])
    one = analysis.review(game, AGENT + ":threads=1", seed=5, workers=1, progress=False)
    two = analysis.review(game, AGENT + ":threads=1", seed=5, workers=2, progress=False)
    assert one.rows == two.rows
    assert len(one) == 8 and game.history == duo(WON_ENDGAME[:8]).history  # not changed


def test_review_of_an_empty_game():
    review = analysis.review(blokus.Game("duo"), AGENT, seed=1)
    assert len(review) == 0 and review.curve.shape == (1, 2)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic_3", "classic_teams"])
def test_review_of_a_game_of_more_colours(variant):
    from blokus.agents import make_agent

    game, random_agent = blokus.Game(variant, start="fixed"), make_agent("random", seed=1)
    movers = []
    while not game.is_over:
        movers.append(game.player_to_move)  # classic_3: the shared green's player rotates
        game.play(random_agent(game))
    review = analysis.review(game, "mcts:sims=50", seed=1, progress=False)
    assert [r["player"] for r in review] == movers
    facts = blokus.variants.variant(variant)
    firsts = [p for p, s in enumerate(facts.player_sides) if s == p]
    assert np.allclose(review.curve[:, firsts].sum(axis=1), 1.0)  # the sides' chances
    winners = set(game.winners())
    shared = len({facts.player_sides[p] for p in winners})  # a tie splits the win
    assert review.curve[-1].tolist() == [(p in winners) / shared for p in range(facts.num_players)]


def test_labels_by_the_documented_thresholds():
    assert label(0.9, True) == "best"
    assert label(-0.02, False) == "good"
    assert label(0.049, False) == "good"
    assert label(0.05, False) == "inaccuracy"
    assert label(0.099, False) == "inaccuracy"
    assert label(0.10, False) == "mistake"
    assert label(0.199, False) == "mistake"
    assert label(0.20, False) == "blunder" and label(1.0, False) == "blunder"
    assert THRESHOLDS == {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}


def test_review_tables(blundered):
    pandas = pytest.importorskip("pandas")
    game, review = blundered
    frame = review.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and list(frame.columns) == list(COLUMNS)
    assert len(frame) == len(game.history) and frame["label"].iloc[len(WON_ENDGAME)] == "blunder"
    records = review.to_records()
    records[0]["label"] = "changed"
    assert review[0]["label"] != "changed"
    summary = review.summary()
    assert summary[0]["blunder"] >= 1 and sum(s["moves"] for s in summary.values()) == len(game.history)
    assert "blunder" in str(review) and f"{len(game.history)} moves" in repr(review)


def test_review_sgf_reads_back_with_a_comment_per_move(blundered):
    game, review = blundered
    text = review.sgf()
    assert blokus.sgf.loads(text).history == game.history
    assert text.count("C[") == len(game.history) + 1  # and the root's
    assert "C[purple: win probability 100% -> 0% (blunder); best c1,d1,c2,d2]" in text


def test_review_plot_marks_the_blunder(blundered):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    _, review = blundered
    ax = review.plot(player=1)
    marked = [c for c in ax.collections if c.get_label() == "blunder"]
    assert len(marked) == 1
    xs = marked[0].get_offsets()[:, 0].tolist()
    assert len(WON_ENDGAME) + 1 in xs
    line = ax.lines[0]
    assert line.get_ydata().tolist() == review.curve[:, 1].tolist()
    with pytest.raises(ValueError, match="player"):
        review.plot(player=2)


@pytest.mark.parametrize("kwargs,error,message", [
    ({"agent": "greedy"}, ValueError, "MCTS agent"),
    ({"agent": "mcts:sims=0"}, ValueError, "simulations"),
    ({"workers": 0}, ValueError, "workers"),
    ({"workers": 1.0}, TypeError, "workers"),
    ({"solve": -1}, ValueError, "solve"),
    ({"seed": "1"}, TypeError, "seed"),
    ({"solve": 1.5}, TypeError, "solve"),
])
def test_review_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        analysis.review(duo(WON_ENDGAME[:2]), **{"agent": AGENT, **kwargs})


def test_review_needs_a_game():
    with pytest.raises(TypeError, match="blokus.Game"):
        analysis.review("f9,e10", AGENT)


# ------------------------------------------------------------------ evaluate's exact values
def test_evaluate_is_exact_where_the_solver_settles_it():
    position = duo(WON_ENDGAME)
    rows = analysis.evaluate(position, AGENT, seed=1)
    assert [r["exact"] for r in rows] == [True, True] and [r["margin"] for r in rows] == [16, -16]
    assert [r["win_probability"] for r in rows] == [1.0, 0.0]
    unsolved = analysis.evaluate(position, AGENT, seed=1, solve=0)
    assert not unsolved[0]["exact"] and unsolved[0]["margin"] is None
    raw = analysis.evaluate(position, AGENT, seed=1, solve=0, calibrated=False)
    assert [r["win_probability"] for r in raw] == [r["raw_win_probability"] for r in raw]
    with pytest.raises(ValueError, match="solve"):
        analysis.evaluate(position, AGENT, solve=-5)


def test_move_values_calibrated_keep_the_order_of_the_raw_figures():
    game = duo(WON_ENDGAME[:6])
    rows = analysis.move_values(game, AGENT, top=None, seed=3)
    raw = analysis.move_values(game, AGENT, top=None, seed=3, calibrated=False)
    assert [r["raw_win_probability"] for r in rows] == [r["win_probability"] for r in raw]
    pairs = sorted((r["raw_win_probability"], r["win_probability"]) for r in rows)
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(pairs))  # one map for every move here
    assert all(0.0 <= r["win_probability"] <= 1.0 for r in rows)


# ------------------------------------------------------------------ calibration measures and maps
def test_ece_and_brier_by_hand():
    # bin 0.1-0.2: predictions 0.1, 0.1 against 0, 1 (mean 0.5): |0.1 - 0.5| = 0.4 for half the data;
    # bin 0.9-1.0: 0.9, 0.9 against 1, 1: |0.9 - 1| = 0.1 for the other half
    p, y = [0.1, 0.1, 0.9, 0.9], [0, 1, 1, 1]
    assert cal.ece(p, y) == pytest.approx(0.25)
    assert cal.brier(p, y) == pytest.approx((0.01 + 0.81 + 0.01 + 0.01) / 4)
    table = cal.reliability(p, y)
    assert [r["count"] for r in table] == [0, 2, 0, 0, 0, 0, 0, 0, 0, 2]
    assert math.isnan(table[0]["mean_predicted"]) and table[9]["mean_observed"] == 1.0
    assert cal.reliability([1.0], [1])[9]["count"] == 1  # 1.0 in the last bin
    assert math.isnan(cal.ece([], []))


def test_platt_map_by_hand():
    entry = {"method": "platt", "a": 0.5, "b": 0.0, "eps": 1e-3}
    # logit(0.8) = ln 4; half of it is ln 2, whose sigmoid is 2/3
    assert cal.apply_map(entry, 0.8) == pytest.approx(2 / 3)
    assert cal.apply_map(entry, 0.5) == pytest.approx(0.5)
    assert 0.0 < cal.apply_map(entry, 0.0) < 0.5  # clipped, never infinite
    iso = {"method": "isotonic", "x": [0.2, 0.8], "y": [0.3, 0.7]}
    assert cal.apply_map(iso, [0.0, 0.5, 1.0]).tolist() == pytest.approx([0.3, 0.5, 0.7])


def test_power_map_by_hand():
    identity = {"method": "power", "a": 1.0, "b": 0.0, "c": 0.0, "d": 0.0, "eps": 1e-3}
    assert cal.apply_power(identity, [0.5, 0.3, 0.2], 0, 0.4).tolist() == pytest.approx([0.5, 0.3, 0.2])
    # exponent a + b * placed = 2 at placed 0.5: 0.6^2 / (0.6^2 + 0.4^2) = 0.36 / 0.52
    sharper = {**identity, "a": 1.0, "b": 2.0}
    assert cal.apply_power(sharper, [0.6, 0.4], 1, 0.5).tolist() == pytest.approx([0.36 / 0.52, 0.16 / 0.52])
    assert cal.apply_power(sharper, [0.6, 0.4], 1, 0.0).tolist() == pytest.approx([0.6, 0.4])
    # the side to move's factor exp(c + d * placed) = exp(ln 2) = 2 at placed 1: 2/3 against 1/3
    biased = {**identity, "c": 0.0, "d": math.log(2)}
    assert cal.apply_power(biased, [0.5, 0.5], 1, 1.0).tolist() == pytest.approx([1 / 3, 2 / 3])
    assert cal.apply_power(identity, [0.0, 1.0], 0, 0.0)[0] > 0.0  # clipped, never a zero share


POWER = {"method": "power", "a": 0.5, "b": 1.5, "c": 0.1, "d": -0.2, "eps": 1e-3}


def test_power_map_for_the_players_and_the_moves(monkeypatch):
    monkeypatch.setitem(cal.TABLE, "duo", {"fit": "power_phase_move", "sides": POWER})
    # placed 21/42 = 1/2: exponent 1.25, orange (to move) times exp(0.1 - 0.1) = 1
    expected = 0.8 ** 1.25 / (0.8 ** 1.25 + 0.2 ** 1.25)
    assert cal.calibrate_players("duo", 21, [0.8, 0.2], mover=1).tolist() == pytest.approx([expected, 1 - expected])
    # a move's figure is its mover's after the move, the other side to move next
    assert cal.calibrate_move("duo", 21, 0.8) == pytest.approx(expected)
    # non-decreasing in the side's own figure, and the sides' chances sum to 1
    lows = [cal.calibrate_players("duo", 30, [p, 1 - p], mover=0)[0] for p in np.linspace(0, 1, 21)]
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(lows))
    monkeypatch.setitem(cal.TABLE, "classic_2", {"fit": "power_phase_move", "sides": POWER})
    teams = cal.calibrate_players("classic_teams", 40, [0.7, 0.3, 0.7, 0.3], mover=2)
    assert teams[0] == teams[2] and teams[1] == teams[3] and teams[0] + teams[1] == pytest.approx(1.0)


def test_phases():
    assert cal.phase(0, 2) == "opening" and cal.phase(11, 2) == "opening"
    assert cal.phase(12, 2) == "middle" and cal.phase(23, 2) == "middle" and cal.phase(24, 2) == "end"
    assert cal.phase(23, 4) == "opening" and cal.phase(24, 4) == "middle" and cal.phase(48, 4) == "end"


@pytest.mark.parametrize("variant,raw", [("duo", [0.9, 0.1]), ("classic", [0.4, 0.3, 0.2, 0.1]),
                                         ("classic_teams", [0.7, 0.3, 0.7, 0.3]),
                                         ("classic_3", [0.5, 0.3, 0.2])])
def test_calibrated_chances_of_the_sides_sum_to_one(variant, raw):
    facts = blokus.variants.variant(variant)
    for pieces in (0, 30, 60):
        chances = cal.calibrate_players(variant, pieces, raw, mover=0)
        firsts = [p for p, s in enumerate(facts.player_sides) if s == p]
        assert chances[firsts].sum() == pytest.approx(1.0)
        assert all(chances[p] == chances[s] for p, s in enumerate(facts.player_sides))  # partners agree
        assert all(0.0 <= c <= 1.0 for c in chances)


def test_calibration_keeps_the_order_of_the_chances():
    # a map is non-decreasing: a side the search favours more stays favoured
    lows = [cal.calibrate_players("duo", 20, [p, 1 - p], mover=0)[0] for p in np.linspace(0, 1, 21)]
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(lows))


# ------------------------------------------------------------------ blokus review
@pytest.mark.slow
def test_cli_review_writes_the_table_the_plot_and_the_annotated_record(tmp_path, capsys):
    game = played_out(duo(WON_ENDGAME + [BLUNDER]))
    record = tmp_path / "game.blksgf"
    blokus.sgf.write(record, [duo(WON_ENDGAME[:2]), game])
    assert main(["review", str(record), "--game", "2", "--agent", AGENT, "--seed", "1", "--annotate",
                 "--no-progress"]) == 0
    with (tmp_path / "game.review.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(game.history) and list(rows[0]) == list(COLUMNS)
    assert rows[len(WON_ENDGAME)]["label"] == "blunder" and rows[len(WON_ENDGAME)]["move"] == BLUNDER
    assert blokus.sgf.read(tmp_path / "game.review.blksgf")[0].history == game.history
    assert "blunder" in capsys.readouterr().out
    pytest.importorskip("matplotlib")
    assert (tmp_path / "game.review.png").read_bytes().startswith(b"\x89PNG")
    pq = pytest.importorskip("pyarrow.parquet")
    assert pq.read_table(tmp_path / "game.review.parquet").column("label").to_pylist() == [r["label"] for r in rows]


def test_cli_review_without_matplotlib_writes_the_tables_only(tmp_path, capsys, monkeypatch):
    record = tmp_path / "game.blksgf"
    blokus.sgf.write(record, [duo(WON_ENDGAME)])
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the plot extra were not installed
    assert main(["review", str(record), "--agent", AGENT, "--seed", "1", "--no-progress"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.blksgf", "game.review.csv", "game.review.parquet"]
    assert "game.review.png" not in capsys.readouterr().err


def test_cli_review_bad_record(tmp_path, capsys):
    record = tmp_path / "two.blksgf"
    blokus.sgf.write(record, [duo(WON_ENDGAME[:2])])
    assert main(["review", str(record), "--game", "3"]) == 2
    assert "holds 1 game" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.blksgf")]) == 2
    assert main(["review", str(record), "--agent", "greedy"]) == 2
    assert "MCTS agent" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.review.*"))
