"""The `blokus` command line: the random-games demo and its option errors."""
import subprocess
import sys

import numpy as np
import pytest

from blokus.cli import main
from blokus.outcomes import score_table


def test_random_prints_a_table(capsys):
    assert main(["random", "--variant", "duo", "--games", "50", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "50 uniform-random duo games" in out
    assert "player 0" in out and "purple" in out and "player 1" in out and "orange" in out


def test_score_table_counts_wins_and_ties():
    # three duo games: purple wins, a tie, orange wins
    table = score_table(np.array([[-10, -20], [-5, -5], [-30, -1]]), "duo")
    purple, orange = table.splitlines()[1:]
    assert purple.split()[-4:] == ["-15.00", "1", "1", "50.0%"]
    assert orange.split()[-4:] == ["-8.67", "1", "1", "50.0%"]


def test_teams_are_reported_per_team():
    # classic_teams: team blue+red scores -3 + -4 = -7 against yellow+green -10 + 15 = +5
    table = score_table(np.array([[-3, -10, -4, 15]]), "classic_teams")
    rows = table.splitlines()[1:]
    assert len(rows) == 2
    assert rows[0].split()[:4] == ["team", "0+2", "blue+red", "-7.00"]
    assert rows[1].split()[:4] == ["team", "1+3", "yellow+green", "5.00"]
    assert rows[1].split()[-3:] == ["1", "0", "100.0%"]


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["random", "--games", "0"],
    ["random", "--seed", "-1"],
    ["random", "--variant", "trigon"],
    ["random", "--start", "corner"],
    ["walk"],
])
def test_bad_options_exit_2(argv):
    result = subprocess.run([sys.executable, "-m", "blokus", *argv], capture_output=True, text=True)
    assert result.returncode == 2
    assert "error" in result.stderr


# ---------------------------------------------------------------------------------------------
# blokus selfplay

SELFPLAY_OPTIONS = ["--out", "--variant", "--games", "--agents", "--seed", "--start", "--workers",
                    "--ray", "--resume", "--plot", "--progress", "--no-progress"]


def test_selfplay_help_lists_every_option():
    result = subprocess.run([sys.executable, "-m", "blokus", "selfplay", "--help"],
                            capture_output=True, text=True)
    assert result.returncode == 0
    for option in SELFPLAY_OPTIONS:
        assert option in result.stdout, option
    # and every option the parser has is among them
    from blokus.cli import build_parser
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices["selfplay"]
    strings = {s for action in sub._actions for s in action.option_strings} - {"-h", "--help"}
    assert strings == set(SELFPLAY_OPTIONS)
    for text in ["(s + g) mod k", "games.blksgf", "moves.parquet", "games.parquet", "summary.json",
                 "scores.png", 'pip install "blokus[plot]"', 'pip install "blokus[ray]"', "130"]:
        assert text in result.stdout, text


def test_selfplay_prints_the_table(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["selfplay", "--variant", "duo", "--games", "6", "--agents", "greedy,random",
                 "--seed", "1", "--workers", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "6 of 6 duo games" in text
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("agent"))
    assert lines[header].split() == ["agent", "games", "wins", "win", "rate", "95%", "interval",
                                     "mean", "score", "mean", "length"]
    assert lines[header + 1].split()[:2] == ["greedy", "6"]
    assert lines[header + 2].split()[:2] == ["random", "6"]
    assert "split win" in text and "Wilson" in text
    assert sorted(p.name for p in out.iterdir()) == ["games.blksgf", "games.parquet", "moves.parquet",
                                                     "run.json", "summary.json"]


def _selfplay_error(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["selfplay", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "blokus selfplay: error:" in err
    return err


@pytest.mark.parametrize("argv, message", [
    (["--agents", "alphazero"], "unknown agent 'alphazero'"),
    (["--agents", "mcts:sims=0"], "simulations must be in [1, 2**63)"),
    (["--agents", "greedy:depth=2"], "bad parameter"),
    (["--variant", "duo", "--agents", "random,greedy,mcts"], "3 agents for duo, which has 2 seats"),
    (["--games", "0"], "must be at least 1"),
    (["--games", "ten"], "argument --games"),
    (["--variant", "trigon"], "invalid choice: 'trigon'"),
    (["--workers", "0"], "must be at least 1"),
    (["--seed", "-3"], "must be in [0, 2**64)"),
])
def test_selfplay_bad_options_exit_2(tmp_path, capsys, argv, message):
    err = _selfplay_error([*argv, "--out", str(tmp_path / "run")], capsys)
    assert message in err
    assert not (tmp_path / "run").exists()


def test_selfplay_out_must_be_a_new_or_empty_directory(tmp_path, capsys):
    (tmp_path / "file").write_text("not a directory")
    assert "is a file" in _selfplay_error(["--out", str(tmp_path / "file")], capsys)
    out = tmp_path / "run"
    base = ["--variant", "duo", "--games", "2", "--workers", "1", "--out", str(out)]
    assert main(["selfplay", *base]) == 0
    capsys.readouterr()
    err = _selfplay_error(base, capsys)
    assert "not empty" in err and "--resume" in err
    err = _selfplay_error([*base, "--resume", "--agents", "greedy"], capsys)
    assert "--agents random, not greedy" in err
    err = _selfplay_error([*base, "--resume", "--seed", "4"], capsys)
    assert "--seed 0, not 4" in err
    assert main(["selfplay", *base, "--resume"]) == 0
    assert "nothing left to play" in capsys.readouterr().out


def test_selfplay_optional_extras_missing(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    monkeypatch.setitem(sys.modules, "matplotlib.backends.backend_agg", None)
    err = _selfplay_error(["--plot", "--out", str(tmp_path / "a")], capsys)
    assert 'pip install "blokus[plot]"' in err
    monkeypatch.setitem(sys.modules, "ray", None)
    err = _selfplay_error(["--ray", "local", "--out", str(tmp_path / "b")], capsys)
    assert 'pip install "blokus[ray]"' in err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_solve_is_a_subcommand(tmp_path, capsys):
    # the commands: a packing solved, checked and drawn
    out = tmp_path / "p.svg"
    assert main(["solve", "8x10", "--seed", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "check: valid" in printed and out.read_text().startswith("<svg")
    result = subprocess.run([sys.executable, "-m", "blokus", "solve", "9x9"], capture_output=True, text=True)
    assert result.returncode == 2


@pytest.mark.slow
def test_a_reader_that_goes_away_ends_the_command_quietly():
    # `blokus random | head -1`: no traceback on the closed pipe
    run = subprocess.run(f"{sys.executable} -m blokus random --games 20000 | head -1", shell=True,
                         capture_output=True, text=True, timeout=120)
    assert run.stdout.startswith("20000 uniform-random") and "Traceback" not in run.stderr
