"""`blokus.arena` and `blokus tournament`: match results against the games, seat rotation,
determinism, the Bradley-Terry fit against hand-worked values, bad input, the command line."""
import math
import signal
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from blokus import arena, selfplay, sgf
from blokus.arena import ArenaError, fit_ratings
from blokus.cli import main

from sanitizers import ASAN_PRELOADED, RAY_UNDER_ASAN

Z = 1.959963984540054  # the standard normal's 97.5% quantile
ELO = 400 / math.log(10)


def wilson_by_hand(wins, n):
    """Wilson's score interval, from its formula."""
    p = wins / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def seat_wins(result, agent):
    """An agent's wins in a 2-seat game, from its winners: 1, 1/2 for a tie, or 0."""
    return sum(1 / len(r.winners) for r in result.results if r.agents.index(agent) in r.winners)


@pytest.fixture(scope="module")
def greedy_random():
    return arena.match(["greedy", "random"], games=20, variant="duo", seed=1, workers=1)


# ---------------------------------------------------------------------------------------------
# match

def test_greedy_beats_random_and_the_interval_is_wilsons(greedy_random):
    greedy = greedy_random["greedy"]
    wins = seat_wins(greedy_random, "greedy")
    assert greedy["games"] == 20 and greedy["wins"] == pytest.approx(wins)
    assert greedy["win_share"] == pytest.approx(wins / 20) and greedy["win_share"] >= 0.8
    if wins == 20:  # Wilson's lower bound for a clean sweep: n / (n + z^2)
        assert greedy["win_share_low"] == pytest.approx(20 / (20 + Z * Z)) and greedy["win_share_high"] == 1
    else:
        assert (greedy["win_share_low"], greedy["win_share_high"]) == pytest.approx(wilson_by_hand(wins, 20))
    assert greedy_random["random"]["wins"] == pytest.approx(20 - wins)


def test_a_split_result_and_its_interval():
    # mcts:sims=5 and greedy share these 12 games (a tie among them): an interval inside (0, 1)
    result = arena.match("mcts:sims=5,greedy", games=12, variant="duo", seed=1, workers=1)
    for agent in result.agents:
        wins = seat_wins(result, agent)
        assert 0 < wins < 12
        row = result[agent]
        assert row["wins"] == pytest.approx(wins)
        assert (row["win_share_low"], row["win_share_high"]) == pytest.approx(wilson_by_hand(wins, 12))
    assert result["mcts:sims=5"]["wins"] + result["greedy"]["wins"] == pytest.approx(12)


def test_mean_score_and_margin_are_the_games(greedy_random):
    for agent in ("greedy", "random"):
        own = [r.player_scores[r.agents.index(agent)] for r in greedy_random.results]
        other = [r.player_scores[1 - r.agents.index(agent)] for r in greedy_random.results]
        assert greedy_random[agent]["mean_score"] == pytest.approx(np.mean(own))
        assert greedy_random[agent]["mean_margin"] == pytest.approx(np.mean(own) - np.mean(other))
    assert greedy_random["greedy"]["mean_margin"] > 0


def test_seats_rotate_each_agent_each_colour_equally(greedy_random):
    seats = Counter((s, agent) for r in greedy_random.results for s, agent in enumerate(r.agents))
    assert seats == {(0, "greedy"): 10, (1, "greedy"): 10, (0, "random"): 10, (1, "random"): 10}
    # seat 0 is purple in Duo: the records say who played it
    first = sgf.records(greedy_random.results[0].record)[0][1]
    assert first["PB"] == ["greedy"] and greedy_random.results[1].agents == ("random", "greedy")


def test_more_seats_than_agents_as_selfplay_defines_it():
    result = arena.match(["greedy", "random", "mcts:sims=3"], games=6, variant="classic", seed=3, workers=1)
    assert [r.agents for r in result.results[:2]] == [("greedy", "random", "mcts:sims=3", "greedy"),
                                                      ("random", "mcts:sims=3", "greedy", "random")]
    per_seat = Counter((s, a) for r in result.results for s, a in enumerate(r.agents))
    assert set(per_seat.values()) == {2}  # every agent twice in every seat over 6 games
    assert sum(row["wins"] for row in result.rows()) == pytest.approx(6)  # one win per game
    assert "several seats" in str(result)


@pytest.mark.slow
def test_the_same_games_on_one_or_two_workers_and_as_selfplay(tmp_path):
    kwargs = dict(games=6, variant="duo", seed=9)
    one = arena.match(["mcts:sims=10", "greedy"], workers=1, **kwargs)
    two = arena.match(["mcts:sims=10", "greedy"], workers=2, **kwargs)
    assert [r.record for r in one.results] == [r.record for r in two.results]
    assert one.rows() == two.rows()
    selfplay.run(tmp_path, agents="mcts:sims=10,greedy", workers=1, **kwargs)
    assert (tmp_path / "games.blksgf").read_text().splitlines() == [r.record for r in one.results]
    other = arena.match(["mcts:sims=10", "greedy"], workers=1, **{**kwargs, "seed": 10})
    assert [r.record for r in other.results] != [r.record for r in one.results]


def test_the_table_forms(greedy_random, monkeypatch):
    rows = greedy_random.rows()
    assert [row["agent"] for row in rows] == ["greedy", "random"]
    columns = greedy_random.to_dict()
    assert list(columns) == list(arena.MatchResult.COLUMNS)
    assert columns["games"] == [20, 20] and columns["wins"] == [row["wins"] for row in rows]
    text = str(greedy_random)
    assert repr(greedy_random) == text
    assert "Wilson" in text and "split win" in text and "mean margin" in text
    line = next(line for line in text.splitlines() if line.startswith("greedy"))
    assert line.split()[1] == "20"
    pandas = pytest.importorskip("pandas")
    frame = greedy_random.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and list(frame["agent"]) == ["greedy", "random"]
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ModuleNotFoundError, match=r'to_pandas needs pandas: pip install "blokus\[pandas\]"'):
        greedy_random.to_pandas()
    with pytest.raises(KeyError, match="mcts"):
        greedy_random["mcts"]


@pytest.mark.parametrize("call, message", [
    (lambda: arena.match(["greedy", "alphazero"], games=2), "unknown agent 'alphazero'"),
    (lambda: arena.match(["greedy", "random"], games=0), "at least 1"),
    (lambda: arena.match(["greedy", "random"], games=-3), "at least 1"),
    (lambda: arena.match(["greedy"], games=2), "at least two agents"),
    (lambda: arena.match("greedy", games=2), "at least two agents"),
    (lambda: arena.match(["greedy", "greedy"], games=2), "given twice"),
    (lambda: arena.match(["greedy", "random", "mcts"], games=2, variant="duo"), "3 agents for duo"),
    (lambda: arena.match(["greedy", "random"], games=2, variant="trigon"), "unknown variant"),
    (lambda: arena.match(["greedy", "random"], games=2, seed=-1), "seed"),
    (lambda: arena.match(["greedy", "random"], games=2, workers=0), "workers"),
    (lambda: arena.match(None, games=2), "agent strings"),
    (lambda: arena.tournament(["greedy"], games=2), "at least two agents"),
    (lambda: arena.tournament(["greedy", "random"], games=0), "at least 1"),
    (lambda: arena.tournament(["greedy", "random"], games=2, anchor="mcts"), "'mcts' is not one of the agents"),
    (lambda: arena.tournament(["greedy", "random"], games=2, prior=-1), "prior"),
    (lambda: arena.tournament(["greedy", "random"], games=2, prior=math.nan), "prior"),
])
def test_bad_settings_raise_a_value_error_before_any_game(call, message):
    with pytest.raises(ArenaError, match=message) as info:
        call()
    assert isinstance(info.value, ValueError)


_UNGUARDED = """\
from blokus import arena
arena.match(["greedy", "random"], games=4, workers=2)
"""


def test_a_script_without_the_main_guard_is_told_so(tmp_path):
    script = tmp_path / "unguarded.py"
    script.write_text(_UNGUARDED)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert "blokus.arena.match is called at the top level" in result.stderr and "(line 2)" in result.stderr


# ---------------------------------------------------------------------------------------------
# Ratings: the Bradley-Terry fit against values worked by hand

def test_two_agents_three_wins_of_four():
    # the MLE of p(A beats B) is 3/4: odds 3, so A - B = 400 log10(3) Elo
    r = fit_ratings(["A", "B"], [[0, 3], [1, 0]], [[0, 4], [4, 0]], anchor="B", prior=0)
    assert r.rating[0] == pytest.approx(400 * math.log10(3), abs=1e-9)
    assert r.rating[1] == 0
    # Fisher information of the log-odds: n p (1 - p) = 4 * 3/4 * 1/4
    se = ELO / math.sqrt(4 * 0.75 * 0.25)
    assert r.stderr[0] == pytest.approx(se) and r.stderr[1] == 0
    assert (r.low[0], r.high[0]) == pytest.approx((r.rating[0] - Z * se, r.rating[0] + Z * se))
    assert (r.low[1], r.high[1]) == (0, 0)
    # anchored at A instead, B is the same distance below
    r = fit_ratings(["A", "B"], [[0, 3], [1, 0]], [[0, 4], [4, 0]], anchor="A", prior=0)
    assert r.rating[1] == pytest.approx(-400 * math.log10(3), abs=1e-9) and r.rating[0] == 0


def test_draws_count_half_and_the_prior_is_virtual_draws():
    # 2 wins and 2 draws of 4 are 3 points: the same as 3 wins of 4
    r = fit_ratings(["A", "B"], [[0, 2 + 2 / 2], [2 / 2, 0]], [[0, 4], [4, 0]], anchor="B", prior=0)
    assert r.rating[0] == pytest.approx(400 * math.log10(3), abs=1e-9)
    # one virtual draw: 3.5 points of 5, odds 3.5 / 1.5
    r = fit_ratings(["A", "B"], [[0, 3], [1, 0]], [[0, 4], [4, 0]], anchor="B", prior=1)
    assert r.rating[0] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-9)
    # a clean sweep: finite only with the prior, 4.5 of 5
    r = fit_ratings(["A", "B"], [[0, 4], [0, 0]], [[0, 4], [4, 0]], anchor="B")
    assert r.rating[0] == pytest.approx(400 * math.log10(9), abs=1e-9)


def test_three_agents_whose_results_fit_the_model_exactly():
    # A beats B 3 of 4 (odds 3), B beats C 3 of 4 (odds 3), A beats C 9 of 10 (odds 9 = 3 * 3):
    # the gradient vanishes at A = 2 * 400 log10(3), B = 400 log10(3), C = 0
    wins = [[0, 3, 9], [1, 0, 3], [1, 1, 0]]
    games = [[0, 4, 10], [4, 0, 4], [10, 4, 0]]
    r = fit_ratings(["A", "B", "C"], wins, games, anchor="C", prior=0)
    step = 400 * math.log10(3)
    assert r.rating == pytest.approx([2 * step, step, 0], abs=1e-9)
    r = fit_ratings(["A", "B", "C"], wins, games, anchor="B", prior=0)
    assert r.rating == pytest.approx([step, 0, -step], abs=1e-9)
    assert r.stderr[1] == 0 and r.stderr[0] > 0 and r.stderr[2] > 0


def test_the_default_anchor_is_random_else_the_first():
    games = [[0, 4], [4, 0]]
    assert fit_ratings(["greedy", "random"], [[0, 3], [1, 0]], games).anchor == "random"
    r = fit_ratings(["A", "B"], [[0, 3], [1, 0]], games)
    assert r.anchor == "A" and r.rating[0] == 0 and r.rating[1] < 0


@pytest.mark.parametrize("agents, wins, games, prior, message", [
    (["A", "B"], [[0, 4], [0, 0]], [[0, 4], [4, 0]], 0, "A won every game against B"),
    (["A", "B", "C"], [[0, 1, 0], [1, 0, 0], [0, 0, 0]], [[0, 2, 0], [2, 0, 0], [0, 0, 0]], 1, "never played"),
    (["A"], [[0]], [[0]], 1, "two or more distinct names"),
    (["A", "A"], [[0, 1], [1, 0]], [[0, 2], [2, 0]], 1, "two or more distinct names"),
    (["A", "B"], [[0, 3], [0, 0]], [[0, 4], [4, 0]], 1, "must equal games"),
    (["A", "B"], [[0, 3], [1, 0]], [[0, 4], [3, 0]], 1, "symmetric"),
    (["A", "B"], [[0, -1], [5, 0]], [[0, 4], [4, 0]], 1, ">= 0"),
    (["A", "B"], [[0, 3, 0], [1, 0, 0]], [[0, 4], [4, 0]], 1, "shape"),
    (["A", "B"], [[0, "x"], [1, 0]], [[0, 4], [4, 0]], 1, "numbers"),
])
def test_bad_tables_are_refused(agents, wins, games, prior, message):
    with pytest.raises(ArenaError, match=message):
        fit_ratings(agents, wins, games, prior=prior)


# ---------------------------------------------------------------------------------------------
# tournament

@pytest.fixture(scope="module")
def three_way():
    return arena.tournament(["greedy", "random", "mcts:sims=5"], games=4, variant="duo", seed=2, workers=1)


def test_every_pair_plays_its_match(three_way):
    assert list(three_way.matches) == [("greedy", "random"), ("greedy", "mcts:sims=5"), ("random", "mcts:sims=5")]
    for p, ((a, b), m) in enumerate(three_way.matches.items()):
        assert m.games == 4 and set(m.agents) == {a, b}
        again = arena.match([a, b], games=4, variant="duo", seed=selfplay.game_seed(2, p), workers=1)
        assert [r.record for r in m.results] == [r.record for r in again.results]
    rows = {row["agent"]: row for row in three_way.rows()}
    assert all(row["games"] == 8 for row in rows.values())
    assert sum(row["wins"] for row in rows.values()) == pytest.approx(12)
    assert rows["random"]["rating"] == 0  # the default anchor
    assert [row["rating"] for row in three_way.rows()] == sorted((row["rating"] for row in rows.values()),
                                                                 reverse=True)


def test_the_ratings_are_the_fit_of_the_pairs(three_way):
    k = len(three_way.agents)
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for pair in three_way.pairs():
        i, j = three_way.agents.index(pair["agent"]), three_way.agents.index(pair["opponent"])
        wins[i, j], wins[j, i] = pair["wins"], pair["games"] - pair["wins"]
        games[i, j] = games[j, i] = pair["games"]
    fit = fit_ratings(three_way.agents, wins, games, anchor="random", prior=1)
    assert three_way.ratings.rating == pytest.approx(fit.rating)
    assert three_way.to_dict()["rating"] == pytest.approx(sorted(fit.rating, reverse=True))


def test_two_agents_rating_by_hand():
    # one pair: greedy's rating over random is 400 log10 of its odds, with the virtual draw
    t = arena.tournament("random,greedy", games=6, seed=1, workers=1)
    w = t.matches[("random", "greedy")]["greedy"]["wins"]
    rows = {row["agent"]: row for row in t.rows()}
    assert rows["greedy"]["rating"] == pytest.approx(400 * math.log10((w + 0.5) / (6 - w + 0.5)))
    assert rows["random"]["rating"] == 0 and rows["random"]["rating_low"] == rows["random"]["rating_high"] == 0
    t = arena.tournament("random,greedy", games=6, seed=1, workers=1, anchor="greedy")
    assert {row["agent"]: row["rating"] for row in t.rows()}["random"] == pytest.approx(-rows["greedy"]["rating"])


@pytest.mark.slow
def test_a_tournament_is_the_same_on_two_workers(three_way):
    two = arena.tournament(["greedy", "random", "mcts:sims=5"], games=4, variant="duo", seed=2, workers=2)
    assert two.rows() == three_way.rows()


def test_four_seats_a_pair_holds_alternate_seats():
    t = arena.tournament("random,greedy", games=2, variant="classic", seed=0, workers=1)
    [m] = t.matches.values()
    assert [r.agents for r in m.results] == [("random", "greedy") * 2, ("greedy", "random") * 2]
    assert "classic tournament" in str(t)


def test_the_ratings_table(three_way):
    text = str(three_way)
    header = next(line for line in text.splitlines() if line.startswith("agent"))
    assert header.split() == ["agent", "rating", "95%", "interval", "games", "wins", "win", "share"]
    assert "random = 0" in text and "Bradley-Terry" in text and "anchor" in text
    assert list(three_way.to_dict()) == list(arena.TournamentResult.COLUMNS)


# ---------------------------------------------------------------------------------------------
# blokus tournament

def test_the_command_prints_the_ratings(capsys):
    assert main(["tournament", "--agents", "random,greedy", "--games", "4", "--seed", "1", "--workers", "1",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("duo tournament: 2 agents, 4 games a pair")
    line = next(line for line in text.splitlines() if line.startswith("random"))
    assert line.split()[1:3] == ["0.0", "anchor"]


def test_the_command_shows_progress_on_request(capsys):
    assert main(["tournament", "--agents", "random,greedy", "--games", "2", "--workers", "1", "--progress"]) == 0
    assert "duo tournament: 100%" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--agents", "random,alphazero"], "unknown agent 'alphazero'"),
    (["--agents", "random"], "at least two agents"),
    (["--agents", "random,greedy", "--games", "0"], "must be at least 1"),
    (["--agents", "random,greedy", "--anchor", "mcts"], "not one of the agents"),
    (["--agents", "random,greedy", "--prior", "-1"], "must be a number >= 0"),
    (["--agents", "random,greedy", "--variant", "trigon"], "invalid choice"),
    (["--games", "4"], "--agents"),
])
def test_the_command_refuses_bad_options(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["tournament", *argv, "--workers", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "blokus tournament: error:" in err and message in err


@pytest.mark.slow
def test_the_command_is_on_the_command_line():
    result = subprocess.run([sys.executable, "-m", "blokus", "tournament", "--help"], capture_output=True,
                            text=True)
    assert result.returncode == 0
    for option in ["--agents", "--games", "--variant", "--seed", "--workers", "--anchor", "--prior", "--progress"]:
        assert option in result.stdout


@pytest.mark.slow
def test_ctrl_c_stops_the_command_with_130():
    argv = ["--agents", "mcts:sims=3000,greedy", "--games", "400", "--workers", "2", "--progress"]
    proc = subprocess.Popen([sys.executable, "-m", "blokus", "tournament", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seen = ""
    while "tournament:" not in seen:  # the progress bar: the workers are playing
        char = proc.stderr.read(1)
        assert char, proc.communicate()
        seen += char
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "interrupted: no ratings" in stderr and "Traceback" not in stderr and stdout == ""


@pytest.mark.slow  # starts Ray
@pytest.mark.skipif(ASAN_PRELOADED, reason=RAY_UNDER_ASAN)
def test_ray_plays_the_same_tournament(three_way):
    pytest.importorskip("ray", reason='needs Ray: pip install -e ".[test]" runs it')
    on_ray = arena.tournament(["greedy", "random", "mcts:sims=5"], games=4, variant="duo", seed=2, workers=2,
                              ray="local")
    assert on_ray.rows() == three_way.rows()
    assert [[r.record for r in m.results] for m in on_ray.matches.values()] == \
        [[r.record for r in m.results] for m in three_way.matches.values()]
