"""Agent strings: ``name:key=value`` as on the command line, the agents they name, and lists of them."""
from __future__ import annotations

from typing import Callable

from blokus.agents._gtp import GTPAgent
from blokus.agents._ladder import LevelAgent
from blokus.agents._mcts import MCTSAgent
from blokus.agents._models import NetAgent, SB3Agent
from blokus.agents._params import _real, _short, _whole
from blokus.agents._policies import GreedyAgent, RandomAgent
from blokus.agents._protocol import Agent

# name -> (constructor, {agent-string key: keyword argument, value type})
AGENTS: dict[str, tuple[Callable[..., Agent], dict[str, tuple[str, Callable[[str], object]]]]] = {
    "random": (RandomAgent, {}),
    "greedy": (GreedyAgent, {}),
    "mcts": (MCTSAgent, {"sims": ("simulations", _whole), "simulations": ("simulations", _whole),
                         "seconds": ("seconds", _real), "c": ("exploration", _real),
                         "exploration": ("exploration", _real),
                         "prior_temperature": ("prior_temperature", _real), "rave": ("rave", _real),
                         "margin": ("margin", _real), "evaluation": ("evaluation", _real),
                         "replies": ("replies", _whole),
                         "max_nodes": ("max_nodes", _whole), "threads": ("threads", _whole),
                         "early_stop": ("early_stop", _real), "reuse": ("reuse", _whole),
                         "cpu": ("cpu_seconds", _whole), "solve": ("solve", _whole),
                         "growth": ("growth", _real), "shared": ("shared", _whole)}),
    "level": (LevelAgent, {}),
    "gtp": (GTPAgent, {}),
    "sb3": (SB3Agent, {}),
    "net": (NetAgent, {"sims": ("simulations", _whole), "simulations": ("simulations", _whole)}),
}

# The agents whose name is followed by an argument, their constructor's first parameter:
# name -> (what it is, for messages; how it is read). ``gtp``'s is the rest of the string
# (a command may hold ':' and '='); the others' ends where their parameters begin.
ARGUMENTS: dict[str, tuple[str, Callable[[str], object]]] = {
    "level": ("a level 1..9, e.g. level:3", _whole),
    "gtp": ("a command, e.g. gtp:pentobi-gtp --nobook --noresign -l 3", str),
    "sb3": ("the path of a saved MaskablePPO model, e.g. sb3:runs/ppo.zip", str),
    "net": ("the path of a `blokus train` network, e.g. net:runs/train/model.pt:sims=32", str),
}


def split_agent(spec: str) -> tuple[str, str | None, list[str]]:
    """An agent string's parts: its name, its argument (None for an agent without one) and its
    ``key=value`` parameters as written. The argument of ``gtp`` is everything after ``gtp:``;
    another agent's ends before its trailing ``:key=value`` parts whose keys it knows (so a path
    may hold ':')."""
    name, _, rest = spec.strip().partition(":")
    parts = rest.split(":") if rest else []
    if name not in ARGUMENTS:
        return name, None, parts
    if name == "gtp":
        return name, rest.strip(), []
    known = AGENTS[name][1]
    cut = len(parts)
    while cut > 0 and parts[cut - 1].partition("=")[0] in known and "=" in parts[cut - 1]:
        cut -= 1
    return name, ":".join(parts[:cut]), parts[cut:]


def make_agent(spec: str | Agent, *, seed: int | None = None) -> Agent:
    """The agent an agent string names, e.g. ``"greedy"``, ``"mcts:sims=2000:c=0.5"``,
    ``"level:3"``, ``"gtp:pentobi-gtp --nobook --noresign -l 3"``, ``"sb3:ppo.zip"`` or
    ``"net:model.pt:sims=32"`` (see ``blokus.agents``).

    Its ``name`` is ``spec`` as given (what reports call it). An agent object (a callable
    ``agent(game) -> placement id`` with a ``name``) is returned as it is: ``seed`` does not
    reach it.

    Raises
    ------
    TypeError
        ``spec`` is neither a str nor a callable with a ``name``.
    ValueError
        Unknown agent or parameter, a missing or bad argument (``level:10``, ``gtp:`` with no
        command), or a value that is not a number or is out of range.
    FileNotFoundError
        ``sb3:`` or ``net:`` of a file that does not exist.
    ModuleNotFoundError
        ``sb3:`` or ``net:`` without their optional dependencies (the message names the extra).
    """
    if not isinstance(spec, str):
        agent_name(spec)  # TypeError unless an agent
        return spec
    name, argument, params = split_agent(spec)
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
        kwargs[arg] = _value(spec, key, text, kind)
    args = () if argument is None else (_argument(spec, name, argument),)
    agent = make(*args, **kwargs, seed=seed)
    agent.name = spec.strip()
    return agent


def _value(spec: str, key: str, text: str, kind: Callable[[str], object]):
    try:
        return kind(text)
    except ValueError:
        what = "an integer" if kind is _whole else "a number"
        raise ValueError(f"agent {_short(spec)}: {key} must be {what} in ASCII digits, not {_short(text)}"
                         ) from None


def _argument(spec: str, name: str, text: str):
    """The argument of a ``name:ARGUMENT`` agent, read; ValueError saying what it must be."""
    what, kind = ARGUMENTS[name]
    if not text.strip():
        raise ValueError(f"agent {_short(spec)}: {name} needs {what}")
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"agent {_short(spec)}: {name} needs {what}, not {_short(text)}") from None


def agent_name(agent) -> str:
    """What reports call an agent: an agent string itself, else the object's ``name`` (a
    function's ``__name__`` when it has none).

    Raises
    ------
    TypeError
        Not a str or a callable, or a name that is not a non-empty str.
    """
    if isinstance(agent, str):
        return agent.strip()
    if not callable(agent):
        raise TypeError(f"an agent string must be a str (or an agent a callable agent(game) -> placement id "
                        f"with a name), not {type(agent).__name__}")
    name = getattr(agent, "name", None) or getattr(agent, "__name__", None)
    if not isinstance(name, str) or not name.strip():
        raise TypeError(f"agent {_short(agent)} has no name: give it a `name` attribute (a str)")
    return name.strip()


def parse_agents(text: str) -> list[str]:
    """Splits a comma-separated list of agent strings; a ``key=value`` item continues the agent
    before it, so ``"mcts:sims=500,c=0.5,greedy"`` is ``["mcts:sims=500:c=0.5", "greedy"]``.

    Every comma separates agents, also in a ``gtp:`` command (which takes no parameters, so a
    ``key=value`` item cannot follow one): a command holding a comma cannot be given in such a
    list (pass a list of strings, or wrap the command in a script).

    Raises
    ------
    TypeError
        ``text`` is not a str.
    ValueError
        An empty list or item, parameters before any agent or after a ``gtp:`` agent; or an
        agent ``make_agent`` refuses (checked by building each once: ``gtp:`` agents start no
        engine then, while ``sb3:`` and ``net:`` load their files, and a missing file or
        optional dependency is a ValueError here too).
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
            if split_agent(specs[-1])[0] == "gtp":
                raise ValueError(f"{_short(item)} after {_short(specs[-1])} in {_short(text)}: a gtp: agent "
                                 "takes no parameters, and a comma always separates agents (a command "
                                 "holding a comma cannot be listed here: wrap it in a script)")
            specs[-1] += ":" + item
        else:
            specs.append(item)
    for spec in specs:
        try:
            make_agent(spec)
        except (OSError, ModuleNotFoundError) as exc:  # sb3: and net: files and extras
            raise ValueError(f"agent {_short(spec)}: {exc}") from None
    return specs
