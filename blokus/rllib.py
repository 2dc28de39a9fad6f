"""RLlib: Blokus as a ``MultiAgentEnv``, ``blokus.nn.PlacementNet`` as an ``RLModule``, and a PPO
configuration for self-play (``pip install "blokus[rllib]"``; RLlib's new API stack).

>>> from blokus import rllib
>>> algo = rllib.ppo_config("duo").build_algo()              # doctest: +SKIP
>>> algo.train()["env_runners"]["episode_return_mean"]         # doctest: +SKIP

- :class:`MultiAgentEnv`: every variant, agents ``player_0`` .. ``player_{P-1}`` as in
  ``blokus.env`` (PettingZoo), the agent on move alone in each observation dict.
- :class:`PlacementNetModule`: a ``TorchRLModule`` with PPO's value function around
  ``blokus.nn.PlacementNet``; the illegal placements get probability 0.
- :func:`ppo_config`: a ``PPOConfig`` that trains one policy shared by every seat
  (``shared=True``, self-play) or one per seat.
"""
from __future__ import annotations

import operator

import numpy as np

from blokus._optional import needs

with needs("rllib", "blokus.rllib"):
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.env.multi_agent_env import MultiAgentEnv as _RLlibMultiAgentEnv

from blokus.game import Game
from blokus.nn import PlacementNet
from blokus.rl import (
    PlacementSpace,
    check_illegal,
    check_options,
    end_rewards,
    illegal_reward,
    observation_space,
    observe_player,
    on_move,
)

__all__ = ["MultiAgentEnv", "PlacementNetModule", "ppo_config"]


class MultiAgentEnv(_RLlibMultiAgentEnv):
    """A Blokus game for RLlib, turn by turn.

    ``config`` (RLlib's ``env_config``, a dict): ``variant`` (default ``"duo"``), ``start``
    (``"fixed"``), ``reward`` (``"win_loss"`` or ``"score"``, as ``blokus.env``) and ``illegal``
    (``"raise"`` or ``"end"``, as ``blokus.gym_env.BlokusEnv``).

    Agents are ``player_0`` .. ``player_{P-1}``; each observation dict holds the agent on move
    only (the player who moves the colour to move), until the end, when every agent gets its
    last observation and reward. Observations are ``blokus.env``'s dict, ``action_mask``
    (int8 (A,)) included: ``observation`` int8 (C + 1, H, W) and ``remaining`` int8 (C, 21) from
    the colour to move (an agent's own colour at the end). Rewards come once, at the end.

    Raises
    ------
    ValueError
        A bad option or an unknown one; from :meth:`step`, an action for an agent not on move,
        or an illegal one with ``illegal="raise"`` (the game unchanged).
    """

    _OPTIONS = {"variant": "duo", "start": "fixed", "reward": "win_loss", "illegal": "raise"}

    def __init__(self, config: dict | None = None):
        super().__init__()
        options = dict(config or {})
        unknown = set(options) - set(self._OPTIONS)
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))} (expected {', '.join(self._OPTIONS)})")
        options = {**self._OPTIONS, **options}
        check_options(options["variant"], options["reward"], None, ())
        self.variant, self.start, self.reward_mode = options["variant"], options["start"], options["reward"]
        self.illegal = check_illegal(options["illegal"])
        self.game = Game(self.variant, start=self.start)
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players)]
        self.agents = list(self.possible_agents)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space(self.game, with_mask=True))
        # sample() draws a legal placement of the colour to move: RLlib's env check steps with it
        space = PlacementSpace(self.game.num_placements, legal=lambda: self.game.legal_mask())
        self.action_spaces = dict.fromkeys(self.possible_agents, space)

    def _observe(self, player: int) -> dict:
        obs = observe_player(self.game, player)
        legal = self.game.legal_mask() if on_move(self.game, player) else np.zeros(self.game.num_placements, bool)
        return {"observation": obs["observation"], "action_mask": legal.view(np.int8), "remaining": obs["remaining"]}

    def _on_move(self) -> str:
        return self.possible_agents[self.game.player_to_move]

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)  # no randomness: a game starts the same every time
        self.game = Game(self.variant, start=self.start)
        return {self._on_move(): self._observe(self.game.player_to_move)}, {}

    def step(self, action_dict: dict):
        """One move: ``action_dict`` maps the agent on move to a placement id."""
        agent = self._on_move()
        if set(action_dict) != {agent}:
            raise ValueError(f"{agent} is on move: expected an action for it alone, got {sorted(action_dict)}")
        action = operator.index(action_dict[agent])
        try:
            self.game.play(action)
        except ValueError as err:  # IllegalMoveError or out of range: the game is unchanged
            if self.illegal == "raise":
                raise ValueError(f"{agent}: placement id {action} is not legal: {err}. The legal placements are the "
                                 "observation's 'action_mask'") from err
            return self._end({a: 0.0 for a in self.possible_agents} |
                             {agent: illegal_reward(self.game, self.reward_mode)})
        if self.game.is_over:
            return self._end(dict(zip(self.possible_agents, end_rewards(self.game, self.reward_mode))))
        # RLlib wants a reward for every agent that acted and will see an observation again
        return {self._on_move(): self._observe(self.game.player_to_move)}, {agent: 0.0}, {"__all__": False}, \
            {"__all__": False}, {}

    def _end(self, rewards: dict):
        """Every agent's last observation and its reward; the episode terminated."""
        obs = {a: self._observe(p) for p, a in enumerate(self.possible_agents)}
        done = dict.fromkeys(self.possible_agents, True) | {"__all__": True}
        return obs, rewards, done, {"__all__": False}, {}


class PlacementNetModule(TorchRLModule, ValueFunctionAPI):
    """``blokus.nn.PlacementNet`` as an RLlib module for PPO, its logits masked.

    ``model_config`` (a dict): ``variant`` (required: sets the board, colours and placements),
    ``channels`` and ``blocks`` (as ``PlacementNet``, default 32 and 2). The observation must
    be :class:`MultiAgentEnv`'s dict: ``observation``, ``remaining`` and ``action_mask``; the
    action distribution's inputs are float32 (B, A) logits, the lowest float at illegal ids
    (probability 0), and values float32 (B,).
    """

    def setup(self):
        config = dict(self.model_config or {})
        self.net = PlacementNet(config["variant"], channels=config.get("channels", 32),
                                blocks=config.get("blocks", 2))

    def _forward(self, batch: dict, **kwargs) -> dict:
        obs = batch[Columns.OBS]
        features = self.net.trunk(obs["observation"], obs["remaining"])
        logits = self.net.policy_head(features)
        legal = obs["action_mask"].bool()
        # illegal ids at the lowest float: probability 0 (what blokus.nn.mask_logits does)
        logits = logits.masked_fill(~legal, torch.finfo(logits.dtype).min)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: features}

    def _forward_train(self, batch: dict, **kwargs) -> dict:
        return self._forward(batch, **kwargs)

    def compute_values(self, batch: dict, embeddings=None):
        if embeddings is None:
            obs = batch[Columns.OBS]
            embeddings = self.net.trunk(obs["observation"], obs["remaining"])
        return self.net.value_head(embeddings).squeeze(-1)


def ppo_config(variant: str = "duo", *, shared: bool = True, channels: int = 32, blocks: int = 2,
               env_config: dict | None = None) -> PPOConfig:
    """A PPO configuration that trains :class:`PlacementNetModule` on :class:`MultiAgentEnv`.

    ``shared=True``: one policy, ``"shared"``, plays every seat (self-play); ``False``: one policy
    per seat, named after its agent (``"player_0"``, ...). ``env_config`` adds env options
    (``reward``, ``start``). The settings: 1,024 moves an update, minibatches of 256, 4
    epochs, learning rate 1e-3, ``gamma=1`` (the reward comes at the end; as
    ``blokus.nn.ppo_settings``), env runners in the driver process (``num_env_runners=0``);
    change them with the usual ``PPOConfig`` methods, e.g. ``.env_runners(num_env_runners=2)``.

    Raises
    ------
    ValueError
        Unknown variant or env option.
    """
    env_config = {**(env_config or {}), "variant": variant}
    agents = MultiAgentEnv(env_config).possible_agents  # checks the options
    module = RLModuleSpec(module_class=PlacementNetModule,
                          model_config={"variant": variant, "channels": channels, "blocks": blocks})
    if shared:
        policies, mapping = {"shared"}, _shared_policy
    else:
        policies, mapping = set(agents), _policy_per_seat
    return (
        PPOConfig()
        .environment(MultiAgentEnv, env_config=env_config)
        .multi_agent(policies=policies, policy_mapping_fn=mapping)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={p: module for p in policies}))
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=1024, minibatch_size=256, num_epochs=4, lr=1e-3, gamma=1.0)
    )


def _shared_policy(agent_id, episode, **kwargs) -> str:
    return "shared"


def _policy_per_seat(agent_id, episode, **kwargs) -> str:
    return agent_id
