"""A batch of games whose opponents a C policy plays inside the step."""
import numpy as np


class CBatch:
    """``VectorGame`` games, the learner at player ``seat``, the opponent policy in C.

    The arrays (``observation``, ``remaining``, ``legal_mask``, ``done``, ``scores``,
    ``episode_scores``, ``episode_winners``) are the ``VectorGame``'s live views; ``remaining``
    as int8, the observation's dtype (``Game.remaining_from``'s).
    """

    def __init__(self, games, policy: str, seat: int):
        self.games, self.policy, self.seat = games, policy, seat
        self.num_envs, self.variant = games.num_envs, games.variant
        self.num_placements = games.legal_mask.shape[1]
        for name in ("observation", "legal_mask", "done", "scores", "episode_scores", "episode_winners"):
            setattr(self, name, getattr(games, name))  # views: they follow every step
        self.remaining = games.remaining.view(np.int8)

    def reset(self, seed: int) -> None:
        """Every game from the start, played up to the learner's turn."""
        self.games.reset(seed)
        self.games.play_opponents(self.policy, self.seat)

    def step(self, actions, forfeit=None) -> None:
        """As ``VectorGame.step_with_opponents``."""
        self.games.step_with_opponents(actions, self.policy, self.seat, forfeit=forfeit)

    def restart_done(self) -> None:
        """As ``VectorGame.restart_done``."""
        self.games.restart_done(self.policy, self.seat)
