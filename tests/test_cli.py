"""The `blokus` command line: the random-games demo and its option errors."""
import subprocess
import sys

import pytest

from blokus.cli import main, score_table
import numpy as np


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
