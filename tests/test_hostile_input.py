"""Arguments that fight back (issue 11): Python code that runs while the C binding reads an
argument (``__index__``, ``__iter__``, ``__next__``) and changes what is being read; endless and
huge iterables; values out of every range; bytes where text is expected; a process forked in the
middle of a batch step; Ctrl-C in the middle of one.

Every case ends in a clean exception that says what is wrong, or in the result the argument had
when it was read, and the state is unchanged when the call fails. The values asserted come from
the rules (Duo's starting square e10 is (4, 4); a piece has at most 5 cells), not from the code.
"""
import io
import itertools
import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

import blokus
from blokus import _core, sgf
from blokus.agents import make_agent, parse_agents
from blokus.gtp import Engine, serve
from blokus.puzzles import Packing

E10 = (4, 4)  # Duo: purple's starting square under start="fixed" (docs/rules.md)
I5 = blokus.PIECE_NAMES.index("I5")


def duo():
    return blokus.Game("duo", start="fixed")


def monomino_at_e10():
    return blokus.parse_move("e10", "duo")


class Index:
    """An int whose __index__ first runs `action` (once)."""

    def __init__(self, value, action=None):
        self.value, self.action = value, action

    def __index__(self):
        if self.action:
            action, self.action = self.action, None
            action()
        return self.value


class Raises:
    def __index__(self):
        raise ZeroDivisionError("from __index__")


# ---- moves given as cells: the containers change while they are read -------------------------

def test_index_that_empties_the_list_of_cells():
    cells = []
    cells.append((Index(4, cells.clear), 4))
    game = duo()
    game.play(cells)  # the cells as they were when play() read them: e10
    assert game.history == [(0, monomino_at_e10())]


def test_index_that_empties_the_cell_being_read():
    cell = []
    cell.extend([Index(4, cell.clear), 4])
    game = duo()
    game.play([cell])
    assert game.history == [(0, monomino_at_e10())]


def test_index_that_shrinks_and_grows_the_list():
    # a domino e10,e11 whose reading removes its second cell and adds three more
    cells = []
    cells.extend([(Index(4, lambda: (cells.pop(), cells.extend([(0, 0)] * 3))), 4), (3, 4)])
    game = duo()
    game.play(cells)
    assert game.history == [(0, blokus.parse_move("e10,e11", "duo"))]


def test_iter_that_plays_on_the_game_first():
    # the move is read (which plays e10 as purple), then played for the colour then to move
    game = duo()

    class Cells:
        def __iter__(self):
            game.play("e10")
            return iter([(9, 9)])  # j5: orange's starting square

    game.play(Cells())
    assert game.history == [(0, monomino_at_e10()), (1, blokus.parse_move("j5", "duo"))]


@pytest.mark.parametrize("move", [
    itertools.repeat(E10),               # endless
    itertools.count(),                    # endless, and not cells at all
    (E10 for _ in range(10**12)),         # huge and lazy
    [E10] * 10**6,                        # huge and materialised
])
def test_endless_or_huge_iterables_are_refused_after_six_items(move):
    game = duo()
    with pytest.raises(ValueError, match="not one of the 21 pieces"):
        game.play(move)
    assert game.history == []


def test_an_iterator_reads_no_further_than_one_cell_past_a_piece():
    seen = []

    def cells():
        for k in itertools.count():
            seen.append(k)
            yield (0, k)

    with pytest.raises(ValueError, match="not one of the 21 pieces"):
        duo().play(cells())
    assert seen == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("move, error, message", [
    ([(Raises(), 4)], ZeroDivisionError, "from __index__"),
    ([(4, Raises())], ZeroDivisionError, "from __index__"),
    (Raises(), ZeroDivisionError, "from __index__"),
    (False, TypeError, "not bool"),
    (True, TypeError, "not bool"),
    ([(True, 4)], TypeError, "row must be an int, not bool"),
    (b"e10", TypeError, "not bytes"),
    (["e10"], TypeError, "a cell must be a \\(row, col\\) pair, not str"),
    ([(4, 4, 4)], ValueError, "a cell must be a \\(row, col\\) pair"),
    ([4], TypeError, "a cell must be a \\(row, col\\) pair, not int"),
    (None, TypeError, "a move must be"),
    (2**100, ValueError, "placement id out of range\\(13729\\)"),
    (-(2**100), ValueError, "placement id out of range\\(13729\\)"),
])
def test_bad_moves_raise_and_change_nothing(move, error, message):
    game = duo()
    game.play("e10")
    before = game.copy()
    with pytest.raises(error, match=message):
        game.play(move)
    assert game == before and game.history == before.history


def test_huge_coordinates_are_off_the_board():
    game = duo()
    with pytest.raises(blokus.IllegalMoveError, match="off board"):
        game.play([(2**200, 4)])
    assert game.history == []


def test_an_iter_that_raises_midway_changes_nothing():
    def cells():
        yield E10
        raise RuntimeError("from __next__")

    game = duo()
    with pytest.raises(RuntimeError, match="from __next__"):
        game.play(cells())
    assert game.history == []


@pytest.mark.parametrize("colour", [True, 2**70, -1, 2, "0", 1.0])
def test_bad_colours_are_refused(colour):
    game = duo()
    with pytest.raises((TypeError, ValueError), match="colour"):
        game.legal_moves(colour)
    with pytest.raises((TypeError, ValueError), match="colour"):
        game.is_out(colour)


# ---- puzzles: the list of kinds changes while its counts are read -----------------------------

def test_count_index_that_empties_the_kinds():
    kinds = []
    kinds.append((I5, 0, Index(1, kinds.clear)))
    labels, colours, pieces = _core.pack_solve(1, 5, kinds, seed=0)
    assert pieces == ((I5, 0),) and (labels == 0).all()


def test_kind_index_that_empties_the_kind_being_read():
    kind = []
    kind.extend([I5, Index(0, kind.clear), 1])
    assert _core.pack_solve(1, 5, [kind], seed=0)[2] == ((I5, 0),)


@pytest.mark.parametrize("kinds, error, message", [
    (itertools.repeat((I5, 0, 1)), ValueError, "at most 84 kinds"),
    ([(I5, 0)], ValueError, "\\(piece, colour, count\\) triple"),
    ([(I5, 0, 1, 1)], ValueError, "\\(piece, colour, count\\) triple"),
    ([(I5, 0, Raises())], ZeroDivisionError, "from __index__"),
    ([(I5, 0, 2**64)], ValueError, "count out of range"),
    ([(21, 0, 1)], ValueError, "piece out of range\\(21\\)"),
    ([(I5, True, 1)], TypeError, "colour must be an int, not bool"),
    (None, TypeError, "kinds must be an iterable"),
])
def test_bad_kinds_are_refused(kinds, error, message):
    with pytest.raises(error, match=message):
        _core.pack_solve(1, 5, kinds)


def test_puzzle_limits_are_checked_at_the_call():
    packing = Packing((1, 5), {"I5": 1})
    with pytest.raises(ValueError, match="limit must be in \\[1, 2\\*\\*63 - 1\\)"):
        packing.count_solutions(limit=2**63 - 1)
    with pytest.raises(ValueError, match="time_limit must be a number of seconds"):
        packing.count_solutions(time_limit=2**2000)
    with pytest.raises(ValueError, match="time_limit must be a number of seconds"):
        packing.solve(time_limit=float("nan"))
    assert packing.count_solutions(limit=2**63 - 2) == 1  # I5 in a 1x5 rectangle: one tiling


# ---- agents -----------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, message", [
    ("mcts:sims=99999999999999999999", "simulations must be in \\[1, 2\\*\\*63\\)"),
    ("mcts:sims=٥", "ASCII digits"),
    ("mcts:seconds=1e400", "seconds must be in"),
    ("mcts:c=nan", "ASCII digits"),
    ("mcts:sims=" + "9" * 100_000, "ASCII digits"),
])
def test_agent_strings_fail_when_made(spec, message):
    with pytest.raises(ValueError, match=message) as info:
        make_agent(spec)
    assert len(str(info.value)) < 300  # the value is not echoed whole
    with pytest.raises(ValueError, match=message):
        parse_agents(spec)


def test_agent_strings_must_be_str():
    with pytest.raises(TypeError, match="must be a str"):
        make_agent(None)
    with pytest.raises(TypeError, match="must be a str"):
        parse_agents(b"greedy")


# ---- SGF ---------------------------------------------------------------------------------------

RECORD = "(;GM[Blokus Duo];1[e10];2[j5])"


def test_sgf_reads_utf8_bytes():
    game = sgf.loads(RECORD.encode())
    assert game.history == [(0, monomino_at_e10()), (1, blokus.parse_move("j5", "duo"))]


@pytest.mark.parametrize("text, error, message", [
    (None, TypeError, "SGF text must be a str \\(or UTF-8 bytes\\), not NoneType"),
    (42, TypeError, "not int"),
    (b"(;GM[Blokus Duo]C[caf\xe9])", ValueError, "not UTF-8 \\(byte 21\\)"),
])
def test_sgf_bad_types(text, error, message):
    with pytest.raises(error, match=message):
        sgf.loads(text)
    with pytest.raises(error, match=message):
        sgf.records(text)


def test_sgf_errors_do_not_echo_a_huge_value():
    huge = "a" * 1_000_000
    for text in (f"(;GM[Blokus Duo];1[{huge}])", f"(;GM[{huge}])", f"(;GM[Blokus Duo]BKS[{huge}])"):
        with pytest.raises(ValueError) as info:
            sgf.loads(text)
        assert len(str(info.value)) < 400


# ---- GTP ---------------------------------------------------------------------------------------

def test_gtp_answers_every_line_despite_bytes_that_are_not_utf8():
    out = io.StringIO()
    serve(Engine("duo", "greedy"), io.BytesIO(b"name\n# caf\xe9\nname\nplay b \xff\n7 name\n"), out)
    answers = out.getvalue().split("\n\n")
    assert answers[:2] == ["= blokus", "= blokus"] and answers[2].startswith("? ") and answers[3] == "=7 blokus"


def test_gtp_command_line_survives_a_strict_decoder():
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    run = subprocess.run([sys.executable, "-m", "blokus", "gtp", "--variant", "duo"],
                         input=b"name\n# caf\xe9\nname\nplay b \xff\xfe\nquit\n", capture_output=True, env=env,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    answers = run.stdout.decode().split("\n\n")
    assert answers[:2] == ["= blokus", "= blokus"] and answers[2].startswith("? ") and answers[3].strip() == "="


# ---- VectorGame --------------------------------------------------------------------------------

def test_vector_game_sizes_and_types():
    with pytest.raises(ValueError, match="num_envs out of range"):
        blokus.VectorGame(2**62, "duo")
    with pytest.raises(ValueError, match="num_envs out of range"):
        blokus.VectorGame(0, "duo")
    with pytest.raises(TypeError, match="num_envs must be an int, not bool"):
        blokus.VectorGame(True, "duo")
    with pytest.raises(ValueError, match="seat out of range\\(2\\)"):
        blokus.VectorGame(2, "duo").play_opponents("random", seat=2**70)


def test_vector_step_refuses_a_masked_array():
    games = blokus.VectorGame(2, "duo", seed=1)
    first = games.legal_ids()[:, 0]
    masked = np.ma.masked_array(first, mask=[False, True])
    with pytest.raises(TypeError, match="masked array"):
        games.step(masked)
    assert (games.ply == 0).all()
    games.step(masked.filled(first[1]))
    assert (games.ply == 1).all()


def _while_stepping(games, action):
    """Runs action() from another thread as soon as `games` is seen in the middle of a step."""
    def watch():
        while True:
            try:
                games.legal_ids()
            except RuntimeError:  # "being stepped by another thread"
                action()
                return

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


PARTS = 4 * 4096  # four of the binding's parts: Ctrl-C is seen between two of them


@pytest.mark.slow
def test_ctrl_c_in_the_middle_of_a_step_leaves_a_batch_that_asks_for_reset():
    games = blokus.VectorGame(PARTS, "duo", seed=3, num_threads=1)
    thread = _while_stepping(games, lambda: os.kill(os.getpid(), signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        games.step_policy("greedy")
    thread.join()
    plies = set(games.ply.tolist())
    if plies == {0, 1}:  # interrupted between parts: some games stepped, the others not
        with pytest.raises(RuntimeError, match="interrupted part-way.*reset\\(\\) it first"):
            games.step_policy("random")
    else:  # the signal came with the last part: the step is whole
        assert plies == {1}
    games.reset(3)
    games.step_policy("random")
    assert set(games.ply.tolist()) == {1}


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_in_the_middle_of_a_step_gets_a_batch_that_asks_for_reset():
    games = blokus.VectorGame(PARTS, "duo", seed=3, num_threads=2)
    forked = {}

    def fork():
        forked["pid"] = os.fork()
        if forked["pid"] == 0:  # the child: only this thread exists
            code = 1
            try:
                games.step_policy("random")
            except RuntimeError as exc:
                code = 2 if "forked" in str(exc) else 3
            if code == 2:
                games.reset(5)
                games.step_policy("random")
                code = 0 if set(games.ply.tolist()) == {1} else 4
            os._exit(code)

    thread = _while_stepping(games, fork)
    games.step_policy("greedy")
    thread.join()
    _, status = os.waitpid(forked["pid"], 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert set(games.ply.tolist()) == {1}  # the parent's step is whole
