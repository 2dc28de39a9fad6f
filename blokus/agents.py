"""Agents: who chooses the moves.

An agent is any callable ``agent(game) -> placement id`` with a ``name``
attribute; it is called only when a colour is to move (``not game.is_over``)
and must not change the game. The built-ins choose in C:

- ``random``: uniform over the legal placements;
- ``greedy``: the largest piece, then the most attachment points for itself
  and the fewest for the others, ties at random (the policy of
  ``VectorGame.step_policy("greedy")``);
- ``mcts``: UCT Monte-Carlo tree search with playouts in C and the GIL
  released; a value per player, so it plays every variant, classic_3's
  shared colour included.

On the command line an agent is a string: a name, then ``:key=value``
parameters, e.g. ``mcts:sims=2000``, ``mcts:seconds=1:c=0.5`` or
``mcts:seconds=1:threads=2``.
"""
from __future__ import annotations

import math
import os
import random
import re
from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np

from blokus import _core
from blokus.game import Game


class Agent(Protocol):
    """What an agent is: ``agent(game) -> int`` (a legal placement id for ``game.to_move``)."""

    name: str

    def __call__(self, game: Game) -> int: ...


class _Seeded:
    """Draws one 64-bit seed per move from the agent's own stream."""

    def __init__(self, seed: int | None):
        self._rng = random.Random(seed)

    def _next_seed(self) -> int:
        return self._rng.getrandbits(64)


class RandomAgent(_Seeded):
    """Uniform over the legal placements. ``seed``: int or None (fresh entropy)."""

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.name = "random"

    def __call__(self, game: Game) -> int:
        return _core.policy_move(game, "random", self._next_seed())


class GreedyAgent(_Seeded):
    """The largest piece; then the most attachment points for the mover after the move; then the
    fewest for the colours that do not score for the mover's player; remaining ties at random."""

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.name = "greedy"

    def __call__(self, game: Game) -> int:
        return _core.policy_move(game, "greedy", self._next_seed())


@dataclass(frozen=True)
class Search:
    """What an MCTS search found at the root.

    Attributes
    ----------
    ids : ndarray, int32, shape (k,)
        The placements searched, most visited first (``ids[0]`` is the move played).
    visits : ndarray, int64, shape (k,)
        Simulations through each.
    values : ndarray, float64, shape (k,)
        Mean playout value of each for the player making it, in [0, 1]: 0.9 x its share of the
        win (1 alone, 1/k in a k-way tie) + 0.1 x a squashed score margin.
    simulations : int
        Simulations run in all.
    win_probability : ndarray, float64, shape (k,)
        Of each move, for the player making it: the mean share of the win of its side over the
        simulations through the move (1 alone, 1/k in a k-way tie), in [0, 1].
    expected_score : ndarray, float64, shape (k,)
        Of each move: the mean final score of the player making it (``Game.player_scores``'s
        scale: 0 for a full placement plus the bonus, minus the squares left).
    principal_variation : ndarray, int32, shape (d,)
        The line the search expects, from ``ids[0]``: the most visited move at each node down
        the tree (placement ids, each for the colour to move then).
    player_win_probability, player_expected_score : ndarray, float64, one per player, shape (P,)
        Each player's mean share of the win and mean final score over all the simulations.

    These are playout statistics: they judge how the search's own playouts end from here, so
    they are rough with a few hundred simulations and sharpen (and grow more trustworthy as
    estimates of real play) with more; a move tried a handful of times has a noisy figure.
    """

    ids: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    simulations: int
    win_probability: np.ndarray
    expected_score: np.ndarray
    principal_variation: np.ndarray
    player_win_probability: np.ndarray
    player_expected_score: np.ndarray


# The longest time limit a search takes (as the engine's time limits: about 31 years).
MAX_SECONDS = 1e9
# The most threads one search runs (the engine's BK_MCTS_MAX_THREADS).
MAX_THREADS = 64


def available_cores() -> int:
    """The number of cores this process may run on (its CPU affinity where the platform has it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _short(value) -> str:
    """repr(value) for an error message, cut so that a huge value is not echoed whole."""
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def _check(ok: bool, name: str, value, expected: str) -> None:
    if not ok:  # NaN fails every comparison, so it lands here too
        raise ValueError(f"{name} must be {expected}, not {_short(value)}")


# Agent-string values: ASCII only, since int() and float() also read other scripts' digits ("٥").
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_REAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)


def _whole(text: str) -> int:
    """An agent string's integer value."""
    if not _WHOLE.fullmatch(text) or len(text) > 30:
        raise ValueError(text)
    return int(text)


def _real(text: str) -> float:
    """An agent string's real value (decimal, with an optional exponent)."""
    if not _REAL.fullmatch(text):
        raise ValueError(text)
    return float(text)


class MCTSAgent(_Seeded):
    """UCT Monte-Carlo tree search in C, with playouts by a policy (local answers to the
    opponents' last moves, large pieces first) and children ordered by a prior (large pieces,
    covering the opponents' attachment points; on the 20x20 board, in every colour's first two
    moves, only the moves heading for the centre are children); see ``csrc/engine/mcts.h`` and
    ``csrc/engine/playout_policy.h``.

    Parameters
    ----------
    simulations : int, optional
        Simulations per move (``sims`` in an agent string). Default 1000 when ``seconds`` is not
        given either.
    seconds : float, optional
        Wall-clock limit per move; with both, the search stops at whichever comes first.
    exploration : float
        UCT constant c (``c``), >= 0.
    widening : float
        Progressive widening: a node visited n times chooses among its 1 + widening * sqrt(n)
        first children in prior order.
    max_nodes : int
        The trees stop growing at this many nodes in all (24 bytes each); playouts go on.
    threads : int, optional
        Threads searching, 1 to 64 (``threads``); default: the cores this process may use
        (``os.sched_getaffinity``). Root parallelisation: each thread grows its own tree from
        the position with its own random stream, and the trees' root statistics are added up
        (``simulations`` is the total over the threads). One thread is the plain search; a
        given seed gives the same moves for a given number of threads, so results with the
        default depend on the machine.
    seed : int or None

    Raises
    ------
    ValueError
        A parameter out of range.
    """

    def __init__(self, simulations: int | None = None, seconds: float | None = None, *,
                 exploration: float = 0.2, widening: float = 2.0, max_nodes: int = 1 << 22,
                 threads: int | None = None, seed: int | None = None):
        super().__init__(seed)
        if simulations is None and seconds is None:
            simulations = 1000
        if threads is None:
            threads = min(available_cores(), MAX_THREADS)
        _check(simulations is None or 1 <= simulations < 2**63, "simulations", simulations, "in [1, 2**63)")
        _check(seconds is None or 0 < seconds <= MAX_SECONDS, "seconds", seconds, f"in (0, {MAX_SECONDS:g}]")
        _check(0 <= exploration < math.inf, "exploration", exploration, ">= 0 and finite")
        _check(0 < widening < math.inf, "widening", widening, "> 0 and finite")
        _check(1 <= max_nodes < 2**32, "max_nodes", max_nodes, "in [1, 2**32)")
        _check(1 <= threads <= MAX_THREADS, "threads", threads, f"in [1, {MAX_THREADS}]")
        self.options = {"simulations": int(simulations or 0), "seconds": float(seconds or 0.0),
                        "exploration": float(exploration), "widening": float(widening),
                        "max_nodes": int(max_nodes), "threads": int(threads)}
        parts = [f"sims={simulations}"] if simulations is not None else []
        parts += [f"seconds={seconds:g}"] if seconds is not None else []
        self.name = ":".join(["mcts"] + parts)

    def search(self, game: Game) -> Search:
        """Searches the position for the colour to move; the game is not changed.

        Raises
        ------
        ValueError
            The game is over.
        """
        return Search(*_core.mcts(game, seed=self._next_seed(), **self.options))

    def __call__(self, game: Game) -> int:
        return int(self.search(game).ids[0])


# name -> (constructor, {agent-string key: keyword argument, value type})
AGENTS: dict[str, tuple[Callable[..., Agent], dict[str, tuple[str, type]]]] = {
    "random": (RandomAgent, {}),
    "greedy": (GreedyAgent, {}),
    "mcts": (MCTSAgent, {"sims": ("simulations", _whole), "simulations": ("simulations", _whole),
                         "seconds": ("seconds", _real), "c": ("exploration", _real),
                         "exploration": ("exploration", _real), "widening": ("widening", _real),
                         "max_nodes": ("max_nodes", _whole), "threads": ("threads", _whole)}),
}


def make_agent(spec: str, *, seed: int | None = None) -> Agent:
    """The agent an agent string names, e.g. ``"greedy"`` or ``"mcts:sims=2000:c=0.5"``.

    Its ``name`` is ``spec`` as given (what reports call it).

    Raises
    ------
    TypeError
        ``spec`` is not a str.
    ValueError
        Unknown agent or parameter, or a value that is not a number or is out of range.
    """
    if not isinstance(spec, str):
        raise TypeError(f"an agent string must be a str, not {type(spec).__name__}")
    name, *params = spec.strip().split(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent {_short(name)} (expected one of: {', '.join(AGENTS)})")
    make, known = AGENTS[name]
    kwargs = {}
    for param in params:
        key, sep, text = param.partition("=")
        if not sep or key not in known:
            expected = ", ".join(f"{k}=" for k in known) or "none"
            raise ValueError(f"agent {_short(spec)}: bad parameter {_short(param)} (parameters of {name}: "
                             f"{expected})")
        arg, kind = known[key]
        try:
            kwargs[arg] = kind(text)
        except ValueError:
            what = "an integer" if kind is _whole else "a number"
            raise ValueError(f"agent {_short(spec)}: {key} must be {what} in ASCII digits, not {_short(text)}"
                             ) from None
    agent = make(**kwargs, seed=seed)
    agent.name = spec.strip()
    return agent


def parse_agents(text: str) -> list[str]:
    """Splits a comma-separated list of agent strings; a ``key=value`` item continues the agent
    before it, so ``"mcts:sims=500,c=0.5,greedy"`` is ``["mcts:sims=500:c=0.5", "greedy"]``.

    Raises
    ------
    TypeError
        ``text`` is not a str.
    ValueError
        An empty list or item, or parameters before any agent; or an unknown agent (checked by
        building each once).
    """
    if not isinstance(text, str):
        raise TypeError(f"agent strings must be a str, not {type(text).__name__}")
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise ValueError(f"empty agent in {_short(text)}")
        if "=" in item and ":" not in item and item.split("=")[0] not in AGENTS:
            if not specs:
                raise ValueError(f"parameter {_short(item)} before any agent in {_short(text)}")
            specs[-1] += ":" + item
        else:
            specs.append(item)
    for spec in specs:
        make_agent(spec)
    return specs
