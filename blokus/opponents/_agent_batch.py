"""A batch of games whose opponents are agents asked from Python, game by game."""
from __future__ import annotations

import operator
import secrets

import numpy as np

from blokus import PIECE_NAMES
from blokus.game import Game
from blokus.opponents._opponent import Opponent, agent


class AgentBatch:
    """The same as :class:`CBatch`, for opponents played from Python: one ``blokus.Game`` per
    game, each with its own seeded copy of the opponent agent (callables are shared)."""

    def __init__(self, num_envs: int, variant: str, opponent: Opponent, seat: int, *,
                 start: str = "fixed", seed: int | None = None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, not {num_envs!r}")
        self.num_envs, self.variant, self.start, self.seat = int(num_envs), variant, start, seat
        self.opponent = opponent
        self.games = [Game(variant, start=start) for _ in range(self.num_envs)]
        first = self.games[0]
        n, colours, players = self.num_envs, first.num_colours, first.num_players
        height, width = first.shape
        self.observation = np.zeros((n, colours + 1, height, width), np.int8)
        self.remaining = np.zeros((n, colours, len(PIECE_NAMES)), np.int8)
        self.num_placements = first.num_placements
        self.legal_mask = np.zeros((n, first.num_placements), bool)
        self.done = np.zeros(n, bool)
        self.scores = np.zeros((n, colours), np.int16)
        self.episode_scores = np.zeros((n, colours), np.int16)
        self.episode_winners = np.zeros((n, players), bool)
        self._agents = self._seeded_agents(secrets.randbits(64) if seed is None else seed)

    def _seeded_agents(self, seed: int) -> list:
        seeds = np.random.default_rng(seed).integers(2**63, size=self.num_envs)
        return [agent(self.opponent, int(s)) for s in seeds]

    def _restart(self, i: int) -> None:
        self.games[i] = Game(self.variant, start=self.start)
        self.done[i] = False
        self._opponents_play(i)

    def _opponents_play(self, i: int) -> None:
        game = self.games[i]
        while not game.is_over and game.player_to_move != self.seat:
            game.play(self._agents[i](game))
        if game.is_over:
            self._finish(i)

    def _finish(self, i: int) -> None:
        game = self.games[i]
        self.done[i] = True
        self.episode_scores[i] = game.scores()
        self.episode_winners[i] = False
        self.episode_winners[i, game.winners()] = True

    def _refresh(self, i: int) -> None:
        game = self.games[i]
        on_move = not game.is_over and not self.done[i]
        colour = game.to_move if on_move else self.seat  # player seat's colour is colour seat
        self.observation[i] = game.observation(colour)
        self.remaining[i] = game.remaining_from(colour)
        self.legal_mask[i] = game.legal_mask() if on_move else False
        self.scores[i] = game.scores()

    def reset(self, seed: int) -> None:
        self._agents = self._seeded_agents(seed)
        for i in range(self.num_envs):
            self._restart(i)
            self._refresh(i)

    def _checked(self, actions, forfeit) -> np.ndarray:
        """The actions as ints, every live one legal (VectorGame's errors, nothing played)."""
        given = np.asarray(actions)
        if not np.issubdtype(given.dtype, np.integer):
            raise TypeError(f"actions must be integers (placement ids), not dtype {given.dtype}")
        if given.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), one per game")
        for i, action in enumerate(given):
            if self.done[i] or (forfeit is not None and forfeit[i]):
                continue
            if not 0 <= action < self.num_placements:
                raise ValueError(f"game {i}: placement id {action} out of range({self.num_placements})")
            if not self.legal_mask[i, action]:
                raise ValueError(f"game {i}: placement id {action} is not legal for colour {self.games[i].to_move}")
        return given

    def step(self, actions, forfeit=None) -> None:
        actions = self._checked(actions, forfeit)
        for i in range(self.num_envs):
            if self.done[i]:
                self._restart(i)
            elif forfeit is not None and forfeit[i]:
                self._finish(i)
                continue  # its arrays keep showing the position where it ended
            else:
                self.games[i].play(operator.index(actions[i]))
                self._opponents_play(i)
            self._refresh(i)

    def restart_done(self) -> None:
        for i in np.flatnonzero(self.done).tolist():
            self._restart(i)
            self._refresh(i)
