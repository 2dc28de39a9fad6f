"""``run``: a training run from its settings to its checkpoints, through Ctrl-C and resume.

Iteration i (from 1): self-play of ``games_per_iteration`` games into the replay buffer, then
``train_steps`` optimiser steps on minibatches from it; at iteration 0 (the untrained network),
every ``eval_every`` iterations and at the last, the evaluation against every opponent. Then a
line in ``log.jsonl`` and the checkpoint. Iteration i's randomness comes from (seed, i) alone
(a NumPy generator for the sampled moves and the minibatches, the searches' seeds), and the
network's first weights from ``torch.manual_seed(seed)``: a resumed run goes on exactly as the
uninterrupted one would.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Callable, Sequence, Union

import numpy as np
import torch

from blokus._network import evaluator, make_network, step_seed
from blokus._rundir import RUN_FILE, write_text
from blokus._sides import side_win_shares, sides, value_outputs
from blokus._sigint import sigint_deferred
from blokus.train import checkpoint
from blokus.train.buffer import ReplayBuffer
from blokus.train.errors import Interrupted
from blokus.train.evaluation import format_table, play_match
from blokus.train.files import CHECKPOINT_FILE, LOG_FILE, MODEL_FILE, PLOT_FILE
from blokus.train.log import append, keep_until
from blokus.train.optimise import make_optimiser, train
from blokus.train.play import SearchOptions, play_games
from blokus.train.plot import plot_win_shares, require_matplotlib
from blokus.train.settings import Config, resolve_settings
from blokus.variants import variant as variant_facts


def run(out: Union[str, os.PathLike], *, variant: str | None = None, iterations: int | None = None,
        games_per_iteration: int | None = None,
        simulations: int | None = None, train_steps: int | None = None, batch_size: int | None = None,
        eval_every: int | None = None, eval_games: int | None = None,
        eval_simulations: int | None = None, opponents: Union[str, Sequence[str], None] = None,
        seed: int | None = None, channels: int | None = None, blocks: int | None = None,
        resume: bool = False, plot: bool = False, progress: bool | None = None,
        echo: Callable[[str], None] | None = None) -> dict:
    """Trains a ``PlacementNet`` by self-play with ``BatchedSearch`` (see the module's text).

    Parameters
    ----------
    out : path
        The run's directory; created if missing. Without ``resume`` it must be empty or absent.
    variant : str
        The game (``blokus.variants.VARIANTS``; default ``"duo"``); a resume refuses another.
    iterations : int
        Iterations in the run (default 30); on resume it may grow.
    games_per_iteration : int
        Self-play games per iteration, played side by side (default 16).
    simulations : int
        Search simulations per move in self-play (default 32).
    train_steps, batch_size : int
        Optimiser steps per iteration (default 16), positions per minibatch (default 128).
    eval_every, eval_games : int
        Evaluate every that many iterations (default 10), that many games per opponent (default 100).
    eval_simulations : int
        Simulations of the network's search in evaluation; 0 plays its raw policy (default:
        ``simulations``).
    opponents : str or sequence of str
        Agent strings (default ``"random,greedy,mcts:sims=200"``).
    seed : int
        In [0, 2**64) (default 0).
    channels, blocks : int
        The network's trunk (default 32 channels, 2 residual blocks).
    resume : bool
        Continue the run in ``out`` from its last checkpoint. Settings left as None are the
        run's; settings given must equal them, except ``iterations``, which may grow.
    plot : bool
        Also write ``win_share.png`` at every evaluation (``pip install "blokus[plot]"``).
    progress : bool, optional
        A progress bar on stderr; None (default): when stderr is a terminal.
    echo : callable, optional
        Called with the evaluation table at every evaluation (the command prints it).

    Returns
    -------
    dict
        ``out``, ``iteration`` (the last finished), ``steps`` (optimiser steps), ``log`` (the
        log's entries), ``files``.

    Raises
    ------
    TrainError
        A bad setting, or a damaged run to resume (see ``TrainError``); nothing is written.
    Interrupted
        Ctrl-C; ``.iteration`` is the last checkpoint's (None if none was written yet).
    """
    from tqdm import tqdm

    out = Path(out)
    config, resuming = resolve_settings(out, resume, {
        "variant": variant, "iterations": iterations, "games_per_iteration": games_per_iteration,
        "simulations": simulations,
        "train_steps": train_steps, "batch_size": batch_size, "eval_every": eval_every,
        "eval_games": eval_games, "eval_simulations": eval_simulations,
        "opponents": opponents, "seed": seed, "channels": channels, "blocks": blocks})
    if plot:
        require_matplotlib()
    torch.manual_seed(config.seed % 2**63)
    net = make_network(config.channels, config.blocks, config.variant).eval()
    optimiser = make_optimiser(net, config.learning_rate, config.weight_decay)
    facts = variant_facts(config.variant)
    buffer = ReplayBuffer(config.buffer_size, (facts.num_colours + 1, facts.side, facts.side),
                          net.policy_head.piece.numel(), config.simulations, value_outputs(config.variant))
    files = [RUN_FILE, LOG_FILE, CHECKPOINT_FILE, MODEL_FILE] + ([PLOT_FILE] if plot else [])
    iteration, steps, saved = 0, 0, None
    with tqdm(total=config.iterations, unit=" iterations", dynamic_ncols=True, desc=f"{config.variant} training",
              disable=None if progress is None else not progress) as bar:
        say = echo or (lambda text: None)
        try:
            out.mkdir(parents=True, exist_ok=True)
            if resuming and (out / CHECKPOINT_FILE).exists():
                iteration, steps = checkpoint.load(out, config, net, optimiser, buffer)
                saved = iteration
                entries = keep_until(out, iteration)
            else:
                entries = keep_until(out, -1)
            write_text(out / RUN_FILE, json.dumps(config.as_json(), indent=2) + "\n")
            bar.update(iteration)
            first = iteration if saved is not None else -1
            for i in range(first + 1, config.iterations + 1):
                if i == 0:  # the untrained network, evaluated only
                    entry: dict = {"iteration": 0, "steps": 0}
                else:
                    entry = _iteration(config, i, steps, net, optimiser, buffer, bar)
                steps = entry["steps"]
                if i % config.eval_every == 0 or i == config.iterations:
                    t0 = time.perf_counter()
                    entry["evaluation"] = _evaluate(config, i, net, bar)
                    entry["eval_seconds"] = round(time.perf_counter() - t0, 3)
                with sigint_deferred():  # both files always describe the same iteration
                    append(out, entry)
                    checkpoint.save(out, config, i, steps, net, optimiser, buffer)
                    saved = i  # before a Ctrl-C held back until here is raised
                entries.append(entry)
                if "evaluation" in entry:
                    say(format_table([e for e in entries if "evaluation" in e], config.opponents,
                                     sides(config.variant).count))
                    if plot:
                        plot_win_shares(out / PLOT_FILE, entries, config.opponents, config.variant)
                if i:
                    bar.update(1)
        except KeyboardInterrupt:
            raise Interrupted(str(out), saved) from None
    if plot:  # also when a resume found the run complete
        plot_win_shares(out / PLOT_FILE, entries, config.opponents, config.variant)
    return {"out": str(out), "iteration": config.iterations, "steps": steps, "log": entries, "files": files}


def _iteration(config: Config, i: int, steps: int, net, optimiser, buffer: ReplayBuffer, bar) -> dict:
    """Self-play and training of iteration ``i``; its log entry."""
    rng = np.random.default_rng([config.seed, i])
    options = SearchOptions(config.simulations, config.c_puct, config.dirichlet_alpha, config.dirichlet_fraction)
    t0 = time.perf_counter()
    samples, games = play_games(evaluator(net), config.games_per_iteration, options, config.sample_plies, rng,
                                step_seed(config.seed, i), variant=config.variant, start=config.start,
                                margin_weight=config.margin_weight, margin_scale=config.margin_scale,
                                progress=lambda step: bar.set_postfix_str(f"self-play move {step}"))
    buffer.add(samples)
    t1 = time.perf_counter()
    bar.set_postfix_str("training")
    losses = train(net, optimiser, buffer, config.train_steps, config.batch_size, rng, config.augment)
    t2 = time.perf_counter()
    first_player = [side_win_shares(g)[0] for g in games]
    return {"iteration": i, "steps": steps + config.train_steps, "positions": len(samples),
            "buffer": len(buffer), "mean_length": float(np.mean([len(g.history) for g in games])),
            "first_player_share": float(np.mean(first_player)), **losses,
            "selfplay_seconds": round(t1 - t0, 3), "train_seconds": round(t2 - t1, 3)}


def _evaluate(config: Config, i: int, net, bar) -> dict:
    results = {}
    for k, opponent in enumerate(config.opponents):
        bar.set_postfix_str(f"evaluation against {opponent}")
        results[opponent] = play_match(net, opponent, config.eval_games, config.eval_simulations, config.c_puct,
                                       step_seed(config.seed, i, k + 1), start=config.start)
    return results
