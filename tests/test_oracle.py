"""Replay every game of tests/data/*.jsonl (the oracle: Pentobi and a plain reference).

At every position k and for every colour c, the engine's number of legal placements equals
``legal[k][c]``, ``is_out(c)`` holds exactly when that number is 0, the recorded colour is the
colour to move, the recorded move is among its legal moves, and it is recorded in the history.
After the last move the game is over (``to_move == -1``) and the colour scores equal ``score``.
"""

import glob
import json
import os

import pytest

import blokus

DATA = os.path.join(os.path.dirname(__file__), "data")


def load_games():
    out = []
    for path in sorted(glob.glob(os.path.join(DATA, "*.jsonl"))):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            for i, line in enumerate(f):
                if line.strip():
                    out.append(pytest.param(json.loads(line), id="%s-%d" % (name, i)))
    return out


GAMES = load_games()


def test_oracle_files_present():
    names = {os.path.basename(p) for p in glob.glob(os.path.join(DATA, "*.jsonl"))}
    assert {"classic_random.jsonl", "duo_random.jsonl", "duo_all_placed.jsonl"} <= names
    assert len(GAMES) >= 200


def legal_counts(game):
    return [len(game.legal_moves(c)) for c in range(game.num_colours)]


@pytest.mark.parametrize("record", GAMES)
def test_replay(record):
    variant, start = record["variant"], record["start"]
    game = blokus.Game(variant, start=start)
    moves, legal = record["moves"], record["legal"]
    assert len(legal) == len(moves) + 1
    for k, (colour, text) in enumerate(moves):
        assert legal_counts(game) == legal[k], "legal counts after %d moves" % k
        assert [bool(game.is_out(c)) for c in range(game.num_colours)] == [n == 0 for n in legal[k]], k
        assert not game.is_over, k
        assert game.to_move == colour, "colour to move after %d moves" % k
        pid = blokus.parse_move(text, variant)
        assert pid in set(game.legal_moves(colour).tolist()), "move %d (%s) not legal" % (k, text)
        assert pid in set(game.legal_moves().tolist()), k
        game.play(text)
        assert len(game.history) == k + 1
        assert tuple(int(x) for x in game.history[-1]) == (colour, pid), k
    assert legal_counts(game) == legal[-1]
    assert game.is_over
    assert game.to_move == -1
    assert all(game.is_out(c) for c in range(game.num_colours))
    assert [int(s) for s in game.scores()] == record["score"]
