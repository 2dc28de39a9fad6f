"""``gtp:COMMAND``: any GTP engine (Pentobi's ``pentobi-gtp``, our ``blokus gtp``, ...) as an
agent, run as a subprocess and kept in step with the games it is asked about."""
from __future__ import annotations

import atexit
import collections
import os
import queue
import shlex
import subprocess
import threading
import time
from typing import IO, Sequence

from blokus.agents._params import _check, _short
from blokus.agents._policies import _Seeded
from blokus.game import Game
from blokus.placements import parse_move

# How long an engine may take to answer one command, by default: ten minutes, far above a
# move of Pentobi's level 9 in Duo (a few seconds), so that only a hung engine reaches it.
DEFAULT_TIMEOUT = 600.0
# How long ``close`` waits for an engine to quit on its own before killing it.
_QUIT_SECONDS = 2.0
# GTP commands that leave the engine's board as it was.
_READ_ONLY = {"final_score", "showboard", "name", "version", "known_command", "list_commands", "cputime",
              "all_legal", "protocol_version"}
# Lines of an engine's stderr kept for an error message (Pentobi writes its search reports there).
_STDERR_LINES = 8


class EngineError(RuntimeError):
    """A GTP engine that failed: it could not be started, answered ``?``, exited, gave no
    answer within its timeout, did not speak GTP, resigned, or answered a move that is not
    legal in the game. The message names the command that started it and the GTP command."""


def _colour_word(game: Game, colour: int) -> str:
    """GTP's name of a colour (Pentobi's): Duo's b and w, four-colour games' 1..4."""
    return "bw"[colour] if game.num_colours == 2 else str(colour + 1)


class _Engine:
    """One running engine: its process, a thread reading its answers and one keeping the last
    lines of its stderr, and the game it holds (variant and moves), as far as known."""

    def __init__(self, argv: tuple[str, ...], label: str):
        self.label = label
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE)
        except OSError as exc:
            raise EngineError(f"{label}: cannot start the engine: {exc}") from None
        self.stdin: IO[bytes] = self.process.stdin  # type: ignore[assignment]  # a PIPE: never None
        self.pid = os.getpid()  # the process that owns it (a forked child must not use it)
        self.lock = threading.Lock()
        self.answers: queue.Queue = queue.Queue()
        self.stderr: collections.deque = collections.deque(maxlen=_STDERR_LINES)
        threading.Thread(target=self._read, args=(self.process.stdout, self.answers.put, True), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.stderr.append, False),
                         daemon=True).start()
        self.game_name: str | None = None  # set_game sent
        self.moves: list[tuple[int, int]] | None = None  # (colour, placement) on its board; None: unknown
        self.commands: dict[str, bool] = {}  # known_command answers

    @staticmethod
    def _read(stream, put, end: bool) -> None:
        """Hands each line of ``stream`` to ``put``, then None at its end if ``end``."""
        for line in iter(stream.readline, b""):
            put(line.decode("utf-8", errors="replace").rstrip("\r\n"))
        if end:
            put(None)

    def send(self, command: str, timeout: float) -> str:
        """The engine's answer to ``command`` (the text after ``=``); EngineError on ``?``, on
        an exit or when no answer comes within ``timeout`` seconds (the engine is then killed)."""
        try:
            self.stdin.write(command.encode("utf-8") + b"\n")
            self.stdin.flush()
        except OSError:  # BrokenPipeError: it has exited
            raise self._failed(command, "exited") from None
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while True:
            try:
                line = self.answers.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                self.kill()
                raise self._failed(command, f"gave no answer within {timeout:g} s and was killed") from None
            if line is None:
                raise self._failed(command, "exited")
            if not lines and not line.strip():
                continue  # blank lines before an answer
            if not lines and line[:1] not in ("=", "?"):
                self.kill()
                raise self._failed(command, f"does not speak GTP: answered {_short(line)}")
            if lines and not line.strip():
                break
            lines.append(line)
        head, *rest = lines
        text = "\n".join([head[1:].lstrip("0123456789").strip()] + rest).strip()
        if head.startswith("?"):
            self.moves = None  # what a refused command left on its board is not known
            raise EngineError(f"{self.label}: the engine refused {_short(command)}: {text}")
        return text

    def knows(self, command: str, timeout: float) -> bool:
        if command not in self.commands:
            self.commands[command] = self.send(f"known_command {command}", timeout).lower() == "true"
        return self.commands[command]

    def _failed(self, command: str, what: str) -> EngineError:
        self.moves = None
        code = self.process.poll()
        if code is None and what == "exited":
            code = self.process.wait()
        status = "" if code is None else f" (exit status {code})"
        said = "; its last words on stderr: " + " | ".join(self.stderr) if self.stderr else ""
        return EngineError(f"{self.label}: the engine {what}{status} at {_short(command)}{said}")

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def close(self) -> None:
        """``quit``, then a kill if it does not exit within a moment; the process is reaped."""
        if self.alive:
            try:
                self.stdin.write(b"quit\n")
                self.stdin.flush()
            except OSError:
                pass
        try:
            self.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(_QUIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.kill()


# The engines of this process, one per command: the agents of a command share it, so a match
# or a pool worker starts each engine once however many games and seats it plays.
_ENGINES: dict[tuple[str, ...], _Engine] = {}
_ENGINES_LOCK = threading.Lock()


def _shared_engine(argv: tuple[str, ...], label: str) -> _Engine:
    with _ENGINES_LOCK:
        engine = _ENGINES.get(argv)
        if engine is not None and (engine.pid != os.getpid() or not engine.alive):
            if engine.pid == os.getpid():
                engine.close()  # reap what is left of it
            engine = None  # a forked child's copy of its parent's engine is the parent's
        if engine is None:
            engine = _ENGINES[argv] = _Engine(argv, label)
        return engine


def _close_engine(argv: tuple[str, ...]) -> None:
    with _ENGINES_LOCK:
        engine = _ENGINES.get(argv)
        if engine is not None and engine.pid == os.getpid():
            del _ENGINES[argv]
            engine.close()


@atexit.register
def _close_all() -> None:
    for argv in list(_ENGINES):
        _close_engine(argv)


class GTPAgent(_Seeded):
    """A GTP engine as an agent: ``gtp:COMMAND`` in an agent string.

    The engine (``command``, split as a POSIX shell would, run without a shell) is started at
    the first move asked of it, and the agents of one command in a process share it: a match
    or a pool worker of ``blokus.selfplay`` / ``blokus.arena`` starts it once. Before each
    move the agent brings the engine's board to the game's: ``set_game`` (Blokus SGF's
    ``GM`` names: ``Blokus Duo``, ``Blokus``, ``Blokus Two-Player``, ``Blokus Three-Player``;
    ``classic_teams`` is played as ``Blokus``, the engine unaware of the teams) and
    ``clear_board``, then ``play`` for each move (colours ``b``/``w`` in Duo, ``1``-``4``
    otherwise), only the new moves when the game continues the one the engine holds; then
    ``set_random_seed`` (when a seed is given and the engine knows the command) and
    ``genmove`` for the colour to move, whose answer is read as a placement. (Games played
    side by side against one command, as a vector env's opponents, take turns on its one
    board: each move sets it up again.)

    Parameters
    ----------
    command : str or list/tuple of str
        The engine's command line, e.g. ``"pentobi-gtp --nobook --noresign -l 3"``
        (Pentobi resigns hopeless games unless told ``--noresign``: see Raises).
    timeout : float
        Seconds the engine may take to answer one command, > 0 (default 600); it is killed
        when it takes longer.
    seed : int or None
        Seeds the engine before each move (31-bit seeds drawn from this stream); None sends no
        seed. Games against an engine are reproducible as far as the engine is.

    Raises
    ------
    TypeError
        ``command`` neither a str nor a list or tuple of str.
    ValueError
        An empty command or one that shlex cannot split; a timeout that is not > 0. From a
        call: a game with ``start="any"`` (GTP engines play the fixed starting squares).
    EngineError
        From a call: the engine cannot be started, refuses a command (``?``), exits, takes
        longer than ``timeout``, does not speak GTP, answers ``resign`` (a game here is played
        to its end) or ``pass`` while the colour can move, or a move that is not legal here.
        The message names the command line.

    ``close()`` (or leaving a ``with`` block) sends ``quit`` and reaps the engine, killing it
    if it does not exit at once; the next move would start it again. Engines still running at
    the interpreter's exit are closed then. A copy or an unpickled agent (as worker processes
    receive it) shares the engine of its command in its own process.
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT, seed: int | None = None):
        super().__init__(seed)
        if isinstance(command, str):
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise ValueError(f"gtp command {_short(command)}: {exc}") from None
        elif isinstance(command, (list, tuple)) and all(isinstance(word, str) for word in command):
            argv = list(command)
        else:
            raise TypeError(f"a gtp command is a str or a list of str, not {_short(command)}")
        if not argv:
            raise ValueError("a gtp agent needs a command, e.g. gtp:pentobi-gtp --nobook --noresign -l 3")
        _check(isinstance(timeout, (int, float)) and 0 < timeout < float("inf"), "timeout", timeout,
               "> 0 seconds and finite")
        self.argv = tuple(argv)
        self.timeout = float(timeout)
        self.seeded = seed is not None
        self.name = "gtp:" + (command if isinstance(command, str) else shlex.join(argv))

    @property
    def _label(self) -> str:
        command = shlex.join(self.argv)  # whole unless huge: the message must say which engine failed
        return f"gtp agent {command if len(command) <= 300 else command[:300] + '...'}"

    def __call__(self, game: Game) -> int:
        if game.start != "fixed":
            raise ValueError(f"{self._label}: GTP engines play the fixed starting squares (start='fixed'), "
                             f"not a game with start={game.start!r}")
        engine = _shared_engine(self.argv, self._label)
        with engine.lock:
            held = self._sync(engine, game)
            colour = int(game.to_move)
            if self.seeded and engine.knows("set_random_seed", self.timeout):
                engine.send(f"set_random_seed {self._next_seed() >> 33}", self.timeout)
            command = f"genmove {_colour_word(game, colour)}"
            move = self._move(engine, game, command, engine.send(command, self.timeout))
            held.append((colour, move))
            return move

    def _sync(self, engine: _Engine, game: Game) -> list[tuple[int, int]]:
        """Brings the engine's board to ``game``'s: the new moves only when the game continues
        the one it holds, else the variant, a clear board and every move."""
        from blokus.sgf import GAME_NAMES  # here: `import blokus` leaves blokus.sgf to its first use

        history = [(int(c), int(m)) for c, m in game.history]
        name = GAME_NAMES[game.variant]
        held = engine.moves
        if engine.game_name != name or held is None or history[:len(held)] != held:
            engine.game_name = None
            engine.send(f"set_game {name}", self.timeout)
            engine.send("clear_board", self.timeout)
            engine.game_name, held = name, []
            engine.moves = held
        for colour, move in history[len(held):]:
            engine.send(f"play {_colour_word(game, colour)} {game.move_text(move)}", self.timeout)
            held.append((colour, move))
        return held

    def _move(self, engine: _Engine, game: Game, command: str, answer: str) -> int:
        """The placement ``answer`` names; EngineError for anything but a legal move here."""
        word = answer.strip().lower()
        if word in ("pass", "resign"):
            engine.moves = None  # a resigning engine may have played nothing, or something
            why = ("a game here is played to its end: start the engine without resignation "
                   "(Pentobi: --noresign)") if word == "resign" else \
                f"{game.colour_name(game.to_move)} has {len(game.legal_moves())} legal moves"
            raise EngineError(f"{self._label}: the engine answered {word!r} to {command!r}: {why}")
        reason = "not legal in this position"
        try:
            move = int(parse_move(answer.strip(), game.variant))
            if game.is_legal(move):
                return move
            game.copy().play(move)  # raises the rules' reason
        except ValueError as exc:  # IllegalMoveError and InvalidMoveError among them
            reason = str(exc)
        engine.moves = None
        raise EngineError(f"{self._label}: the engine answered {_short(answer)} to {command!r}, which is "
                          f"not a legal move of {game.colour_name(game.to_move)} here ({reason})")

    def send(self, command: str, game: Game | None = None) -> str:
        """Sends one GTP command to the engine (started if need be) and returns its answer, the
        text after ``=``, e.g. ``agent.send("final_score", game)`` or ``agent.send("name")``.
        With ``game``, the engine's board is first brought to the game's. Unless the command
        is one that only reads (``final_score``, ``showboard``, ``name``, ``version``,
        ``known_command``, ``list_commands``, ``cputime``, ``all_legal``), the next move
        sets the engine's board up again.

        Raises
        ------
        ValueError
            ``command`` is not one line of text.
        EngineError
            As for a move.
        """
        if not isinstance(command, str) or not command.strip() or "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one non-empty line of text, not {_short(command)}")
        engine = _shared_engine(self.argv, self._label)
        with engine.lock:
            if game is not None:
                self._sync(engine, game)
            answer = engine.send(command, self.timeout)
            if command.split()[0] not in _READ_ONLY:
                engine.moves = None
            return answer

    @property
    def pid(self) -> int | None:
        """The process id of this agent's engine while it runs in this process, else None."""
        engine = _ENGINES.get(self.argv)
        return engine.process.pid if engine is not None and engine.pid == os.getpid() and engine.alive else None

    def close(self) -> None:
        """Ends the engine of this agent's command (shared by the agents of the command in this
        process): ``quit``, a kill if it does not exit at once, and the process reaped."""
        _close_engine(self.argv)

    def __enter__(self) -> "GTPAgent":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
