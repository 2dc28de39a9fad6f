"""``VectorEnv``: a Gymnasium vector environment over the C batch, one learner seat against
opponents (``gymnasium.make_vec("blokus/Duo-v0", num_envs=N)`` makes one). Needs the ``rl``
extra; ``import blokus`` does not import this module."""
from __future__ import annotations

import secrets

import numpy as np

from blokus._optional import needs

with needs("rl", "blokus.vector.VectorEnv"):
    import gymnasium
from gymnasium.vector import AutoresetMode

from blokus import opponents
from blokus.rl import BatchRewards, batch_spaces

__all__ = ["VectorEnv"]


class VectorEnv(gymnasium.vector.VectorEnv):
    """Gymnasium vector environment: one learner seat against opponents, stepped in C.

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
