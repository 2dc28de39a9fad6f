"""Trained models as agents: ``sb3:PATH`` (a saved MaskablePPO model) and ``net:PATH`` (a
``blokus train`` network). Torch and sb3-contrib are imported only when such an agent is made."""
from __future__ import annotations

import functools
import os
import random

import numpy as np

from blokus._optional import needs
from blokus.agents._params import _check, _short
from blokus.game import Game
from blokus.variants import VARIANTS

# The most simulations a net: agent's search runs per move (BatchedSearch's limit).
MAX_NET_SIMULATIONS = 2**24


def _file_key(path) -> tuple[str, int, int]:
    """(real path, mtime, size) of a model file: a file replaced since it was loaded is loaded
    again. FileNotFoundError naming the file when there is none."""
    real = os.path.realpath(os.fspath(path))
    try:
        stat = os.stat(real)
    except FileNotFoundError:
        raise FileNotFoundError(f"no model file {_short(os.fspath(path))}") from None
    return real, stat.st_mtime_ns, stat.st_size


def _variants_of(shapes) -> str:
    """The variants whose games give observations of these (observation, remaining) shapes."""
    fits = []
    for name in VARIANTS:
        game = Game(name)
        if (game.observation(0).shape, game.remaining_from(0).shape) == tuple(shapes):
            fits.append(name)
    return " or ".join(fits) or "no variant"


# Loaded once per process and file: blokus.selfplay and blokus.arena make agents afresh for
# every game from their strings.
@functools.lru_cache(maxsize=8)
def _maskable_ppo(key: tuple[str, int, int]):
    with needs("train", "the sb3: agent"):
        from sb3_contrib import MaskablePPO
    return MaskablePPO.load(key[0], device="cpu")


@functools.lru_cache(maxsize=8)
def _network(key: tuple[str, int, int]):
    with needs("torch", "the net: agent"):
        from blokus._network import load_network
    return load_network(key[0])


def _check_variant(owner: str, trained: str, game: Game) -> None:
    if game.variant != trained:
        raise ValueError(f"{owner} plays {trained} (what it was trained on), not a {game.variant} game")


class SB3Agent:
    """A saved sb3-contrib ``MaskablePPO`` model as an agent: ``sb3:PATH`` in an agent string
    (``pip install "blokus[train]"``).

    Each move, the model's policy sees what ``blokus.sb3.VecEnv`` and the Gymnasium envs show
    their learner: ``observation`` int8 (1, C + 1, H, W) and ``remaining`` int8 (1, C, 21) from
    the colour to move (``Game.observation``, ``Game.remaining_from``), with the legal mask
    bool (1, A) applied, and its action is the placement id.

    Parameters
    ----------
    path : str or os.PathLike
        A file ``model.save(path)`` wrote (``.zip``); loaded once per process (again if the
        file changes). A pickle: load only files you trust.
    deterministic : bool
        The most probable legal placement (default); False: drawn from the policy's masked
        distribution with this agent's own random stream.
    seed : int or None
        Seeds that stream (unused when deterministic).

    Raises
    ------
    FileNotFoundError
        No such file.
    ModuleNotFoundError
        sb3-contrib or torch missing (the message names the extra).
    ValueError
        From a call: a game of another variant than the model's observations (its
        observation space's shapes say which).
    """

    def __init__(self, path, *, deterministic: bool = True, seed: int | None = None):
        _check(deterministic in (0, 1), "deterministic", deterministic, "True or False")
        self.path, self.deterministic = os.fspath(path), bool(deterministic)
        self.model = _maskable_ppo(_file_key(path))
        space = getattr(self.model.observation_space, "spaces", {})
        if not {"observation", "remaining"} <= set(space):
            raise ValueError(f"sb3:{_short(self.path)} was not trained on blokus observations (its observation "
                             f"space is {_short(self.model.observation_space)})")
        self._shapes = (space["observation"].shape, space["remaining"].shape)
        self._rng = random.Random(seed)
        self.name = f"sb3:{self.path}"

    def __call__(self, game: Game) -> int:
        colour = game.to_move
        obs = {"observation": game.observation(colour)[None], "remaining": game.remaining_from(colour)[None]}
        if (obs["observation"].shape[1:], obs["remaining"].shape[1:]) != self._shapes:
            raise ValueError(f"{self.name} sees observations of shape {self._shapes[0]}, not a {game.variant} "
                             f"game's {obs['observation'].shape[1:]}: it plays {_variants_of(self._shapes)} "
                             "(e.g. blokus selfplay --variant ...)")
        mask = game.legal_mask()[None]
        if self.deterministic:
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
            return int(np.asarray(action).reshape(-1)[0])
        import torch

        with torch.no_grad():
            tensors, _ = self.model.policy.obs_to_tensor(obs)
            probs = self.model.policy.get_distribution(tensors, action_masks=mask).distribution.probs[0]
        probs = probs.double().numpy()
        return int(self._rng.choices(range(len(probs)), weights=probs)[0])

    def __getstate__(self) -> dict:  # a worker loads the file itself (once per process)
        return {k: v for k, v in self.__dict__.items() if k != "model"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, model=_maskable_ppo(_file_key(state["path"])))


class NetAgent:
    """A ``blokus train`` network as an agent: ``net:PATH`` or ``net:PATH:sims=N`` in an agent
    string (``pip install "blokus[torch]"``); ``blokus.train.NetworkAgent`` playing the file's
    network.

    Parameters
    ----------
    path : str or os.PathLike
        A ``model.pt`` or ``checkpoint.pt`` of a ``blokus train`` run in any variant
        (``blokus.train.load_network``); it plays games of that variant only. Loaded once per
        process (again if the file changes).
        A pickle: load only files you trust.
    simulations : int
        0 (default): the policy's most probable legal placement. N in [1, 2**24]: the
        most visited move of the search training plays (``blokus.search.BatchedSearch`` guided
        by the network, no noise), N simulations per move (``sims`` in an agent string).
    seed : int or None
        Seeds the search's ties.

    Raises
    ------
    FileNotFoundError
        No such file.
    ModuleNotFoundError
        torch missing (the message names the extra).
    ValueError
        ``simulations`` out of range; from a call, a game of another variant than the network's.
    """

    def __init__(self, path, *, simulations: int = 0, seed: int | None = None):
        _check(isinstance(simulations, int) and 0 <= simulations <= MAX_NET_SIMULATIONS, "simulations",
               simulations, f"in [0, {MAX_NET_SIMULATIONS}]")
        self.path = os.fspath(path)
        net = _network(_file_key(path))  # first: without torch, its error names this agent
        from blokus._network import NetworkAgent

        self._player = NetworkAgent(net, simulations, seed=random.Random(seed).getrandbits(63))
        self.name = f"net:{self.path}" + (f":sims={simulations}" if simulations else "")

    def __call__(self, game: Game) -> int:
        _check_variant(self.name, self._player.net.variant, game)
        return self._player(game)

    def __getstate__(self) -> dict:  # a worker loads the file itself (once per process)
        player = self._player
        return dict(self.__dict__, _player=(player.simulations, player.c_puct, player.seed))

    def __setstate__(self, state: dict) -> None:
        from blokus._network import NetworkAgent

        simulations, c_puct, seed = state["_player"]
        net = _network(_file_key(state["path"]))
        self.__dict__.update(state, _player=NetworkAgent(net, simulations, c_puct=c_puct, seed=seed))
