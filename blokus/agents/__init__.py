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

Agents from elsewhere, each a class here and an agent string:

- ``level:N`` (``LevelAgent``), N = 1..9: ``mcts`` at a budget meant to play as Pentobi's
  level N (``LEVEL_SIMULATIONS``; which levels are measured: ``LevelAgent``), a graded ladder
  of opponents;
- ``gtp:COMMAND`` (``GTPAgent``): any GTP engine as a subprocess, e.g.
  ``gtp:pentobi-gtp --nobook --noresign -l 3`` or ``gtp:blokus gtp --agent greedy``; started at
  its first move, once per process for all agents of the command, kept in step with the game by
  ``set_game``/``clear_board``/``play``, asked by ``genmove``, closed by ``close()`` or at exit;
  its failures raise ``EngineError`` naming the command;
- ``sb3:PATH`` (``SB3Agent``): a saved sb3-contrib MaskablePPO model, its most probable legal
  placement (``pip install "blokus[train]"``);
- ``net:PATH`` or ``net:PATH:sims=N`` (``NetAgent``): a ``blokus train`` network, its policy's
  most probable legal placement, or with ``sims`` the search training plays, guided by it
  (``pip install "blokus[torch]"``).

On the command line an agent is a string: a name, then ``:key=value``
parameters, e.g. ``mcts:sims=2000``, ``mcts:seconds=1:c=0.5`` or
``mcts:seconds=1:threads=2``; ``gtp:`` takes the rest of the string as its
command (split as a POSIX shell would), ``sb3:`` and ``net:`` a path.
A comma-separated list (``parse_agents``, ``--agents``) splits at every comma,
so a command holding a comma cannot be listed there. Where Python objects are
taken (``make_agent``, ``blokus.arena``, ``blokus.gtp.Engine``, the
environments' ``opponent``), an agent object or a plain callable with a
``name`` may stand for a string.
"""
from blokus.agents._gtp import DEFAULT_TIMEOUT, EngineError, GTPAgent
from blokus.agents._ladder import LEVEL_SIMULATIONS, MEASURED_LEVELS, LevelAgent
from blokus.agents._mcts import MAX_SECONDS, MAX_THREADS, MCTSAgent, available_cores
from blokus.agents._models import NetAgent, SB3Agent
from blokus.agents._policies import GreedyAgent, RandomAgent
from blokus.agents._protocol import Agent
from blokus.agents._search import Search
from blokus.agents._strings import AGENTS, agent_name, make_agent, parse_agents

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "Search", "MAX_SECONDS", "MAX_THREADS",
           "available_cores", "MCTSAgent", "LevelAgent", "LEVEL_SIMULATIONS", "MEASURED_LEVELS", "GTPAgent",
           "EngineError", "DEFAULT_TIMEOUT", "SB3Agent", "NetAgent", "AGENTS", "make_agent", "parse_agents",
           "agent_name"]
