"""The optimisation step: cross-entropy of the masked placement softmax to the visit-count
policy, plus the value loss: with one value output (two sides) the binary cross-entropy of its
logit to the mover's side's value target in [0, 1] (AlphaZero's loss with a [0, 1] value), with
one per colour the cross-entropy of their softmax over the colours that score for a side to the
sides' values (which sum to 1: ``blokus._sides``); weight decay by AdamW. With ``augment``, each
position of a minibatch is transposed with probability 1/2 (``symmetry``)."""
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
        observations, masks, target = transpose_rows(transposed, observations, masks, target, net.variant)
    masks = torch.from_numpy(masks)
    logits, values = forward(net, torch.from_numpy(observations), torch.from_numpy(batch.remaining), masks)
    log_p = torch.log_softmax(logits, dim=1).masked_fill(~masks, 0.0)  # 0 * -inf would be NaN
    policy_loss = -(torch.from_numpy(target) * log_p).sum(dim=1).mean()
    return policy_loss, value_loss(values, torch.from_numpy(batch.values))


def value_loss(values: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """The mean value loss of value logits (N,) or (N, V) against targets of the same shape
    (NaN: a colour that scores for nobody, left out of the softmax)."""
    if values.dim() == 1:
        return F.binary_cross_entropy_with_logits(values, targets)
    scoring = ~targets.isnan()
    log_shares = torch.log_softmax(values.masked_fill(~scoring, -torch.inf), dim=1)
    return -(targets.nan_to_num() * log_shares.masked_fill(~scoring, 0.0)).sum(dim=1).mean()


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
