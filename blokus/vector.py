"""``VectorEnv``: a Gymnasium vector environment over the C batch, one learner seat against
opponents (``gymnasium.make_vec("blokus/Duo-v0", num_envs=N)`` makes one). Needs the ``rl``
extra; ``import blokus`` does not import this module."""
from __future__ import annotations

import secrets

import numpy as np

from blokus._optional import needs

with needs("rl", "blokus.vector.VectorEnv"):
    import gymnasium
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from blokus import opponents
from blokus.rl import SeatGroups, batch_spaces

__all__ = ["VectorEnv"]


class VectorEnv(gymnasium.vector.VectorEnv):
    """Gymnasium vector environment: one learner seat against opponents, stepped in C.

    ``gymnasium.make_vec("blokus/Duo-v0", num_envs=N, ...)`` makes one (the ids'
    vector entry point). Each of the ``num_envs`` games is played by the learner (player
    ``seat``) against ``opponent``, as in ``blokus.gym_env``: an agent string (``"random"``,
    ``"greedy"``, ``"mcts:sims=200"``, ...) or a callable ``(blokus.Game) -> placement id``
    (see ``blokus.opponents``). ``"random"`` and ``"greedy"`` are played in C inside the
    step; other agents are asked game by game from Python. ``seat`` and ``opponent`` may also
    be sequences of ``num_envs`` items, one per game, as in ``blokus.sb3.VecEnv``:
    ``seat=[0, 1] * 8`` learns both seats of Duo.

    Observations are ``blokus.env``'s dict without the mask, batched: ``observation`` int8
    (N, C + 1, H, W) planes and ``remaining`` int8 (N, C, 21), seen from the learner's colour
    to move (from colour ``seat``, the learner's own, in a game that has just ended);
    ``mask_in_observation=True`` adds ``action_mask`` int8 (N, A) (for TorchRL and RLlib).
    ``infos["action_mask"]`` (int8 (N, A); ``.view(bool)`` is a free bool view) and
    :meth:`action_masks` (bool) give the legal placements; ``infos["scores"]`` (int16 (N, C))
    the colour scores (final ones in a game that has just ended). Each info key ``k`` comes with
    Gymnasium's ``infos["_k"]`` (bool (N,)): the games it holds a value for. Rewards are 0
    until a game ends, then win/loss (+1 for a win or shared win, -1 for a loss, 0 when all
    players tie; ``reward="win_loss"``) or the seat's player score (``reward="score"``).

    An illegal action raises ``ValueError`` naming the game, nothing played
    (``illegal="raise"``), or, with ``illegal="end"``, ends that game as the single env
    does: reward -1 (with score rewards one less than the worst score a player can end
    with), terminated, ``infos["illegal_move"]`` (bool (N,); ``infos["_illegal_move"]`` the
    same) set; the other games step on.

    Autoreset is Gymnasium's next-step mode: the step after a game ends resets it and
    ignores its action. ``copy=False`` returns the engine's live arrays instead of copies
    (faster; they change at the next step; with one seat and one opponent for all games).
    With one seat and one opponent, ``env.batch`` is the batch of games and ``env.games`` holds
    them: the :class:`VectorGame` with the C opponents, a list of ``blokus.Game`` with the
    others; ``env.batch.episode_scores`` (int16 (N, C)) and ``env.batch.episode_winners`` (bool
    (N, players)) hold each game's last result. With several, ``env.batches`` lists
    ``(game indices, batch)`` pairs. ``seed`` seeds the opponents until the first
    ``reset(seed=...)``, which restarts them from its own.

    Raises
    ------
    ValueError
        Bad option; from :meth:`step`, an illegal action with ``illegal="raise"``, or actions
        of a shape other than (N,).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, variant: str = "duo", *, opponent: opponents.Opponent = opponents.DEFAULT,
                 seat=0, reward: str = "win_loss", start: str = "fixed", illegal: str = "raise",
                 mask_in_observation: bool = False, num_threads: int | None = None, seed: int | None = None,
                 copy: bool = True):
        self._groups = SeatGroups(num_envs, variant, opponent, seat, reward=reward, illegal=illegal, start=start,
                                  num_threads=num_threads, seed=seed)
        self.opponent, self.seat = self._groups.opponent, self._groups.seat
        if len(self._groups) == 1:
            self.batch = self._groups.batches[0]
            self.games = self.batch.games
        self.batches = list(zip(self._groups.members, self._groups.batches))
        self.reward_mode, self.illegal, self.num_envs = reward, illegal, int(num_envs)
        self.copy, self.mask_in_observation = copy, bool(mask_in_observation)
        observation_space, self.single_action_space = batch_spaces(self._groups.batches[0])
        if self.mask_in_observation:
            observation_space = spaces.Dict({**observation_space.spaces,
                                             "action_mask": spaces.Box(0, 1, (self.single_action_space.n,), np.int8)})
        self.single_observation_space = observation_space
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._all = np.ones(self.num_envs, bool)
        self._all.flags.writeable = False

    def _array(self, name: str) -> np.ndarray:
        """The batches' array ``name`` for all games: the live one (``copy=False``, one batch), a copy."""
        if len(self._groups) == 1:
            live = getattr(self.batch, name)
            return live if not self.copy else live.copy()
        return self._groups.gather(name)

    def _arrays(self):
        obs = {"observation": self._array("observation"), "remaining": self._array("remaining")}
        mask = self._array("legal_mask").view(np.int8)
        if self.mask_in_observation:
            obs["action_mask"] = mask
        infos = {"action_mask": mask, "_action_mask": self._all, "scores": self._array("scores"),
                 "_scores": self._all}
        return obs, infos

    def action_masks(self) -> np.ndarray:
        """bool (N, A): the learner's legal placements in each game (a copy)."""
        return self._groups.gather("legal_mask")

    def reset(self, *, seed: int | None = None, options=None):
        """Every game back to the start, played up to the learner's turn.

        Returns ``(observations, infos)``; ``seed`` makes the opponents' play reproducible.
        """
        super().reset(seed=seed)
        rng = np.random.default_rng(secrets.randbits(64) if seed is None else seed)
        for batch in self._groups.batches:
            # one batch takes the seed itself, as before several were possible: the same games
            batch.reset(seed if seed is not None and len(self._groups) == 1 else int(rng.integers(2**63)))
        return self._arrays()

    def step(self, actions):
        """One learner move per game (placement ids, shape (N,)), then the opponents' replies.

        Returns ``(observations, rewards, terminations, truncations, infos)``; a game that
        ended at the previous step is reset instead and its action ignored.
        """
        if len(self._groups) == 1:
            rewards, ended, illegal = self._step_batch(0, actions)
        else:
            rewards, ended, illegal = self._step_groups(actions)
        obs, infos = self._arrays()
        if illegal is not None:
            infos["illegal_move"], infos["_illegal_move"] = illegal, illegal.copy()
        return obs, rewards, ended, np.zeros(self.num_envs, bool), infos

    def _step_batch(self, g: int, actions):
        """Steps group g: its rewards, terminations and illegal actions (None unless illegal="end")."""
        batch, rewards = self._groups.batches[g], self._groups.rewards[g]
        illegal = rewards.illegal_actions(batch, actions)
        batch.step(actions, forfeit=illegal)
        ended = batch.done.copy()  # games done before this step were reset by it
        return rewards(batch, ended, illegal), ended, illegal

    def _step_groups(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), one per game, not {actions.shape}")
        if self.illegal == "raise":
            self._groups.check_legal(actions)  # before any batch steps: nothing is played if one is bad
        rewards = np.empty(self.num_envs, np.float32)
        ended = np.empty(self.num_envs, bool)
        illegal = np.zeros(self.num_envs, bool) if self.illegal == "end" else None
        for g, members in enumerate(self._groups.members):
            rewards[members], ended[members], bad = self._step_batch(g, actions[members])
            if illegal is not None:
                illegal[members] = bad
        return rewards, ended, illegal
