"""Checkpoints: ``checkpoint.pt`` holds everything a resume needs (settings, iteration,
optimiser steps, model, optimiser, torch's RNG state, the replay buffer); ``model.pt`` only
what playing needs (the network's size and weights), for ``load_network``."""
from __future__ import annotations

import os
from pathlib import Path

import torch

from blokus.train.buffer import ReplayBuffer
from blokus.train.files import replace_file
from blokus.train.network import make_network
from blokus.train.settings import Config


def save(out: Path, config: Config, iteration: int, steps: int, net, optimiser, buffer: ReplayBuffer) -> None:
    """Writes ``checkpoint.pt`` and ``model.pt`` in ``out``, each through a temporary file."""
    state = {"config": config.as_json(), "iteration": iteration, "steps": steps,
             "model": net.state_dict(), "optimiser": optimiser.state_dict(),
             "torch_rng": torch.get_rng_state(), "buffer": buffer.state()}
    replace_file(out / "checkpoint.pt", lambda tmp: torch.save(state, tmp))
    model = {"channels": config.channels, "blocks": config.blocks, "variant": config.variant,
             "iteration": iteration, "model": net.state_dict()}
    replace_file(out / "model.pt", lambda tmp: torch.save(model, tmp))


def load(out: Path, net, optimiser, buffer: ReplayBuffer) -> tuple[int, int]:
    """Restores a run from ``out / checkpoint.pt``; returns (iteration, steps)."""
    state = torch.load(out / "checkpoint.pt", weights_only=False)
    net.load_state_dict(state["model"])
    optimiser.load_state_dict(state["optimiser"])
    torch.set_rng_state(state["torch_rng"])
    buffer.load(state["buffer"])
    return state["iteration"], state["steps"]


def load_network(path: str | os.PathLike):
    """The network saved in a run's ``model.pt`` (or ``checkpoint.pt``), in eval mode. The
    file is a pickle (``torch.load(weights_only=False)``): load only files you trust.

    Raises
    ------
    FileNotFoundError
        No such file.
    KeyError
        Not a file ``blokus train`` wrote.
    """
    state = torch.load(path, weights_only=False)
    sizes = state["config"] if "config" in state else state
    net = make_network(sizes["channels"], sizes["blocks"])
    net.load_state_dict(state["model"])
    return net.eval()
