"""The network as the search and the optimiser call it.

Its inputs are always seen from the colour to move: the observation planes
(``Game.observation(to_move)``), the pieces in hand (``Game.remaining_from(to_move)``) and the
legal mask, as ``BatchedSearch.pending()`` hands them out, as the replay buffer keeps them and
as the evaluation's raw policy reads them.
"""
from __future__ import annotations

import numpy as np
import torch

from blokus.nn import PlacementNet


def make_network(channels: int, blocks: int) -> PlacementNet:
    """A Duo PlacementNet with one value output: the logit of the mover's value (play.value_targets)."""
    return PlacementNet("duo", channels=channels, blocks=blocks, values=1)


def forward(net: PlacementNet, observations, remaining, masks) -> tuple[torch.Tensor, torch.Tensor]:
    """Masked placement logits float32 (K, A) and value logits float32 (K,) for the mover.

    ``observations`` int8 (K, C + 1, H, W), ``remaining`` int8 (K, C, 21) and ``masks`` bool
    (K, A), arrays or tensors."""
    logits, values = net(torch.as_tensor(observations), torch.as_tensor(remaining), torch.as_tensor(masks))
    return logits, values[:, 0]


def evaluator(net: PlacementNet):
    """``fn(observations, remaining, masks) -> (priors, values)`` for ``BatchedSearch.run``:
    the softmax over the legal placements, float32 (K, A), and the mover's value in [0, 1],
    float32 (K,)."""
    @torch.no_grad()
    def evaluate(observations: np.ndarray, remaining: np.ndarray, masks: np.ndarray):
        logits, values = forward(net, observations, remaining, masks)
        return torch.softmax(logits, dim=1).numpy(), torch.sigmoid(values).numpy()
    return evaluate
