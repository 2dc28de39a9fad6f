"""Replay every game of tests/data/*.jsonl (the oracle: Pentobi and a plain reference).

At every position k and for every colour c, the engine's number of legal placements equals
``legal[k][c]``, ``is_out(c)`` holds exactly when that number is 0, the recorded colour is the
colour to move, the recorded move is among its legal moves, and it is recorded in the history.
After the last move the game is over (``to_move == -1``) and the colour scores equal ``score``.

Also replays the Pentobi self-play records tests/data/pentobi_*.blksgf (copied from
shared/pentobi-games) in their own variant (``classic``, ``classic_2``, ``classic_3``, ``duo``;
start rule fixed, Pentobi's): each move is by the colour to move and legal, the game ends after the
last move, and scores, player scores and winners are those of rules.md (the values below were
computed from the records with tests/reference.py, and the classic_3 green rotation is checked).
"""

import glob
import json
import os
import re

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


# ------------------------------------------------------------------ Pentobi records
GM_VARIANT = {
    "Blokus": "classic",
    "Blokus Two-Player": "classic_2",
    "Blokus Three-Player": "classic_3",
    "Blokus Duo": "duo",
}

# (file, line) -> (colour scores, player scores, winners), per rules.md.
PENTOBI_RESULTS = {
    ("classic", 0): ([-24, -8, -16, -34], [-24, -8, -16, -34], [1]),
    ("classic", 1): ([15, -5, -15, -32], [15, -5, -15, -32], [0]),
    ("classic", 2): ([-19, -4, -8, -16], [-19, -4, -8, -16], [1]),
    ("classic", 3): ([-31, -11, -19, -20], [-31, -11, -19, -20], [1]),
    ("classic", 4): ([-7, -10, -19, -9], [-7, -10, -19, -9], [0]),
    ("classic_2", 0): ([-10, -13, -17, -14], [-27, -27], [0, 1]),
    ("classic_2", 1): ([-15, -20, -4, -25], [-19, -45], [0]),
    ("classic_2", 2): ([-24, -18, -12, -24], [-36, -42], [0]),
    ("classic_2", 3): ([-16, -13, -12, -7], [-28, -20], [1]),
    ("classic_2", 4): ([-25, -32, 15, -32], [-10, -64], [0]),
    ("classic_3", 0): ([-16, -14, -17, -19], [-16, -14, -17], [1]),
    ("classic_3", 1): ([-7, -13, -7, -25], [-7, -13, -7], [0, 2]),
    ("classic_3", 2): ([-8, -18, -8, -27], [-8, -18, -8], [0, 2]),
    ("classic_3", 3): ([-11, -19, -20, -18], [-11, -19, -20], [0]),
    ("classic_3", 4): ([-14, -19, -12, -32], [-14, -19, -12], [2]),
    ("duo", 0): ([-20, -44], [-20, -44], [0]),
    ("duo", 1): ([-18, -40], [-18, -40], [0]),
    ("duo", 2): ([-20, -19], [-20, -19], [1]),
    ("duo", 3): ([-12, -18], [-12, -18], [0]),
    ("duo", 4): ([-23, -25], [-23, -25], [0]),
}


def load_pentobi():
    out = []
    for name in ("classic", "classic_2", "classic_3", "duo"):
        path = os.path.join(DATA, "pentobi_%s.blksgf" % name)
        with open(path) as f:
            lines = [line for line in f if line.strip()]
        for i, line in enumerate(lines):
            out.append(pytest.param(name, i, line, id="pentobi_%s-%d" % (name, i)))
    return out


def sgf_moves(line):
    """(colour, cells) of each move node: 1-4 are colours 0-3, B/W are 0/1 (Duo)."""
    moves = []
    for prop, value in re.findall(r";\s*([1-4BW])\[([^\]]*)\]", line):
        colour = {"B": 0, "W": 1}.get(prop)
        moves.append((int(prop) - 1 if colour is None else colour, value))
    return moves


@pytest.mark.parametrize("name,index,line", load_pentobi())
def test_pentobi_record(name, index, line):
    variant = GM_VARIANT[re.search(r"GM\[([^\]]*)\]", line).group(1)]
    assert variant == name
    game = blokus.Game(variant, start="fixed")
    green = 0
    for k, (colour, text) in enumerate(sgf_moves(line)):
        assert game.to_move == colour, k
        if variant == "classic_3" and colour == 3:
            assert game.player_to_move == green % 3, k
            green += 1
        pid = blokus.parse_move(text, variant)
        assert game.legal_mask(colour)[pid], "move %d (%s) not legal" % (k, text)
        game.play(text)
    assert game.is_over
    scores, players, winners = PENTOBI_RESULTS[(name, index)]
    assert [int(s) for s in game.scores()] == scores
    assert [int(s) for s in game.player_scores()] == players
    assert [int(w) for w in game.winners()] == winners
