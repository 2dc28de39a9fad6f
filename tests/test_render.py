"""blokus.render: svg() (and Game._repr_svg_), plot(), image(), text()/show() (and Game.show).

The SVG of a set of fixed positions is compared byte for byte with tests/data/render/*.svg.
After an intended change to the picture, rewrite them with

    BLOKUS_REGEN_RENDER=1 python3 -m pytest -q tests/test_render.py

and look at the new files before committing them. The other tests parse the SVG and check what
it says against the game: cells and colours, the last move, highlights, heat maps, starting
squares, attachment points, coordinates (a1 at the bottom-left).
"""
from __future__ import annotations

import io
import math
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import blokus
from blokus import render

from plotting import matplotlib_or_skip

DATA = Path(__file__).parent / "data" / "render"
NS = "{http://www.w3.org/2000/svg}"
K = 24  # SVG units per board cell

# Expected RGB, written out (not read from blokus.render).
CLASSIC_RGB = {0: (30, 90, 200), 1: (235, 190, 20), 2: (210, 40, 40), 3: (40, 150, 60)}
DUO_RGB = {0: (120, 60, 170), 1: (240, 130, 20)}
EMPTY_RGB = (235, 235, 235)
GRID_RGB = (160, 160, 160)
NEUTRAL = "#555555"

HAND_MOVES = ["e10,e11,f10", "j5,j6,k5,k6", "g9,h9,h8,i8", "h6,h7,i7", "j9,j10,k10,k11,k12", "g8,f8,f7,f6"]


def hex_of(rgb):
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def rgb_of(game):
    return DUO_RGB if game.num_colours == 2 else CLASSIC_RGB


def random_game(variant, seed, moves=None, start="any"):
    """A game of uniformly random legal moves: ``moves`` of them, or to the end."""
    game = blokus.Game(variant, start=start)
    rng = np.random.default_rng(seed)
    while not game.is_over and (moves is None or len(game.history) < moves):
        legal = game.legal_moves()
        game.play(int(legal[rng.integers(len(legal))]))
    return game


def hand_game():
    """A hand-made Duo position (start fixed), purple to move:

    12 . . . . . . . . . . P . . .
    11 . . . . P . . . . . P . . .
    10 . . . . P P . . . P P . . .
     9 . . . . . . P P . P . . . .
     8 . . . . . O O P P . . . . .
     7 . . . . . O . O O . . . . .
     6 . . . . . O . O . O O . . .
     5 . . . . . . . . . O O . . .
    """
    game = blokus.Game("duo", start="fixed")
    for move in HAND_MOVES:
        game.play(move)
    return game


def hand_heat():
    game = hand_game()
    heat = np.random.default_rng(7).random(game.shape)
    heat[np.asarray(game.board) >= 0] = np.nan
    return heat


def played(variant, moves, start="any"):
    game = blokus.Game(variant, start=start)
    for move in moves:
        game.play(move)
    return game


# name -> (game factory, svg options)
CASES = {
    "duo_fixed_empty": (lambda: blokus.Game("duo", start="fixed"), {}),
    "duo_any_first": (lambda: played("duo", ["e10"]), {}),
    "duo_hand": (hand_game, {}),
    "duo_hand_placement": (hand_game, {"highlight": "j13,k13,l13,l14", "show_attachment_points": True}),
    "duo_hand_heat": (hand_game, {"highlight": hand_heat(), "coordinates": False, "size": 200}),
    "duo_seed0_12": (lambda: random_game("duo", 0, 12, start="fixed"), {"show_attachment_points": True}),
    "duo_seed1_end": (lambda: random_game("duo", 1), {}),
    "classic_any_empty": (lambda: blokus.Game("classic"), {}),
    "classic_fixed_seed2_3": (lambda: random_game("classic", 2, 3, start="fixed"), {}),
    "classic_seed3_30": (lambda: random_game("classic", 3, 30),
                         {"highlight": [(0, 0), (0, 1), (1, 1), (19, 19)], "last_move": False}),
    "classic_2_seed4_40": (lambda: random_game("classic_2", 4, 40), {}),
    "classic_3_seed5_end": (lambda: random_game("classic_3", 5), {}),
    "classic_teams_seed6_50": (lambda: random_game("classic_teams", 6, 50), {"show_attachment_points": True}),
}


def make(name):
    factory, options = CASES[name]
    return factory(), options


# ------------------------------------------------------------------ SVG parsing helpers
def parse(text):
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def elements(root, cls):
    """Elements whose class list contains ``cls``."""
    return [e for e in root.iter() if "bk-" + cls in (e.get("class") or "").split()]


def rect_cell(e):
    x, y = float(e.get("x")), float(e.get("y"))
    assert x % K == 0 and y % K == 0 and float(e.get("width")) == K and float(e.get("height")) == K
    return int(y) // K, int(x) // K


def circle_cell(e):
    cx, cy = float(e.get("cx")), float(e.get("cy"))
    assert (cx - K / 2) % K == 0 and (cy - K / 2) % K == 0
    return int(cy - K / 2) // K, int(cx - K / 2) // K


def cells_of(game, pid):
    table = blokus.placements(game.variant)
    return {tuple(int(v) for v in rc) for rc in table.cells[pid][: table.size[pid]]}


def text_cells(text, variant):
    """Cells of a move text, read independently of the engine: column letter, row from the bottom."""
    side = 14 if variant == "duo" else 20
    return {(side - int(t[1:]), ord(t[0]) - ord("a")) for t in text.split(",")}


# ------------------------------------------------------------------ stored output
@pytest.mark.parametrize("name", sorted(CASES))
def test_svg_matches_stored(name):
    game, options = make(name)
    text = render.svg(game, **options)
    path = DATA / f"{name}.svg"
    if os.environ.get("BLOKUS_REGEN_RENDER"):
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with BLOKUS_REGEN_RENDER=1 once and look at it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"SVG of {name} differs from {path} (BLOKUS_REGEN_RENDER=1 to rewrite)"


def test_stored_files_are_the_cases():
    assert sorted(p.stem for p in DATA.glob("*.svg")) == sorted(CASES)


def test_regenerated_differs_fails():
    """The comparison is strict: one changed cell, one move more, or another option is seen."""
    game, options = make("duo_hand")
    stored = (DATA / "duo_hand.svg").read_text(encoding="utf-8")
    assert render.svg(game, **options) == stored
    game.undo()
    assert render.svg(game, **options) != stored
    assert render.svg(hand_game(), last_move=False) != stored
    assert render.svg(hand_game(), size=400) != stored


@pytest.mark.parametrize("name", sorted(CASES))
def test_svg_deterministic_and_valid(name):
    game, options = make(name)
    a = render.svg(game, **options)
    assert a == render.svg(game.copy(), **options)
    root = parse(a)
    assert not [e for e in root.iter() if e.get("id") is not None]
    assert root.findtext(NS + "title").startswith(f"Blokus {game.variant} (start {game.start}): ")
    assert "nan" not in a.lower()


# ------------------------------------------------------------------ what the SVG shows
@pytest.mark.parametrize("name", sorted(CASES))
def test_svg_cells_are_the_board(name):
    game, options = make(name)
    root = parse(render.svg(game, **options))
    board = np.asarray(game.board)
    drawn = {}
    for e in elements(root, "cell"):
        colour = int(next(c for c in e.get("class").split() if re.fullmatch(r"bk-c\d", c))[4:])
        assert e.get("fill") == hex_of(rgb_of(game)[colour])
        cell = rect_cell(e)
        assert cell not in drawn
        drawn[cell] = colour
    for colour in range(game.num_colours):
        assert sum(v == colour for v in drawn.values()) == int((board == colour).sum())
    assert drawn == {(int(r), int(c)): int(board[r, c]) for r, c in zip(*np.nonzero(board >= 0))}
    (bg,) = elements(root, "board")
    h, w = game.shape
    assert (bg.get("width"), bg.get("height"), bg.get("fill")) == (str(w * K), str(h * K), hex_of(EMPTY_RGB))
    (grid,) = elements(root, "grid")
    assert grid.get("stroke") == hex_of(GRID_RGB)
    assert grid.get("d").count("M") == h + w + 2


def test_hand_position_cells_by_text():
    """a1 is the bottom-left: the cells named by the move texts are drawn in the mover's colour."""
    game = hand_game()
    root = parse(render.svg(game))
    drawn = {rect_cell(e): e.get("fill") for e in elements(root, "cell")}
    expected = {}
    for i, move in enumerate(HAND_MOVES):
        for cell in text_cells(move, "duo"):
            expected[cell] = hex_of(DUO_RGB[i % 2])
    assert drawn == expected
    assert drawn[(4, 4)] == "#783caa"  # e10 purple, x = 96, y = 96
    assert drawn[(9, 9)] == "#f08214"  # j5 orange
    assert len(drawn) == 3 + 4 + 4 + 3 + 5 + 4


@pytest.mark.parametrize("name", sorted(CASES))
def test_last_move_marked(name):
    game, options = make(name)
    root = parse(render.svg(game, **options))
    marked = [circle_cell(e) for e in elements(root, "last")]
    if options.get("last_move", True) and game.history:
        assert sorted(marked) == sorted(cells_of(game, game.history[-1][1]))
    else:
        assert marked == []
    assert elements(parse(render.svg(game, last_move=False)), "last") == []


def test_last_move_of_hand_position():
    root = parse(render.svg(hand_game()))
    assert {circle_cell(e) for e in elements(root, "last")} == text_cells("g8,f8,f7,f6", "duo")
    for e in elements(root, "last"):
        assert (e.get("fill"), e.get("stroke")) == ("#ffffff", "#222222")


def test_coordinates():
    game = hand_game()
    root = parse(render.svg(game))
    cols = elements(root, "col")
    rows = elements(root, "row")
    assert [e.text for e in cols] == list("abcdefghijklmn")
    assert [e.text for e in rows] == [str(n) for n in range(14, 0, -1)]
    # Letters under the board, left to right; numbers left of it, 1 at the bottom row.
    assert all(float(e.get("y")) > 14 * K for e in cols)
    assert [float(e.get("x")) for e in cols] == [(c + 0.5) * K for c in range(14)]
    assert all(float(e.get("x")) < 0 for e in rows)
    one = next(e for e in rows if e.text == "1")
    assert 13 * K < float(one.get("y")) < 14 * K
    fourteen = next(e for e in rows if e.text == "14")
    assert 0 < float(fourteen.get("y")) < K
    bare = parse(render.svg(game, coordinates=False))
    assert elements(bare, "coord") == [] and not [e for e in bare.iter() if e.tag == NS + "text"]
    classic = parse(render.svg(blokus.Game("classic")))
    assert [e.text for e in elements(classic, "col")] == list("abcdefghijklmnopqrst")
    assert [e.text for e in elements(classic, "row")][-1] == "1"


def test_size_and_viewbox():
    game = hand_game()
    root = parse(render.svg(game))
    assert (root.get("width"), root.get("height")) == ("364", "364")
    assert root.get("viewBox") == "-26 -2 364 364"  # 24 per cell, 24 for the labels, 2 around
    root = parse(render.svg(game, coordinates=False))
    assert (root.get("width"), root.get("viewBox")) == ("340", "-2 -2 340 340")
    root = parse(render.svg(game, size=182))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("182", "182", "-26 -2 364 364")
    root = parse(render.svg(blokus.Game("classic"), size=253.5))
    assert (root.get("width"), root.get("height")) == ("253.5", "253.5")
    assert parse(render.svg(blokus.Game("classic"))).get("width") == "508"
    root = parse(render.svg(blokus.Game("classic"), size=100, coordinates=False))
    assert (root.get("width"), root.get("height")) == ("100", "100")


def test_highlight_placement():
    game = hand_game()
    pid = int(game.legal_moves()[-1])
    root = parse(render.svg(game, highlight=pid))
    marked = {rect_cell(e) for e in elements(root, "highlight")}
    assert marked == cells_of(game, pid)
    (outline,) = elements(root, "highlight-outline")
    segments = re.findall(r"M(\d+) (\d+)L(\d+) (\d+)", outline.get("d"))
    # Every unit edge between a marked cell and an unmarked one, once.
    expected = sum((r + dr, c + dc) not in marked for r, c in marked for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    assert len(segments) == expected
    for x0, y0, x1, y1 in (tuple(int(v) for v in s) for s in segments):
        assert abs(x1 - x0) + abs(y1 - y0) == K
    # By text too: the same elements as by id.
    assert render.svg(game, highlight=game.move_text(pid)) == render.svg(game, highlight=pid)
    assert render.svg(game, highlight=np.int32(pid)) == render.svg(game, highlight=pid)


def test_highlight_text_i3_outline():
    game = blokus.Game("duo")
    root = parse(render.svg(game, highlight="a1,b1,c1"))
    assert {rect_cell(e) for e in elements(root, "highlight")} == {(13, 0), (13, 1), (13, 2)}
    (outline,) = elements(root, "highlight-outline")
    assert len(re.findall("M", outline.get("d"))) == 8  # perimeter of a 1x3 bar


def test_highlight_cells_forms():
    game = hand_game()
    cells = [(0, 0), (13, 13), (0, 0), (5, 6)]
    root = parse(render.svg(game, highlight=cells))
    assert sorted(rect_cell(e) for e in elements(root, "highlight")) == [(0, 0), (5, 6), (13, 13)]
    mask = np.zeros(game.shape, bool)
    mask[[0, 13, 5], [0, 13, 6]] = True
    assert render.svg(game, highlight=mask) == render.svg(game, highlight=cells)
    assert render.svg(game, highlight=np.array(cells, np.int64)) == render.svg(game, highlight=cells)
    assert render.svg(game, highlight=tuple(cells)) == render.svg(game, highlight=cells)
    empty = parse(render.svg(game, highlight=[]))
    assert elements(empty, "highlight") == [] and elements(empty, "highlight-outline") == []
    assert render.svg(game, highlight=[]) == render.svg(game)


def test_heat_map():
    game = hand_game()
    heat = hand_heat()
    root = parse(render.svg(game, highlight=heat))
    cells = {rect_cell(e): e for e in elements(root, "heat")}
    finite = {(int(r), int(c)) for r, c in zip(*np.nonzero(np.isfinite(heat)))}
    assert set(cells) == finite
    assert len(cells) == 14 * 14 - int((np.asarray(game.board) >= 0).sum())
    lo = np.unravel_index(np.nanargmin(heat), heat.shape)
    hi = np.unravel_index(np.nanargmax(heat), heat.shape)
    assert cells[tuple(int(v) for v in lo)].get("fill") == "#ffffb2"
    assert cells[tuple(int(v) for v in hi)].get("fill") == "#bd0026"
    for (r, c), e in cells.items():
        assert e.get("fill-opacity") == "0.6"
        assert e.findtext(NS + "title") == f"{chr(97 + c)}{14 - r}: {heat[r, c]:.4g}"
    # Colour grows with the value: fill's green channel falls monotonically along the ramp.
    order = sorted(cells, key=lambda rc: heat[rc])
    greens = [int(cells[rc].get("fill")[3:5], 16) for rc in order]
    assert greens == sorted(greens, reverse=True)
    # All NaN: no heat element; all equal: every cell the top colour; integers are values too.
    assert elements(parse(render.svg(game, highlight=np.full(game.shape, np.nan))), "heat") == []
    flat = parse(render.svg(game, highlight=np.full(game.shape, 3.0)))
    assert {e.get("fill") for e in elements(flat, "heat")} == {"#bd0026"}
    counts = np.arange(196).reshape(14, 14)
    assert len(elements(parse(render.svg(game, highlight=counts)), "heat")) == 196
    assert len(elements(parse(render.svg(game, highlight=counts.tolist())), "heat")) == 196


def test_heat_map_beside_a_highlight():
    # heat= draws the heat map and highlight= the cells outlined over it, in one picture.
    game = hand_game()
    heat = hand_heat()
    both = parse(render.svg(game, highlight=[(0, 0), (0, 1)], heat=heat))
    alone = parse(render.svg(game, highlight=heat))
    assert [e.attrib for e in elements(both, "heat")] == [e.attrib for e in elements(alone, "heat")]
    assert sorted(rect_cell(e) for e in elements(both, "highlight")) == [(0, 0), (0, 1)]
    assert render.svg(game, heat=heat) == render.svg(game, highlight=heat)
    with pytest.raises(ValueError, match="one heat map"):
        render.svg(game, highlight=heat, heat=heat)
    with pytest.raises(ValueError, match="not cells"):
        render.svg(game, heat=[(0, 0)])
    with pytest.raises(ValueError, match="board's shape"):
        render.svg(game, heat=np.zeros((3, 3)))


def test_heat_legend_spans_the_values_under_the_board():
    # Heat 2, 6 and 10 on three cells: the scale runs from 2 (pale yellow) to 10 (dark red) in 9
    # swatches over the board's 14 * 24 = 336 units; the middle swatch is the value 6 halfway,
    # ColorBrewer YlOrRd's middle class #fd8d3c, as the cell holding 6 is drawn.
    game = blokus.Game("duo", start="fixed")
    heat = np.full(game.shape, np.nan)
    heat[0, 0], heat[1, 1], heat[2, 2] = 2, 10, 6
    root = parse(render.svg(game, heat=heat, legend=True))
    (legend,) = elements(root, "legend")
    assert legend.findtext(NS + "title") == "heat map: 2 (pale yellow) to 10 (dark red)"
    steps = elements(root, "legend-step")
    assert [e.get("fill") for e in steps[::2]] == ["#ffffb2", "#fecc5c", "#fd8d3c", "#f03b20", "#bd0026"]
    assert {e.get("fill-opacity") for e in steps} == {"0.6"}
    cells = {rect_cell(e): e.get("fill") for e in elements(root, "heat")}
    assert (cells[0, 0], cells[2, 2], cells[1, 1]) == ("#ffffb2", "#fd8d3c", "#bd0026")
    assert float(steps[0].get("x")) == 0 and float(steps[-1].get("x")) + float(steps[-1].get("width")) == 336
    assert all(abs(float(e.get("width")) - 336 / 9) < 1e-3 for e in steps)
    # Under the board (336 units) and its column letters (24 more), and inside the picture.
    assert {float(e.get("y")) for e in steps} == {336 + 24 + 6}
    labels = elements(root, "legend-label")
    assert [(e.text, e.get("x"), e.get("text-anchor")) for e in labels] == [("2", "0", "start"), ("10", "336", "end")]
    vb_y, vb_h = (float(v) for v in root.get("viewBox").split()[1::2])
    assert vb_y + vb_h >= max(float(e.get("y")) for e in labels)
    plain = parse(render.svg(game, heat=heat))
    assert float(plain.get("viewBox").split()[3]) == vb_h - 32  # the legend adds 6 + 10 + 11 + 5 units


def test_heat_legend_of_equal_values_and_without_heat():
    game = blokus.Game("duo", start="fixed")
    flat = parse(render.svg(game, heat=np.full(game.shape, 3.0), legend=True, coordinates=False))
    assert [e.get("fill") for e in elements(flat, "legend-step")] == ["#bd0026"]
    assert [e.text for e in elements(flat, "legend-label")] == ["3"]
    assert float(elements(flat, "legend-step")[0].get("y")) == 336 + 6  # no column letters above it
    # Nothing to scale: the same picture as without the legend.
    assert render.svg(game, legend=True) == render.svg(game)
    nan = np.full(game.shape, np.nan)
    assert render.svg(game, heat=nan, legend=True) == render.svg(game, heat=nan)
    with pytest.raises(TypeError, match="legend must be a bool"):
        render.svg(game, heat=nan, legend="yes")


def test_attachment_points():
    game = hand_game()
    root = parse(render.svg(game, show_attachment_points=True))
    points = np.asarray(game.attachment_points(game.to_move))
    dots = elements(root, "attach")
    assert {circle_cell(e) for e in dots} == {(int(r), int(c)) for r, c in zip(*np.nonzero(points))}
    assert len(dots) == int(points.sum()) > 0
    assert {e.get("fill") for e in dots} == {hex_of(DUO_RGB[0])}
    assert elements(parse(render.svg(game)), "attach") == []
    # Before the first piece: the open starting squares.
    root = parse(render.svg(blokus.Game("classic", start="fixed"), show_attachment_points=True))
    assert [circle_cell(e) for e in elements(root, "attach")] == [(0, 0)]
    # Game over: nothing to show.
    over = random_game("duo", 1)
    assert over.is_over
    assert elements(parse(render.svg(over, show_attachment_points=True)), "attach") == []


def start_rings(game):
    return {circle_cell(e): e.get("stroke") for e in elements(parse(render.svg(game)), "start")}


def test_start_squares():
    purple, orange = hex_of(DUO_RGB[0]), hex_of(DUO_RGB[1])
    assert start_rings(blokus.Game("duo", start="fixed")) == {(4, 4): purple, (9, 9): orange}
    assert start_rings(blokus.Game("duo")) == {(4, 4): NEUTRAL, (9, 9): NEUTRAL}
    assert start_rings(played("duo", ["e10"])) == {(9, 9): orange}  # left to orange
    assert start_rings(played("duo", ["j5"])) == {(4, 4): orange}
    assert start_rings(played("duo", ["e10"], start="fixed")) == {(9, 9): orange}
    assert start_rings(played("duo", ["e10", "j5"])) == {}
    assert start_rings(blokus.Game("classic")) == {(0, 0): NEUTRAL, (0, 19): NEUTRAL, (19, 19): NEUTRAL,
                                                   (19, 0): NEUTRAL}
    fixed = {(0, 0): 0, (0, 19): 1, (19, 19): 2, (19, 0): 3}  # a20 blue, t20 yellow, t1 red, a1 green
    assert start_rings(blokus.Game("classic", start="fixed")) == {rc: hex_of(CLASSIC_RGB[c]) for rc, c in fixed.items()}
    game = random_game("classic", 2, 3, start="fixed")
    assert start_rings(game) == {(19, 0): hex_of(CLASSIC_RGB[3])}
    game = random_game("classic", 2, 3)
    free = {rc for rc in fixed if game.board[rc] < 0}
    assert start_rings(game) == {rc: hex_of(CLASSIC_RGB[3]) for rc in free} and len(free) == 1
    assert start_rings(random_game("classic", 2, 4)) == {}


def test_repr_svg():
    for name in ("duo_hand", "classic_seed3_30", "classic_any_empty"):
        game, _ = make(name)
        assert game._repr_svg_() == render.svg(game)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("highlight, error, words", [
    ({"a": 1}, TypeError, "highlight must be"),
    (1.5, TypeError, "highlight must be"),
    (True, TypeError, "bool"),
    (-1, ValueError, "out of range"),
    (13729, ValueError, "out of range(13729)"),
    (np.zeros((14, 13)), ValueError, "shape (14, 14)"),
    (np.zeros((20, 20)), ValueError, "shape (14, 14)"),
    (np.zeros(14), ValueError, "shape (14, 14)"),
    (np.zeros((14, 14), bool)[:3], ValueError, "bool highlight mask"),
    ([(0, 0), (14, 0)], ValueError, "off the 14x14 board"),
    ([(0, -1)], ValueError, "off the 14x14 board"),
    ([(0, 0), (1,)], ValueError, "neither"),
    (np.array(["a", "b"]), TypeError, "dtype"),
    (np.full((14, 14), np.inf), ValueError, "finite"),
    ("a1,a3", ValueError, ""),
    ("z99", ValueError, ""),
])
def test_highlight_errors(highlight, error, words):
    game = hand_game()
    with pytest.raises(error) as info:
        render.svg(game, highlight=highlight)
    assert words in str(info.value)


def test_other_errors():
    game = hand_game()
    for size, error in ((0, ValueError), (-5, ValueError), (math.nan, ValueError), (math.inf, ValueError),
                        ("big", TypeError), (True, TypeError)):
        with pytest.raises(error, match="size"):
            render.svg(game, size=size)
    with pytest.raises(TypeError, match="blokus.Game"):
        render.svg(np.zeros((14, 14)))
    with pytest.raises(ValueError, match="out of range"):
        render.svg(blokus.Game("classic"), highlight=30433)
    assert parse(render.svg(blokus.Game("classic"), highlight=30432)) is not None


# ------------------------------------------------------------------ image()
def test_image_pixels():
    game = hand_game()
    img = render.image(game)
    assert img.dtype == np.uint8 and img.shape == (14 * 16, 14 * 16, 3)
    k = 16
    assert tuple(img[4 * k + 8, 4 * k + 8]) == DUO_RGB[0]  # e10
    assert tuple(img[9 * k + 8, 9 * k + 8]) == DUO_RGB[1]  # j5
    assert tuple(img[0 * k + 8, 0 * k + 8]) == EMPTY_RGB  # a14
    assert tuple(img[4 * k, 4 * k + 8]) == GRID_RGB and tuple(img[4 * k + 8, 4 * k]) == GRID_RGB
    img = render.image(game, cell=5)
    assert img.shape == (70, 70, 3) and tuple(img[4 * 5 + 2, 5 * 5 + 2]) == DUO_RGB[0]  # f10
    game = random_game("classic", 3, 30)
    img = render.image(game, cell=4)
    assert img.shape == (80, 80, 3)
    board = np.asarray(game.board)
    for r in range(20):
        for c in range(20):
            v = int(board[r, c])
            assert tuple(img[r * 4 + 2, c * 4 + 2]) == (EMPTY_RGB if v < 0 else CLASSIC_RGB[v])
    with pytest.raises(ValueError, match="at least 2"):
        render.image(game, cell=1)


# ------------------------------------------------------------------ plot()
@pytest.fixture
def agg():
    matplotlib_or_skip()
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def by_gid(ax, gid):
    return [a for a in list(ax.patches) + list(ax.collections) if a.get_gid() == gid]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_plot_matches_svg(agg, name):
    game, options = make(name)
    ax = render.plot(game, **options)
    root = parse(render.svg(game, **options))
    h, w = game.shape
    board = np.asarray(game.board)
    cells = by_gid(ax, "cell")
    assert len(cells) == int((board >= 0).sum())
    for patch in cells:
        x, y = patch.get_xy()
        r, c = h - 1 - int(y), int(x)
        colour = int(board[r, c])
        assert colour >= 0
        assert tuple(round(v * 255) for v in patch.get_facecolor()[:3]) == rgb_of(game)[colour]
    for gid in ("heat", "start", "attach", "last", "highlight"):
        assert len(by_gid(ax, gid)) == len(elements(root, gid)), gid
    assert len(by_gid(ax, "grid")) == 1
    assert len(by_gid(ax, "highlight-outline")) == len(elements(root, "highlight-outline"))
    labels = [t.get_text() for t in ax.get_xticklabels()]
    if options.get("coordinates", True):
        assert labels == [chr(97 + c) for c in range(w)]
        assert [t.get_text() for t in ax.get_yticklabels()] == [str(n) for n in range(1, h + 1)]
        assert list(ax.get_yticks()) == [n + 0.5 for n in range(h)]  # row 1 at the bottom
    else:
        assert not ax.axison
    ax.figure.canvas.draw()  # renders without error


def test_plot_geometry(agg):
    game = hand_game()
    fig, ax = agg.subplots()
    assert render.plot(game, ax, highlight="j13,k13,l13,l14") is ax
    assert ax.get_xlim() == (0, 14) and ax.get_ylim() == (0, 14)
    e10 = [p for p in by_gid(ax, "cell") if tuple(p.get_xy()) == (4, 9)]  # col e, rows 9..10 from the bottom
    assert len(e10) == 1 and tuple(round(v * 255) for v in e10[0].get_facecolor()[:3]) == DUO_RGB[0]
    marked = {(int(p.get_xy()[0]), int(p.get_xy()[1])) for p in by_gid(ax, "highlight")}
    assert marked == {(9, 12), (10, 12), (11, 12), (11, 13)}  # j13 k13 l13 l14: y = row number - 1
    last = {tuple(p.center) for p in by_gid(ax, "last")}
    assert last == {(6.5, 7.5), (5.5, 7.5), (5.5, 6.5), (5.5, 5.5)}  # g8 f8 f7 f6
    fig2 = render.plot(game, size=300).figure
    assert fig2.get_figwidth() * fig2.dpi == pytest.approx(300)
    with pytest.raises(ValueError, match="shape"):
        render.plot(game, ax, highlight=np.zeros((3, 3)))


def test_plot_without_matplotlib(monkeypatch):
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=re.escape('pip install "blokus[plot]"')):
        render.plot(hand_game())
    # Everything else works without it.
    assert render.svg(hand_game()).startswith("<svg")


def test_render_module_does_not_import_matplotlib():
    import subprocess

    code = "import sys, blokus, blokus.render as r; g = blokus.Game('duo'); r.svg(g); g._repr_svg_(); " \
           "print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------ text / show()
ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("name", ["duo_hand", "classic_2_seed4_40", "classic_any_empty", "duo_seed1_end"])
def test_text_ansi(name):
    game, _ = make(name)
    coloured = render.text(game, ansi=True)
    assert ANSI_RE.sub("", coloured) == str(game)
    assert render.text(game) == str(game)
    n_occupied = int((np.asarray(game.board) >= 0).sum())
    assert len(re.findall(r"\x1b\[1;38;5;\d+(;7)?m[BYRGPO]\x1b\[0m", coloured)) == n_occupied
    last = len(cells_of(game, game.history[-1][1])) if game.history else 0
    assert coloured.count(";7m") == last


def test_show(monkeypatch):
    game = hand_game()
    monkeypatch.delenv("NO_COLOR", raising=False)
    plain = io.StringIO()
    game.show(file=plain)  # not a TTY
    assert plain.getvalue() == str(game) + "\n"
    tty = FakeTTY()
    game.show(file=tty)
    assert "\x1b[" in tty.getvalue() and ANSI_RE.sub("", tty.getvalue()) == str(game) + "\n"
    assert "\x1b[1;38;5;98mP\x1b[0m" in tty.getvalue()  # purple
    forced = io.StringIO()
    game.show(ansi=True, file=forced)
    assert forced.getvalue() == tty.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    tty = FakeTTY()
    game.show(file=tty)
    assert tty.getvalue() == str(game) + "\n"
    forced = io.StringIO()
    game.show(ansi=True, file=forced)  # an explicit request beats NO_COLOR
    assert "\x1b[" in forced.getvalue()
    monkeypatch.setenv("NO_COLOR", "")  # empty counts as unset (no-color.org)
    tty = FakeTTY()
    game.show(file=tty)
    assert "\x1b[" in tty.getvalue()
    off = FakeTTY()
    game.show(ansi=False, file=off)
    assert off.getvalue() == str(game) + "\n"


def test_show_stdout(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    game = hand_game()
    game.show()  # captured stdout is not a TTY
    assert capsys.readouterr().out == str(game) + "\n"
