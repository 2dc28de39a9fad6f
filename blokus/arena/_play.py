"""The settings of a match or tournament, checked, and playing their games on selfplay's backends
(the same games, seeds and workers as ``blokus selfplay``)."""
from __future__ import annotations

import contextlib
import pickle
import time
from typing import Sequence, Union

from blokus.agents import agent_name
from blokus.selfplay.backends import game_source, require_ray
from blokus.selfplay.errors import SelfPlayError
from blokus.selfplay.games import GameResult
from blokus.selfplay.settings import Config, agent_list, new_settings, resolve_workers

Agents = Union[str, Sequence]  # agent strings, and agent objects among them


class ArenaError(ValueError):
    """A bad setting of ``match`` or ``tournament``: an unknown agent or variant, an agent
    given twice, fewer than two agents, more agents than seats (``match``), games < 1, a seed
    outside [0, 2**64), workers < 1, an agent object that cannot be pickled for worker processes
    or Ray, an anchor that is not one of the agents, a prior < 0, or ``ray`` without Ray
    installed. Raised before any game is played; ``blokus tournament``
    exits 2 with its message."""


def check_agents(agents: Agents) -> list:
    """The agents of ``agents`` (one comma-separated str, or a list or tuple of agent strings
    and agent objects): at least two, each known and given once (by name)."""
    if not isinstance(agents, (str, list, tuple)):
        raise ArenaError("agents: give agent strings, e.g. ['greedy', 'random'] or 'greedy,random', "
                         f"not a {type(agents).__name__}")
    with _as_arena_error():
        specs = agent_list(agents, objects=True)
    if len(specs) < 2:
        raise ArenaError(f"agents: at least two agents are needed, not only {agent_name(specs[0])!r} (one "
                         "agent in every seat is self-play: blokus.selfplay)")
    return specs


def names(specs: list) -> list[str]:
    """What the results call each agent: its string, or an object's ``name``."""
    return [agent_name(spec) for spec in specs]


def check_sendable(specs: list, workers: int, ray: str | None) -> None:
    """Agent objects must pickle to reach worker processes or Ray (a lambda or a local function
    does not); ArenaError naming the agent otherwise."""
    if workers == 1 and ray is None:
        return
    for spec in specs:
        if isinstance(spec, str):
            continue
        try:
            pickle.dumps(spec)
        except Exception as exc:  # PicklingError, AttributeError, TypeError: whatever pickle raises
            raise ArenaError(f"agents: {agent_name(spec)!r} cannot be sent to worker processes ({exc}); "
                             "play with workers=1, or make it picklable (a class or function defined at the "
                             "top level of a module)") from None


def settings(agents: list[str], *, variant: str, games: int, seed: int, start: str) -> Config:
    """The checked settings of the games of ``agents`` (see ``Config``)."""
    with _as_arena_error():
        return new_settings(variant=variant, agents=agents, games=games, seed=seed, start=start)


def check_backend(workers: int | None, ray: str | None) -> int:
    """The worker processes (None: every core), checked; Ray's presence when asked for."""
    with _as_arena_error():
        if ray is not None:
            require_ray()
        return resolve_workers(workers)


@contextlib.contextmanager
def _as_arena_error():
    """Turns selfplay's ``SelfPlayError`` (the same checks) into ``ArenaError``."""
    try:
        yield
    except SelfPlayError as exc:
        raise ArenaError(str(exc)) from None


def play(jobs: list[Config], *, workers: int, ray: str | None, progress: bool | None,
         desc: str) -> tuple[list[list[GameResult]], float]:
    """Plays every game of ``jobs`` on ``workers`` processes (or Ray) with a progress bar on
    stderr (``progress`` None: when stderr is a terminal); per job its results in game order,
    and the seconds it took. The jobs' agent sets must differ (a result is told by its agents).
    Ctrl-C stops the workers and raises KeyboardInterrupt; nothing is kept."""
    from tqdm import tqdm

    job_of = {frozenset(names(config.agents)): k for k, config in enumerate(jobs)}
    results: list[dict[int, GameResult]] = [{} for _ in jobs]
    source = game_source([(config, list(range(config.games))) for config in jobs], [],
                         workers=workers, ray=ray)
    t0 = time.perf_counter()
    with source as chunks, tqdm(total=sum(config.games for config in jobs), unit=" games",
                                dynamic_ncols=True, desc=desc, smoothing=0.1,
                                disable=None if progress is None else not progress) as bar:
        for chunk in chunks:
            for result in chunk:
                results[job_of[frozenset(result.agents)]][result.index] = result
            bar.update(len(chunk))
    seconds = time.perf_counter() - t0
    return [[games[i] for i in sorted(games)] for games in results], seconds
