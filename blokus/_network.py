"""The network of ``blokus train`` at play: a Duo ``blokus.nn.PlacementNet`` as the search and
the optimiser call it (``forward``, ``evaluator``), read back from a run's ``model.pt``
(``load_network``) and playing as an agent (``NetworkAgent``). Both ``blokus.agents`` (the
``net:`` agent) and ``blokus.train`` (which trains it and plays it against agents) use it.

Its inputs are always seen from the colour to move: the observation planes
(``Game.observation(to_move)``), the pieces in hand (``Game.remaining_from(to_move)``) and the
legal mask, as ``BatchedSearch.pending()`` hands them out, as the replay buffer keeps them and
as the raw policy reads them.
"""
from __future__ import annotations

import os

import numpy as np

from blokus._optional import needs
from blokus.game import Game
from blokus.nn import PlacementNet
from blokus.search import BatchedSearch

with needs("torch", "blokus train's network"):
    import torch


def make_network(channels: int, blocks: int) -> PlacementNet:
    """A Duo PlacementNet with one value output: the logit of the mover's value (play.value_targets)."""
    return PlacementNet("duo", channels=channels, blocks=blocks, values=1)


def load_network(path: str | os.PathLike) -> PlacementNet:
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


def step_seed(seed: int, *keys: int) -> int:
    """A 64-bit seed for the search at ``keys`` (iteration, ply, ...) of the run or agent seeded ``seed``."""
    return int(np.random.SeedSequence([seed, *keys]).generate_state(1, np.uint64)[0])


def choose_moves(net: PlacementNet, games: list[Game], simulations: int, c_puct: float, seed: int) -> np.ndarray:
    """int (len(games),): the network's move in each game (none over), the most visited by its
    search without root noise or, with ``simulations=0``, its raw policy's most probable."""
    if simulations == 0:
        with torch.no_grad():
            masks = np.stack([g.legal_mask() for g in games])
            logits, _ = forward(net, np.stack([g.observation(g.to_move) for g in games]),
                                np.stack([g.remaining_from(g.to_move) for g in games]), masks)
        return logits.argmax(dim=1).numpy()
    search = BatchedSearch(games, simulations=simulations, c_puct=c_puct, dirichlet_alpha=0.3,
                           dirichlet_fraction=0.0, seed=seed)
    return search.run(evaluator(net)).best_moves()


class NetworkAgent:
    """An agent (``agent(game) -> placement id``, as ``blokus.agents``) that plays the network.

    Parameters
    ----------
    net : blokus.nn.PlacementNet
        A Duo network (``blokus.train.load_network``).
    simulations : int
        Simulations of its search per move; 0 plays the raw policy.
    c_puct : float
        The search's exploration constant.
    seed : int
        Seeds the search's ties (no noise is added).
    """

    def __init__(self, net: PlacementNet, simulations: int = 32, *, c_puct: float = 1.25, seed: int = 0):
        self.net, self.simulations, self.c_puct, self.seed = net, simulations, c_puct, seed
        self.name = f"network:sims={simulations}"

    def __call__(self, game: Game) -> int:
        return int(choose_moves(self.net, [game], self.simulations, self.c_puct,
                                step_seed(self.seed, len(game.history)))[0])
