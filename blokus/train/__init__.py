"""AlphaZero-style training of a ``blokus.nn.PlacementNet`` in any variant (``pip install "blokus[torch]"``)::

    blokus train --out runs/duo --iterations 20 --plot
    blokus train --variant classic --out runs/classic --opponents random,greedy

``run(out, ...)`` is what the command calls. Each iteration plays games against itself with
``blokus.search.BatchedSearch`` and the network as its evaluator (``play``), keeps their
positions in a replay buffer (``buffer``), and takes optimiser steps on the visit-count policy
and the game's outcome and scores (``blokus._sides``, ``optimise``); at intervals the network, holding
one side, plays agents such as ``random``, ``greedy`` and ``mcts`` holding the others
(``evaluation``). Every iteration ends with a line in ``log.jsonl`` and a checkpoint
(``checkpoint``), from which ``resume=True`` continues exactly. A resume drops a last log
line cut short by a kill, and refuses a damaged run (a file empty, cut short, garbage or not a
regular file; a checkpoint beyond the run or not matching its log) or a run of other settings
(another variant among them) with a ``TrainError`` that names the file and what to do.

Files in ``out``
    ``run.json``
        The run's settings, the variant among them; a resume with other settings is refused.
    ``log.jsonl``
        One JSON object per iteration: ``iteration``, ``steps`` (optimiser steps so far),
        ``positions`` (added to the buffer), ``buffer``, ``mean_length`` (placements per game),
        ``first_player_share``, ``policy_loss``, ``value_loss``, ``selfplay_seconds``,
        ``train_seconds`` and, when evaluated, ``evaluation``: per opponent ``games``, ``wins``,
        ``win_share``, ``win_share_low``, ``win_share_high`` (95% Wilson) and ``mean_margin``
        (the network's side's score minus the best other side's).
        Iteration 0 is the untrained network's evaluation.
    ``checkpoint.pt``
        Settings, iteration, model, optimiser, torch's RNG state and the replay buffer.
    ``model.pt``
        The network and its variant: ``load_network(path)`` gives it back; ``NetworkAgent(net)``
        or the agent string ``net:PATH`` plays it, in games of that variant.
    ``win_share.png``
        With ``plot=True`` (``pip install "blokus[plot]"``).

The recipe
    The network sees what it sees when it plays: the planes, the pieces in hand and the legal
    mask of the colour to move. Its value target mixes each side's share of the win with its
    share of a softmax of the scores (with two sides, a sigmoid of the score margin): one value,
    the mover's side's, in duo, classic_2 and classic_teams (team partners share it); one per
    colour in classic and classic_3 (the shared colour has none), trained by a cross-entropy
    over their softmax (``blokus._sides``, ``optimise``). In Duo each minibatch position is transposed
    with probability 1/2 (``symmetry``; no symmetry of the 20x20 board keeps the four starting
    corners). 16 optimiser steps of 128 positions per iteration of about 450 new Duo positions.
    What the defaults give: docs/training.md; the measured runs that chose them:
    benchmarks/LOG.md.
"""
# The modules: settings (run.json and its checks), play (self-play with the batched search),
# buffer (the replay buffer), optimise (the loss and steps), symmetry (the transpose as
# augmentation), evaluation (matches and the table), checkpoint, log (log.jsonl), plot, files,
# errors, runner (run itself). Below them, shared with blokus.agents' net: agent: the network as
# the search and the optimiser call it, read back and played as an agent (blokus._network), and
# the sides of a variant and their value targets (blokus._sides).
from blokus._optional import needs

with needs("torch", "blokus train"):
    import torch  # noqa: F401

from blokus._network import NetworkAgent, load_network
from blokus.train.errors import Interrupted, TrainError
from blokus.train.evaluation import format_table, play_match
from blokus.train.runner import run

__all__ = ["run", "load_network", "NetworkAgent", "play_match", "format_table", "TrainError", "Interrupted"]
