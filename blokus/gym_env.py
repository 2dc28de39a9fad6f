"""Gymnasium single-agent environment: one learner against built-in or custom opponents.

Registered as ``blokus/Classic-v0``, ``blokus/Classic2-v0``, ``blokus/Classic3-v0``,
``blokus/ClassicTeams-v0`` and ``blokus/Duo-v0`` once both ``blokus`` and ``gymnasium`` are imported,
in either order (``gymnasium.make("blokus:blokus/Duo-v0")`` imports blokus itself), each with a
vector entry point: ``gymnasium.make_vec(id, num_envs=N, opponent=..., ...)`` gives
the C-stepped ``blokus.vector.VectorEnv`` (the same options, and ``num_threads``).
"""
from __future__ import annotations

import logging
import operator

import numpy as np

from blokus import opponents
from blokus._gym_registration import ENV_IDS, register_envs
from blokus._optional import needs

with needs("rl", "blokus.gym_env"):
    import gymnasium

from blokus.game import Game
from blokus.rl import (
    PlacementSpace,
    check_illegal,
    check_options,
    check_seat,
    end_rewards,
    illegal_reward,
    observation_space,
    observe_player,
    on_move,
    render_game,
)

# ENV_IDS and register_envs are defined in blokus._gym_registration, which does not import Gymnasium
# (import blokus registers the ids through it), and are public here
__all__ = ["ENV_IDS", "BlokusEnv", "register_envs"]

logger = logging.getLogger(__name__)

_WHERE_THE_MASK_IS = ("The legal placements are info['action_mask'] (int8 (A,)), env.unwrapped.action_masks() "
                      "(bool), or the observation's 'action_mask' with mask_in_observation=True; "
                      "action_space.sample() draws one. illegal='end' ends the game as a loss instead.")


class BlokusEnv(gymnasium.Env):
    """One seat of a Blokus game against opponents.

    Parameters
    ----------
    variant : str
        As ``blokus.Game``.
    opponent : str or callable
        Plays every other player: an agent string (``"random"``, the default: uniform over the
        legal placements; ``"greedy"``; ``"mcts:sims=200"``; see ``blokus.agents.make_agent``),
        seeded from the env's ``np_random`` at each reset, or a callable that receives the
        ``blokus.Game`` and returns a placement id. The same vocabulary and default as
        ``blokus.vector.VectorEnv`` and ``blokus.sb3.VecEnv`` (``blokus.opponents``).
    seat : int
        The learner's player, in ``range(num_players)``.
    reward : {"win_loss", "score"}
        As ``blokus.env`` (given once, at the end).
    start : {"fixed", "any"}
        Start rule, as ``blokus.Game``.
    illegal : {"raise", "end"}
        What an illegal action does: ``"raise"`` (the default) raises ``ValueError`` and plays
        nothing; ``"end"`` ends the episode as a loss (below).
    mask_in_observation : bool
        Adds ``action_mask`` (int8 (A,), as ``blokus.env``'s) to the observation, for libraries
        that read the mask from there (TorchRL's ``ActionMask`` transform, RLlib).
    render_mode : {None, "ansi", "rgb_array", "human"}

    Notes
    -----
    The observation is ``blokus.env``'s dict (``observation`` int8 (C + 1, H, W) planes and
    ``remaining`` int8 (C, 21), with ``action_mask`` only if ``mask_in_observation``), seen from
    the learner's colour to move. ``info["action_mask"]`` (int8, (A,); ``.view(bool)`` is a
    free bool view, much faster for ``np.flatnonzero``) and :meth:`action_masks` (bool) give its
    legal placements, and ``action_space.sample()`` draws one of them (Gymnasium's
    ``check_env`` steps an action sampled before its reset: give it an env made with
    ``illegal="end"``). ``reset`` and ``step`` play the opponents until the learner is on move
    or the game is over. With ``illegal="end"``
    an illegal action ends the episode with reward -1 (with score rewards: one less than the
    worst score a player can end with) and ``info["illegal_move"]`` giving the reason;
    stepping an ended episode raises ``RuntimeError`` until :meth:`reset`. ``render_mode="human"``
    prints the text board after every step.

    Raises
    ------
    ValueError
        Unknown variant, reward, render mode, illegal or opponent, or seat out of range; from
        :meth:`step`, an illegal or out-of-range action with ``illegal="raise"`` (the message
        says where the mask is; the game is unchanged and the episode goes on).
    TypeError
        (from :meth:`step`) An action that is not an integer.
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}

    def __init__(self, variant: str = "duo", *, opponent: opponents.Opponent = opponents.DEFAULT, seat: int = 0,
                 reward: str = "win_loss", start: str = "fixed", illegal: str = "raise",
                 mask_in_observation: bool = False, render_mode: str | None = None):
        check_options(variant, reward, render_mode, self.metadata["render_modes"])
        self.variant, self.start, self.reward_mode, self.render_mode = variant, start, reward, render_mode
        self.illegal, self.mask_in_observation = check_illegal(illegal), bool(mask_in_observation)
        self.opponent = opponents.check(opponent)
        self._opponent = opponents.agent(self.opponent, None)  # reseeded by reset()
        self.game = Game(variant, start=start)
        self.seat = check_seat(self.game.num_players, seat)
        self._ended = True  # until reset()
        self.action_space = PlacementSpace(self.game.num_placements, legal=self.action_masks)
        self.observation_space = observation_space(self.game, with_mask=self.mask_in_observation)

    def _learner_on_move(self) -> bool:
        return not self._ended and on_move(self.game, self.seat)

    def _play_opponents(self) -> None:
        while not self.game.is_over and not self._learner_on_move():
            self.game.play(self._opponent(self.game))

    def _observation(self) -> dict:
        obs = observe_player(self.game, self.seat)
        if self.mask_in_observation:
            obs["action_mask"] = self.action_masks().view(np.int8)
        return obs

    def action_masks(self) -> np.ndarray:
        """bool (A,): the learner's legal placements now (all False once the game is over)."""
        if not self._learner_on_move():
            return np.zeros(self.game.num_placements, bool)
        return self.game.legal_mask()

    def _info(self) -> dict:
        return {"action_mask": self.action_masks().view(np.int8), "scores": self.game.scores(),
                "player_scores": self.game.player_scores(), "colour_to_move": self.game.to_move}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._opponent = opponents.agent(self.opponent, int(self.np_random.integers(2**63)))
        self.game = Game(self.variant, start=self.start)
        self._ended = False
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action):
        if self._ended:
            raise RuntimeError("the episode is over: call reset() before step()")
        try:
            action = operator.index(action)
        except TypeError:
            raise TypeError(f"an action is a placement id (int), not {type(action).__name__}") from None
        try:
            self.game.play(action)
        except ValueError as err:  # IllegalMoveError, or an id out of range; the game is unchanged
            if self.illegal == "raise":
                raise ValueError(f"placement id {action} is not a legal action for the learner: {err}. "
                                 f"{_WHERE_THE_MASK_IS}") from err
            logger.info("illegal action %s ends the episode: %s", action, err)
            self._ended = True
            info = self._info()
            info["illegal_move"] = str(err)
            return self._observation(), illegal_reward(self.game, self.reward_mode), True, False, info
        self._play_opponents()
        self._ended = self.game.is_over
        reward = end_rewards(self.game, self.reward_mode)[self.seat] if self.game.is_over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self.game.is_over, False, self._info()

    def render(self):
        return render_game(self.game, self.render_mode)
