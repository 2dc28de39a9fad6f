"""Agents: who chooses the moves.

An agent is any callable ``agent(game) -> placement id`` with a ``name``
attribute; it is called only when a colour is to move (``not game.is_over``)
and must not change the game. The built-ins choose in C:

- ``random``: uniform over the legal placements;
- ``greedy``: the largest piece, then the most attachment points for itself
  and the fewest for the others, ties at random (the policy of
  ``VectorGame.step_policy("greedy")``);
- ``mcts``: Monte-Carlo tree search after Pentobi's (a prior over the moves,
  RAVE, playouts by a policy), in C with the GIL released; a value per
  player, so it plays every variant, classic_3's shared colour included.

On the command line an agent is a string: a name, then ``:key=value``
parameters, e.g. ``mcts:sims=2000``, ``mcts:seconds=1:c=0.5`` or
``mcts:seconds=1:threads=2``.
"""
from blokus.agents._mcts import MAX_SECONDS, MAX_THREADS, MCTSAgent, available_cores
from blokus.agents._policies import GreedyAgent, RandomAgent
from blokus.agents._protocol import Agent
from blokus.agents._search import Search
from blokus.agents._strings import AGENTS, make_agent, parse_agents

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "Search", "MAX_SECONDS", "MAX_THREADS",
           "available_cores", "MCTSAgent", "AGENTS", "make_agent", "parse_agents"]
