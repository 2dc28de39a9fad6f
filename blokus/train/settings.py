"""A training run's settings: the defaults, the ones given, the ones of the run being resumed
(``run.json``), and their checks."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from blokus import __version__
from blokus._rundir import saved_settings
from blokus.agents import parse_agents
from blokus.train.errors import TrainError
from blokus.train.files import CHECKPOINT_FILE, RUN_FILES
from blokus.train.symmetry import keeps_starts
from blokus.variants import VARIANTS

# The options of `blokus train` (None given: the default, or on resume the run's).
# The defaults are the measured runs' best (benchmarks/LOG.md, "blokus train"): 16 steps
# of 128 positions per iteration of about 450 new ones (4.5 draws per position; 32 steps
# overfit the value head), 100 evaluation games (20 could not tell a rise from noise).
OPTIONS = {"variant": "duo", "iterations": 30, "games_per_iteration": 16, "simulations": 32, "train_steps": 16,
           "batch_size": 128, "eval_every": 10, "eval_games": 100, "eval_simulations": None,
           "opponents": "random,greedy,mcts:sims=200", "seed": 0, "channels": 32, "blocks": 2}

# Fixed by the code, recorded in run.json so that a resume by a blokus with other ones is refused.
# Dirichlet alpha about AlphaZero's 10 / (legal moves): Duo positions have about 100. augment
# (set by the variant, not here): each minibatch position transposed with probability 1/2 where
# the transpose keeps the starting squares (blokus.train.symmetry: Duo only). The value
# target: (1 - margin_weight) * the mover's share of the win + margin_weight *
# softmax(side scores / margin_scale), per side (blokus._sides).
HYPERPARAMETERS: dict[str, Any] = {"start": "fixed", "sample_plies": 10, "buffer_size": 20_000,
                                   "learning_rate": 1e-3, "weight_decay": 1e-4,
                                   "margin_weight": 0.5, "margin_scale": 10.0,
                                   "c_puct": 1.25, "dirichlet_alpha": 0.1, "dirichlet_fraction": 0.25}

# Options a resume may change: the run may be extended.
GROWABLE = {"iterations"}


@dataclass
class Config:
    variant: str
    iterations: int
    games_per_iteration: int
    simulations: int
    train_steps: int
    batch_size: int
    eval_every: int
    eval_games: int
    eval_simulations: int
    opponents: list
    seed: int
    channels: int
    blocks: int
    start: str
    sample_plies: int
    buffer_size: int
    learning_rate: float
    weight_decay: float
    augment: bool
    margin_weight: float
    margin_scale: float
    c_puct: float
    dirichlet_alpha: float
    dirichlet_fraction: float

    def as_json(self) -> dict:
        return dict(asdict(self), blokus=__version__)


def option_name(key: str) -> str:
    return "--" + key.replace("_", "-")


def resolve_settings(out: Path, resume: bool, given: dict) -> tuple[Config, bool]:
    """The run's settings, checked, and whether there is a run in ``out`` to resume."""
    saved = _saved(out, resume)
    values: dict[str, Any] = {}
    for key, default in OPTIONS.items():
        value = given.get(key)
        if key == "opponents" and value is not None:
            value = _opponents(value)
        if saved is not None:
            if value is not None and key not in GROWABLE and value != saved[key]:
                raise TrainError(f"--resume: the run in {out} has {option_name(key)} {_show(saved[key])}, "
                                 f"not {_show(value)}; leave the option out or choose a new directory")
            if value is None:
                value = saved[key]
        values[key] = default if value is None else value
    values["opponents"] = _opponents(values["opponents"])
    if values["eval_simulations"] is None:
        values["eval_simulations"] = values["simulations"]
    if values["variant"] not in VARIANTS:
        raise TrainError(f"--variant: must be one of {', '.join(VARIANTS)}, not {values['variant']!r}")
    fixed = {**HYPERPARAMETERS, "augment": keeps_starts(values["variant"])}
    if saved is not None:
        for key, value in fixed.items():
            if saved.get(key) != value:
                raise TrainError(f"--resume: the run in {out} was made with {key}={saved.get(key)!r}; "
                                 f"this blokus uses {value!r}: choose a new directory")
        if values["iterations"] < saved["iterations"]:
            raise TrainError(f"--resume: --iterations {values['iterations']} is fewer than the run's "
                             f"{saved['iterations']}; a run may only be extended")
    config = Config(**values, **fixed)
    _check(config)
    return config, saved is not None


def _saved(out: Path, resume: bool) -> dict | None:
    return saved_settings(out, resume, command="train", kind="training", marker=CHECKPOINT_FILE, files=RUN_FILES,
                          error=TrainError, read=_complete)


def _complete(saved: dict) -> dict:
    """The saved settings, KeyError naming those missing."""
    missing = {f.name for f in fields(Config)} - set(saved)
    if missing:
        raise KeyError(", ".join(sorted(missing)))
    return saved


def _show(value) -> str:
    return ",".join(value) if isinstance(value, list) else str(value)


def _opponents(opponents) -> list[str]:
    text = opponents if isinstance(opponents, str) else ",".join(opponents)
    try:
        specs = parse_agents(text)
    except (TypeError, ValueError) as exc:
        raise TrainError(f"--opponents: {exc}") from None
    for spec in specs:
        if specs.count(spec) > 1:
            raise TrainError(f"--opponents: {spec!r} is given twice")
    return specs


def _check(config: Config) -> None:
    at_least = {"iterations": 1, "games_per_iteration": 1, "simulations": 1, "train_steps": 1,
                "batch_size": 1, "eval_every": 1, "eval_games": 1, "eval_simulations": 0, "channels": 1,
                "blocks": 0}
    for key, low in at_least.items():
        value = getattr(config, key)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise TrainError(f"{option_name(key)}: must be an integer >= {low}, not {value!r}")
    if isinstance(config.seed, bool) or not isinstance(config.seed, int) or not 0 <= config.seed < 2**64:
        raise TrainError(f"--seed: must be an integer in [0, 2**64), not {config.seed!r}")
