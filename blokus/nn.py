"""Neural networks that fit Blokus (PyTorch; ``pip install "blokus[torch]"``).

A convolutional trunk reads the observation planes and the pieces in hand; the placement head
scores every placement id from the trunk's features at the cells it covers and at the cells it
touches (by a side: closed to its colour after it; by a corner only: where its colour may attach
next), plus a term for its piece and its orientation; the value head rates the position. The
head is gathered through ``blokus.placements``: what the network learns about a cell or a piece
carries over to every placement that uses it, instead of one output unit per placement id
learned on its own.

- :class:`PlacementNet`: the whole network as a plain ``torch.nn.Module``, for your own loop.
- :class:`MaskablePlacementPolicy`: the same parts as a policy for sb3-contrib's MaskablePPO
  (``MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, **blokus.nn.ppo_settings(env.num_envs))``;
  ``pip install "blokus[train]"``).
- :func:`ppo_settings`: the MaskablePPO options that ``benchmarks/bench_training.py`` measures.

Shapes: B positions, C colours, H x W board, A placements (13,729 on Duo's 14x14, 30,433 on the
classic 20x20), K trunk channels.
"""
from __future__ import annotations

import numpy as np

from blokus._nn_parts import PlacementHead, Trunk, ValueHead, mask_logits, placement_table
from blokus._optional import needs
from blokus.game import Game
from blokus.placements import placements

with needs("torch", "blokus.nn"):
    import torch
    from torch import nn

__all__ = ["MaskablePlacementPolicy", "PlacementHead", "PlacementNet", "Trunk", "ValueHead", "placement_table",
           "ppo_settings"]

class PlacementNet(nn.Module):
    """Trunk, placement head and value head, as a plain module.

    Parameters
    ----------
    variant : str
        A ``blokus.Game`` variant: sets the board, colours and placements.
    channels, blocks : int
        As :class:`Trunk`.
    values : int
        Outputs of the value head (1, or e.g. one per player).
    size_prior : float
        As :class:`PlacementHead`: the starting preference for larger pieces, in logits per square.

    Notes
    -----
    ``forward(observation, remaining, legal_mask=None)``: ``observation`` (B, C + 1, H, W) and
    ``remaining`` (B, C, 21) as the environments give them (int8 or float, tensors or arrays),
    ``legal_mask`` (B, A) bool or 0/1, optional. Returns ``(logits, value)``: float32 (B, A)
    logits, the illegal ids at the lowest float when ``legal_mask`` is given (probability 0 after
    ``softmax``), and float32 (B, values).

    Raises
    ------
    ValueError
        Unknown variant, or ``size_prior`` not a finite real number.
    """

    def __init__(self, variant: str = "duo", *, channels: int = 32, blocks: int = 2, values: int = 1,
                 size_prior: float = 2.0):
        super().__init__()
        game = Game(variant)
        self.variant = variant
        self.trunk = Trunk(game.num_colours + 1, game.num_colours, channels, blocks)
        self.policy_head = PlacementHead(placements(variant), channels, size_prior)
        self.value_head = ValueHead(channels, values)

    def forward(self, observation, remaining, legal_mask=None) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.trunk(observation, remaining)
        logits = self.policy_head(features)
        if legal_mask is not None:
            logits = mask_logits(logits, legal_mask)
        return logits, self.value_head(features)


def ppo_settings(num_envs: int = 16) -> dict:
    """MaskablePPO's keyword arguments for :class:`MaskablePlacementPolicy` on ``num_envs`` games,
    the ones ``benchmarks/bench_training.py`` trains with (its figures: ``benchmarks/README.md``,
    the runs that chose them: ``benchmarks/LOG.md``).

    An update every 1,024 learner moves (``n_steps = 1024 // num_envs``), minibatches of 256, 4
    epochs per update, learning rate 1e-3, ``gamma=1`` (the only reward comes at the end of the
    game, a few dozen moves later at most: the first move should see it undiminished). Override
    any of them by keyword:
    ``MaskablePPO(policy, env, **{**ppo_settings(16), "n_epochs": 2})``.

    Raises
    ------
    ValueError
        ``num_envs`` is not an int >= 1.
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise ValueError(f"num_envs must be an int >= 1, not {num_envs!r}")
    return {"n_steps": max(1, 1024 // int(num_envs)), "batch_size": 256, "n_epochs": 4, "learning_rate": 1e-3,
            "gamma": 1.0}



def __getattr__(name: str):
    # the SB3 side is imported on first use, so that torch alone needs no sb3-contrib; a saved
    # MaskablePPO model names its policy blokus.nn.MaskablePlacementPolicy and finds it here
    if name in ("MaskablePlacementPolicy", "TrunkExtractor"):
        from blokus import _sb3_policy

        return getattr(_sb3_policy, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
