"""What the PettingZoo and Gymnasium environments share: options, spaces, observations, rewards,
rendering. Needs Gymnasium (for the spaces), not PettingZoo."""
from __future__ import annotations

import numpy as np

from blokus._optional import needs

with needs("rl", "blokus's RL environments"):
    from gymnasium import spaces

from blokus import render as _render
from blokus import PIECE_NAMES
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
    from blokus._core import TOTAL_SQUARES, player_weights

    return -float(TOTAL_SQUARES * player_weights(game.variant).sum(axis=1).max() + 1)


def check_seat(num_players: int, seat) -> int:
    """The learner's seat as an int; ValueError unless it is an int in range(num_players)."""
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_players:
        raise ValueError(f"seat must be in range({num_players}), not {seat!r}")
    return int(seat)


def check_options(variant: str, reward: str, render_mode: str | None, modes) -> None:
    """ValueError naming the bad option, if any."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r} (expected one of {', '.join(REWARDS)})")
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"unknown render_mode {render_mode!r} (expected one of {', '.join(modes)})")


ILLEGAL = ("raise", "end")


class BatchRewards:
    """The rewards of a learner-against-opponents batch (``blokus.opponents``) for one seat.

    ``illegal="end"``: an illegal action ends its game with :func:`illegal_reward`;
    ``"raise"``: the batch's step raises ``ValueError`` (nothing is played).
    """

    def __init__(self, variant: str, reward: str, seat, illegal: str = "raise"):
        check_options(variant, reward, None, ())
        if illegal not in ILLEGAL:
            raise ValueError(f"unknown illegal {illegal!r} (expected one of {', '.join(ILLEGAL)})")
        from blokus._core import player_weights

        self.weights = player_weights(variant)
        self.seat = check_seat(self.weights.shape[0], seat)
        self.reward, self.illegal = reward, illegal
        self.illegal_value = illegal_reward(Game(variant), reward)

    def illegal_actions(self, batch, actions) -> np.ndarray | None:
        """bool (N,): the live games whose action is illegal (with ``illegal="end"``), else None."""
        return None if self.illegal == "raise" else bad_actions(batch, actions)

    def __call__(self, batch, ended: np.ndarray, illegal: np.ndarray | None) -> np.ndarray:
        """float32 (N,): 0 in live games, the result for the seat in games that ended."""
        rewards = np.zeros(len(ended), np.float32)
        if ended.any():
            if self.reward == "score":
                rewards[ended] = batch.episode_scores[ended] @ self.weights[self.seat]
            else:
                winners = batch.episode_winners[ended]
                all_tie = winners.all(axis=1)
                rewards[ended] = np.where(all_tie, 0.0, np.where(winners[:, self.seat], 1.0, -1.0))
        if illegal is not None:
            rewards[illegal] = self.illegal_value
        return rewards


def bad_actions(batch, actions) -> np.ndarray | None:
    """bool (N,): the live games of a batch whose action is out of range or illegal; None for
    actions of the wrong shape or dtype (the batch's step raises about those)."""
    actions = np.asarray(actions)
    if actions.shape != batch.done.shape or not np.issubdtype(actions.dtype, np.integer):
        return None
    in_range = (actions >= 0) & (actions < batch.num_placements)
    legal = batch.legal_mask[np.arange(len(actions)), np.where(in_range, actions, 0)] & in_range
    return ~legal & ~batch.done


def batch_spaces(batch) -> tuple[spaces.Dict, PlacementSpace]:
    """One game's observation and action spaces in a batch (``blokus.opponents``)."""
    game = Game(batch.variant)
    return observation_space(game, with_mask=False), PlacementSpace(game.num_placements)


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
    """The observation ``Dict`` space for a game's variant (see ``blokus.env``'s docstring), the
    one every environment uses; ``with_mask`` adds ``action_mask`` (PettingZoo's form)."""
    height, width = game.shape
    keys = {"observation": spaces.Box(0, 1, (game.num_colours + 1, height, width), np.int8)}
    if with_mask:
        keys["action_mask"] = spaces.Box(0, 1, (game.num_placements,), np.int8)
    keys["remaining"] = spaces.Box(0, 1, (game.num_colours, len(PIECE_NAMES)), np.int8)
    return spaces.Dict(keys)


def on_move(game: Game, player: int) -> bool:
    """Whether ``player`` moves the colour to move now."""
    return not game.is_over and game.player_to_move == player


def observe_player(game: Game, player: int) -> dict:
    """Planes and pieces in hand as ``player`` sees them (no mask): from the colour to move while
    the player moves it, else from the player's own colour (player p's colour p in every
    variant). The one point-of-view rule of the environments; the batch engine
    (csrc/engine/vector.c) takes the same view."""
    colour = game.to_move if on_move(game, player) else player
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
