"""The games of a learner-against-opponents env grouped by (opponent, seat) (``blokus.vector``,
``blokus.sb3``): a batch of ``blokus.opponents`` plays one opponent against one learner seat, so
an env with one seat or opponent per game holds one batch per pair."""
from __future__ import annotations

import numpy as np

from blokus import opponents
from blokus.rl._batch_rewards import BatchRewards, bad_actions


class SeatGroups:
    """``num_envs`` games in groups of one (opponent, seat) each.

    ``opponent`` and ``seat`` are one value or a sequence of ``num_envs`` values, one per game.
    ``batches[g]`` (a ``blokus.opponents`` batch), ``members[g]`` (int64 indices of its games in
    the env) and ``rewards[g]`` (its ``BatchRewards``) describe group g, in order of first game.
    ``opponent`` and ``seat`` keep what was given, checked.

    Raises
    ------
    ValueError
        ``num_envs`` not an int >= 1, a sequence of another length, a bad opponent, seat,
        variant, reward or illegal.
    """

    def __init__(self, num_envs: int, variant: str, opponent, seat, *, reward: str, illegal: str, start: str,
                 num_threads: int | None, seed: int | None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, not {num_envs!r}")
        per_game_opponents = per_env(opponent, num_envs, "opponent")
        per_game_seats = per_env(seat, num_envs, "seat")
        self.opponent: opponents.Opponent | list[opponents.Opponent]
        if per_game_opponents is None:
            self.opponent = opponents.check(opponent)
            opponent_of = [self.opponent] * num_envs
        else:
            self.opponent = opponent_of = [opponents.check(o) for o in per_game_opponents]
        keys = list(zip(opponent_of, [seat] * num_envs if per_game_seats is None else per_game_seats))
        self.batches, self.members, self.rewards = [], [], []
        seat_of = np.empty(num_envs, np.int64)
        for key in dict.fromkeys(keys):
            members = np.array([i for i, k in enumerate(keys) if k == key])
            self.rewards.append(BatchRewards(variant, reward, key[1], illegal))  # checks the seat
            self.batches.append(opponents.batch(len(members), variant, key[0], self.rewards[-1].seat,
                                                start=start, num_threads=num_threads, seed=seed))
            self.members.append(members)
            seat_of[members] = self.rewards[-1].seat
        self.seat = int(seat_of[0]) if per_game_seats is None else seat_of.tolist()
        self.num_envs, self.illegal = int(num_envs), illegal

    def __len__(self) -> int:
        return len(self.batches)

    def check_legal(self, actions: np.ndarray) -> None:
        """ValueError naming the first game (its index in the env) whose action is illegal."""
        for batch, members in zip(self.batches, self.members):
            bad = bad_actions(batch, actions[members])
            if bad is not None and bad.any():
                k = int(np.flatnonzero(bad)[0])
                raise ValueError(f"game {members[k]}: placement id {actions[members[k]]} is not legal for the learner")

    def gather(self, name: str, out: np.ndarray | None = None) -> np.ndarray:
        """The batches' array ``name`` (e.g. ``"observation"``) for all games, in env order: into
        ``out`` if given, else a new array."""
        first = getattr(self.batches[0], name)
        if out is None:
            out = np.empty((self.num_envs, *first.shape[1:]), first.dtype)
        for batch, members in zip(self.batches, self.members):
            out[members] = getattr(batch, name)
        return out


def per_env(value, num_envs: int, name: str) -> list | None:
    """``value`` as a list of num_envs items if it is a sequence (list, tuple, array) of them,
    None if it is one item (checked by the caller).

    Raises
    ------
    ValueError
        A sequence of another length.
    """
    if not isinstance(value, (list, tuple, np.ndarray)):
        return None
    items = list(value)
    if len(items) != num_envs:
        raise ValueError(f"{name} must be one value or a sequence of num_envs={num_envs}, not {len(items)}")
    return items
