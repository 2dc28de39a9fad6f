"""AlphaZero-style training of a ``blokus.nn.PlacementNet`` on Duo (``pip install "blokus[torch]"``)::

    blokus train --out runs/duo --iterations 20 --plot

``run(out, ...)`` is what the command calls. Each iteration plays games against itself with
``blokus.search.BatchedSearch`` and the network as its evaluator (``play``), keeps their
positions in a replay buffer (``buffer``), and takes optimiser steps on the visit-count policy
and the game's outcome (``optimise``); at intervals the network plays ``random``, ``greedy``
and ``mcts`` (``evaluation``). Every iteration ends with a line in ``log.jsonl`` and a
checkpoint (``checkpoint``), from which ``resume=True`` continues exactly.

Files in ``out``
    ``run.json``
        The run's settings; a resume with other settings is refused.
    ``log.jsonl``
        One JSON object per iteration: ``iteration``, ``steps`` (optimiser steps so far),
        ``positions`` (added to the buffer), ``buffer``, ``mean_length`` (placements per game),
        ``first_player_share``, ``policy_loss``, ``value_loss``, ``selfplay_seconds``,
        ``train_seconds`` and, when evaluated, ``evaluation``: per opponent ``games``, ``wins``,
        ``win_share``, ``win_share_low``, ``win_share_high`` (95% Wilson) and ``mean_margin``.
        Iteration 0 is the untrained network's evaluation.
    ``checkpoint.pt``
        Settings, iteration, model, optimiser, torch's RNG state and the replay buffer.
    ``model.pt``
        The network alone: ``load_network(path)`` gives it back; ``NetworkAgent(net)`` plays it.
    ``win_share.png``
        With ``plot=True`` (``pip install "blokus[plot]"``).

What it does not do yet
    With the defaults, 10 minutes on 2 cores do not make the network stronger than the noise of
    a 20-game evaluation: the value head fits the outcomes of the games in the buffer and not
    those of new games (about 32 optimiser steps of 128 positions per 440 new positions, from
    16 games whose positions share their outcome). Remedies not built: the board's symmetries
    as augmentation (the transpose, the 180-degree turn and the anti-transpose keep the pair of
    Duo's starting points), fewer steps per new position, a value target from the search's root
    value; and the pieces in hand (``BatchedSearch``'s requests do not carry them, so the
    network's ``remaining`` input is zeros: see ``blokus.train.network``).
"""
# The modules: settings (run.json and its checks), network (the net as search and optimiser
# call it), play (self-play with the batched search), buffer (the replay buffer), optimise (the
# loss and steps), evaluation (matches and the table), checkpoint, log (log.jsonl), plot,
# files, errors, runner (run itself).
from blokus._optional import needs

with needs("torch", "blokus train"):
    import torch  # noqa: F401

from blokus.train.checkpoint import load_network
from blokus.train.errors import Interrupted, TrainError
from blokus.train.evaluation import NetworkAgent, format_table, play_match
from blokus.train.runner import run

__all__ = ["run", "load_network", "NetworkAgent", "play_match", "format_table", "TrainError", "Interrupted"]
