"""The network as the search and the optimiser call it.

Its inputs are always seen from the colour to move: the observation planes
(``Game.observation(to_move)``), the pieces in hand (``Game.remaining_from(to_move)``) and the
legal mask, as ``BatchedSearch.pending()`` hands them out, as the replay buffer keeps them and
as the evaluation's raw policy reads them. Its value outputs are those of ``sides``: one logit
of the mover's side's value with two sides, else one logit per colour in the mover's order,
a softmax over the colours that score for a side.
"""
from __future__ import annotations

import numpy as np
import torch

from blokus.nn import PlacementNet
from blokus.train.sides import sides, value_outputs


def make_network(channels: int, blocks: int, variant: str = "duo") -> PlacementNet:
    """A PlacementNet of ``variant`` with ``sides.value_outputs(variant)`` value logits."""
    return PlacementNet(variant, channels=channels, blocks=blocks, values=value_outputs(variant))


def forward(net: PlacementNet, observations, remaining, masks) -> tuple[torch.Tensor, torch.Tensor]:
    """Masked placement logits float32 (K, A) and value logits: float32 (K,) with one value
    output, else (K, V).

    ``observations`` int8 (K, C + 1, H, W), ``remaining`` int8 (K, C, 21) and ``masks`` bool
    (K, A), arrays or tensors."""
    logits, values = net(torch.as_tensor(observations), torch.as_tensor(remaining), torch.as_tensor(masks))
    return logits, values[:, 0] if values.shape[1] == 1 else values


def scoring_colours(variant: str, colours) -> torch.Tensor:
    """bool (K, C): per position with ``colours`` (K,) to move, which of the network's colour
    outputs (the mover's first, then turn order) score for a side."""
    of_colour = torch.from_numpy(sides(variant).of_colour)
    seen = (torch.as_tensor(colours, dtype=torch.int64)[:, None] + torch.arange(len(of_colour))) % len(of_colour)
    return of_colour[seen] >= 0


def colour_log_shares(variant: str, values: torch.Tensor, colours) -> torch.Tensor:
    """float32 (K, C): the log of each colour output's value, a log-softmax over the colours
    that score for a side; the others (classic_3's shared green) at -inf."""
    return torch.log_softmax(values.masked_fill(~scoring_colours(variant, colours), -torch.inf), dim=1)


def player_values(variant: str, values: torch.Tensor, colours) -> np.ndarray:
    """Each player's value as ``BatchedSearch.evaluate`` takes it, from the value logits
    ``values`` of positions with ``colours`` (K,) to move: float32 (K,) for the mover with two
    players, else float32 (K, P); in [0, 1]. A team's members share their side's value."""
    facts = sides(variant)
    if values.dim() == 1:  # two sides: the mover's side's value
        mover = torch.sigmoid(values)
        if len(facts.of_player) == 2:
            return mover.numpy()
        same = torch.from_numpy(facts.of_player)[None, :] == torch.from_numpy(
            facts.of_colour)[torch.as_tensor(colours, dtype=torch.int64)][:, None]
        return torch.where(same, mover[:, None], 1 - mover[:, None]).numpy()
    shares = colour_log_shares(variant, values, colours).exp()
    slot = (torch.from_numpy(facts.player_colour)[None, :] - torch.as_tensor(colours, dtype=torch.int64)[:, None]
            ) % values.shape[1]  # each player's colour among the network's outputs
    return torch.gather(shares, 1, slot).numpy()


def evaluator(net: PlacementNet):
    """``fn(observations, remaining, masks, colours) -> (priors, values)`` for
    ``play.SearchOptions.run``: the softmax over the legal placements, float32 (K, A), and the
    players' values (``player_values``)."""
    @torch.no_grad()
    def evaluate(observations: np.ndarray, remaining: np.ndarray, masks: np.ndarray, colours: np.ndarray):
        logits, values = forward(net, observations, remaining, masks)
        return torch.softmax(logits, dim=1).numpy(), player_values(net.variant, values, colours)
    return evaluate
