"""Piece geometry and the placement table, checked against rules.md.

* ``blokus.PIECE_NAMES`` is the 21 standard names in rules.md's order;
* the piece shapes are exactly the free polyominoes of 1..5 squares, enumerated here
  independently by growing shapes square by square, and each name has its standard shape;
* 91 fixed orientations with the per-piece counts of rules.md;
* 30,433 placements on 20x20 and 13,729 on 14x14, equal as cell sets to every way of laying
  every orientation on the board; cells in bounds, padded with -1, size matching the piece;
* the text form: column letter + row counted from the bottom, canonical cell order by row
  from the bottom then column, ``move_text`` / ``parse_move`` round trip.
"""

import random

import numpy as np
import pytest

import blokus

from reference import (
    ORIENTATION_COUNTS,
    PIECE_CELLS,
    PIECE_NAMES,
    PIECE_SIZES,
    VARIANTS,
    cells_text,
    fixed_orientations,
    free_key,
    free_polyominoes,
    normalize,
    placement_table,
)

ALL_VARIANTS = list(VARIANTS)


@pytest.fixture(scope="module", params=ALL_VARIANTS)
def table(request):
    return request.param, blokus.placements(request.param)


def cells_of(pl, i):
    n = int(pl.size[i])
    return [(int(r), int(c)) for r, c in np.asarray(pl.cells[i, :n])]


# ------------------------------------------------------------------ pieces
def test_piece_names():
    assert list(blokus.PIECE_NAMES) == PIECE_NAMES
    assert len(blokus.PIECE_NAMES) == 21


def test_free_polyomino_counts():
    # Independent enumeration: 1, 1, 2, 5, 12 free polyominoes of 1..5 squares = 21 pieces.
    assert [len(free_polyominoes(n)) for n in range(1, 6)] == [1, 1, 2, 5, 12]


def test_named_shapes_are_the_free_polyominoes():
    # The hand-drawn shapes of the reference (one per name) are the 21 free polyominoes.
    named = {free_key(PIECE_CELLS[n]) for n in PIECE_NAMES}
    every = set().union(*(free_polyominoes(n) for n in range(1, 6)))
    assert named == every
    assert sum(PIECE_SIZES) == 89


def test_reference_orientation_counts():
    assert [len(fixed_orientations(PIECE_CELLS[n])) for n in PIECE_NAMES] == ORIENTATION_COUNTS
    assert sum(ORIENTATION_COUNTS) == 91


@pytest.mark.slow
def test_engine_piece_shapes(table):
    """Every placement of piece p has the shape of PIECE_NAMES[p] (in some orientation),
    and together they use every fixed orientation of it."""
    variant, pl = table
    piece = np.asarray(pl.piece)
    assert piece.min() == 0 and piece.max() == 20
    for p, name in enumerate(PIECE_NAMES):
        ids = np.flatnonzero(piece == p)
        shapes = {normalize(cells_of(pl, i)) for i in ids}
        assert shapes == fixed_orientations(PIECE_CELLS[name]), name


@pytest.mark.slow
def test_engine_orientation_column(table):
    """The orientation column names one fixed orientation: per piece, its values and the
    shapes are in one-to-one correspondence, with rules.md's count of orientations."""
    variant, pl = table
    piece = np.asarray(pl.piece)
    orient = np.asarray(pl.orientation)
    total = 0
    for p, name in enumerate(PIECE_NAMES):
        ids = np.flatnonzero(piece == p)
        by_value = {}
        for i in ids:
            by_value.setdefault(int(orient[i]), set()).add(normalize(cells_of(pl, i)))
        assert all(len(s) == 1 for s in by_value.values()), name
        shapes = [next(iter(s)) for s in by_value.values()]
        assert len(set(shapes)) == len(shapes) == ORIENTATION_COUNTS[p], name
        total += len(shapes)
    assert total == 91


@pytest.mark.slow
def test_anchor_is_a_translation_reference(table):
    """For one (piece, orientation), cells minus the anchor are the same offsets everywhere."""
    variant, pl = table
    piece = np.asarray(pl.piece)
    orient = np.asarray(pl.orientation)
    ar = np.asarray(pl.anchor_row)
    ac = np.asarray(pl.anchor_col)
    offsets = {}
    for i in range(len(piece)):
        key = (int(piece[i]), int(orient[i]))
        off = frozenset((r - int(ar[i]), c - int(ac[i])) for r, c in cells_of(pl, i))
        assert offsets.setdefault(key, off) == off, (key, i)


# ------------------------------------------------------------------ placement table
@pytest.mark.parametrize("variant,count", [
    ("classic", 30433), ("classic_2", 30433), ("classic_3", 30433),
    ("classic_teams", 30433), ("duo", 13729),
])
def test_placement_count(variant, count):
    pl = blokus.placements(variant)
    for name in ("piece", "orientation", "anchor_row", "anchor_col", "size"):
        assert np.asarray(getattr(pl, name)).shape == (count,), name
    assert np.asarray(pl.cells).shape == (count, 5, 2)
    assert len(blokus.Game(variant).legal_mask()) == count


@pytest.mark.parametrize("size,count", [(20, 30433), (14, 13729)])
def test_reference_placement_count(size, count):
    # The independent count: sum over the 91 orientations of the translations that fit.
    total = 0
    for name in PIECE_NAMES:
        for o in fixed_orientations(PIECE_CELLS[name]):
            h = 1 + max(r for r, _ in o)
            w = 1 + max(c for _, c in o)
            total += (size - h + 1) * (size - w + 1)
    assert total == count == len(placement_table(size))


def test_cells_in_bounds_padded_and_sized(table):
    variant, pl = table
    size = VARIANTS[variant][0]
    cells = np.asarray(pl.cells)
    n = np.asarray(pl.size)
    piece = np.asarray(pl.piece)
    assert np.array_equal(n, np.array(PIECE_SIZES)[piece])
    used = np.arange(5)[None, :] < n[:, None]  # (A, 5)
    assert np.all(cells[used] >= 0)
    assert np.all(cells[used] < size)
    assert np.all(cells[~used] == -1)


@pytest.mark.slow
def test_placements_are_every_way_to_lay_every_orientation(table):
    """As cell sets, the engine's table is exactly the reference table: no duplicate, none
    missing, none extra."""
    variant, pl = table
    size = VARIANTS[variant][0]
    engine = [frozenset(cells_of(pl, i)) for i in range(len(np.asarray(pl.piece)))]
    assert len(set(engine)) == len(engine)
    assert set(engine) == set(placement_table(size).cellsets)
    assert len(set(map(len, engine))) == 5


def test_placements_same_table_for_classic_variants():
    base = blokus.placements("classic")
    for v in ("classic_2", "classic_3", "classic_teams"):
        other = blokus.placements(v)
        assert np.array_equal(np.asarray(base.cells), np.asarray(other.cells)), v
        assert np.array_equal(np.asarray(base.piece), np.asarray(other.piece)), v


# ------------------------------------------------------------------ text form
@pytest.mark.parametrize("variant,text,cell", [
    ("classic", "a20", (0, 0)),
    ("classic", "t20", (0, 19)),
    ("classic", "t1", (19, 19)),
    ("classic", "a1", (19, 0)),
    ("duo", "e10", (4, 4)),
    ("duo", "j5", (9, 9)),
    ("duo", "a14", (0, 0)),
    ("duo", "n1", (13, 13)),
])
def test_cell_coordinates(variant, text, cell):
    pid = blokus.parse_move(text, variant)
    pl = blokus.placements(variant)
    assert cells_of(pl, pid) == [cell]
    assert blokus.Game(variant).move_text(pid) == text


def test_canonical_text_example():
    # rules.md's example placement: a20,b20,c20,c19,c18 is the V5 at the top-left corner.
    pid = blokus.parse_move("a20,b20,c20,c19,c18", "classic")
    pl = blokus.placements("classic")
    assert set(cells_of(pl, pid)) == {(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)}
    assert PIECE_NAMES[int(pl.piece[pid])] == "V5"
    # canonical order: by row from the bottom, then by column
    assert blokus.Game("classic").move_text(pid) == "c18,c19,a20,b20,c20"


def _round_trip(variant, ids, rng):
    pl = blokus.placements(variant)
    size = VARIANTS[variant][0]
    game = blokus.Game(variant)
    for i in ids:
        i = int(i)
        cells = cells_of(pl, i)
        expected = cells_text(cells, size)
        text = game.move_text(i)
        assert text == expected, i
        assert blokus.parse_move(text, variant) == i
        # any cell order, any case
        toks = expected.split(",")
        rng.shuffle(toks)
        assert blokus.parse_move(",".join(toks).upper(), variant) == i, toks


def test_text_round_trip_every_duo_placement():
    _round_trip("duo", range(13729), random.Random(1))


def test_text_round_trip_classic_sample():
    rng = random.Random(2)
    ids = sorted(set(range(0, 30433, 7)) | {0, 30432} | set(rng.sample(range(30433), 500)))
    _round_trip("classic", ids, rng)


def test_parse_move_cells_match_text():
    # Independent of the engine's text: every reference placement's canonical text parses to
    # the placement with exactly those cells.
    for variant in ("duo", "classic"):
        size = VARIANTS[variant][0]
        pl = blokus.placements(variant)
        rng = random.Random(3)
        for cs in rng.sample(placement_table(size).cellsets, 400):
            pid = blokus.parse_move(cells_text(cs, size), variant)
            assert frozenset(cells_of(pl, pid)) == cs
