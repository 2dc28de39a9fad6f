"""The network of ``blokus train`` at play: a ``blokus.nn.PlacementNet`` of any variant as the
search and the optimiser call it (``forward``, ``evaluator``), read back from a run's
``model.pt`` (``load_network``) and playing as an agent (``NetworkAgent``). Both
``blokus.agents`` (the ``net:`` agent) and ``blokus.train`` (which trains it and plays it
against agents) use it.

Its inputs are always seen from the colour to move: the observation planes
(``Game.observation(to_move)``), the pieces in hand (``Game.remaining_from(to_move)``) and the
legal mask, as ``BatchedSearch.pending()`` hands them out, as the replay buffer keeps them and
as the raw policy reads them. Its value outputs are those of ``blokus._sides``: one logit of
the mover's side's value with two sides, else one logit per colour in the mover's order, a
softmax over the colours that score for a side.
"""
from __future__ import annotations

import os

import numpy as np

from blokus._optional import needs
from blokus._sides import sides, value_outputs
from blokus.game import Game
from blokus.nn import PlacementNet
from blokus.search import BatchedSearch

with needs("torch", "blokus train's network"):
    import torch


def make_network(channels: int, blocks: int, variant: str = "duo") -> PlacementNet:
    """A PlacementNet of ``variant`` with ``_sides.value_outputs(variant)`` value logits."""
    return PlacementNet(variant, channels=channels, blocks=blocks, values=value_outputs(variant))


def load_network(path: str | os.PathLike) -> PlacementNet:
    """The network saved in a run's ``model.pt`` (or ``checkpoint.pt``), in eval mode, of the
    variant it was trained on (``net.variant``). The file is a pickle
    (``torch.load(weights_only=False)``): load only files you trust.

    Raises
    ------
    FileNotFoundError
        No such file.
    KeyError
        Not a file ``blokus train`` wrote.
    """
    state = torch.load(path, weights_only=False)
    sizes = state["config"] if "config" in state else state
    net = make_network(sizes["channels"], sizes["blocks"], sizes["variant"])
    net.load_state_dict(state["model"])
    return net.eval()


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
    """``fn(observations, remaining, masks, colours) -> (priors, values)`` for ``run_search``:
    the softmax over the legal placements, float32 (K, A), and the players' values
    (``player_values``)."""
    @torch.no_grad()
    def evaluate(observations: np.ndarray, remaining: np.ndarray, masks: np.ndarray, colours: np.ndarray):
        logits, values = forward(net, observations, remaining, masks)
        return torch.softmax(logits, dim=1).numpy(), player_values(net.variant, values, colours)
    return evaluate


def run_search(search: BatchedSearch, evaluate) -> BatchedSearch:
    """``search`` run to its end: ``evaluate(observations, remaining, masks, colours) ->
    (priors, values)`` on each ``pending()`` batch (``evaluator``; the colours to move say whose
    value each output is)."""
    while not search.done:
        request = search.pending()
        search.evaluate(*evaluate(request.observations, request.remaining, request.masks, request.colours))
    return search


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
    return run_search(search, evaluator(net)).best_moves()


class NetworkAgent:
    """An agent (``agent(game) -> placement id``, as ``blokus.agents``) that plays the network.

    Parameters
    ----------
    net : blokus.nn.PlacementNet
        A network of ``blokus train`` (``blokus.train.load_network``); it plays games of its
        variant (``net.variant``) only.
    simulations : int
        Simulations of its search per move; 0 plays the raw policy.
    c_puct : float
        The search's exploration constant.
    seed : int
        Seeds the search's ties (no noise is added).

    Raises
    ------
    ValueError
        From a call: a game of another variant than the network's.
    """

    def __init__(self, net: PlacementNet, simulations: int = 32, *, c_puct: float = 1.25, seed: int = 0):
        self.net, self.simulations, self.c_puct, self.seed = net, simulations, c_puct, seed
        self.name = f"network:sims={simulations}"

    def __call__(self, game: Game) -> int:
        if game.variant != self.net.variant:
            raise ValueError(f"{self.name} plays {self.net.variant} (what it was trained on), "
                             f"not a {game.variant} game")
        return int(choose_moves(self.net, [game], self.simulations, self.c_puct,
                                step_seed(self.seed, len(game.history)))[0])
