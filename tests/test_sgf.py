"""blokus.sgf: Blokus SGF (.blksgf) records, read and written (formats.md, "Game records").

Pentobi's own records (tests/data/pentobi_*.blksgf) must read move for move and be written back
with Pentobi's spelling; our records must round-trip every variant and start rule; any valid SGF
layout must read; every way a record can be wrong must raise a ValueError that names the problem.
Pentobi's opening books (real SGF trees with variations) are read from ../shared when present.
"""

import os
import random
import re
import stat
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_games import random_game

import blokus
from blokus import sgf

DATA = os.path.join(os.path.dirname(__file__), "data")
# Pentobi's opening books (opening_books/book_*.blksgf in its source, github enz/pentobi): from
# BLOKUS_PENTOBI_BOOKS, else the project's shared folder beside the checkout.
BOOKS = os.environ.get("BLOKUS_PENTOBI_BOOKS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "pentobi-books")
VARIANTS = ("classic", "classic_2", "classic_3", "classic_teams", "duo")
PENTOBI_FILES = ("classic", "classic_2", "classic_3", "duo")
PENTOBI_GM = {"classic": "Blokus", "classic_2": "Blokus Two-Player",
              "classic_3": "Blokus Three-Player", "duo": "Blokus Duo"}
# A move node: ";" then a colour's property, its value (cells never contain ']' or '\').
MOVE_NODE = re.compile(r";\s*([1-4BW])\[([^\]]*)\]")
COLOUR_OF = {"1": 0, "2": 1, "3": 2, "4": 3, "B": 0, "W": 1}
FORMATS_EXAMPLE = ("(;GM[Blokus Two-Player];1[c18,c19,a20,b20,c20];2[r18,r19,s19,t19,t20];"
                   "3[s1,t1,s2,r3,s3];4[a1,a2,b2,c2,c3])")


def canonical(cells):
    """Cells in the order formats.md asks writers for: by row from the bottom, then by column."""
    return sorted(cells, key=lambda cell: (int(cell[1:]), cell[0]))


def pentobi_lines(name):
    with open(os.path.join(DATA, "pentobi_%s.blksgf" % name), encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def assert_same_game(got, want):
    assert got.variant == want.variant
    assert got.start == want.start
    assert got.history == want.history
    assert got.scores() == want.scores()
    assert got.player_scores() == want.player_scores()
    assert got.to_move == want.to_move


# --- Pentobi's records ----------------------------------------------------------------------

@pytest.mark.parametrize("name", PENTOBI_FILES)
def test_pentobi_writes_cells_in_canonical_order(name):
    # The assumption behind comparing our output with Pentobi's text, checked on its files.
    values = [value for line in pentobi_lines(name) for _, value in MOVE_NODE.findall(line)]
    assert len(values) > 100
    for value in values:
        assert value.split(",") == canonical(value.split(",")), value


@pytest.mark.parametrize("name", PENTOBI_FILES)
def test_pentobi_records_read_and_write_back_verbatim(name):
    lines = pentobi_lines(name)
    assert len(lines) == 5
    with open(os.path.join(DATA, "pentobi_%s.blksgf" % name), encoding="utf-8") as f:
        games = sgf.records(f.read())
    assert len(games) == len(lines)
    for line, (game, root) in zip(lines, games):
        nodes = MOVE_NODE.findall(line)
        assert root == {"GM": [PENTOBI_GM[name]]}
        assert (game.variant, game.start) == (name, "fixed")
        assert len(game.history) == len(nodes)
        assert [colour for colour, _ in game.history] == [COLOUR_OF[p] for p, _ in nodes]
        assert [game.move_text(move) for _, move in game.history] == [v for _, v in nodes]
        assert game.is_over  # Pentobi's self-play games are played out
        text = sgf.dumps(game)
        # Same move nodes, character for character: Pentobi's spelling survives.
        assert text[text.index(";", 2):] == line[line.index(";", 2):]
        assert text.startswith("(;GM[%s]CA[UTF-8];" % PENTOBI_GM[name])
        assert_same_game(sgf.loads(text), game)


def test_read_pentobi_file_by_path():
    games = sgf.read(os.path.join(DATA, "pentobi_duo.blksgf"))
    nodes = [len(MOVE_NODE.findall(line)) for line in pentobi_lines("duo")]
    assert [len(g.history) for g in games] == nodes


def test_formats_md_example():
    game = sgf.loads(FORMATS_EXAMPLE)
    assert (game.variant, game.start) == ("classic_2", "fixed")
    assert [(c, game.move_text(m)) for c, m in game.history] == [
        (0, "c18,c19,a20,b20,c20"), (1, "r18,r19,s19,t19,t20"),
        (2, "s1,t1,s2,r3,s3"), (3, "a1,a2,b2,c2,c3")]
    assert game.to_move == 0


# --- round trips ----------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(VARIANTS), start=st.sampled_from(["any", "fixed"]),
       seed=st.integers(0, 2**32 - 1), limit=st.none() | st.integers(0, 90))
def test_round_trip(variant, start, seed, limit):
    game = random_game(variant, seed, limit, start)
    text = sgf.dumps(game)
    assert "\n" not in text and text.startswith("(;") and text.endswith(")")
    assert_same_game(sgf.loads(text), game)
    # The text itself, checked without the reader: colour letters, canonical cells, no passes.
    letters = "BW" if variant == "duo" else "1234"
    nodes = MOVE_NODE.findall(text)
    assert [(letters.index(p), v.split(",")) for p, v in nodes] == [
        (c, canonical(game.move_text(m).split(","))) for c, m in game.history]
    assert ("BKV[classic_teams]" in text) == (variant == "classic_teams")
    assert ("BKS[any]" in text) == (start == "any")


def test_team_game_is_classic_for_pentobi():
    game = random_game("classic_teams", 3)
    text = sgf.dumps(game)
    assert text.startswith("(;GM[Blokus]CA[UTF-8]BKV[classic_teams];")
    # A reader that ignores our property (as Pentobi does) sees the same moves as classic.
    plain = sgf.loads(text.replace("BKV[classic_teams]", ""))
    assert plain.variant == "classic" and plain.history == game.history


def test_start_any_moves_need_bks():
    game = blokus.Game("duo", start="any")
    game.play("j5")  # purple on orange's point: legal only under start="any"
    text = sgf.dumps(game)
    assert text == "(;GM[Blokus Duo]CA[UTF-8]BKS[any];B[j5])"
    assert sgf.loads(text).start == "any"
    with pytest.raises(ValueError, match="starting square"):
        sgf.loads(text.replace("BKS[any]", ""))
    fixed = text.replace("BKS[any]", "BKS[fixed]").replace("j5", "e10")
    assert sgf.loads(fixed).start == "fixed"


# --- layout tolerance -----------------------------------------------------------------------

def test_layout_tolerance():
    want = sgf.loads(FORMATS_EXAMPLE)
    layouts = [
        # whitespace and newlines between every token
        "\n( ;\tGM [Blokus Two-Player]\n ; 1 [c18,c19,a20,b20,c20]\r\n;2[r18,r19,s19,t19,t20]\n"
        "  ;3[s1,t1,s2,r3,s3]  ;  4[a1,a2,b2,c2,c3]  \n)\n",
        # cells in upper case, mixed case and shuffled order
        "(;GM[Blokus Two-Player];1[C20,a20,B20,c19,C18];2[T20,t19,S19,r19,R18];"
        "3[s3,R3,s2,T1,s1];4[c3,C2,b2,A2,a1])",
        # unknown properties, with escapes and several values, in root and move nodes
        "(;GM[Blokus Two-Player]CA[UTF-8]AP[Pentobi:20.0]C[a comment with \\] bracket]XY[1][2]"
        ";1[c18,c19,a20,b20,c20]C[\\\\ and a soft\\\nbreak]TE[1];XY [3] [4]2[r18,r19,s19,t19,t20]"
        ";BM[1]3[s1,t1,s2,r3,s3];4[a1,a2,b2,c2,c3]N[end])",
        # empty nodes, and a move split over several values (as Pentobi up to 0.2 wrote it)
        "(;GM[Blokus Two-Player];;1[c18,c19][a20][b20,c20];2[r18,r19,s19,t19,t20];;"
        "3[s1,t1,s2,r3,s3];4[a1,a2,b2,c2,c3];)",
        # a single variation is not a branch
        "(;GM[Blokus Two-Player];1[c18,c19,a20,b20,c20](;2[r18,r19,s19,t19,t20]"
        "(;3[s1,t1,s2,r3,s3];4[a1,a2,b2,c2,c3])))",
        # a byte order mark, and GM spelled loosely (Pentobi's reader ignores case and spaces)
        "\ufeff(;GM[ blokus two-player ];1[c18,c19,a20,b20,c20];2[r18,r19,s19,t19,t20];"
        "3[s1,t1,s2,r3,s3];4[a1,a2,b2,c2,c3])",
    ]
    for text in layouts:
        assert_same_game(sgf.loads(text), want)


def test_root_properties_unescaped():
    text = ("(;GM[Blokus Duo]C[a comment with \\] bracket]XY[1][2]PB[back\\\\slash]"
            "GC[soft\\\nbreak]\n;B[e10])")
    [(game, root)] = sgf.records(text)
    assert root == {"GM": ["Blokus Duo"], "C": ["a comment with ] bracket"], "XY": ["1", "2"],
                    "PB": ["back\\slash"], "GC": ["softbreak"]}
    assert len(game.history) == 1


def test_old_pentobi_move_properties():
    # Pentobi still reads BLUE..GREEN (Pentobi 0.1) and 1/2 in two-colour games.
    duo = sgf.loads("(;GM[Blokus Duo];1[e10];2[j5])")
    assert duo.history == sgf.loads("(;GM[Blokus Duo];B[e10];W[j5])").history
    classic = sgf.loads("(;GM[Blokus];BLUE[a20];YELLOW[t20];RED[t1];GREEN[a1])")
    assert [c for c, _ in classic.history] == [0, 1, 2, 3]


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_any_layout_reads_the_same(variant, seed, data):
    game = random_game(variant, seed, 30, start="any")
    text = sgf.dumps(game, C="x", XY=["1", "2"])
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    space = lambda m: rng.choice(["", " ", "\n", "\t ", "\r\n  "])  # noqa: E731

    def scramble(m):  # a move value: shuffled cells, each in random case
        cells = m.group(2).split(",")
        rng.shuffle(cells)
        return "%s[%s]" % (m.group(1), ",".join(rng.choice([c, c.upper()]) for c in cells))

    text = re.sub(r"(?<=;)([1-4BW])\[([^\]]*)\]", scramble, text)
    # Whitespace at every token boundary: around ( ) ; and between a name and its values.
    text = re.sub(r"(?<=[();\]])|(?=[();\[])", space, text)
    assert_same_game(sgf.loads(text), game)


# --- errors ---------------------------------------------------------------------------------

DUO0 = pentobi_lines("duo")[0]


def duo_prefix(moves):
    """Pentobi's first Duo game up to (not including) its ``moves``-th move node."""
    ends = [m.end() for m in MOVE_NODE.finditer(DUO0)]
    return DUO0[:ends[moves - 1]]


@pytest.mark.parametrize("text,message", [
    # wrong colour for the position
    ("(;GM[Blokus Duo];W[j5])", r"node 1, move 1 \(W\[j5\]\): orange moves, but purple is to move"),
    ("(;GM[Blokus];1[a20];3[t1])", r"move 2 .*red moves, but yellow is to move"),
    # Duo game 0: orange's last move is its 20th node; then orange has no move left and
    # purple moves alone, so an orange node there is wrong even though orange may not pass.
    (duo_prefix(20) + ";W[a14])", r"move 21 .*orange moves, but purple is to move"),
    (DUO0[:-1] + ";B[n14])", r"move 27 .*game is already over"),
    # illegal placements
    ("(;GM[Blokus];1[a20];2[t20];3[t1];4[a1];1[a20,b20])", r"move 5 .*already occupied"),
    ("(;GM[Blokus];1[a20];2[t20];3[t1];4[a1];1[c18,d18])", r"move 5 .*no corner contact"),
    ("(;GM[Blokus];1[a20];2[t20];3[t1];4[a1];1[b19])", r"move 5 .*piece 1 already used"),
    ("(;GM[Blokus];1[a20,c20])", r"move 1 .*not one of the 21 pieces"),
    ("(;GM[Blokus Duo];B[j5])", r"move 1 .*starting square"),
    ("(;GM[Blokus Duo];B[z99])", r"B\[z99\]\): off board"),
    ("(;GM[Blokus Duo];B[e10,])", r"B\[e10,\]\): cannot read the move text"),
    ("(;GM[Blokus];B[a20])", r"B is not a move property of GM\[Blokus\]"),
    ("(;GM[Blokus Duo];3[e10])", r"3 is not a move property"),
    ("(;GM[Blokus];1[a20]2[t20])", r"one node holds several moves"),
    # variants
    ("(;GM[Blokus Trigon];1[a1])", r"unsupported variant GM\[Blokus Trigon\]"),
    ("(;GM[Blokus Junior])", r"unsupported variant"),
    ("(;GM[Nexos])", r"unsupported variant"),
    ("(;GM[1];B[e10])", r"unsupported variant"),
    ("(;PB[x];B[e10])", r"no GM property"),
    ("(;GM[Blokus Duo]BKV[classic])", r"BKV\[classic\] does not fit GM\[Blokus Duo\]"),
    ("(;GM[Blokus]BKS[corner])", r"BKS\[corner\]: the start rule"),
    # setup positions
    ("(;GM[Blokus Duo]AB[e10])", r"node 0: setup properties \(AB\) are unsupported"),
    ("(;GM[Blokus];1[a20];A2[t20])", r"node 2: setup properties \(A2\)"),
    ("(;GM[Blokus]PL[2])", r"setup properties \(PL\)"),
    ("(;GM[Blokus Duo];AE[e10])", r"setup properties \(AE\)"),
    # variations
    ("(;GM[Blokus Duo](;B[e10])(;B[e10,e9]))", r"has variations.*mainline=True"),
    # syntax
    ("(;GM[Blokus Duo];B[e10]", r"unbalanced '\('"),
    ("(;GM[Blokus Duo];B[e10]))", r"unbalanced '\)' at line 1, column 25"),
    ("(;GM[Blokus Duo];B[e10)", r"unbalanced '\[' at line 1, column 19"),
    ("(;GM[Blokus Duo]\n;B[e10]\n;W[j5\\])", r"unbalanced '\[' at line 3, column 3"),
    ("(;GM[Blokus Duo];B)", r"property B has no value"),
    ("(;GM[Blokus Duo];b[e10])", r"expected a property identifier"),
    ("(;GM[Blokus Duo] junk)", r"expected a property identifier"),
    ("(;GM[Blokus Duo])x", r"unexpected 'x'"),
    ("(;GM[Blokus Duo](;B[e10]);W[j5])", r"a node after a variation"),
    ("((;GM[Blokus Duo]))", r"a variation before any node"),
    ("()", r"empty game tree"),
    ("", r"exactly one game tree, found none"),
    ("(;GM[Blokus Duo])(;GM[Blokus Duo])", r"exactly one game tree, found more"),
])
def test_errors(text, message):
    with pytest.raises(ValueError, match=message):
        sgf.loads(text)


def test_mainline_follows_the_first_variation():
    text = "(;GM[Blokus Duo](;B[e10];W[j5](;B[d11,d12])(;B[f11]))(;B[e10,e9]))"
    game = sgf.loads(text, mainline=True)
    assert [game.move_text(m) for _, m in game.history] == ["e10", "j5", "d11,d12"]
    # mainline does not excuse errors in the line followed
    with pytest.raises(ValueError, match="move 2 .*purple moves, but orange is to move"):
        sgf.loads("(;GM[Blokus Duo](;B[e10];B[d11,d12])(;B[e10]))", mainline=True)


def test_collections():
    games = [random_game(v, i, 12) for i, v in enumerate(VARIANTS)]
    text = "".join(sgf.dumps(g, EV="club") for g in games)  # no line breaks between trees
    got = sgf.records(text)
    assert len(got) == len(games)
    for (game, root), want in zip(got, games):
        assert_same_game(game, want)
        assert root["EV"] == ["club"]
    assert sgf.records("") == [] and sgf.records(" \n ") == []
    with pytest.raises(ValueError, match="game 6 of 6: the game has variations"):
        sgf.records(text + "(;GM[Blokus Duo](;B[e10])(;B[e10,e9]))")


# --- properties written by dumps ------------------------------------------------------------

def test_dumps_properties():
    game = blokus.Game("duo", start="fixed")
    game.play("e10")
    text = sgf.dumps(game, PB="Ann", PW="Bob", RE="B+3", C="a ] b \\ c", seed=7,
                     agents=["random", "greedy"])
    assert text == ("(;GM[Blokus Duo]CA[UTF-8]PB[Ann]PW[Bob]RE[B+3]C[a \\] b \\\\ c]SEED[7]"
                    "AGENTS[random][greedy];B[e10])")
    [(_, root)] = sgf.records(text)
    assert root["C"] == ["a ] b \\ c"] and root["SEED"] == ["7"]
    assert root["AGENTS"] == ["random", "greedy"]


@pytest.mark.parametrize("properties,message", [
    ({"GM": "Blokus"}, "GM is written by dumps"),
    ({"ca": "latin-1"}, "CA is written by dumps"),
    ({"BKS": "any"}, "BKS is written by dumps"),
    ({"B": "e10"}, "B is written by dumps"),
    ({"AB": "e10"}, "AB is written by dumps"),
    ({"seed": 1, "SEED": 2}, "twice"),
    ({"my_seed": 1}, "letters"),
    ({"C": []}, "at least one value"),
])
def test_dumps_rejects_bad_properties(properties, message):
    with pytest.raises(ValueError, match=message):
        sgf.dumps(blokus.Game("duo"), **properties)


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.text(), min_size=1, max_size=3))
def test_property_values_round_trip(values):
    game = random_game("duo", 1, 3)
    [(got, root)] = sgf.records(sgf.dumps(game, C=values[0], XY=values))
    assert root["C"] == values[:1] and root["XY"] == values
    assert got.history == game.history


# --- hostile texts: refused early, in memory that does not grow with them --------------------

def _peak_memory(call):
    """The peak of Python's allocations (bytes) while ``call()`` runs, and what it raised."""
    tracemalloc.start()
    try:
        try:
            call()
        except ValueError as exc:
            return tracemalloc.get_traced_memory()[1], exc
        return tracemalloc.get_traced_memory()[1], None
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("read, as_bytes", [(sgf.loads, False), (sgf.records, False), (sgf.loads, True)])
def test_deep_nesting_is_refused_at_the_bound_holding_only_the_bound(read, as_bytes):
    # "(;" repeated opens a game tree every two characters: the 1001st "(" (column 2001) is one
    # tree deeper than the bound of 1000, and what is held until then is a thousand trees, not
    # the 170 bytes per character a whole 2 MB text used to cost before its refusal
    text = "(;" * 1_000_000
    data = text.encode() if as_bytes else text
    peak, error = _peak_memory(lambda: read(data))
    assert str(error) == ("SGF syntax: game trees nested deeper than 1000 at line 1, column 2001 "
                          "(no Blokus record needs more)")
    decoded = len(text) if as_bytes else 0  # bytes are decoded to a str first
    assert peak < decoded + len(text) // 4


def test_nesting_up_to_the_bound_reads():
    # a tree per node, 1000 deep: the root and 999 empty nodes, each in a variation of its own
    deepest = "(;GM[Blokus Duo]" + "(;" * 999 + ")" * 1000
    assert sgf.loads(deepest).history == []
    with pytest.raises(ValueError, match="nested deeper than 1000"):
        sgf.loads("(;GM[Blokus Duo]" + "(;" * 1000 + ")" * 1001)


def test_loads_stops_reading_at_a_second_game_tree():
    text = "(;GM[Blokus Duo])" + "(;)" * 500_000
    peak, error = _peak_memory(lambda: sgf.loads(text))
    assert "expected exactly one game tree, found more" in str(error)
    assert peak < len(text) // 100  # the first tree and the start of the second only


@pytest.mark.slow
def test_memory_of_long_values_and_many_empty_nodes_is_in_proportion_to_the_text():
    # a comment of 10**6 characters is one string of that length (and its pieces while read);
    # 50000 empty nodes (";" each) are a list slot each in the tree and in its main line
    for text in ("(;GM[Blokus Duo]C[" + "a" * 1_000_000 + "])", "(;GM[Blokus Duo]" + ";" * 50_000 + ")"):
        peak, error = _peak_memory(lambda: sgf.loads(text))
        assert error is None
        assert peak < 20 * len(text)


# --- files ----------------------------------------------------------------------------------

def test_write_read(tmp_path):
    games = [random_game(v, i, start=s) for i, (v, s) in
             enumerate([("duo", "fixed"), ("classic_teams", "any"), ("classic_3", "fixed")])]
    path = tmp_path / "games.blksgf"
    sgf.write(path, games, PB="Ann", DT="2024-05-01")
    text = path.read_text(encoding="utf-8")
    assert text.endswith(")\n") and text.count("\n") == len(games)
    for line, game in zip(text.splitlines(), games):
        assert line == sgf.dumps(game, PB="Ann", DT="2024-05-01")
    for got, want in zip(sgf.read(str(path)), games):
        assert_same_game(got, want)
    assert [root["DT"] for _, root in sgf.records(text)] == [["2024-05-01"]] * 3

    sgf.write(str(path), games[0])  # one game, str path, file replaced
    assert path.read_text(encoding="utf-8") == sgf.dumps(games[0]) + "\n"
    sgf.write(path, iter(games[1:]))  # any iterable
    assert [g.variant for g in sgf.read(path)] == ["classic_teams", "classic_3"]


def test_write_checks_before_touching_the_file(tmp_path):
    path = tmp_path / "kept.blksgf"
    path.write_text("(;GM[Blokus Duo])\n", encoding="utf-8")
    with pytest.raises(ValueError):
        sgf.write(path, [blokus.Game("duo")], GM="x")
    assert path.read_text(encoding="utf-8") == "(;GM[Blokus Duo])\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_read_and_write_refuse_what_is_not_a_regular_file(tmp_path):
    # A FIFO would block open() until a writer came and /dev/zero would be read until memory ran
    # out: both are refused by what they are, before anything is read, and left as they were.
    fifo = tmp_path / "pipe.blksgf"
    os.mkfifo(fifo)
    for name, kind in ((fifo, "a FIFO"), ("/dev/zero", "a character device"), (tmp_path, "a directory")):
        with pytest.raises(ValueError, match=f"not a regular file but {kind}"):
            sgf.read(name)
        with pytest.raises(ValueError, match=f"not a regular file but {kind}"):
            sgf.write(name, blokus.Game("duo"))
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and os.listdir(tmp_path) == ["pipe.blksgf"]


# --- Pentobi's opening books ----------------------------------------------------------------

BOOK_MAINLINES = {  # the first child at every branch, read off the books by eye
    "book_duo.blksgf": ("duo", ["f9,e10,f10,g10,f11", "i4,h5,i5,j5,i6", "h7,g8,h8,h9,i9",
                                "f5,e6,f6,g6,e7"]),
    "book_classic_2.blksgf": ("classic_2", [
        "a17,b17,a18,a19,a20", "s17,t17,t18,t19,t20", "t1,t2,s3,t3,s4", "a1,b1,c1,d1,d2",
        "d14,e14,d15,c16,d16", "p14,q14,q15,q16,r16", "r5,p6,q6,r6,p7", "e3,e4,f4,g4,g5",
        "h11,g12,h12,f13,g13", "o11,p11,n12,o12,o13", "o8,m9,n9,o9,p9", "h6,h7,i7,i8,j8",
        "j9,k9,l9,i10,j10", "k10,l10,m10,n10,m11", "q10,q11,q12,p13,q13"]),
}


@pytest.mark.parametrize("book", sorted(BOOK_MAINLINES))
def test_pentobi_books(book):
    path = os.path.join(BOOKS, book)
    if not os.path.exists(path):
        pytest.skip(f"{book}, one of Pentobi's opening books, is not at {os.path.normpath(path)}: "
                    "to run this test, set BLOKUS_PENTOBI_BOOKS to a folder holding Pentobi's "
                    "opening_books/book_duo.blksgf and book_classic_2.blksgf (github enz/pentobi)")
    with pytest.raises(ValueError, match="has variations"):
        sgf.read(path)
    [game] = sgf.read(path, mainline=True)
    variant, moves = BOOK_MAINLINES[book]
    assert (game.variant, game.start) == (variant, "fixed")
    assert [game.move_text(m) for _, m in game.history] == moves
    assert [c for c, _ in game.history] == [k % game.num_colours for k in range(len(moves))]
