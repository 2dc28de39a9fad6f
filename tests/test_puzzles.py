"""blokus.puzzles: the solo puzzles of the rule sheet (rules.md, "Solo puzzles") -- packings of
rectangles and All 84 -- solved in C, checked in Python, and counted against known numbers and
a slow brute-force oracle built from tests/reference.py's hand-drawn pieces."""
import argparse
import collections
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blokus
import blokus.puzzles as pz
from blokus import render
from blokus.commands.solve import add_solve_command

import reference

# ---- a brute-force oracle ------------------------------------------------------------------

def _orientations(name):
    return [sorted(o) for o in reference.fixed_orientations(reference.PIECE_CELLS[name])]


def oracle_tilings(shape, kinds, same_colour_edges):
    """Every tiling of the rectangle, each a frozenset of (kind, cells): kind is the piece name
    in the basic puzzle (colours do not tell copies apart there), (name, colour) under the
    harder option, where no two pieces of one colour may share an edge."""
    height, width = shape
    left = collections.Counter()
    for (name, colour), n in kinds.items():
        left[name if same_colour_edges else (name, colour)] += n
    owner = {}  # cell -> colour of its piece (harder option) or True
    placed = []
    found = []

    def colour_of(kind):
        return None if same_colour_edges else kind[1]

    def search():
        empty = next(((r, c) for r in range(height) for c in range(width) if (r, c) not in owner), None)
        if empty is None:
            found.append(frozenset(placed))
            return
        for kind in [k for k, n in left.items() if n]:
            name = kind if same_colour_edges else kind[0]
            for cells in _orientations(name):
                dr, dc = empty[0] - cells[0][0], empty[1] - cells[0][1]
                moved = [(r + dr, c + dc) for r, c in cells]
                if any(not (0 <= r < height and 0 <= c < width) or (r, c) in owner for r, c in moved):
                    continue
                colour = colour_of(kind)
                if colour is not None and any(owner.get((r + a, c + b)) == colour
                                              for r, c in moved for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0))):
                    continue
                for cell in moved:
                    owner[cell] = colour if colour is not None else True
                left[kind] -= 1
                placed.append((kind, frozenset(moved)))
                search()
                placed.pop()
                left[kind] += 1
                for cell in moved:
                    del owner[cell]

    search()
    return found


def oracle_classes(shape, tilings):
    """How many tilings are left when those related by a symmetry of the rectangle count once."""
    height, width = shape
    maps = [lambda r, c: (r, c), lambda r, c: (height - 1 - r, c), lambda r, c: (r, width - 1 - c),
            lambda r, c: (height - 1 - r, width - 1 - c)]
    if height == width:
        maps += [lambda r, c, f=f: f(c, r) for f in list(maps)]

    def image(tiling, f):
        return tuple(sorted((str(kind), tuple(sorted(f(r, c) for r, c in cells))) for kind, cells in tiling))

    return len({min(image(t, f) for f in maps) for t in tilings})


def kinds_of(puzzle):
    return dict(puzzle.pieces)


# ---- the rule sheet's packings ------------------------------------------------------------

@pytest.mark.parametrize("same_colour_edges", [True, False])
def test_8x10_tetrominoes_solved_and_checked(same_colour_edges):
    puzzle = pz.Packing.tetrominoes(same_colour_edges=same_colour_edges)
    assert puzzle.shape == (8, 10) and puzzle.num_pieces == 20
    assert puzzle.pieces == {(name, colour): 1 for name in ("I4", "L4", "T4", "O", "Z4") for colour in range(4)}
    solution = puzzle.solve(seed=7, time_limit=30)
    assert solution is not None
    verdict = puzzle.check(solution)
    assert verdict.valid and bool(verdict) and str(verdict) == "valid" and verdict.problems == ()
    assert solution.grid.dtype == np.int16 and solution.grid.shape == (8, 10)
    assert solution.colours.dtype == np.int8 and solution.colours.shape == (8, 10)
    assert sorted(np.unique(solution.grid).tolist()) == list(range(20))
    assert collections.Counter(c for _, c, _ in solution.pieces) == {0: 5, 1: 5, 2: 5, 3: 5}
    for i, (name, colour, cells) in enumerate(solution.pieces):
        assert len(cells) == 4
        assert all(solution.grid[r, c] == i and solution.colours[r, c] == colour for r, c in cells)
    assert solution.moves == () and isinstance(solution.pieces, list)
    assert not solution.grid.flags.writeable and not solution.colours.flags.writeable


def test_15x16_pentominoes_solved_both_ways():
    basic = pz.Packing.pentominoes()
    hard = pz.Packing.pentominoes(same_colour_edges=False)
    assert basic.shape == (15, 16) and basic.num_pieces == 48
    for puzzle in (basic, hard):
        solution = puzzle.solve(seed=3, time_limit=120)
        assert solution is not None and puzzle.check(solution).valid
        assert collections.Counter(n for n, _, _ in solution.pieces) == {
            n: 4 for n in pz.PIECE_GROUPS["pentominoes"]}
    # the harder solution also solves the basic puzzle; the converse needs luck
    assert basic.check(solution).valid
    assert not pz._same_colour_contacts(solution)


def test_same_seed_same_solution_and_seed_none_works():
    puzzle = pz.Packing.tetrominoes(same_colour_edges=False)
    a, b = puzzle.solve(seed=11), puzzle.solve(seed=11)
    assert np.array_equal(a.grid, b.grid) and a.pieces == b.pieces
    assert puzzle.check(puzzle.solve()).valid


# ---- counts ---------------------------------------------------------------------------------

def pentominoes(shape):
    return pz.Packing(shape, {"pentominoes": 1})


@pytest.mark.slow
@pytest.mark.parametrize("shape, fixed, classes", [((3, 20), 8, 2), ((20, 3), 8, 2), ((4, 15), 1472, 368)])
def test_pentomino_rectangles_counted(shape, fixed, classes):
    puzzle = pentominoes(shape)
    assert puzzle.count_solutions() == fixed
    assert puzzle.count_solutions(up_to_symmetry=True) == classes


@pytest.mark.slow  # counts every packing of two rectangles
def test_5x12_and_6x10_up_to_symmetry():
    # 1,010 and 2,339 (the counts of the literature, which identify rotations and reflections)
    assert pentominoes((5, 12)).count_solutions(up_to_symmetry=True) == 1010
    assert pentominoes((6, 10)).count_solutions(up_to_symmetry=True) == 2339


def test_count_limit_and_timeout():
    assert pentominoes((6, 10)).count_solutions(limit=5) == 5
    with pytest.raises(TimeoutError, match="after"):
        pz.Packing.pentominoes().count_solutions(time_limit=0.2)
    with pytest.raises(ValueError):
        pentominoes((3, 20)).count_solutions(limit=0)


@pytest.mark.parametrize("shape, pieces", [
    ((2, 4), [{"I4": 1}, {"I4": 1}]),            # two colours: 2 coloured tilings, 1 by shape
    ((2, 4), [{"I4": 2}]),                       # one colour: none under the harder option
    ((4, 4), {"L4": 4}),                         # a square: 8 symmetries
    ((4, 4), {"I4": 2, "O": 2}),
    ((4, 5), {"tetrominoes": 1}),                # the five tetrominoes tile no rectangle
    ((3, 5), {"V3": 2, "L4": 1, "V5": 1}),
    ((3, 3), [{"1": 3, "2": 1}, {"1": 2, "2": 0}, {"1": 2}]),
])
def test_counts_match_the_oracle(shape, pieces):
    for same in (True, False):
        puzzle = pz.Packing(shape, pieces, same_colour_edges=same)
        tilings = oracle_tilings(shape, kinds_of(puzzle), same)
        assert puzzle.count_solutions() == len(tilings), (same, shape, pieces)
        assert puzzle.count_solutions(up_to_symmetry=True) == oracle_classes(shape, tilings), (same, shape, pieces)
        solution = puzzle.solve(seed=0, time_limit=10)
        assert (solution is not None) == bool(tilings)
        if solution is not None:
            assert puzzle.check(solution).valid


def test_oracle_agrees_with_known_values():
    assert len(oracle_tilings((2, 4), {("I4", 0): 1, ("I4", 1): 1}, False)) == 2
    assert len(oracle_tilings((2, 4), {("I4", 0): 2}, False)) == 0
    # domino tilings of 2 x n: Fibonacci numbers, 13 for 2 x 6; every one is its own upside-down
    # image, and 5 are palindromes, so (13 + 5) / 2 = 9 up to symmetry
    tilings = oracle_tilings((2, 6), {("2", 0): 6}, True)
    assert len(tilings) == 13 and oracle_classes((2, 6), tilings) == 9
    assert pz.Packing((2, 6), {"2": 6}).count_solutions() == 13
    assert pz.Packing((2, 6), {"2": 6}).count_solutions(up_to_symmetry=True) == 9


@st.composite
def small_puzzles(draw):
    height, width = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    area, hands = height * width, [collections.Counter() for _ in range(4)]
    while area:
        name = draw(st.sampled_from([n for n in pz.PIECE_NAMES if pz._piece_size(n) <= area]))
        hands[draw(st.integers(0, 3))][name] += 1
        area -= pz._piece_size(name)
    return (height, width), [dict(h) for h in hands]


@settings(max_examples=40, deadline=None)
@given(small_puzzles(), st.booleans())
def test_random_small_puzzles_match_the_oracle(case, same):
    shape, pieces = case
    puzzle = pz.Packing(shape, pieces, same_colour_edges=same)
    tilings = oracle_tilings(shape, kinds_of(puzzle), same)
    assert puzzle.count_solutions() == len(tilings)
    assert puzzle.count_solutions(up_to_symmetry=True) == oracle_classes(shape, tilings)
    solution = puzzle.solve(seed=1, time_limit=10)
    assert (solution is not None) == bool(tilings)
    if solution is not None:
        assert puzzle.check(solution).valid


def test_no_solution_is_none_quickly():
    puzzle = pz.Packing((1, 5), {"X": 1})
    assert puzzle.solve(seed=0) is None and puzzle.count_solutions() == 0


# ---- check rejects wrong solutions --------------------------------------------------------

def four_by_two():
    """Two I4s of two colours in 2x4: blue on top, yellow below."""
    return pz.Packing((2, 4), [{"I4": 1}, {"I4": 1}], same_colour_edges=False)


def row(r, colour=0, name="I4"):
    return (name, colour, tuple((r, c) for c in range(4)))


def test_check_accepts_a_hand_made_solution():
    solution = pz.Solution.from_pieces((2, 4), [row(0, 0), row(1, 1)])
    assert four_by_two().check(solution).valid
    assert solution.colours.tolist() == [[0] * 4, [1] * 4]
    assert solution.grid.tolist() == [[0] * 4, [1] * 4]


@pytest.mark.parametrize("pieces, message", [
    ([row(0, 0), row(0, 1)], "more than one piece"),                    # overlap
    ([row(0, 0)], "empty cells"),                                       # a gap
    ([row(0, 0)], "1 piece instead of 2"),                             # a piece short
    ([row(0, 0), row(1, 1), row(1, 2)], "3 pieces instead of 2"),       # one too many
    ([row(0, 0), row(1, 0)], "yellow I4: 0 instead of 1"),              # wrong colour
    ([row(0, 0), row(1, 0)], "share an edge"),                          # same colour, harder option
    ([row(0, 0), ("L4", 1, ((1, 0), (1, 1), (1, 2), (1, 3)))], "are not a L4"),
    ([row(0, 0), ("Q", 1, ((1, 0),))], "unknown piece"),
    ([row(0, 0), ("I4", 1, ((1, 1), (1, 2), (1, 3), (1, 4)))], "off the grid"),
    ([row(0, 0), ("I4", 7, ((1, 0), (1, 1), (1, 2), (1, 3)))], "colour must be 0-3"),
])
def test_check_rejects(pieces, message):
    verdict = four_by_two().check(pz.Solution.from_pieces((2, 4), pieces))
    assert not verdict and not verdict.valid
    assert any(message in p for p in verdict.problems), verdict.problems


def test_same_colour_edges_allowed_in_the_basic_puzzle():
    basic = pz.Packing((2, 4), [{"I4": 2}])
    solution = pz.Solution.from_pieces((2, 4), [row(0, 0), row(1, 0)])
    assert basic.check(solution).valid
    assert not pz.Packing((2, 4), [{"I4": 2}], same_colour_edges=False).check(solution).valid


def test_check_rejects_grid_mismatch_and_shape():
    grid = np.array([[0, 0, 0, 0], [1, 1, 0, 1]])
    verdict = four_by_two().check(pz.Solution(grid, [row(0, 0), row(1, 1)]))
    assert not verdict and "disagree" in str(verdict)
    verdict = pz.Packing.tetrominoes().check(pz.Solution.from_pieces((2, 4), [row(0, 0), row(1, 1)]))
    assert verdict.problems == ("the grid is 2x4, the puzzle 8x10",)
    with pytest.raises(TypeError):
        four_by_two().check([row(0, 0)])


def test_check_catches_a_corrupted_solver_solution():
    puzzle = pz.Packing.tetrominoes(same_colour_edges=False)
    solution = puzzle.solve(seed=5)
    pieces = list(solution.pieces)
    name, colour, cells = pieces[0]
    pieces[0] = (name, (colour + 1) % 4, cells)    # recolour one piece
    verdict = puzzle.check(pz.Solution.from_pieces((8, 10), pieces))
    assert not verdict and "instead of" in str(verdict)
    pieces = list(solution.pieces)
    del pieces[3]                                    # remove one
    verdict = puzzle.check(pz.Solution.from_pieces((8, 10), pieces))
    assert "19 pieces instead of 20" in verdict.problems and "4 empty cells" in str(verdict)


# ---- the pieces argument ---------------------------------------------------------------------

def test_pieces_colours_round_robin_or_per_colour():
    assert pz.Packing((4, 4), {"I4": 4}).pieces == {("I4", c): 1 for c in range(4)}
    assert pz.Packing((3, 3), {"1": 5, "2": 2}).pieces == {
        ("1", 0): 2, ("1", 1): 1, ("1", 2): 1, ("1", 3): 1, ("2", 0): 1, ("2", 1): 1}
    assert pz.Packing((2, 4), [{"I4": 1}, {}, {"O": 1}]).pieces == {("I4", 0): 1, ("O", 2): 1}
    assert pz.Packing((8, 10)).pieces == pz.Packing.tetrominoes().pieces
    assert pz.Packing((16, 15)).num_pieces == 48


@pytest.mark.parametrize("args, error, match", [
    (((2, 4), {"I4": 1}), ValueError, "cover 4 squares"),
    (((2, 4), {"Q": 2}), ValueError, "unknown piece"),
    (((2, 4), {"I4": -2}), ValueError, ">= 0"),
    (((2, 4), {"I4": 2.5}), TypeError, "must be an int"),
    (((2, 4), [{}, {}, {}, {}, {"I4": 2}]), ValueError, "at most 4 colours"),
    (((2, 4), "I4"), TypeError, "mapping"),
    (((0, 4), {"I4": 0}), ValueError, "sides"),
    (((60, 60), {"1": 3600}), ValueError, "shorter"),
    (((7, 7), None), ValueError, "give the pieces"),
    (((2,), {"I4": 2}), ValueError, "shape"),
])
def test_bad_puzzles_raise(args, error, match):
    with pytest.raises(error, match=match):
        pz.Packing(*args)


def test_puzzle_by_name():
    assert pz.puzzle("8x10").shape == (8, 10)
    assert pz.puzzle("16X15", same_colour_edges=False).same_colour_edges is False
    assert isinstance(pz.puzzle("all84", start="fixed"), pz.All84)
    with pytest.raises(ValueError, match="unknown puzzle"):
        pz.puzzle("6x10")
    assert pz.parse_pieces("pentominoes, I4:2,I4") == {"pentominoes": 1, "I4": 3}
    with pytest.raises(ValueError):
        pz.parse_pieces("I4:x")


# ---- All 84 ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def all84_solution():
    solution = pz.All84().solve(seed=1, time_limit=300)
    assert solution is not None
    return solution


def test_all84_game_is_a_classic_game():
    game = pz.all84()
    assert isinstance(game, blokus.Game) and game.variant == "classic" and game.start == "any"
    assert pz.all84("fixed").start == "fixed"
    with pytest.raises(ValueError):
        pz.all84("corner")


def test_all84_solution_places_every_piece(all84_solution):
    solution = all84_solution
    assert len(solution.moves) == 84 and len(solution.pieces) == 84
    assert pz.All84().check(solution).valid
    game = pz.all84()
    for move in solution.moves:
        game.play(move)
    assert game.is_over and all(score in (15, 20) for score in game.scores())
    assert not game.remaining.any()
    assert np.array_equal(solution.colours, game.board)       # the colours grid is the board
    assert (solution.grid >= 0).sum() == 356 and solution.grid.shape == (20, 20)
    assert [c for _, c, _ in solution.pieces[:8]] == [0, 1, 2, 3] * 2   # turn order kept
    assert pz.All84().check(game).valid and pz.All84().check(list(solution.moves)).valid


def test_all84_check_says_why_not(all84_solution):
    moves = list(all84_solution.moves)
    verdict = pz.All84().check(moves[:-1])
    assert not verdict and len(verdict.problems) == 1
    assert verdict.problems[0].startswith("green has 1 piece left")
    verdict = pz.All84().check(moves[:1] + moves[:1])
    assert not verdict and verdict.problems[0].startswith("move 2 (yellow")
    assert "occupied" in verdict.problems[0].lower()
    tampered = pz.Solution(np.zeros((20, 20), dtype=np.int16), all84_solution.pieces, all84_solution.moves)
    assert pz.All84().check(tampered).problems == ("the grid does not match the moves",)


def test_all84_solves_on_from_a_position(all84_solution):
    game = pz.all84()
    for move in all84_solution.moves[:60]:   # from further back it takes seconds to a minute
        game.play(move)
    before = game.history
    solution = pz.All84().solve(game, seed=2, time_limit=300)
    assert solution is not None and pz.All84().check(solution).valid
    assert list(solution.moves[:60]) == list(all84_solution.moves[:60])
    assert game.history == before   # the game itself is left alone


def test_all84_best_effort_and_time_limit():
    partial = pz.All84().solve(seed=4, time_limit=0.01, best_effort=True)
    assert partial is not None
    verdict = pz.All84().check(partial)
    assert verdict.valid == (len(partial.moves) == 84)
    with pytest.raises(ValueError):
        pz.All84().solve(blokus.Game("duo"))
    with pytest.raises(ValueError, match="time_limit"):
        pz.All84().solve(time_limit=-1)


# ---- searches in C: progress, GIL, Ctrl-C -----------------------------------------------------

def test_progress_is_called_and_its_errors_propagate():
    calls = []

    def progress(info):
        calls.append(info)
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        pz.Packing.pentominoes().count_solutions(progress=progress, time_limit=30)
    assert len(calls) == 1 and set(calls[0]) == {"seconds", "nodes", "restarts"}
    assert calls[0]["seconds"] >= 1.0 and calls[0]["nodes"] > 0
    with pytest.raises(TypeError):
        pz.Packing.tetrominoes().solve(progress=3)


def test_searches_release_the_gil():
    done = threading.Event()
    ticks = 0

    def work():
        try:
            pz.Packing.pentominoes().count_solutions(time_limit=1.0)
        except TimeoutError:
            pass
        finally:
            done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.005)
    worker.join()
    assert ticks > 20   # the main thread ran while the search did


def test_ctrl_c_stops_a_search():
    code = ("import blokus.puzzles as pz; print('go', flush=True); "
            "pz.Packing.pentominoes().count_solutions()")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "go"
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode != 0 and "KeyboardInterrupt" in stderr


# ---- pictures and the command line ----------------------------------------------------------

def test_text_and_svg_pictures():
    solution = pz.Solution.from_pieces((2, 4), [row(0, 0), row(1, 1)])
    assert str(solution).splitlines() == [
        "+---+---+---+---+",
        "| B   B   B   B |",
        "+---+---+---+---+",
        "| Y   Y   Y   Y |",
        "+---+---+---+---+",
    ]
    svg = solution.svg()
    assert svg.startswith("<svg") and svg.count('class="bk-cell bk-c0"') == 4
    assert svg.count('class="bk-cell bk-c1"') == 4
    assert svg == solution.svg() == render.svg(solution, size=96) and 'width="96" height="48"' in svg
    # the piece edges: the outline is the border (2 x 4 + 2 x 2 unit edges) and the line between
    # the two rows (4), 16 segments; the 6 edges inside the rows are thin
    outline = re.search(r'class="bk-outline" d="([^"]*)"', svg)[1]
    assert outline.count("M") == 16 and re.search(r'class="bk-grid" d="([^"]*)"', svg)[1].count("M") == 6
    img = render.image(solution, cell=4)
    assert img.shape == (8, 16, 3)
    assert img[2, 2].tolist() == [30, 90, 200] and img[6, 2].tolist() == [235, 190, 20]  # blue, yellow
    assert 'width="16" height="8"' in solution.svg(cell=4)
    with pytest.raises(ValueError):
        solution.svg(cell=0)
    empty = pz.Solution(np.full((1, 2), -1), [])
    assert str(empty).splitlines()[1] == "| .   . |" and empty.colours.tolist() == [[-1, -1]]


def run_cli(argv, capsys):
    parser = argparse.ArgumentParser(prog="blokus")
    add_solve_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    status = args.func(args)
    return status, *capsys.readouterr()


@pytest.mark.slow
def test_cli_solves_and_writes_pictures(tmp_path, capsys):
    out = tmp_path / "p.svg"
    status, stdout, stderr = run_cli(["solve", "8x10", "--seed", "3", "--out", str(out)], capsys)
    assert status == 0 and "check: valid" in stdout and "seed 3" in stdout
    assert out.read_text().startswith("<svg") and "Packing 8x10" in stderr
    status, stdout, _ = run_cli(["solve", "8x10", "--no-same-colour-edges", "--seed", "3", "--out",
                                 str(tmp_path / "p.txt")], capsys)
    assert status == 0 and (tmp_path / "p.txt").read_text().startswith("+---")
    status, stdout, _ = run_cli(["solve", "all84", "--seed", "1", "--time-limit", "300"], capsys)
    assert status == 0 and "check: valid" in stdout


def test_cli_counts_and_errors(capsys):
    status, stdout, _ = run_cli(["solve", "3x20", "--pieces", "pentominoes", "--count", "--up-to-symmetry"], capsys)
    assert status == 0 and stdout.startswith("2 solutions up to symmetry")
    status, stdout, _ = run_cli(["solve", "1x5", "--pieces", "X"], capsys)
    assert status == 1
    status, _, stderr = run_cli(["solve", "7x7"], capsys)
    assert status == 2 and "unknown puzzle" in stderr
    status, _, stderr = run_cli(["solve", "all84", "--count"], capsys)
    assert status == 2 and "for packings" in stderr
    status, _, stderr = run_cli(["solve", "all84", "--pieces", "I4"], capsys)
    assert status == 2 and "HEIGHTxWIDTH" in stderr
    with pytest.raises(SystemExit):
        run_cli(["solve", "8x10", "--time-limit", "0"], capsys)


def test_a_huge_count_is_refused_at_once():
    with pytest.raises(ValueError, match="at most 4096 pieces"):
        pz.Packing((8, 10), {"1": 10**12})


def test_a_solution_is_never_rounded_into_a_valid_one():
    solution = pz.Packing.tetrominoes(same_colour_edges=False).solve(seed=1)
    with pytest.raises(ValueError, match="integer labels"):
        pz.Solution(solution.grid + 0.7, solution.pieces)
    with pytest.raises(ValueError, match="integer labels"):
        pz.Solution(solution.grid.astype(np.int64) + 65536, solution.pieces)
    name, colour, cells = solution.pieces[0]
    with pytest.raises(TypeError, match="a colour must be an int"):
        pz.Solution(solution.grid, [(name, colour + 0.9, cells)] + solution.pieces[1:])
    with pytest.raises(TypeError, match="a row must be an int"):
        pz.Solution(solution.grid, [(name, colour, ((cells[0][0] + 0.5, cells[0][1]),) + cells[1:])]
                    + solution.pieces[1:])
