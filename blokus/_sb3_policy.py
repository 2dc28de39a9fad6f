"""The MaskablePPO policy of ``blokus.nn`` (sb3-contrib; ``pip install "blokus[train]"``):
``blokus.nn.MaskablePlacementPolicy``, the parts of ``blokus.nn.PlacementNet`` as
MaskableActorCriticPolicy's features extractor, action net and value net. Imported by
``blokus.nn`` on first use of the name, so that ``blokus.nn`` needs torch alone."""
from __future__ import annotations

from functools import partial

import numpy as np

from blokus._nn_parts import PlacementHead, Trunk, ValueHead, _finite, placement_table
from blokus._optional import needs

with needs("train", "blokus.nn.MaskablePlacementPolicy"):
    import torch
    from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

__all__ = ["MaskablePlacementPolicy", "TrunkExtractor"]


class TrunkExtractor(BaseFeaturesExtractor):
    """SB3 features extractor: the :class:`blokus.nn.Trunk`, its features flattened to (B, K * H * W)."""

    def __init__(self, observation_space, channels: int = 32, blocks: int = 2):
        planes, height, width = observation_space["observation"].shape
        super().__init__(observation_space, features_dim=channels * height * width)
        self.shape = (channels, height, width)
        self.trunk = Trunk(planes, observation_space["remaining"].shape[0], channels, blocks)

    def forward(self, observations) -> torch.Tensor:
        return self.trunk(observations["observation"], observations["remaining"]).flatten(1)


class MaskablePlacementPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO's actor-critic with the :class:`blokus.nn.Trunk` (shared), the
    :class:`blokus.nn.PlacementHead` as its action net and the :class:`blokus.nn.ValueHead` as
    its value net.

    ``MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, policy_kwargs=dict(channels=32,
    blocks=2, size_prior=2.0))`` (``size_prior`` as :class:`blokus.nn.PlacementHead`: set again after
    SB3's orthogonal initialisation, which zeroes the biases), for any blokus env:
    ``gymnasium.make("blokus/Duo-v0")``, ``blokus.sb3.VecEnv``, ... (a Dict observation with
    ``observation`` and ``remaining``).
    Other keyword arguments are MaskableActorCriticPolicy's; ``net_arch`` must stay empty
    (the heads read the trunk's features directly). Saved and loaded with the model.

    Raises
    ------
    ValueError
        A non-empty ``net_arch``, an action space that is not a board's placements, or a
        ``size_prior`` that is not a finite real number.
    """

    def __init__(self, observation_space, action_space, lr_schedule, *, channels: int = 32, blocks: int = 2,
                 size_prior: float = 2.0, **kwargs):
        if kwargs.get("net_arch"):
            raise ValueError("MaskablePlacementPolicy takes no net_arch: its heads read the trunk's features")
        placement_table(action_space.n)  # fails early for a foreign action space
        kwargs.update(net_arch=[], features_extractor_class=TrunkExtractor,
                      features_extractor_kwargs={"channels": channels, "blocks": blocks})
        self._head_options = {"channels": channels, "blocks": blocks,
                              "size_prior": _finite(size_prior, "size_prior")}
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule) -> None:
        # MaskableActorCriticPolicy._build with our heads: its default action net, a linear
        # layer from K * H * W features to A logits, would hold ~86M weights on Duo
        self._build_mlp_extractor()  # empty net_arch: the identity
        shape = self.features_extractor.shape
        table = placement_table(self.action_space.n)
        head = PlacementHead(table, shape[0], self._head_options["size_prior"])
        self.action_net = nn.Sequential(nn.Unflatten(1, shape), head)
        self.value_net = nn.Sequential(nn.Unflatten(1, shape), ValueHead(shape[0], 1))
        if self.ortho_init:  # SB3's gains: small policy outputs start near uniform
            gains = {self.mlp_extractor: np.sqrt(2), self.action_net: 0.01, self.value_net: 1}
            for extractor in {self.features_extractor, self.pi_features_extractor, self.vf_features_extractor}:
                gains[extractor] = np.sqrt(2)
            for module, gain in gains.items():
                module.apply(partial(self.init_weights, gain=gain))
            head.init_size_prior()
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        data = super()._get_constructor_parameters()
        for key in ("net_arch", "features_extractor_class", "features_extractor_kwargs"):
            data.pop(key, None)  # set by __init__ from the options below
        data.update(self._head_options)
        return data


# Users and saved models name them blokus.nn.*: a model saved by MaskablePPO pickles its policy
# class by that name, so the name outlives where the code happens to be.
for _cls in (TrunkExtractor, MaskablePlacementPolicy):
    _cls.__module__ = "blokus.nn"
