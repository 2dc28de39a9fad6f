"""Checkpoints: ``checkpoint.pt`` holds everything a resume needs (settings, iteration,
optimiser steps, model, optimiser, torch's RNG state, the replay buffer); ``model.pt`` only
what playing needs (the network's variant, size and weights), for ``blokus._network.load_network``."""
from __future__ import annotations

import os
from pathlib import Path

import torch

from blokus._files import open_regular
from blokus._rundir import RUN_FILE, replace_file
from blokus.train.buffer import ReplayBuffer
from blokus.train.errors import TrainError
from blokus.train.files import CHECKPOINT_FILE, MODEL_FILE
from blokus.train.settings import Config

# What a checkpoint holds (save), and the settings in it that may differ from the run's: the run
# may be extended, and the version of blokus that wrote it is recorded, not checked.
_KEYS = {"config", "iteration", "steps", "model", "optimiser", "torch_rng", "buffer"}
_MAY_DIFFER = {"iterations", "blokus"}


def save(out: Path, config: Config, iteration: int, steps: int, net, optimiser, buffer: ReplayBuffer) -> None:
    """Writes ``checkpoint.pt`` and ``model.pt`` in ``out``, each through a temporary file."""
    state = {"config": config.as_json(), "iteration": iteration, "steps": steps,
             "model": net.state_dict(), "optimiser": optimiser.state_dict(),
             "torch_rng": torch.get_rng_state(), "buffer": buffer.state()}
    replace_file(out / CHECKPOINT_FILE, lambda tmp: torch.save(state, tmp))
    model = {"channels": config.channels, "blocks": config.blocks, "variant": config.variant,
             "iteration": iteration, "model": net.state_dict()}
    replace_file(out / MODEL_FILE, lambda tmp: torch.save(model, tmp))


def load(out: Path, config: Config, net, optimiser, buffer: ReplayBuffer) -> tuple[int, int]:
    """Restores a run from ``out / checkpoint.pt`` into ``net``, ``optimiser``, ``buffer`` and
    torch's RNG; returns (iteration, steps).

    Raises ``TrainError`` (naming the file and what to do) for a file that cannot be read (not a
    regular file, empty, cut short, garbage), that ``blokus train`` did not write for this run's
    settings, whose iteration is beyond ``config.iterations``, or whose contents do not fit the
    network and buffer; torch's RNG is set only once everything else is in place."""
    path = out / CHECKPOINT_FILE
    try:
        with os.fdopen(open_regular(path, os.O_RDONLY), "rb") as f:
            state = torch.load(f, weights_only=False)
    except Exception as exc:  # unpickling a damaged file can raise nearly anything (EOFError, ...)
        raise _damaged(path, f"cannot be read ({_reason(exc)})") from None
    iteration, steps = _checked(state, config, path)
    try:
        net.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        buffer.load(state["buffer"])
        torch.set_rng_state(state["torch_rng"])
    except Exception as exc:  # as above: wrong shapes, types or keys, however torch reports them
        raise _damaged(path, f"does not fit this run's network and buffer ({_reason(exc)})") from None
    return iteration, steps


def _checked(state, config: Config, path: Path) -> tuple[int, int]:
    """(iteration, steps) of a checkpoint's ``state``, if it is one of this run's."""
    if not isinstance(state, dict) or not _KEYS <= set(state) or not isinstance(state["config"], dict):
        raise _damaged(path, "is not a checkpoint of `blokus train`")
    ours = config.as_json()
    differ = sorted(k for k in ours if k not in _MAY_DIFFER and state["config"].get(k) != ours[k])
    if differ:
        raise _damaged(path, f"was written by a run with other settings than {RUN_FILE}'s ({', '.join(differ)})")
    iteration, steps = state["iteration"], state["steps"]
    if type(iteration) is not int or type(steps) is not int or iteration < 0 or steps < 0:
        raise _damaged(path, f"holds iteration {iteration!r:.40} and steps {steps!r:.40}, not counts")
    if iteration > config.iterations:
        raise _damaged(path, f"is at iteration {iteration}, beyond the run's {config.iterations} iterations")
    return iteration, steps


def _reason(exc: Exception) -> str:
    """An exception as a short clause: its type and the first line of its message, cut."""
    first = (str(exc).splitlines() or [""])[0]
    text = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    return text if len(text) <= 100 else text[:100] + "..."


def _damaged(path: Path, what: str) -> TrainError:
    return TrainError(f"--resume: {path} {what}; restore it from a copy, or delete it to start the run "
                      f"again from iteration 0")
