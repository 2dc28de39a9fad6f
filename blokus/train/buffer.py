"""The replay buffer: the last ``capacity`` self-play positions, the oldest dropped first.

A position is kept small: its observation (int8 (3, 14, 14)), its pieces in hand (int8
(2, 21)), its legal mask packed to bits (uint8 (ceil(A / 8),)), its policy target as the visited moves only
(int32 ids and float32 probabilities, ``width`` = the simulations, padded with id -1) and its value target (float32
in [0, 1], for the colour to move there: ``blokus._sides.mover_target``; one value, or one per colour with NaN for a
colour that scores for nobody).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Samples:
    """Positions with their targets; arrays of one length N."""

    observations: np.ndarray  # int8 (N, C + 1, H, W), seen from the colour to move
    remaining: np.ndarray     # int8 (N, C, 21): Game.remaining_from(colour to move)
    masks: np.ndarray         # uint8 (N, ceil(A / 8)): np.packbits of the bool legal mask
    policy_ids: np.ndarray    # int32 (N, width): visited moves, -1 padding
    policy: np.ndarray        # float32 (N, width): their visit shares (sum 1 per row), 0 padding
    values: np.ndarray        # float32 (N,) or (N, V): the mover's value target(s) (blokus._sides.mover_target)

    def __len__(self) -> int:
        return len(self.values)

    def dense_policy(self, num_placements: int) -> np.ndarray:
        """float32 (N, A): the policy targets as full rows."""
        dense = np.zeros((len(self), num_placements + 1), np.float32)  # column A takes the padding
        ids = np.where(self.policy_ids < 0, num_placements, self.policy_ids)
        np.put_along_axis(dense, ids, self.policy, axis=1)
        return dense[:, :num_placements]

    def legal_masks(self, num_placements: int) -> np.ndarray:
        """bool (N, A): the legal masks unpacked."""
        return np.unpackbits(self.masks, axis=1, count=num_placements).astype(bool)


class ReplayBuffer:
    """A ring of ``capacity`` positions; ``add`` appends, ``sample`` draws uniformly."""

    FIELDS = ("observations", "remaining", "masks", "policy_ids", "policy", "values")

    def __init__(self, capacity: int, observation_shape: tuple, num_placements: int, width: int, values: int = 1):
        self.capacity = capacity
        colours = observation_shape[0] - 1
        self.data = Samples(np.zeros((capacity, *observation_shape), np.int8),
                            np.zeros((capacity, colours, 21), np.int8),
                            np.zeros((capacity, (num_placements + 7) // 8), np.uint8),
                            np.full((capacity, width), -1, np.int32), np.zeros((capacity, width), np.float32),
                            np.zeros((capacity,) if values == 1 else (capacity, values), np.float32))
        self.size = 0
        self.next = 0  # the row the next position goes to

    def __len__(self) -> int:
        return self.size

    def add(self, samples: Samples) -> None:
        rows = (self.next + np.arange(len(samples))) % self.capacity
        if len(samples) > self.capacity:  # only the newest fit
            rows = rows[-self.capacity:]
            samples = Samples(*(getattr(samples, f)[-self.capacity:] for f in self.FIELDS))
        for name in self.FIELDS:
            getattr(self.data, name)[rows] = getattr(samples, name)
        self.next = int((self.next + len(samples)) % self.capacity)
        self.size = min(self.capacity, self.size + len(samples))

    def sample(self, batch_size: int, rng: np.random.Generator) -> Samples:
        """``batch_size`` positions drawn uniformly with replacement from the filled rows."""
        rows = rng.integers(0, self.size, batch_size)
        return Samples(*(getattr(self.data, f)[rows] for f in self.FIELDS))

    def state(self) -> dict:
        """What a checkpoint keeps (the filled rows only)."""
        return {"size": self.size, "next": self.next,
                **{f: getattr(self.data, f)[:self.size].copy() for f in self.FIELDS}}

    def load(self, state: dict) -> None:
        self.size, self.next = int(state["size"]), int(state["next"])
        for f in self.FIELDS:
            getattr(self.data, f)[:self.size] = state[f]
