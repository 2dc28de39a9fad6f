"""The optimisation step: cross-entropy of the masked placement softmax to the visit-count
policy, plus the binary cross-entropy of the value logit to the mover's value target in [0, 1]
(AlphaZero's loss with a [0, 1] value; weight decay by AdamW). With ``augment``, each position
of a minibatch is transposed with probability 1/2 (``symmetry``)."""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from blokus._network import forward
from blokus.train.buffer import ReplayBuffer, Samples
from blokus.train.symmetry import transpose_rows


def make_optimiser(net: torch.nn.Module, learning_rate: float, weight_decay: float) -> torch.optim.Optimizer:
    return torch.optim.AdamW(net.parameters(), lr=learning_rate, weight_decay=weight_decay)


def losses(net: torch.nn.Module, batch: Samples, transposed: np.ndarray | None = None
           ) -> tuple[torch.Tensor, torch.Tensor]:
    """(policy loss, value loss), each a mean over the batch; the positions at ``transposed``
    (bool (N,)) are taken transposed.

    The policy loss is ``-sum_a pi(a) log p(a)`` with ``p`` the softmax over the legal moves
    only (illegal ids masked before the softmax, so they take no probability)."""
    num_placements = net.policy_head.piece.numel()
    observations, masks, target = batch.observations, batch.legal_masks(num_placements), \
        batch.dense_policy(num_placements)
    if transposed is not None:
        observations, masks, target = transpose_rows(transposed, observations, masks, target)
    masks = torch.from_numpy(masks)
    logits, values = forward(net, torch.from_numpy(observations), torch.from_numpy(batch.remaining), masks)
    log_p = torch.log_softmax(logits, dim=1).masked_fill(~masks, 0.0)  # 0 * -inf would be NaN
    policy_loss = -(torch.from_numpy(target) * log_p).sum(dim=1).mean()
    value_loss = F.binary_cross_entropy_with_logits(values, torch.from_numpy(batch.values))
    return policy_loss, value_loss


def train(net: torch.nn.Module, optimiser: torch.optim.Optimizer, buffer: ReplayBuffer, steps: int,
          batch_size: int, rng: np.random.Generator, augment: bool = False) -> dict:
    """``steps`` optimiser steps on minibatches drawn from ``buffer``; the mean losses."""
    net.train()
    totals = np.zeros(2)
    for _ in range(steps):
        batch = buffer.sample(batch_size, rng)
        transposed = rng.random(batch_size) < 0.5 if augment else None
        policy_loss, value_loss = losses(net, batch, transposed)
        optimiser.zero_grad()
        (policy_loss + value_loss).backward()
        optimiser.step()
        totals += [policy_loss.item(), value_loss.item()]
    net.eval()
    return {"policy_loss": totals[0] / steps, "value_loss": totals[1] / steps}
