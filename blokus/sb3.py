"""Stable-Baselines3 ``VecEnv`` over the C batch engine (``pip install "blokus[train]"``).

>>> from sb3_contrib import MaskablePPO
>>> import blokus.nn, blokus.sb3
>>> env = blokus.sb3.VecEnv(16, "duo", opponent="random")
>>> model = MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, n_steps=64)  # doctest: +SKIP
>>> model.learn(20_000)  # doctest: +SKIP
"""
from __future__ import annotations

import secrets

import numpy as np

from blokus import opponents
from blokus._optional import needs

with needs("train", "blokus.sb3"):
    from stable_baselines3.common import vec_env

from blokus.rl import SeatGroups, batch_spaces

__all__ = ["VecEnv"]


class VecEnv(vec_env.VecEnv):
    """``num_envs`` games of one learner seat against opponents, as one SB3 ``VecEnv``.

    The options are ``blokus.vector.VectorEnv``'s: ``opponent`` an agent string or a callable
    (``blokus.opponents``; ``"random"`` and ``"greedy"`` are played in C inside the step, so a
    training run steps all its games in C). ``seat`` and ``opponent`` may also be sequences of
    ``num_envs`` items, one per game: ``seat=[0, 1] * 8`` learns both seats,
    ``opponent=["random", "greedy"] * 8`` plays against both. Observations are batched dicts:
    ``observation`` int8 (N, C + 1, H, W), ``remaining`` int8 (N, C, 21), seen from the
    learner's colour to move.
    :meth:`action_masks` (bool (N, A)) gives the legal placements; MaskablePPO asks for them
    through ``env_method("action_masks")``, which hands it rows of the C arrays to stack.

    SB3's autoreset: a game that ends is reset at once and played up to the learner's turn; its
    ``infos[i]`` holds ``terminal_observation``, ``scores`` (int16 (C,), final colour scores)
    and ``TimeLimit.truncated`` (False). ``illegal="end"`` ends a game on an illegal action
    with reward -1 (score rewards: one less than the worst score) and ``infos[i]["illegal_move"]``;
    ``"raise"`` raises ``ValueError`` naming the game. Wrap it in ``VecMonitor`` for episode
    statistics in SB3's logs.

    Raises
    ------
    ValueError
        Bad option; from a step, an illegal action with ``illegal="raise"``.
    """

    def __init__(self, num_envs: int, variant: str = "duo", *, opponent: opponents.Opponent = opponents.DEFAULT,
                 seat=0, reward: str = "win_loss", start: str = "fixed", illegal: str = "raise",
                 num_threads: int | None = None, seed: int | None = None):
        self._groups = SeatGroups(num_envs, variant, opponent, seat, reward=reward, illegal=illegal, start=start,
                                  num_threads=num_threads, seed=seed)
        self.opponent, self.seat = self._groups.opponent, self._groups.seat
        self._batches, self._members, self._rewards = self._groups.batches, self._groups.members, self._groups.rewards
        self.variant, self.reward_mode, self.illegal, self.render_mode = variant, reward, illegal, None
        observation_space, action_space = batch_spaces(self._batches[0])
        self._seed = seed
        self._actions: np.ndarray | None = None
        # rows of the live mask with one batch (its arrays stay where they are): what env_method hands out
        self._mask_rows = list(self._batches[0].legal_mask) if len(self._batches) == 1 else None
        super().__init__(num_envs, observation_space, action_space)

    def __repr__(self) -> str:
        return f"<blokus.sb3.VecEnv {self.variant!r}: {self.num_envs} games in {len(self._batches)} batches>"

    # ---------------------------------------------------------------- the VecEnv protocol
    def reset(self):
        """Every game from the start, played up to the learner's turn; the observations."""
        seed = self._seeds[0] if self._seeds[0] is not None else self._seed
        rng = np.random.default_rng(secrets.randbits(64) if seed is None else seed)
        for batch in self._batches:
            batch.reset(int(rng.integers(2**63)))
        self._seed = None  # later resets draw fresh seeds unless seed() is called again
        self._reset_seeds()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._gather()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        actions, self._actions = np.asarray(self._actions), None
        if len(self._batches) > 1 and self.illegal == "raise":
            self._groups.check_legal(actions)  # before any batch steps: nothing is played if one is bad
        infos = [{} for _ in range(self.num_envs)]
        if len(self._batches) == 1:  # the common case: the batch's arrays are the env's
            rewards, dones = self._step_batch(0, actions, infos)
            return self._gather(), rewards, dones, infos
        rewards = np.empty(self.num_envs, np.float32)
        dones = np.empty(self.num_envs, bool)
        for b, members in enumerate(self._members):
            rewards[members], dones[members] = self._step_batch(b, actions[members], infos)
        return self._gather(), rewards, dones, infos

    def _step_batch(self, b: int, actions: np.ndarray, infos: list) -> tuple[np.ndarray, np.ndarray]:
        """Steps batch b; its (rewards, dones), the infos of its games that ended filled in."""
        batch, members, reward = self._batches[b], self._members[b], self._rewards[b]
        illegal = reward.illegal_actions(batch, actions)
        batch.step(actions, forfeit=illegal)
        ended = batch.done.copy()
        rewards = reward(batch, ended, illegal)
        rows = np.flatnonzero(ended)
        if len(rows):
            # one copy of the ended games' arrays; each info holds rows of it
            planes, hands, scores = batch.observation[rows], batch.remaining[rows], batch.scores[rows]
            for j, k in enumerate(rows.tolist()):
                infos[members[k]] = {"terminal_observation": {"observation": planes[j], "remaining": hands[j]},
                                     "scores": scores[j], "TimeLimit.truncated": False}
            if illegal is not None:
                for k in np.flatnonzero(illegal).tolist():
                    infos[members[k]]["illegal_move"] = True
            batch.restart_done()
        return rewards, ended

    def _gather(self) -> dict:
        if len(self._batches) == 1:  # the common case: one copy, straight from the C arrays
            batch = self._batches[0]
            return {"observation": batch.observation.copy(), "remaining": batch.remaining.copy()}
        return {key: self._groups.gather(key) for key in ("observation", "remaining")}

    def action_masks(self) -> np.ndarray:
        """bool (N, A): each game's legal placements for the learner (a new array)."""
        if len(self._batches) == 1:
            return self._batches[0].legal_mask.copy()
        return self._groups.gather("legal_mask")

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices=None) -> list:
        """The attribute of the whole batch, once per game asked for (the games share it)."""
        return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        raise AttributeError(f"blokus.sb3.VecEnv: the games share their attributes; {attr_name!r} cannot be "
                             "set per game")

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """``action_masks`` per game (what MaskablePPO calls); other methods of the batch."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            # with one batch, rows of its live mask: MaskablePPO's np.stack copies them
            if self._mask_rows is None:
                masks = self.action_masks()
                return [masks[i] for i in rows]
            return self._mask_rows.copy() if indices is None else [self._mask_rows[i] for i in rows]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result] * len(rows)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))

