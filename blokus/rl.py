"""What the PettingZoo and Gymnasium environments share: options, spaces, observations, rewards,
rendering. Needs Gymnasium (for the spaces), not PettingZoo."""
from __future__ import annotations

import numpy as np
from gymnasium import spaces

from blokus import render as _render
from blokus.game import VARIANTS, Game

REWARDS = ("win_loss", "score")


def end_rewards(game: Game, reward: str) -> list[float]:
    """Per player: win/loss (+1 winners, -1 others, 0 all when all tie) or player score."""
    if reward == "score":
        return [float(s) for s in game.player_scores()]
    winners = game.winners()
    if len(winners) == game.num_players:
        return [0.0] * game.num_players
    return [1.0 if p in winners else -1.0 for p in range(game.num_players)]


def illegal_reward(game: Game, reward: str) -> float:
    """What an illegal action costs its player: -1 with win/loss rewards; with score rewards,
    one less than the worst score a player can end with (-89 per colour it scores), so that
    breaking a rule never pays better than playing."""
    if reward == "win_loss":
        return -1.0
    from blokus._core import player_weights

    return -float(89 * player_weights(game.variant).sum(axis=1).max() + 1)


def check_options(variant: str, reward: str, render_mode: str | None, modes) -> None:
    """ValueError naming the bad option, if any."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r} (expected one of {', '.join(REWARDS)})")
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"unknown render_mode {render_mode!r} (expected one of {', '.join(modes)})")


class PlacementSpace(spaces.Discrete):
    """``Discrete(num_placements)``, with a fast membership test for Python ints: Gymnasium's
    consults ``np.iinfo`` on every call, which PettingZoo's bounds wrapper makes once a step."""

    def __init__(self, n: int):
        super().__init__(n)
        self._size = int(n)

    def contains(self, x) -> bool:
        if type(x) is int:
            return 0 <= x < self._size
        return super().contains(x)


def observation_space(game: Game, with_mask: bool) -> spaces.Dict:
    """The observation ``Dict`` space for a game's variant (see the module docstring)."""
    height, width = game.shape
    keys = {"observation": spaces.Box(0, 1, (game.num_colours + 1, height, width), np.int8)}
    if with_mask:
        keys["action_mask"] = spaces.Box(0, 1, (game.num_placements,), np.int8)
    keys["remaining"] = spaces.Box(0, 1, (game.num_colours, 21), np.int8)
    return spaces.Dict(keys)


def observe_colour(game: Game, colour: int) -> dict:
    """Planes and pieces in hand seen from ``colour`` (no mask)."""
    return {"observation": game.observation(colour), "remaining": game.remaining_from(colour)}


def render_game(game: Game, mode: str | None):
    """What ``render()`` returns: the text board ("ansi"), an RGB array ("rgb_array"), or
    None after printing the text board for a person at a terminal ("human")."""
    if mode == "ansi":
        return str(game)
    if mode == "rgb_array":
        return _render.image(game)
    if mode == "human":
        print(game, end="\n\n")
    return None
