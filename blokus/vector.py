"""Batched games in C (``VectorGame``) and a Gymnasium vector environment on them."""
from __future__ import annotations

import os
import secrets

import numpy as np

from blokus import _core


class VectorGame(_core.VectorGame):
    """``num_envs`` independent games stepped together in C, split across threads.

    ``VectorGame(num_envs, variant="duo", *, start="fixed", num_threads=None, seed=None)``

    Parameters
    ----------
    num_envs : int
        Number of games (>= 1).
    variant, start : str
        As ``blokus.Game``; the start rule defaults to "fixed", as in the RL environments.
    num_threads : int, optional
        Threads a step is split across; the machine's cores by default. Results do not
        depend on it: game i draws from its own random stream (seed, i).
    seed : int, optional
        Seeds the built-in policies; a random seed by default.

    Notes
    -----
    Every attribute below is a read-only NumPy view of C memory with the games as its first
    axis, updated in place by each step (keep a reference, and it stays current): ``board``
    (N, H, W) int8, ``to_move`` (N,) int8, ``legal_mask`` (N, A) bool, ``num_legal`` (N,)
    int32, ``observation`` (N, C + 1, H, W) int8, ``remaining`` (N, C, 21) int8, ``scores``
    (N, C) int16, ``done`` (N,) bool, ``ply`` (N,) int32, and the last finished episode's
    ``episode_length`` (N,) int32, ``episode_scores`` (N, C) int16, ``episode_winners``
    (N, players) bool, ``episodes`` (N,) int64. A game that ends has ``done`` set; its next
    step resets it instead of moving (Gymnasium's next-step autoreset).

    Raises
    ------
    ValueError
        num_envs or num_threads below 1, unknown variant or start rule.
    """

    __slots__ = ()

    def __new__(cls, num_envs: int, variant: str = "duo", *, start: str = "fixed",
                num_threads: int | None = None, seed: int | None = None):
        threads = (os.cpu_count() or 1) if num_threads is None else num_threads
        seed = secrets.randbits(64) if seed is None else seed
        return super().__new__(cls, num_envs, variant, start=start, num_threads=threads, seed=seed)

    def __repr__(self) -> str:
        return (f"<blokus.VectorGame {self.variant!r} start={self.start!r}: {self.num_envs} games, "
                f"{self.num_threads} threads>")


__all__ = ["VectorGame", "VectorEnv"]


def _vector_env_class():
    """VectorEnv is defined only where Gymnasium is installed (an optional dependency)."""
    from blokus._optional import needs

    with needs("rl", "blokus.vector.VectorEnv"):
        import gymnasium
    from gymnasium.vector import AutoresetMode

    from blokus import opponents
    from blokus.rl import BatchRewards, batch_spaces

    class VectorEnv(gymnasium.vector.VectorEnv):
        """Gymnasium vector environment: one learner seat against opponents, stepped in C.

        ``VectorEnv(num_envs, variant="duo", *, opponent="random", seat=0, reward="win_loss",
        start="fixed", illegal="raise", num_threads=None, seed=None, copy=True)``

        ``gymnasium.make_vec("blokus/Duo-v0", num_envs=N, ...)`` makes one (the ids'
        vector entry point). Each of the ``num_envs`` games is played by the learner (player
        ``seat``) against ``opponent``, as in ``blokus.gym_env``: an agent string (``"random"``,
        ``"greedy"``, ``"mcts:sims=200"``, ...) or a callable ``(blokus.Game) -> placement id``
        (see ``blokus.opponents``). ``"random"`` and ``"greedy"`` are played in C inside the
        step; other agents are asked game by game from Python.

        Observations are ``blokus.env``'s dict without the mask, batched: ``observation`` int8
        (N, C + 1, H, W) planes and ``remaining`` int8 (N, C, 21), seen from the learner's colour
        to move (from colour ``seat``, the learner's own, in a game that has just ended).
        ``infos["action_mask"]`` (int8 (N, A); ``.view(bool)`` is a free bool view) and
        :meth:`action_masks` (bool) give the legal placements; ``infos["scores"]`` (int16 (N, C))
        the colour scores (final ones in a game that has just ended). Rewards are 0 until a
        game ends, then win/loss (+1 for a win or shared win, -1 for a loss, 0 when all players
        tie; ``reward="win_loss"``) or the seat's player score (``reward="score"``).

        An illegal action raises ``ValueError`` naming the game, nothing played
        (``illegal="raise"``), or, with ``illegal="end"``, ends that game as the single env
        does: reward -1 (with score rewards one less than the worst score a player can end
        with), terminated, ``infos["illegal_move"]`` (bool (N,)) set; the other games step on.

        Autoreset is Gymnasium's next-step mode: the step after a game ends resets it and
        ignores its action. ``copy=False`` returns the engine's live arrays instead of copies
        (faster; they change at the next step). ``env.games`` holds the games: the
        :class:`VectorGame` with the C opponents, a list of ``blokus.Game`` with the others;
        ``env.batch.episode_scores`` (int16 (N, C)) and ``env.batch.episode_winners`` (bool
        (N, players)) hold each game's last result. ``seed`` seeds the opponents until
        the first ``reset(seed=...)``, which restarts them from its own.

        Raises
        ------
        ValueError
            Bad option; from :meth:`step`, an illegal action with ``illegal="raise"``.
        """

        metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

        def __init__(self, num_envs: int, variant: str = "duo", *, opponent: opponents.Opponent = opponents.DEFAULT,
                     seat: int = 0, reward: str = "win_loss", start: str = "fixed", illegal: str = "raise",
                     num_threads: int | None = None, seed: int | None = None, copy: bool = True):
            self._rewards = BatchRewards(variant, reward, seat, illegal)
            self.opponent, self.seat = opponents.check(opponent), int(seat)
            self.batch = opponents.batch(num_envs, variant, self.opponent, self.seat, start=start,
                                         num_threads=num_threads, seed=seed)
            self.games = self.batch.games
            self.reward_mode, self.illegal, self.copy, self.num_envs = reward, illegal, copy, num_envs
            self.single_observation_space, self.single_action_space = batch_spaces(self.batch)
            self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
            self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)

        def _arrays(self):
            games, take = self.batch, (np.copy if self.copy else lambda a: a)
            obs = {"observation": take(games.observation), "remaining": take(games.remaining)}
            return obs, {"action_mask": take(games.legal_mask.view(np.int8)), "scores": take(games.scores)}

        def action_masks(self) -> np.ndarray:
            """bool (N, A): the learner's legal placements in each game (a copy)."""
            return self.batch.legal_mask.copy()

        def reset(self, *, seed: int | None = None, options=None):
            """Every game back to the start, played up to the learner's turn.

            Returns ``(observations, infos)``; ``seed`` makes the opponents' play reproducible.
            """
            super().reset(seed=seed)
            self.batch.reset(secrets.randbits(64) if seed is None else seed)
            return self._arrays()

        def step(self, actions):
            """One learner move per game (placement ids, shape (N,)), then the opponents' replies.

            Returns ``(observations, rewards, terminations, truncations, infos)``; a game that
            ended at the previous step is reset instead and its action ignored.
            """
            games = self.batch
            illegal = self._rewards.illegal_actions(games, actions)
            games.step(actions, forfeit=illegal)
            ended = games.done.copy()  # games done before this step were reset by it
            obs, infos = self._arrays()
            if illegal is not None:
                infos["illegal_move"] = illegal
            return obs, self._rewards(games, ended, illegal), ended, np.zeros(self.num_envs, bool), infos

    VectorEnv.__module__, VectorEnv.__qualname__ = __name__, "VectorEnv"
    return VectorEnv


def __getattr__(name: str):
    if name == "VectorEnv":  # built on first use, so that importing blokus needs no Gymnasium
        globals()["VectorEnv"] = cls = _vector_env_class()
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
