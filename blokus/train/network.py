"""The network as the search and the optimiser call it.

The search's leaves come as ``BatchedSearch.pending()`` requests: observation planes and legal
masks, but not the pieces in hand (``Request`` has no ``remaining``). So that the network sees
the same inputs in training as in search, its ``remaining`` input is always zeros here: what it
knows of the pieces comes from the placement head's piece terms.
"""
from __future__ import annotations

import numpy as np
import torch

from blokus.nn import PlacementNet

COLOURS = 2  # Duo


def make_network(channels: int, blocks: int) -> PlacementNet:
    """A Duo PlacementNet with one value output: the logit of the mover's share of the win."""
    return PlacementNet("duo", channels=channels, blocks=blocks, values=1)


def forward(net: PlacementNet, observations, masks) -> tuple[torch.Tensor, torch.Tensor]:
    """Masked placement logits float32 (K, A) and value logits float32 (K,) for the mover.

    ``observations`` int8 (K, C + 1, H, W) and ``masks`` bool (K, A), arrays or tensors."""
    observations = torch.as_tensor(observations)
    remaining = torch.zeros((len(observations), COLOURS, 21))
    logits, values = net(observations, remaining, torch.as_tensor(masks))
    return logits, values[:, 0]


def evaluator(net: PlacementNet):
    """``fn(observations, masks) -> (priors, values)`` for ``BatchedSearch.run``: the softmax
    over the legal placements, float32 (K, A), and the mover's share of the win in [0, 1],
    float32 (K,)."""
    @torch.no_grad()
    def evaluate(observations: np.ndarray, masks: np.ndarray):
        logits, values = forward(net, observations, masks)
        return torch.softmax(logits, dim=1).numpy(), torch.sigmoid(values).numpy()
    return evaluate
