"""A run's settings: the defaults, the ones given, the ones of the run being resumed
(``run.json``), and their checks."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from blokus import __version__
from blokus._rundir import saved_settings
from blokus.agents import agent_name, parse_agents
from blokus.game import Game
from blokus.selfplay.errors import SelfPlayError
from blokus.selfplay.files import RECORDS_FILE, RUN_FILES
from blokus.variants import START_RULES, VARIANTS

DEFAULTS = {"variant": "classic", "agents": ["random"], "games": 100, "seed": 0, "start": "fixed"}

_OPTION = {"variant": "--variant", "start": "--start", "agents": "--agents", "seed": "--seed"}


@dataclass
class Config:
    variant: str
    start: str
    agents: list
    seed: int
    games: int

    def as_json(self) -> dict:
        return {"variant": self.variant, "start": self.start, "agents": self.agents,
                "seed": self.seed, "games": self.games, "blokus": __version__}


def resolve_settings(out: Path, resume: bool, given: dict) -> tuple[Config, bool]:
    """The run's settings, checked, and whether there is a run in ``out`` to resume."""
    saved = _saved(out, resume)
    if given.get("agents") is not None:
        given["agents"] = agent_list(given["agents"])
    config = Config(**_merge(out, given, saved))
    _check(config)
    if saved is None or given.get("agents") is None:
        config.agents = agent_list(config.agents)
    _check_seats(config)
    return config, saved is not None


def new_settings(*, variant: str, agents, games: int, seed: int, start: str) -> Config:
    """The settings of games played without a run directory (``blokus.arena``), checked as a
    new run's: ``SelfPlayError`` for an unknown variant, start rule or agent, an agent given
    twice, more agents than seats, games < 1 or a seed out of range. Agent objects may stand
    among the agent strings (nothing is written where only strings could go)."""
    config = Config(variant=variant, start=start, agents=agent_list(agents, objects=True), seed=seed, games=games)
    _check(config)
    _check_seats(config)
    return config


def resolve_workers(workers: int | None) -> int:
    """``workers`` checked (``SelfPlayError`` unless an int >= 1); None: the cores this process
    may use."""
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SelfPlayError(f"--workers: must be at least 1, not {workers!r}")
    return workers


def _saved(out: Path, resume: bool) -> dict | None:
    """The settings of the run in ``out`` to resume, or None; refuses an ``out`` that is neither
    a run to resume nor new."""
    return saved_settings(out, resume, command="selfplay", kind="self-play", marker=RECORDS_FILE,
                          files=RUN_FILES, error=SelfPlayError,
                          read=lambda saved: {key: saved[key] for key in DEFAULTS})


def _merge(out: Path, given: dict, saved: dict | None) -> dict:
    """Each setting: the one given, else the saved run's, else the default. A resume may change
    only ``games``."""
    values = {}
    for key, default in DEFAULTS.items():
        value = given.get(key)
        if saved is not None:
            if key != "games" and value is not None and value != saved[key]:
                raise SelfPlayError(
                    f"--resume: the run in {out} has {_OPTION[key]} {_show(key, saved[key])}, not "
                    f"{_show(key, value)}; leave the option out or choose a new directory")
            if value is None:
                value = saved[key]
        values[key] = default if value is None else value
    return values


def _show(key: str, value) -> str:
    return ",".join(value) if key == "agents" else str(value)


def agent_list(agents, *, objects: bool = False) -> list:
    """The agent strings of ``agents`` (one comma-separated str, or a sequence of str), each
    known and given once (by name); with ``objects``, agent objects (callables with a ``name``,
    ``blokus.agents.agent_name``) may stand in the sequence too. ``SelfPlayError`` otherwise."""
    if isinstance(agents, str):
        specs = _parsed(agents)
    else:
        agents = list(agents)
        if not agents or not all(isinstance(a, str) or (objects and callable(a)) for a in agents):
            what = "agent strings or agent objects" if objects else "agent strings"
            why = "" if objects or not any(callable(a) for a in agents) else \
                " (a run records its agents by their strings; blokus.arena.match also plays agent objects)"
            raise SelfPlayError(f"agents: give {what}, e.g. ['greedy', 'mcts:sims=500']{why}")
        if all(isinstance(a, str) for a in agents):
            specs = _parsed(",".join(agents))
        else:  # each string one agent, in its place among the objects
            specs = [spec for a in agents for spec in (_parsed(a) if isinstance(a, str) else [a])]
    names = []
    for spec in specs:
        try:
            names.append(agent_name(spec))
        except TypeError as exc:
            raise SelfPlayError(f"agents: {exc}") from None
    for name in names:
        if names.count(name) > 1:
            raise SelfPlayError(f"--agents: {name!r} is given twice (one agent alone already "
                                "plays every seat)")
    return specs


def _parsed(text: str) -> list[str]:
    try:
        return parse_agents(text)
    except ValueError as exc:
        raise SelfPlayError(f"--agents: {exc}") from None


def _check(config: Config) -> None:
    if config.variant not in VARIANTS:
        raise SelfPlayError(f"--variant: unknown variant {config.variant!r} "
                            f"(expected one of: {', '.join(VARIANTS)})")
    if config.start not in START_RULES:
        raise SelfPlayError(f"--start: the start rule is one of {', '.join(START_RULES)}, not {config.start!r}")
    if isinstance(config.games, bool) or not isinstance(config.games, int) or config.games < 1:
        raise SelfPlayError(f"--games: must be at least 1, not {config.games!r}")
    if isinstance(config.seed, bool) or not isinstance(config.seed, int) or not 0 <= config.seed < 2**64:
        raise SelfPlayError(f"--seed: must be an integer in [0, 2**64), not {config.seed!r}")


def _check_seats(config: Config) -> None:
    players = Game(config.variant).num_players
    if len(config.agents) > players:
        raise SelfPlayError(f"--agents: {len(config.agents)} agents for {config.variant}, which has "
                            f"{players} seats; give at most {players}")
