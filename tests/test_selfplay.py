"""`blokus.selfplay`: determinism, records against tables, seat rotation, Ctrl-C and resume, Ray."""
import json
import math
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter

import numpy as np
import pyarrow.parquet as pq
import pytest

import blokus
from blokus import selfplay, sgf
from blokus.selfplay import SelfPlayError
from blokus.selfplay.report import summarize
from blokus.selfplay.settings import Config

from plotting import matplotlib_or_skip
from sanitizers import ASAN_PRELOADED, RAY_UNDER_ASAN

SIZES = {name: size for name, size in zip(blokus.PIECE_NAMES, [1, 2, 3, 3] + [4] * 5 + [5] * 12)}


def tables(out):
    return pq.read_table(out / "moves.parquet"), pq.read_table(out / "games.parquet")


@pytest.fixture(scope="module")
def duo_run(tmp_path_factory):
    """20 Duo games, greedy against random, in this process."""
    out = tmp_path_factory.mktemp("duo") / "run"
    summary = selfplay.run(out, variant="duo", games=20, agents="greedy,random", seed=2, workers=1)
    return out, summary


# ---------------------------------------------------------------------------------------------
# Determinism

@pytest.mark.slow
def test_same_seed_same_records_on_one_or_two_workers(tmp_path):
    kwargs = dict(variant="duo", games=8, agents=["mcts:sims=20", "greedy"], seed=9)
    selfplay.run(tmp_path / "a", workers=1, **kwargs)
    selfplay.run(tmp_path / "b", workers=1, **kwargs)
    selfplay.run(tmp_path / "c", workers=2, **kwargs)
    a = (tmp_path / "a" / "games.blksgf").read_bytes()
    assert a.count(b"\n") == 8
    assert (tmp_path / "b" / "games.blksgf").read_bytes() == a
    assert (tmp_path / "c" / "games.blksgf").read_bytes() == a
    for ta, tc in zip(tables(tmp_path / "a"), tables(tmp_path / "c")):
        assert ta.equals(tc)
    # another seed gives other games
    selfplay.run(tmp_path / "d", workers=1, **{**kwargs, "seed": 10})
    assert (tmp_path / "d" / "games.blksgf").read_bytes() != a


@pytest.mark.slow
def test_classic_three_players_same_on_workers(tmp_path):
    kwargs = dict(variant="classic_3", games=6, agents="random,greedy,mcts:sims=5", seed=1)
    selfplay.run(tmp_path / "a", workers=1, **kwargs)
    selfplay.run(tmp_path / "b", workers=2, **kwargs)
    assert (tmp_path / "a" / "games.blksgf").read_bytes() == (tmp_path / "b" / "games.blksgf").read_bytes()


def test_a_record_is_reproduced_from_its_properties(duo_run):
    out, _ = duo_run
    for game, props in sgf.records((out / "games.blksgf").read_text())[:5]:
        again = selfplay.play_game("duo", props["BKAGENTS"], int(props["BKSEED"][0]), start="fixed")
        assert again.history == game.history
        assert props["BKSEED"] == [str(selfplay.game_seed(2, int(props["BKGAME"][0])))]


# ---------------------------------------------------------------------------------------------
# Records, tables, summary

@pytest.mark.parametrize("variant", ["duo", "classic", "classic_2", "classic_3", "classic_teams"])
def test_records_and_tables_agree(tmp_path, variant):
    games = 4
    summary = selfplay.run(tmp_path, variant=variant, games=games, agents="greedy,random", seed=4,
                           workers=1)
    assert summary["finished"] == games and summary["complete"]
    text = (tmp_path / "games.blksgf").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) == games and text.endswith("\n")
    records = sgf.records(text)
    moves, table = tables(tmp_path)
    assert table.column("game").to_pylist() == list(range(games))
    rows = table.to_pylist()
    all_moves = moves.to_pylist()
    pieces = blokus.placements(variant).piece
    for (game, props), row in zip(records, rows):
        g = row["game"]
        assert props["BKGAME"] == [str(g)]
        assert row["variant"] == game.variant == variant
        assert row["start"] == game.start == "fixed"
        assert row["seed"] == int(props["BKSEED"][0])
        assert row["agents"] == props["BKAGENTS"]
        assert game.is_over
        assert row["colour_scores"] == list(game.scores())
        assert row["player_scores"] == list(game.player_scores())
        assert row["winners"] == game.winners()
        assert row["length"] == len(game.history)
        # replay moves.parquet from the empty board: every row legal for its colour at its ply
        mine = [m for m in all_moves if m["game"] == g]
        replay = blokus.Game(variant, start="fixed")
        if variant == "duo":
            assert mine[0]["legal_moves"] == 414  # purple's first move on e10 (README)
        placed = [[] for _ in range(game.num_colours)]
        for ply, m in enumerate(mine):
            assert m["ply"] == ply
            assert m["colour"] == replay.to_move
            assert m["player"] == replay.player_to_move
            legal = replay.legal_moves()
            assert m["legal_moves"] == len(legal)
            assert m["placement"] in set(legal.tolist())
            assert m["piece"] == blokus.PIECE_NAMES[pieces[m["placement"]]]
            placed[m["colour"]].append(m["piece"])
            replay.play(m["placement"])
        assert replay.is_over and replay.history == game.history
        # the scores follow from the pieces placed (docs/rules.md, "Scoring")
        for colour, names in enumerate(placed):
            expected = -(89 - sum(SIZES[n] for n in names))
            if len(names) == 21:
                expected = 20 if names[-1] == "1" else 15
            assert row["colour_scores"][colour] == expected
    assert moves.num_rows == sum(r["length"] for r in rows)
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["per_agent"] == summary["per_agent"]


def test_moves_table_types(duo_run):
    out, _ = duo_run
    moves, games = tables(out)
    assert moves.column_names == ["game", "ply", "colour", "player", "placement", "piece", "legal_moves"]
    assert games.column_names == ["game", "variant", "start", "seed", "agents", "colour_scores",
                                  "player_scores", "winners", "length"]
    types = {field.name: str(field.type) for field in moves.schema}
    assert types == {"game": "int64", "ply": "int16", "colour": "int8", "player": "int8",
                     "placement": "int32", "piece": "dictionary<values=string, indices=int8, ordered=0>",
                     "legal_moves": "int32"}
    assert set(moves.column("piece").to_pylist()) <= set(blokus.PIECE_NAMES)
    assert str(games.schema.field("seed").type) == "uint64"
    assert str(games.schema.field("agents").type.value_type) == "string"


def test_seats_rotate_and_greedy_beats_random(duo_run):
    out, summary = duo_run
    games = pq.read_table(out / "games.parquet").to_pylist()
    seats = Counter((s, agent) for row in games for s, agent in enumerate(row["agents"]))
    assert seats == {(0, "greedy"): 10, (1, "greedy"): 10, (0, "random"): 10, (1, "random"): 10}
    assert [row["agents"] for row in games[:3]] == [["greedy", "random"], ["random", "greedy"],
                                                    ["greedy", "random"]]
    greedy_wins = sum(1 / len(r["winners"]) for r in games
                      if r["agents"].index("greedy") in r["winners"])
    assert greedy_wins > 0.8 * 20
    by_agent = {row["agent"]: row for row in summary["per_agent"]}
    assert by_agent["greedy"]["games"] == by_agent["random"]["games"] == 20
    assert by_agent["greedy"]["wins"] == pytest.approx(greedy_wins)
    assert by_agent["greedy"]["wins"] + by_agent["random"]["wins"] == pytest.approx(20)
    assert by_agent["greedy"]["win_rate_low"] < by_agent["greedy"]["win_rate"] <= by_agent["greedy"]["win_rate_high"]
    lengths = [r["length"] for r in games]
    assert by_agent["greedy"]["mean_length"] == pytest.approx(np.mean(lengths))


def test_three_agents_in_four_seats_rotate(tmp_path):
    summary = selfplay.run(tmp_path, variant="classic", games=6, agents="random,greedy,mcts:sims=4",
                           seed=3, workers=1)
    rows = pq.read_table(tmp_path / "games.parquet").to_pylist()
    assert rows[0]["agents"] == ["random", "greedy", "mcts:sims=4", "random"]
    assert rows[1]["agents"] == ["greedy", "mcts:sims=4", "random", "greedy"]
    per_seat = Counter((s, a) for r in rows for s, a in enumerate(r["agents"]))
    assert set(per_seat.values()) == {2}  # every agent twice in every seat over 6 games
    assert {r["agent"]: r["games"] for r in summary["per_agent"]} == {
        "random": 6, "greedy": 6, "mcts:sims=4": 6}
    # one win is shared out per game
    assert sum(r["wins"] for r in summary["per_agent"]) == pytest.approx(6)


def test_one_agent_plays_every_seat(tmp_path):
    summary = selfplay.run(tmp_path, variant="classic_teams", games=3, agents="random", seed=0,
                           workers=1)
    rows = pq.read_table(tmp_path / "games.parquet").to_pylist()
    assert all(r["agents"] == ["random"] * 4 for r in rows)
    [agent] = summary["per_agent"]
    assert agent["games"] == 3 and agent["wins"] == pytest.approx(3)
    # per seat: team members share their team's result
    seats = summary["per_seat"]
    assert seats[0]["win_share"] == seats[2]["win_share"]
    assert seats[0]["mean_score"] == seats[2]["mean_score"]
    assert seats[0]["win_share"] + seats[1]["win_share"] == pytest.approx(1)


def test_ties_split_the_win(tmp_path):
    # synthetic results: duo tie, then a classic_teams team win and a team tie
    def result(index, agents, colour_scores, player_scores, winners):
        z = np.zeros(0, np.int8)
        return selfplay.GameResult(index, "", 0, tuple(agents), tuple(colour_scores),
                                   tuple(player_scores), tuple(winners), z, z, z.astype(np.int32),
                                   z.astype(np.int32))
    config = Config("duo", "fixed", ["a", "b"], 0, 2)
    results = {0: result(0, "ab", (-5, -5), (-5, -5), (0, 1)), 1: result(1, "ba", (-3, -9), (-3, -9), (0,))}
    s = summarize(config, results, played=2, elapsed=1.0, interrupted=False, workers=1,
                  ray=None, out=tmp_path, files=[])
    by = {r["agent"]: r for r in s["per_agent"]}
    assert by["a"]["wins"] == 0.5 and by["b"]["wins"] == 1.5
    assert by["b"]["win_rate"] == 0.75
    config = Config("classic_teams", "fixed", ["a", "b"], 0, 2)
    results = {0: result(0, "abab", (1, 2, 3, 4), (4, 6, 4, 6), (1, 3)),
               1: result(1, "baba", (1, 2, 3, 0), (4, 2, 4, 2), (0, 2)),
               2: result(2, "abab", (1, 1, 1, 1), (2, 2, 2, 2), (0, 1, 2, 3))}
    s = summarize(config, results, played=3, elapsed=1.0, interrupted=False, workers=1,
                  ray=None, out=tmp_path, files=[])
    by = {r["agent"]: r for r in s["per_agent"]}
    assert by["a"]["wins"] == 0.5 and by["b"]["wins"] == 2.5
    assert [seat["win_share"] for seat in s["per_seat"]] == pytest.approx([0.5, 0.5, 0.5, 0.5])
    table = selfplay.format_table(s)
    assert "split win" in table and "classic_teams" in table


def test_wilson_interval():
    # textbook values of the Wilson score interval at 95%
    low, high = selfplay.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = selfplay.wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    low, high = selfplay.wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == 1
    assert all(math.isnan(x) for x in selfplay.wilson(0, 0))


def test_table_lists_agents_and_notes(duo_run):
    _, summary = duo_run
    table = selfplay.format_table(summary)
    header = table.splitlines()[0].split()
    assert header[:4] == ["agent", "games", "wins", "win"]
    assert "95%" in table and "interval" in table and "mean score" in table
    assert "mean length" in table and "split win" in table
    rows = {line.split()[0]: line.split() for line in table.splitlines()[1:3]}
    assert rows["greedy"][1] == "20" and rows["random"][1] == "20"


# ---------------------------------------------------------------------------------------------
# Settings and the output directory

def test_bad_settings_are_refused_before_anything_is_written(tmp_path):
    with pytest.raises(SelfPlayError, match="unknown agent"):
        selfplay.run(tmp_path / "x", agents="alphazero")
    with pytest.raises(SelfPlayError, match="at least 1"):
        selfplay.run(tmp_path / "x", games=0)
    with pytest.raises(SelfPlayError, match="unknown variant"):
        selfplay.run(tmp_path / "x", variant="trigon")
    with pytest.raises(SelfPlayError, match="3 agents for duo, which has 2 seats"):
        selfplay.run(tmp_path / "x", variant="duo", agents="random,greedy,mcts")
    with pytest.raises(SelfPlayError, match="given twice"):
        selfplay.run(tmp_path / "x", variant="duo", agents="greedy,greedy")
    with pytest.raises(SelfPlayError, match="workers"):
        selfplay.run(tmp_path / "x", workers=0)
    assert not (tmp_path / "x").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(SelfPlayError, match="is a file"):
        selfplay.run(tmp_path / "file")


@pytest.mark.slow
def test_a_used_directory_needs_resume_and_the_same_settings(duo_run, tmp_path):
    out, _ = duo_run
    with pytest.raises(SelfPlayError, match="not empty.*--resume"):
        selfplay.run(out, variant="duo", games=20, agents="greedy,random", seed=2)
    for change, message in [({"agents": "random,greedy"}, "--agents greedy,random, not random,greedy"),
                            ({"seed": 3}, "--seed 2, not 3"),
                            ({"variant": "classic"}, "--variant duo, not classic"),
                            ({"start": "any"}, "--start fixed, not any"),
                            ({"games": 10}, "beyond --games 10")]:
        with pytest.raises(SelfPlayError, match=message):
            selfplay.run(out, resume=True, **change)
    # a finished run resumes to itself: nothing played, no file touched, the figures of the run
    before = {f.name: f.read_bytes() for f in out.iterdir()}
    original = json.loads((out / "summary.json").read_text())
    assert original["played"] == 20 and original["games_per_second"] > 0
    summary = selfplay.run(out, resume=True, workers=1)
    assert summary.pop("unchanged") is True and summary == original
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before
    result = subprocess.run([sys.executable, "-m", "blokus", "selfplay", "--out", str(out), "--resume",
                             "--no-progress"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "nothing left to play" in result.stdout and "written to" not in result.stdout
    assert "already complete: its files in" in result.stdout
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before


_UNGUARDED = """import blokus.selfplay
summary = blokus.selfplay.run({out!r}, variant="duo", agents="greedy,random", games=4, workers=2,
                              progress=False)
"""
_GUARDED = """import blokus.selfplay


def main():
    return blokus.selfplay.run({out!r}, variant="duo", agents="greedy,random", games=4, workers=2,
                               progress=False)


if __name__ == "__main__":
    print("played", main()["played"])
"""


@pytest.mark.slow
def test_a_script_without_the_main_guard_is_refused_and_leaves_nothing(tmp_path):
    # Pool workers start by importing the script (spawn): unguarded, each would start the run.
    out = tmp_path / "runs_py"
    script = tmp_path / "unguarded.py"
    script.write_text(_UNGUARDED.format(out=str(out)))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert 'outside `if __name__ == "__main__":`' in result.stderr and "(line 2)" in result.stderr
    assert "BrokenProcessPool" not in result.stderr and "not empty" not in result.stderr
    assert not out.exists()
    script.write_text(_GUARDED.format(out=str(out)))  # corrected, the same script runs
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "played 4" in result.stdout


@pytest.mark.parametrize("source, guarded", [
    ("run()", False),
    ("if __name__ == '__main__':\n    run()", True),
    ("if '__main__' == __name__:\n    x = 1\n    run()", True),
    ("if __name__ != '__main__':\n    run()", False),
    ("if __name__ == '__main__':\n    pass\nelse:\n    run()", False),
    ("try:\n    if __name__ == '__main__':\n        run()\nfinally:\n    pass", True),
    ("with open('f') as f:\n    run()", False),
])
def test_the_guard_is_read_from_the_script(source, guarded):
    import ast

    from blokus.selfplay.guard import _guarded

    line = next(i for i, text in enumerate(source.splitlines(), 1) if "run()" in text)
    assert _guarded(ast.parse(source).body, line) is guarded


def test_a_new_run_that_fails_before_any_game_leaves_nothing(tmp_path, monkeypatch):
    import blokus.selfplay.runner as runner

    monkeypatch.setattr(runner, "game_source", lambda *a, **k: _failing_source())
    out = tmp_path / "new"
    with pytest.raises(RuntimeError, match="an agent failed"):
        selfplay.run(out, variant="duo", games=3, agents="random", workers=1, progress=False)
    assert not out.exists()
    (tmp_path / "empty").mkdir()
    with pytest.raises(RuntimeError, match="an agent failed"):
        selfplay.run(tmp_path / "empty", variant="duo", games=3, agents="random", workers=1, progress=False)
    assert list((tmp_path / "empty").iterdir()) == []


def _failing_source():
    import contextlib

    @contextlib.contextmanager
    def source():
        def chunks():
            raise RuntimeError("an agent failed")
            yield
        yield chunks()
    return source()


@pytest.mark.slow
def test_resume_extends_and_drops_a_cut_line(tmp_path, duo_run):
    ref, _ = duo_run
    out = tmp_path / "run"
    selfplay.run(out, variant="duo", games=12, agents="greedy,random", seed=2, workers=1)
    # a record cut short, as when the process is killed while appending
    with open(out / "games.blksgf", "a") as f:
        f.write("(;GM[Blokus Duo]CA[UTF-8]AP[blokus:0.1.0]BKGAME[12];B[e9,d10")
    summary = selfplay.run(out, resume=True, games=20, workers=2)
    assert summary["played"] == 8 and summary["finished"] == 20
    assert (out / "games.blksgf").read_bytes() == (ref / "games.blksgf").read_bytes()
    for a, b in zip(tables(out), tables(ref)):
        assert a.equals(b)
    assert json.loads((out / "run.json").read_text())["games"] == 20


def _make_directory(path):
    path.unlink()
    path.mkdir()


@pytest.mark.parametrize("damage, message", [
    (_make_directory, "games.blksgf is not a regular file but a directory: remove it or put the run's own file back"),
    (lambda path: path.write_bytes(path.read_bytes() + b"\xff\n"), "cannot read {path} ('utf-8' codec can't decode"),
])
def test_resume_refuses_a_damaged_record_file_naming_it(tmp_path, duo_run, damage, message):
    out = tmp_path / "run"
    shutil.copytree(duo_run[0], out)
    path = out / "games.blksgf"
    damage(path)
    before = {p.name: p.read_bytes() if p.is_file() else None for p in out.iterdir()}
    with pytest.raises(SelfPlayError, match=re.escape(message.format(path=path))):
        selfplay.run(out, resume=True, games=24, workers=1)
    assert {p.name: p.read_bytes() if p.is_file() else None for p in out.iterdir()} == before


def test_plot_writes_a_png(tmp_path):
    matplotlib_or_skip()
    selfplay.run(tmp_path, variant="duo", games=4, agents="greedy,random", seed=0, workers=1, plot=True)
    data = (tmp_path / "scores.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


# ---------------------------------------------------------------------------------------------
# Ctrl-C, then resume

@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The run the interrupted ones must end up equal to."""
    ref = tmp_path_factory.mktemp("ref") / "run"
    selfplay.run(ref, variant="duo", games=1500, agents="greedy,random", seed=5, workers=1)
    return ref


@pytest.mark.slow  # two self-play runs in subprocesses
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_finished_games_and_resume_completes(tmp_path, workers, uninterrupted):
    out = tmp_path / "run"
    argv = ["--variant", "duo", "--games", "1500", "--agents", "greedy,random", "--seed", "5",
            "--workers", workers, "--no-progress"]
    proc = subprocess.Popen([sys.executable, "-m", "blokus", "selfplay", *argv, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    records = out / "games.blksgf"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if records.exists() and records.read_bytes().count(b"\n") >= 3:
            break
        time.sleep(0.01)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "--resume" in stderr and "interrupted" in stderr
    kept = sgf.records(records.read_text())
    indices = [int(props["BKGAME"][0]) for _, props in kept]
    assert 3 <= len(indices) < 1500
    assert indices == sorted(set(indices))
    assert all(game.is_over for game, _ in kept)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["finished"] == len(indices) and summary["interrupted"] and not summary["complete"]
    assert pq.read_table(out / "games.parquet").column("game").to_pylist() == indices
    assert f"{len(indices)} of 1500" in stdout

    result = subprocess.run([sys.executable, "-m", "blokus", "selfplay", "--out", str(out), "--resume",
                             "--no-progress"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "1500 of 1500" in result.stdout

    assert records.read_bytes() == (uninterrupted / "games.blksgf").read_bytes()
    for a, b in zip(tables(out), tables(uninterrupted)):
        assert a.equals(b)


# ---------------------------------------------------------------------------------------------
# Ray

@pytest.mark.slow  # starts Ray
@pytest.mark.skipif(ASAN_PRELOADED, reason=RAY_UNDER_ASAN)
def test_ray_local_gives_the_same_records(tmp_path):
    pytest.importorskip("ray", reason='needs Ray: pip install -e ".[test]" runs it')
    kwargs = dict(variant="duo", games=4, agents="greedy,random", seed=8)
    selfplay.run(tmp_path / "local", workers=1, **kwargs)
    summary = selfplay.run(tmp_path / "ray", workers=2, ray="local", **kwargs)
    assert summary["finished"] == 4 and summary["ray"] == "local"
    assert (tmp_path / "ray" / "games.blksgf").read_bytes() == \
        (tmp_path / "local" / "games.blksgf").read_bytes()
