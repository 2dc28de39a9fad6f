"""A GTP engine speaking the commands of Pentobi's ``pentobi-gtp`` (its GTP engine protocol).

``blokus gtp --variant duo --agent mcts:sims=2000`` reads commands on stdin and answers on
stdout, so the engine can be matched against other GTP programs and driven from GUI tools::

    set_game Blokus Duo
    play b e9,d10,e10,f10,d11
    genmove w

Answers start with ``=`` (success) or ``?`` (error, then a message) and end with an empty
line; a numeric id before a command is echoed back. An error leaves the game unchanged.
Passes are implicit, as in Blokus SGF: ``genmove`` answers ``pass`` for a colour with no
legal placement, and ``play <colour> pass`` is accepted only for such a colour.

Unlike Pentobi, which accepts a move of any colour at any time to set up positions, ``play`` and
``genmove`` refuse a colour that is not to move (the game keeps the rules' turn order); a match
runner, which plays in turn, never notices. Duo's colours may also be called ``purple`` and
``orange``, the names our messages use.

Beyond play: ``loadsgf FILE [MOVE_NUMBER]`` sets up the game of a ``.blksgf`` record (its first
game, main line), before move MOVE_NUMBER (counted from 1) when given; ``savesgf FILE`` writes the
game played so far. Both take regular files only (a FIFO, a device or a directory is refused,
never waited on) and loadsgf reads at most 1 MiB (``MAX_RECORD_BYTES``). ``param`` lists the
parameters of the ``genmove`` agent, one ``key value`` a line, and ``param KEY VALUE`` sets one,
e.g. ``param sims 5000`` or ``param seconds 2`` (VALUE is one number: a ``:``, ``=`` or ``,`` in
it is refused, as it would set other parameters too).
"""
from __future__ import annotations

import time
from typing import BinaryIO, Callable, TextIO

from blokus import __version__, sgf
from blokus._core import TOTAL_SQUARES
from blokus._files import read_regular, write_regular
from blokus.agents import AGENTS, Agent, make_agent
from blokus.agents._strings import split_agent
from blokus.game import Game
from blokus.sgf import VARIANT_OF_GAME_NAME
from blokus.variants import variant

# A colour is named by our names (blokus.variants) or by GTP's and Pentobi's words for it: with two
# colours black/white (and blue/green, Pentobi's older names), else its number from 1.
_TWO_COLOUR_WORDS = {"b": 0, "black": 0, "blue": 0, "w": 1, "white": 1, "green": 1}


def _colour_words(game: Game) -> dict[str, int]:
    """Every word naming a colour of the game's variant, lowercase, with its colour index."""
    numbers = {str(c + 1): c for c in range(game.num_colours)}
    words = _TWO_COLOUR_WORDS if game.num_colours == 2 else numbers
    return {**words, **{name: c for c, name in enumerate(variant(game.variant).colours)}}


# Pentobi's points count the squares on the board plus the bonus: our score + 89.
_PENTOBI_POINTS_OFFSET = TOTAL_SQUARES
# The largest record loadsgf reads: a game is a few KB, Pentobi's largest opening book 23 KB.
# The cap bounds what a name such as /dev/zero or a huge file could make the engine hold.
MAX_RECORD_BYTES = 1 << 20
# What an agent string (blokus.agents) splits on: ':' between parameters, '=' between a key and
# its value, ',' between agents (GTP has already split the line on whitespace). A `param` value
# holding one of them would be read as more than one value ("5:max_nodes=3" sets max_nodes too).
_AGENT_STRING_SEPARATORS = ":=,"


def _quoted(text: str, limit: int = 40) -> str:
    """repr(text) cut to ``limit`` characters, so that an answer never echoes a huge word whole."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


class GtpError(Exception):
    """A command that fails: answered with ``?`` and the message."""


class Engine:
    """The state behind a GTP session: a game of ``variant`` (start="fixed", as Pentobi plays)
    and the agent that answers ``genmove``.

    Parameters
    ----------
    variant : str
        Variant at start (``set_game`` changes it).
    agent : str or Agent
        Agent string for ``genmove`` (see ``blokus.agents``), e.g. ``"mcts:sims=2000"``, or an
        agent object (a callable ``agent(game) -> placement id`` with a ``name``), which
        ``param`` and ``set_random_seed`` leave as it is.
    seed : int or None
        Seed of the agent; ``set_random_seed`` replaces it.

    Raises
    ------
    ValueError
        Unknown variant or agent.
    TypeError
        ``agent`` neither a str nor an agent object.
    """

    def __init__(self, variant: str = "classic", agent: str | Agent = "mcts:sims=2000", seed: int | None = None):
        self.game = Game(variant, start="fixed")
        self.agent_spec = agent if isinstance(agent, str) else None
        self.seed = seed
        self.agent = make_agent(agent, seed=seed)
        self.quit = False
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "all_legal": self.all_legal, "clear_board": self.clear_board, "cputime": self.cputime,
            "final_score": self.final_score, "g": self.g, "genmove": self.genmove,
            "known_command": self.known_command, "list_commands": self.list_commands,
            "loadsgf": self.loadsgf, "param": self.param, "savesgf": self.savesgf,
            "name": lambda args: "blokus", "play": self.play, "protocol_version": lambda args: "2",
            "quit": self.do_quit, "reg_genmove": self.reg_genmove, "set_game": self.set_game,
            "set_random_seed": self.set_random_seed, "showboard": self.showboard, "undo": self.undo,
            "version": lambda args: __version__,
        }

    # ---- one line in, one answer out ---------------------------------------

    def handle(self, line: str) -> str | None:
        """The full answer to one input line (``"= ...\\n\\n"`` or ``"? ...\\n\\n"``), or None
        for a line with no command (empty or a comment)."""
        words = "".join(ch if ch.isprintable() or ch == "\t" else "" for ch in line.split("#", 1)[0]).split()
        if not words:
            return None
        ident = words.pop(0) if words[0].isascii() and words[0].isdigit() else ""
        if not words:
            return f"?{ident} no command\n\n"
        name, args = words[0], words[1:]
        try:
            if name not in self.commands:
                raise GtpError(f"unknown command: {name if len(name) <= 40 else _quoted(name)}")
            return f"={ident} {self.commands[name](args)}\n\n"
        except Exception as exc:  # any failure is an answer: a crashed engine loses its match
            return f"?{ident} {exc}\n\n"

    # ---- helpers -------------------------------------------------------------

    def _colour(self, args: list[str], command: str) -> int:
        if len(args) != 1:
            raise GtpError(f"{command} needs one colour")
        names = _colour_words(self.game)
        colour = names.get(args[0].lower())
        if colour is None:
            raise GtpError(f"unknown colour {args[0]!r} (expected one of: {', '.join(names)})")
        return colour

    def _choose(self, colour: int) -> int | None:
        """The agent's move for colour, or None (pass) when it has no legal placement."""
        if self.game.is_over or not len(self.game.legal_moves(colour)):
            return None
        if colour != self.game.to_move:
            raise GtpError(f"it is {self.game.colour_name(self.game.to_move)}'s turn, "
                           f"not {self.game.colour_name(colour)}'s")
        return self.agent(self.game)

    # ---- commands --------------------------------------------------------------

    def set_game(self, args: list[str]) -> str:
        name = " ".join(args)
        if name not in VARIANT_OF_GAME_NAME:  # SGF's GM values
            raise GtpError(f"unsupported game {name!r} (supported: {', '.join(VARIANT_OF_GAME_NAME)})")
        self.game = Game(VARIANT_OF_GAME_NAME[name], start="fixed")
        return ""

    def clear_board(self, args: list[str]) -> str:
        self.game = Game(self.game.variant, start=self.game.start)
        return ""

    def play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise GtpError("play needs a colour and a move")
        colour = self._colour(args[:1], "play")
        if args[1].lower() == "pass":
            if not self.game.is_over and len(self.game.legal_moves(colour)):
                raise GtpError(f"{self.game.colour_name(colour)} has legal moves: it cannot pass")
            return ""
        if self.game.is_over:
            raise GtpError("game over: no colour can place a piece any more")
        if colour != self.game.to_move:
            raise GtpError(f"it is {self.game.colour_name(self.game.to_move)}'s turn, "
                           f"not {self.game.colour_name(colour)}'s")
        self.game.play(args[1])
        return ""

    def genmove(self, args: list[str]) -> str:
        move = self._choose(self._colour(args, "genmove"))
        if move is None:
            return "pass"
        self.game.play(move)
        return self.game.move_text(move)

    def reg_genmove(self, args: list[str]) -> str:
        move = self._choose(self._colour(args, "reg_genmove"))
        return "pass" if move is None else self.game.move_text(move)

    def g(self, args: list[str]) -> str:
        if self.game.is_over:
            return "pass"
        move = self.agent(self.game)
        self.game.play(move)
        return self.game.move_text(move)

    def undo(self, args: list[str]) -> str:
        self.game.undo()
        return ""

    def all_legal(self, args: list[str]) -> str:
        colour = self._colour(args, "all_legal")
        return "\n".join(self.game.move_text(int(m)) for m in self.game.legal_moves(colour))

    def final_score(self, args: list[str]) -> str:
        if self.game.num_players == 2:
            first, second = self.game.player_scores()
            return f"B+{first - second}" if first > second else f"W+{second - first}" if second > first else "0"
        return " ".join(str(s + _PENTOBI_POINTS_OFFSET) for s in self.game.scores())

    def showboard(self, args: list[str]) -> str:
        return "\n" + str(self.game)

    def loadsgf(self, args: list[str]) -> str:
        if not 1 <= len(args) <= 2 or (len(args) == 2 and not (args[1].isdigit() and int(args[1]) >= 1)):
            raise GtpError("loadsgf needs a file name and optionally a move number >= 1")
        try:
            games = [game for game, _ in sgf.records(read_regular(args[0], MAX_RECORD_BYTES), mainline=True)]
        except (OSError, ValueError) as exc:
            raise GtpError(f"cannot load {args[0]}: {exc}") from None
        if not games:
            raise GtpError(f"{args[0]} holds no game")
        moves = [move for _, move in games[0].history]
        if len(args) == 2:
            moves = moves[:int(args[1]) - 1]
        game = Game(games[0].variant, start=games[0].start)
        for move in moves:
            game.play(move)
        self.game = game
        return ""

    def savesgf(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("savesgf needs a file name")
        try:
            write_regular(args[0], (sgf.dumps(self.game) + "\n").encode("utf-8"))
        except (OSError, ValueError) as exc:
            raise GtpError(f"cannot save {args[0]}: {exc}") from None
        return ""

    def param(self, args: list[str]) -> str:
        if self.agent_spec is None:
            if args:
                raise GtpError("the agent is a Python object: it has no parameters to set here")
            return ""
        name, argument, params = split_agent(self.agent_spec)
        values = dict(p.partition("=")[::2] for p in params)
        if not args:
            return "\n".join(f"{key} {value}" for key, value in values.items())
        if len(args) != 2:
            raise GtpError("param needs no arguments (to list) or a key and a value")
        key, value = args
        known = AGENTS[name][1]
        if key not in known:
            raise GtpError(f"unknown parameter {_quoted(key)} of {name} "
                           f"(expected one of: {', '.join(known) or 'none'})")
        if any(ch in _AGENT_STRING_SEPARATORS for ch in value):
            raise GtpError(f"param {key}: the value must be one number, not {_quoted(value)} "
                           f"(an agent string separates parameters with ':', '=' and ',')")
        # the new value replaces the old one, in its place, under any of its names (sims and
        # simulations, c and exploration), which would otherwise stay beside it and might win
        merged: dict[str, str] = {}
        for k, v in values.items():
            merged.update({key: value} if known.get(k, (k,))[0] == known[key][0] else {k: v})
        merged.setdefault(key, value)
        spec = ":".join([name] + ([] if argument is None else [argument]) + [f"{k}={v}" for k, v in merged.items()])
        agent = make_agent(spec, seed=self.seed)  # a bad value raises here, leaving the agent as it was
        self.agent, self.agent_spec = agent, spec
        return ""

    def set_random_seed(self, args: list[str]) -> str:
        if len(args) != 1 or not args[0].isdigit():
            raise GtpError("set_random_seed needs a non-negative integer")
        self.seed = int(args[0])
        if self.agent_spec is not None:
            self.agent = make_agent(self.agent_spec, seed=self.seed)
        return ""

    def cputime(self, args: list[str]) -> str:
        return f"{time.process_time():.3f}"

    def known_command(self, args: list[str]) -> str:
        return "true" if len(args) == 1 and args[0] in self.commands else "false"

    def list_commands(self, args: list[str]) -> str:
        return "\n".join(sorted(self.commands))

    def do_quit(self, args: list[str]) -> str:
        self.quit = True
        return ""


def serve(engine: Engine, stdin: BinaryIO | TextIO, stdout: TextIO) -> int:
    """Answers GTP commands from ``stdin`` (bytes or text lines) on ``stdout`` until ``quit`` or
    end of input; returns 0. A byte that is not UTF-8 reads as U+FFFD, so its line is answered
    (with ``?`` when it spoils a command) and the session goes on."""
    for line in stdin:
        if isinstance(line, bytes):
            line = line.decode("utf-8", errors="replace")
        answer = engine.handle(line)
        if answer is not None:
            stdout.write(answer)
            stdout.flush()
        if engine.quit:
            break
    return 0
