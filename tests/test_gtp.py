"""The GTP engine (blokus.gtp), against formats.md ("Engine protocol") and the rules."""
import contextlib
import errno
import io
import os
import stat
import subprocess
import sys
import threading

import pytest

try:
    import resource
except ImportError:  # not on Windows
    resource = None

import blokus
from blokus.gtp import Engine, serve


def session(engine, *lines):
    """The answers to the lines, one string each (without the blank line that ends it)."""
    answers = []
    for line in lines:
        answer = engine.handle(line)
        assert answer.endswith("\n\n"), answer
        answers.append(answer[:-2])
    return answers


def state(engine):
    game = engine.game
    return game.variant, game.history, game.board.tolist(), game.to_move


@pytest.fixture
def duo():
    engine = Engine("classic", "greedy", seed=1)
    assert session(engine, "set_game Blokus Duo") == ["= "]
    return engine


def test_play_undo_and_all_legal_follow_the_rules(duo):
    # Duo, fixed start: purple's first piece must cover e10 (formats.md), orange's j5.
    first = session(duo, "all_legal b")[0]
    assert first.startswith("= ")
    moves = first[2:].split("\n")
    assert len(moves) == len(blokus.Game("duo", start="fixed").legal_moves())
    assert all(blokus.Game("duo", start="fixed").legal_moves().tolist().count(blokus.parse_move(m, "duo")) == 1
               for m in moves[:20])
    assert session(duo, "play b e9,d10,e10,f10,d11", "play w j5") == ["= ", "= "]
    game = blokus.Game("duo", start="fixed")
    game.play("e9,d10,e10,f10,d11")
    game.play("j5")
    assert duo.game.history == game.history
    answer = session(duo, "all_legal b")[0]
    assert len(answer[2:].split("\n")) == len(game.legal_moves())
    assert session(duo, "undo")[0] == "= "
    assert len(duo.game.history) == 1
    assert session(duo, "undo", "undo") == ["= ", "? undo: no move has been played"]


def test_ids_are_echoed_and_comments_ignored(duo):
    assert duo.handle("   # only a comment\n") is None
    assert duo.handle("\n") is None
    assert session(duo, "7 name", "8 protocol_version # comment", "9 nonsense") == [
        "=7 blokus", "=8 2", "?9 unknown command: nonsense"]
    # an answer never echoes a huge word whole
    assert session(duo, "x" * 10**6) == [
        f"? unknown command: '{'x' * 40}'... (1000000 characters)"]


@pytest.mark.parametrize("line, message", [
    ("play w a1", "must cover a free starting square"),  # orange's first piece covers j5
    ("play b a1", "orange's turn"),
    ("play w j5,k6", "not one of the 21 pieces"),         # cells not joined by an edge
    ("play w zz99", "cannot read the move text"),
    ("play w", "needs a colour and a move"),
    ("play red j5", "unknown colour"),
    ("play w pass", "cannot pass"),                       # orange has moves
    ("genmove b", "orange's turn"),
    ("set_game Blokus Trigon", "unsupported game"),
    ("set_random_seed x", "non-negative integer"),
])
def test_errors_answer_a_message_and_change_nothing(duo, line, message):
    session(duo, "play b e9,d10,e10,f10,d11", "play w j5", "undo")  # orange to move
    before = state(duo)
    answer = session(duo, line)[0]
    assert answer.startswith("? ") and message in answer
    assert state(duo) == before


def test_genmove_plays_a_legal_move_or_passes():
    engine = Engine("duo", "random", seed=3)
    colours = {0: "b", 1: "w"}
    while not engine.game.is_over:
        mover = engine.game.to_move
        other = 1 - mover
        if not len(engine.game.legal_moves(other)):  # the other colour is out: it passes
            assert session(engine, f"genmove {colours[other]}") == ["= pass"]
            assert session(engine, f"play {colours[other]} pass") == ["= "]
        legal = {engine.game.move_text(int(m)) for m in engine.game.legal_moves()}
        before = len(engine.game.history)
        answer = session(engine, f"genmove {colours[mover]}")[0]
        assert answer[2:] in legal
        assert len(engine.game.history) == before + 1
    assert session(engine, "genmove b", "genmove w", "g") == ["= pass"] * 3


def test_reg_genmove_does_not_play(duo):
    answer = session(duo, "reg_genmove b")[0]
    assert blokus.parse_move(answer[2:], "duo") in blokus.Game("duo", start="fixed").legal_moves()
    assert duo.game.history == []


def test_final_score_uses_pentobi_points():
    # formats.md: two-player variants B+n / W+n / 0; otherwise Pentobi points per colour, which
    # count the squares on the board (our score + 89).
    engine = Engine("duo", "greedy")
    session(engine, "play b e9,d10,e10,f10,d11")   # purple: 5 squares placed
    assert session(engine, "final_score") == ["= B+5"]
    session(engine, "play w i4,j4,k4,j5,j6")       # orange: 5 more
    assert session(engine, "final_score") == ["= 0"]
    engine = Engine("classic", "greedy")
    session(engine, "play 1 a20,b20", "play yellow t20")
    assert session(engine, "final_score") == ["= 2 1 0 0"]
    engine = Engine("classic_2", "greedy")
    session(engine, "set_game Blokus Two-Player", "play 1 a20,b20")
    assert session(engine, "final_score") == ["= B+2"]


def test_list_and_known_commands_cover_what_match_runners_need(duo):
    listed = session(duo, "list_commands")[0][2:].split("\n")
    for command in ("set_game", "clear_board", "play", "genmove", "undo", "all_legal", "final_score",
                    "showboard", "list_commands", "name", "version", "quit", "cputime", "reg_genmove",
                    "set_random_seed", "known_command", "loadsgf", "savesgf", "param"):
        assert command in listed
        assert session(duo, f"known_command {command}") == ["= true"]
    assert session(duo, "known_command fly") == ["= false"]


def test_showboard_and_clear_board(duo):
    session(duo, "play b e9,d10,e10,f10,d11")
    board = session(duo, "showboard")[0]
    assert board.startswith("= \n14 ")
    assert board.count("P") == 5
    assert session(duo, "clear_board") == ["= "]
    assert duo.game.history == [] and duo.game.variant == "duo"


def test_same_seed_same_moves():
    def moves(seed):
        engine = Engine("duo", "mcts:sims=30", seed=seed)
        return session(engine, "genmove b", "genmove w", "genmove b")
    assert moves(5) == moves(5)
    engine = Engine("duo", "random", seed=5)
    first = session(engine, "genmove b")
    session(engine, "clear_board", "set_random_seed 5")
    assert session(engine, "genmove b") == first


def test_serve_stops_at_quit():
    out = io.StringIO()
    serve(Engine("duo", "greedy"), io.StringIO("name\nquit\nname\n"), out)
    assert out.getvalue() == "= blokus\n\n= \n\n"


def test_the_gtp_command_answers_on_stdout():
    script = "1 set_game Blokus Duo\n2 genmove b\n3 all_legal w\nquit\n"
    run = subprocess.run([sys.executable, "-m", "blokus", "gtp", "--agent", "greedy", "--seed", "1"],
                         input=script, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    answers = run.stdout.split("\n\n")
    assert answers[0] == "=1 "
    game = blokus.Game("duo", start="fixed")
    move = answers[1].removeprefix("=2 ")
    assert blokus.parse_move(move, "duo") in game.legal_moves()
    assert len(move.split(",")) == 5  # greedy plays a largest piece
    game.play(move)
    assert len(answers[2].removeprefix("=3 ").split("\n")) == len(game.legal_moves())


def test_the_gtp_command_refuses_a_bad_agent():
    run = subprocess.run([sys.executable, "-m", "blokus", "gtp", "--agent", "minimax"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "unknown agent 'minimax'" in run.stderr


def test_duo_colours_by_our_names_too(duo):
    assert session(duo, "play purple e9,d10,e10,f10,d11", "play orange j5") == ["= ", "= "]
    assert [c for c, _ in duo.game.history] == [0, 1]


def test_savesgf_and_loadsgf_round_trip_a_game(duo, tmp_path):
    moves = ["e9,d10,e10,f10,d11", "j5", "f8,g8,g9"]
    game = blokus.Game("duo", start="fixed")
    for colour, move in zip("bwb", moves):
        assert session(duo, f"play {colour} {move}") == ["= "]
        game.play(move)
    path = tmp_path / "game.blksgf"
    assert session(duo, f"savesgf {path}") == ["= "]
    assert blokus.sgf.read(path)[0].history == game.history
    other = Engine("classic", "greedy", seed=2)
    assert session(other, f"loadsgf {path}") == ["= "]
    assert state(other) == state(duo)           # the variant comes from the record
    assert session(other, f"loadsgf {path} 2") == ["= "]   # before move 2: the first move only
    assert other.game.history == game.history[:1]
    assert session(other, "genmove w")[0].startswith("= ")


@pytest.mark.parametrize("line, message", [
    ("loadsgf", "loadsgf needs a file name"), ("loadsgf x.blksgf 0", "move number >= 1"),
    ("loadsgf /nonexistent/x.blksgf", "cannot load"), ("savesgf", "savesgf needs a file name"),
    ("savesgf /nonexistent/dir/x.blksgf", "cannot save")])
def test_sgf_errors_change_nothing(duo, line, message):
    session(duo, "play b e9,d10,e10,f10,d11")
    before = state(duo)
    answer = session(duo, line)[0]
    assert answer.startswith("? ") and message in answer, answer
    assert state(duo) == before


@pytest.mark.parametrize("value", ["5:threads=7:max_nodes=3", "5:max_nodes=3", "5=3", "5,greedy"])
def test_a_param_value_is_one_value(value):
    # an agent string splits on ':' and '=' (and ',' between agents): a value holding them would set
    # other parameters (max_nodes=3 and threads=7 from "param sims ..."), so it is refused whole
    engine = Engine("duo", "mcts:sims=30:threads=1", seed=3)
    answer = session(engine, f"param sims {value}")[0]
    assert answer.startswith("? param sims: the value must be one number"), answer
    assert engine.agent_spec == "mcts:sims=30:threads=1"
    assert session(engine, "param") == ["= sims 30\nthreads 1"]
    assert engine.agent.options["max_nodes"] != 3 and engine.agent.options["threads"] == 1


def answer_without_waiting(engine, line, fifo=None):
    """engine's answer to line, from a thread; if it is still waiting after a minute (a bound on
    a hang, not a timing) the far end of ``fifo`` is opened to release it and the test fails."""
    answers = []
    thread = threading.Thread(target=lambda: answers.append(engine.handle(line)), daemon=True)
    thread.start()
    thread.join(60)
    if thread.is_alive():
        for flags in (os.O_WRONLY, os.O_RDONLY):  # the end the engine is not waiting on
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, flags | os.O_NONBLOCK))
        thread.join(60)
        pytest.fail(f"{line!r} waited on the FIFO")
    return answers[0][:-2]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("command", ["loadsgf", "savesgf"])
def test_a_fifo_is_refused_without_waiting_and_left_as_it_was(duo, tmp_path, command):
    # open() of a FIFO waits for a writer (loadsgf) or a reader (savesgf) that never comes
    fifo = tmp_path / "game.blksgf"
    os.mkfifo(fifo)
    session(duo, "play b e9,d10,e10,f10,d11")
    before = state(duo)
    answer = answer_without_waiting(duo, f"{command} {fifo}", fifo)
    verb = "load" if command == "loadsgf" else "save"
    assert answer == f"? cannot {verb} {fifo}: not a regular file but a FIFO (named pipe)"
    assert state(duo) == before and stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("command", ["loadsgf", "savesgf"])
def test_a_fifo_made_after_the_name_was_checked_is_refused_without_waiting(duo, tmp_path, monkeypatch, command):
    # the name is checked (os.stat) before it is opened: if a FIFO takes its place in between,
    # the open must not wait on it either, and what was opened is checked again
    fifo = tmp_path / "game.blksgf"
    os.mkfifo(fifo)
    real_stat = os.stat

    def stat_before_the_fifo_came(path, *args, **kwargs):
        if os.fspath(path) == str(fifo):
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_stat(path, *args, **kwargs)
    monkeypatch.setattr(os, "stat", stat_before_the_fifo_came)
    before = state(duo)
    answer = answer_without_waiting(duo, f"{command} {fifo}", fifo)
    monkeypatch.undo()
    # read side: opened at once and refused by what it is; write side: no reader, so the
    # open fails at once (ENXIO) instead of waiting for one
    assert answer in (f"? cannot load {fifo}: not a regular file but a FIFO (named pipe)",
                      f"? cannot save {fifo}: [Errno {errno.ENXIO}] {os.strerror(errno.ENXIO)}: '{fifo}'"), answer
    assert state(duo) == before and stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("line, message", [
    ("loadsgf /dev/null", "? cannot load /dev/null: not a regular file but a character device"),
    ("savesgf /dev/null", "? cannot save /dev/null: not a regular file but a character device"),
    ("loadsgf {tmp}", "? cannot load {tmp}: not a regular file but a directory"),
    ("savesgf {tmp}", "? cannot save {tmp}: not a regular file but a directory"),
])
def test_devices_and_directories_are_refused(duo, tmp_path, line, message):
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    session(duo, "play b e9,d10,e10,f10,d11")
    before = state(duo)
    assert session(duo, line.format(tmp=tmp_path)) == [message.format(tmp=tmp_path)]
    assert state(duo) == before and list(tmp_path.iterdir()) == []


def test_a_record_larger_than_the_cap_is_refused_unread(duo, tmp_path):
    # a valid record with a comment that takes it one byte past 1 MiB; one byte less loads
    path = tmp_path / "big.blksgf"
    head, tail = "(;GM[Blokus Duo]C[", "];B[e10])"
    path.write_text(head + "a" * (2**20 + 1 - len(head) - len(tail)) + tail, encoding="ascii")
    before = state(duo)
    assert session(duo, f"loadsgf {path}") == [f"? cannot load {path}: larger than 1048576 bytes"]
    assert state(duo) == before
    path.write_text(head + "a" * (2**20 - len(head) - len(tail)) + tail, encoding="ascii")
    assert session(duo, f"loadsgf {path}") == ["= "]
    assert len(duo.game.history) == 1


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/zero") or resource is None, reason="needs /dev/zero and setrlimit")
def test_loadsgf_of_an_endless_device_is_refused_unread():
    # /dev/zero never ends: read whole it would take all memory. The engine runs with its address
    # space capped at 1 GiB (it needs a few hundred MB), so a regression fails instead of
    # exhausting the machine; not under AddressSanitizer, whose shadow memory alone is terabytes
    # of address space (the 1 MiB cap on reading still bounds it there).
    def cap_memory():
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
    sanitized = "libasan" in os.environ.get("LD_PRELOAD", "")
    run = subprocess.run([sys.executable, "-m", "blokus", "gtp", "--agent", "greedy"],
                         input="loadsgf /dev/zero\nname\nquit\n", capture_output=True, text=True,
                         timeout=120, preexec_fn=None if sanitized else cap_memory)
    assert run.stdout.split("\n\n")[:2] == ["? cannot load /dev/zero: not a regular file but a character device",
                                             "= blokus"], run.stderr


def test_param_replaces_a_value_given_under_another_name():
    engine = Engine("duo", "mcts:simulations=30:sims=20:c=0.3", seed=3)
    assert session(engine, "param simulations 12", "param exploration 0.5") == ["= ", "= "]
    assert session(engine, "param") == ["= simulations 12\nexploration 0.5"]  # one of each, in place
    assert engine.agent.options["simulations"] == 12 and engine.agent.options["exploration"] == 0.5


def test_param_lists_and_sets_the_agents_parameters():
    engine = Engine("duo", "mcts:sims=30", seed=3)
    assert session(engine, "param") == ["= sims 30"]
    assert session(engine, "param c 0.4", "param sims 12") == ["= ", "= "]
    assert session(engine, "param") == ["= sims 12\nc 0.4"]
    assert engine.agent.search(engine.game).simulations == 12          # it reached the search
    assert engine.agent.options["exploration"] == 0.4
    for line, message in (("param sims -1", "simulations must be in [1, 2**63)"),
                          ("param depth 3", "unknown parameter"), ("param sims", "a key and a value")):
        answer = session(engine, line)[0]
        assert answer.startswith("? ") and message in answer, answer
        assert engine.agent_spec == "mcts:sims=12:c=0.4"                  # unchanged
