"""Agent strings: ``name:key=value`` as on the command line, the agents they name, and lists of them."""
from __future__ import annotations

from typing import Callable

from blokus.agents._mcts import MCTSAgent
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
                         "margin": ("margin", _real), "replies": ("replies", _whole),
                         "max_nodes": ("max_nodes", _whole), "threads": ("threads", _whole),
                         "early_stop": ("early_stop", _real), "reuse": ("reuse", _whole),
                         "cpu": ("cpu_seconds", _whole), "solve": ("solve", _whole)}),
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
