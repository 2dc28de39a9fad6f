"""Who plays the other seats of the RL environments: one vocabulary and one default for the
single-agent env (``blokus.gym_env``), the vector env (``blokus.vector.VectorEnv``) and the
SB3 env (``blokus.sb3.VecEnv``), and the batches of games that play them.

An opponent is an agent string, as on the command line and in ``blokus.agents.make_agent``
(``"random"``, ``"greedy"``, ``"mcts:sims=200"``, ...), or a callable ``(blokus.Game) -> placement
id``. The default is ``"random"``. In a batch, ``"random"`` and ``"greedy"`` are played in C inside
the step (:class:`CBatch`); any other agent and callables are asked game by game from Python
(:class:`AgentBatch`), which is as slow as that agent.
"""
from blokus.opponents._agent_batch import AgentBatch
from blokus.opponents._batch import IN_C, batch
from blokus.opponents._c_batch import CBatch
from blokus.opponents._opponent import DEFAULT, Opponent, agent, check

__all__ = ["Opponent", "DEFAULT", "IN_C", "check", "agent", "batch", "CBatch", "AgentBatch"]
