"""What the PettingZoo and Gymnasium environments share: options, spaces, observations, rewards,
rendering. Needs Gymnasium (for the spaces), not PettingZoo."""
from blokus.rl._batch_rewards import BatchRewards, bad_actions
from blokus.rl._checks import ILLEGAL, check_illegal, check_options, check_seat
from blokus.rl._groups import SeatGroups, per_env
from blokus.rl._render import render_game
from blokus.rl._rewards import REWARDS, end_rewards, illegal_reward
from blokus.rl._spaces import PlacementSpace, batch_spaces, observation_space
from blokus.rl._view import observe_player, on_move

__all__ = ["REWARDS", "end_rewards", "illegal_reward", "check_seat", "check_illegal", "check_options", "ILLEGAL",
           "BatchRewards", "bad_actions", "SeatGroups", "per_env", "batch_spaces", "PlacementSpace",
           "observation_space", "on_move", "observe_player", "render_game"]
