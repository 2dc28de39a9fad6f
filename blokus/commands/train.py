"""``blokus train``: self-play training of a network (needs torch, imported when the command runs)."""
from __future__ import annotations

import argparse
import shlex
import sys

from blokus import argtypes
from blokus.variants import VARIANTS

DESCRIPTION = """\
Train a blokus.nn network on a variant (--variant, default duo) by self-play, AlphaZero-style:
each iteration plays --games-per-iteration games side by side, every move chosen by
blokus.search.BatchedSearch with the network as its evaluator (moves drawn from the visit
counts for the first 10 plies, then the most visited), keeps the positions in a replay buffer,
and trains the network on the visit-count policy and the games' outcomes and scores (each
side's share of the win and of the scores: with 3 or 4 sides one value per colour, team
partners sharing theirs). Every --eval-every iterations (and at iteration 0 and the last) the
network's search plays --eval-games games holding one side against each opponent playing the
others, seats rotating, and the table of its win shares is printed. Needs
pip install "blokus[torch]".
"""

EPILOG = """\
files in --out:
  run.json        the run's settings (a --resume with other settings is refused)
  log.jsonl       one JSON object per iteration: losses, game lengths, times, evaluations
  checkpoint.pt   model, optimiser, iteration, RNG state and replay buffer (for --resume)
  model.pt        the network alone (blokus.train.load_network)
  win_share.png   with --plot: win share against each opponent over optimiser steps

Ctrl-C keeps the checkpoint of the last finished iteration and exits 130; continue with:
blokus train --out DIR --resume (it goes on exactly as the uninterrupted run).

examples:
  blokus train --out runs/duo
  blokus train --out runs/classic --variant classic --opponents random,greedy
  blokus train --out runs/duo --resume --iterations 60      (resume, and extend to 60 iterations)
  blokus train --out runs/big --channels 64 --blocks 4 --simulations 64 --plot
"""


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from blokus import train
    except ModuleNotFoundError as exc:
        print(f"blokus train: error: {exc}", file=sys.stderr)
        return 2
    from tqdm import tqdm

    try:
        summary = train.run(args.out, variant=args.variant, iterations=args.iterations,
                            games_per_iteration=args.games_per_iteration,
                            simulations=args.simulations, train_steps=args.train_steps,
                            batch_size=args.batch_size, eval_every=args.eval_every, eval_games=args.eval_games,
                            eval_simulations=args.eval_simulations, opponents=args.opponents, seed=args.seed,
                            channels=args.channels, blocks=args.blocks, resume=args.resume, plot=args.plot,
                            progress=args.progress, echo=lambda text: tqdm.write(text + "\n"))
    except train.TrainError as exc:
        args.parser.error(str(exc))
    except train.Interrupted as exc:
        kept = (f"the checkpoint of iteration {exc.iteration} is kept in {exc.out}" if exc.iteration is not None
                else "no iteration had finished yet (a resume starts from the beginning)")
        print(f"\ninterrupted: {kept}\nresume with: blokus train --out {shlex.quote(exc.out)} --resume",
              file=sys.stderr)
        return 130
    print(f"trained to iteration {summary['iteration']} ({summary['steps']} optimiser steps); "
          f"written to {summary['out']}: {', '.join(summary['files'])}")
    return 0


def add_train_command(subparsers) -> argparse.ArgumentParser:
    """Adds ``train`` to an argparse subparsers object (``parser.add_subparsers()``)."""
    tr = subparsers.add_parser("train", help="train a network by self-play with the batched search (needs torch)",
                               description=DESCRIPTION, epilog=EPILOG,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    tr.add_argument("--out", required=True, metavar="DIR",
                    help="directory for the run's files; must be new or empty unless --resume")
    tr.add_argument("--variant", choices=VARIANTS,
                    help="the game to train on (default: duo; on --resume, the run's: another is refused)")
    tr.add_argument("--iterations", type=argtypes.count, metavar="N",
                    help="iterations (default: 30; on --resume, the run's; a larger N extends it)")
    tr.add_argument("--games-per-iteration", type=argtypes.count, metavar="G",
                    help="self-play games per iteration, played side by side (default: 16)")
    tr.add_argument("--simulations", type=argtypes.count, metavar="S",
                    help="search simulations per move in self-play (default: 32)")
    tr.add_argument("--train-steps", type=argtypes.count, metavar="N",
                    help="optimiser steps per iteration (default: 16)")
    tr.add_argument("--batch-size", type=argtypes.count, metavar="B",
                    help="positions per minibatch, drawn from the replay buffer (default: 128)")
    tr.add_argument("--eval-every", type=argtypes.count, metavar="K",
                    help="evaluate every K iterations, and at iteration 0 and the last (default: 10)")
    tr.add_argument("--eval-games", type=argtypes.count, metavar="E",
                    help="evaluation games per opponent (default: 100)")
    tr.add_argument("--eval-simulations", type=argtypes.natural, metavar="S",
                    help="simulations of the network's search in evaluation; 0 plays its raw policy "
                         "(default: --simulations)")
    tr.add_argument("--opponents", metavar="LIST",
                    help="comma-separated agents to evaluate against (default: random,greedy,mcts:sims=200)")
    tr.add_argument("--seed", type=argtypes.seed, metavar="S", help="run seed (default: 0)")
    tr.add_argument("--channels", type=argtypes.count, metavar="C", help="trunk channels (default: 32)")
    tr.add_argument("--blocks", type=argtypes.natural, metavar="K", help="residual blocks (default: 2)")
    tr.add_argument("--resume", action="store_true",
                    help="continue the run in --out from its last checkpoint; other settings than the "
                         "run's are refused (--iterations may grow)")
    tr.add_argument("--plot", action="store_true",
                    help='also write win_share.png; needs pip install "blokus[plot]"')
    tr.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar on stderr (default: when stderr is a terminal)")
    tr.set_defaults(func=cmd_train, parser=tr)
    return tr
