"""PettingZoo AEC environment for Blokus.

==================  ===========================================================================
Creation            ``blokus.env.env(variant="duo", start="fixed", reward="win_loss")``
Actions             Discrete
Parallel API        No
Manual Control      No
Agents              ``['player_0', 'player_1']`` (Duo); one per player of the variant
Number of agents    2 (duo, classic_2), 3 (classic_3), 4 (classic, classic_teams)
Action Shape        ()
Action Values       Discrete(A): A = 13,729 (Duo 14x14), 30,433 (classic 20x20)
Observation Shape   (C + 1, H, W) planes; C colours (2 or 4), H = W = 14 or 20
Observation Values  [0, 1]
==================  ===========================================================================

Blokus as Mattel publishes it (the rules in docs/rules.md): each colour places its 21 pieces so that
they touch its own colour only at corners; the player with the highest score wins (-1 per square
left in hand, bonuses for placing everything; see Rewards). Variants:
``classic`` (4 players), ``classic_2`` (2 players: blue+red against yellow+green), ``classic_3``
(3 players; green is shared, moved by the players in rotation, its score ignored),
``classic_teams`` (blue+red against yellow+green, each player a colour) and ``duo`` (14x14, 2 players).
``start="fixed"`` gives each colour its own starting square (Pentobi's convention); ``"any"`` is the
rule sheet's rule.

Agents and turns
----------------
``player_p`` is player p. The agent to act is the player who moves the colour to move: in ``classic_2``
one agent moves two colours; in ``classic_3`` green is moved by player (green pieces on the board)
mod 3. A colour with no legal placement is skipped by the engine (docs/rules.md: that is a pass, not a
choice), so the agent on move always has at least one legal action.

Observation space
-----------------
A dict, seen from the *perspective colour*: the colour to move for the agent on move, else the
agent's own colour (player p's colour p).

===============  ==================  ==============================================================
key              dtype, shape        meaning
===============  ==================  ==============================================================
``observation``  int8 (C + 1, H, W)  planes below
``action_mask``  int8 (A,)           1 at each legal placement id; all 0 for agents not on move
``remaining``    int8 (C, 21)        pieces in hand, rows in the planes' colour order, columns in
                                     ``blokus.PIECE_NAMES`` order
===============  ==================  ==============================================================

==========  =======================================================================================
plane       content
==========  =======================================================================================
0           cells of the perspective colour
1 .. C-1    cells of the other colours, in turn order after it
C           its attachment points: empty cells diagonal to its cells and not edge-adjacent to them
            (before its first piece: the starting squares open to it)
==========  =======================================================================================

Action space
------------
A placement id ``a`` in ``[0, A)``: row ``a`` of ``blokus.placements(variant)`` (piece, orientation and
anchor; ``game.move_text(a)`` gives its cells). Illegal actions end the game with -1 for the
offender and 0 for the others (PettingZoo's ``TerminateIllegalWrapper``); with ``reward="score"``
the offender gets one less than the worst score a player can end with (-90, or -179 where a
player scores two colours), so that breaking a rule never pays. Actions out of range or not
integers fail the wrapper's ``AssertionError``; through ``raw_env`` illegal actions raise
``blokus.IllegalMoveError``.

Rewards
-------
Given once, when the game ends. ``reward="win_loss"``: +1 to each player with the highest player
score, -1 to the others, 0 to all when all players tie. ``reward="score"``: each agent's player
score (docs/rules.md, "Scoring": -1 per square in hand, +15 for placing all 21 pieces, +20 if the last
was the monomino; classic_2 sums the player's two colours, classic_teams the team's). ``infos`` carry
``scores`` (per colour), ``player_scores`` and ``colour_to_move`` (-1 once the game is over).

Rendering
---------
``render_mode="ansi"`` returns the text board, ``"rgb_array"`` a uint8 (16 H, 16 W, 3) image, and
``"human"`` prints the text board after every step (no window opens).

Single agent
------------
``blokus.gym_env.BlokusEnv`` (ids ``blokus/Duo-v0`` and the others, registered once ``blokus``
and ``gymnasium`` are both imported) plays one seat against built-in or custom opponents; see its
docstring. There is no ``parallel_env``: Blokus is played in turns.

Version history
---------------
* v0: initial release (blokus 0.1.0).
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from blokus._optional import needs

with needs("rl", "blokus.env"):
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

from blokus.game import Game
from blokus.rl import (
    PlacementSpace,
    check_options,
    end_rewards,
    illegal_reward,
    observation_space,
    observe_player,
    on_move,
    render_game,
)


def _reading_through(wrapper: type) -> type:
    """``wrapper``, reading the attributes that every step touches straight from the unwrapped
    env. PettingZoo's wrappers forward them through ``__getattr__``, a Python call per layer;
    with three layers that was two thirds of the cost of a step. The values are the same."""

    def __init__(self, env, *args, **kwargs):
        wrapper.__init__(self, env, *args, **kwargs)
        self._raw = env.unwrapped

    names = ("agents", "agent_selection", "terminations", "truncations", "rewards", "infos",
             "_cumulative_rewards")
    reads = {n: property(operator.attrgetter(f"_raw.{n}")) for n in names}
    return type(wrapper.__name__, (wrapper,), {"__init__": __init__, **reads})


_TerminateIllegal = _reading_through(wrappers.TerminateIllegalWrapper)
_AssertOutOfBounds = _reading_through(wrappers.AssertOutOfBoundsWrapper)
_OrderEnforcing = _reading_through(wrappers.OrderEnforcingWrapper)


def env(variant: str = "duo", *, start: str = "fixed", reward: str = "win_loss", render_mode: str | None = None):
    """The Blokus AEC environment with PettingZoo's standard wrappers (see the module docstring).

    Raises
    ------
    ValueError
        Unknown variant, start rule, reward or render mode.
    """
    e = raw_env(variant, start=start, reward=reward, render_mode=render_mode)
    e = _TerminateIllegal(e, illegal_reward=illegal_reward(e.game, reward))
    e = _AssertOutOfBounds(e)
    return _OrderEnforcing(e)


class raw_env(AECEnv):
    """Blokus as a PettingZoo AEC environment, without wrappers (see the module docstring)."""

    metadata = {
        "render_modes": ["ansi", "rgb_array", "human"],
        "name": "blokus_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, variant: str = "duo", *, start: str = "fixed", reward: str = "win_loss",
                 render_mode: str | None = None):
        super().__init__()
        check_options(variant, reward, render_mode, self.metadata["render_modes"])
        self.variant, self.start, self.reward_mode, self.render_mode = variant, start, reward, render_mode
        self.game = Game(variant, start=start)
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players)]
        self._agent_index = {a: p for p, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: PlacementSpace(self.game.num_placements) for a in self.possible_agents}
        self.observation_spaces = {a: observation_space(self.game, with_mask=True) for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @functools.cached_property
    def _zero_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_placements, np.int8)
        mask.flags.writeable = False
        return mask

    def observe(self, agent):
        p = self._agent_index[agent]
        obs = observe_player(self.game, p)
        obs["action_mask"] = self.game.legal_mask().view(np.int8) if on_move(self.game, p) else self._zero_mask
        return obs

    def reset(self, seed=None, options=None):
        self.game = Game(self.variant, start=self.start)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._update_infos()
        self.agent_selection = self.possible_agents[self.game.player_to_move]

    def _update_infos(self):
        # one dict shared by all agents: they all see the same scores and turn
        info = {"scores": self.game.scores(), "player_scores": self.game.player_scores(),
                "colour_to_move": self.game.to_move}
        self.infos = dict.fromkeys(self.agents, info)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.play(int(action))
        self._update_infos()
        if self.game.is_over:
            self.rewards = dict(zip(self.possible_agents, end_rewards(self.game, self.reward_mode)))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()  # rewards are zero until the end: nothing to add before
        else:
            self.agent_selection = self.possible_agents[self.game.player_to_move]
        if self.render_mode == "human":
            self.render()

    def render(self):
        return render_game(self.game, self.render_mode)

    def close(self):
        pass
