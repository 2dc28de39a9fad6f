"""The environments' rewards: at the end of a game, and for an illegal action."""
from __future__ import annotations

from blokus._core import TOTAL_SQUARES, player_weights
from blokus.game import Game

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
    return -float(TOTAL_SQUARES * player_weights(game.variant).sum(axis=1).max() + 1)
