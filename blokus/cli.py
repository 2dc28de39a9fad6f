"""The ``blokus`` command line."""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from concurrent.futures.process import BrokenProcessPool


from blokus import _core, argtypes
from blokus import __version__
from blokus.outcomes import SCORING_NOTE, score_table
from blokus.variants import START_RULES, VARIANTS
from blokus.puzzles.command import add_solve_command


def cmd_random(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    scores = _core.random_playouts(args.variant, args.games, args.seed, start=args.start)
    elapsed = time.perf_counter() - t0
    games = "game" if args.games == 1 else "games"
    print(f"{args.games} uniform-random {args.variant} {games} (start={args.start}, seed={args.seed}) "
          f"in {elapsed:.2f} s: {args.games / max(elapsed, 1e-9):,.0f} games/s\n")
    print(score_table(scores, args.variant))
    print("\n" + SCORING_NOTE)
    return 0


SELFPLAY_DESCRIPTION = """\
Play games between agents and record them: every game as Blokus SGF (Pentobi reads it), Parquet
tables of moves and games for training pipelines, and a summary; then print, per agent, games,
wins, win rate with a 95% (Wilson) interval, mean score and mean game length.

Seats rotate: with k agents, game g gives seat s (player s) the agent number (s + g) mod k, so
over k consecutive games every agent plays every seat; one agent plays every seat (self-play).
Each game depends only on (--seed, game index): the same command writes the same games.blksgf
on any number of workers or on Ray.
"""

SELFPLAY_EPILOG = """\
agents: random, greedy, mcts with parameters after colons or as key=value items after it:
  mcts:sims=500:c=0.5 (or mcts:sims=500,c=0.5), mcts:seconds=1 (time-limited: not deterministic)

files in --out:
  run.json        the run's settings (a --resume with other settings is refused)
  games.blksgf    one SGF record per line, in game order; appended as games finish. Root
                  properties BKGAME (game index), BKSEED (game seed), BKAGENTS (agent per seat)
  moves.parquet   game, ply, colour, player, placement, piece, legal_moves (the mover's)
  games.parquet   game, variant, start, seed, agents, colour_scores, player_scores, winners, length
  summary.json    settings and the tables printed
  scores.png      with --plot

Ctrl-C stops the run, keeps every finished game, writes the files for them and exits 130;
continue with: blokus selfplay --out DIR --resume.

examples:
  blokus selfplay --variant duo --games 200 --agents greedy,random --seed 1 --out runs/duo
  blokus selfplay --variant duo --games 1000 --agents mcts:sims=500,greedy --seed 7 --out runs/m
  blokus selfplay --out runs/m --resume --games 2000      (resume, and extend to 2000 games)
"""


def cmd_selfplay(args: argparse.Namespace) -> int:
    from blokus import selfplay

    try:
        summary = selfplay.run(args.out, variant=args.variant, agents=args.agents, games=args.games,
                               seed=args.seed, start=args.start, workers=args.workers, ray=args.ray,
                               resume=args.resume, plot=args.plot, progress=args.progress)
    except selfplay.SelfPlayError as exc:
        args.parser.error(str(exc))
    except selfplay.Interrupted as exc:
        summary = exc.summary
        print(_selfplay_header(summary) + "\n")
        print(selfplay.format_table(summary))
        print(f"\ninterrupted: {summary['finished']} of {summary['games']} games finished, kept in "
              f"{summary['out']}\nresume with: blokus selfplay --out {shlex.quote(summary['out'])} "
              "--resume", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("\ninterrupted before the games started; nothing was written", file=sys.stderr)
        return 130
    except BrokenProcessPool as exc:
        print(f"blokus selfplay: error: a worker process died ({exc})\nthe games finished so far are "
              f"kept in {args.out}; resume with: blokus selfplay --out {shlex.quote(args.out)} --resume",
              file=sys.stderr)
        return 1
    print(_selfplay_header(summary) + "\n")
    print(selfplay.format_table(summary))
    if summary.get("unchanged"):
        print(f"\nthe run was already complete: its files in {summary['out']} are unchanged")
    else:
        print(f"\nwritten to {summary['out']}: {', '.join(summary['files'])}")
    return 0


def _selfplay_header(summary: dict) -> str:
    games = "game" if summary["games"] == 1 else "games"
    head = (f"{summary['finished']} of {summary['games']} {summary['variant']} {games} "
            f"(agents {', '.join(summary['agents'])}; seed {summary['seed']}; start={summary['start']})")
    where = f"Ray ({summary['ray']})" if summary["ray"] else (
        f"{summary['workers']} worker{'s' if summary['workers'] != 1 else ''}")
    if summary["played"] and not summary.get("unchanged"):
        head += (f"\nplayed {summary['played']} in {summary['elapsed_seconds']:.2f} s: "
                 f"{summary['games_per_second']:,.1f} games/s on {where}")
    else:
        head += "\nnothing left to play"
    if summary["played"] != summary["finished"] and not summary.get("unchanged"):
        head += f"; {summary['finished'] - summary['played']} were already in {summary['out']}"
    return head


TRAIN_DESCRIPTION = """\
Train a blokus.nn network on Duo by self-play, AlphaZero-style: each iteration plays
--games-per-iteration games side by side, every move chosen by blokus.search.BatchedSearch with
the network as its evaluator (moves drawn from the visit counts for the first 10 plies, then
the most visited), keeps the positions in a replay buffer, and trains the network on the
visit-count policy and the games' outcomes and score margins. Every --eval-every iterations
(and at iteration 0 and the last) the network's search plays --eval-games games against each
opponent, seats alternating, and the table of its win shares is printed. Needs pip install "blokus[torch]".
"""

TRAIN_EPILOG = """\
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
        summary = train.run(args.out, iterations=args.iterations, games_per_iteration=args.games_per_iteration,
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


def cmd_gtp(args: argparse.Namespace) -> int:
    from blokus import gtp

    try:
        engine = gtp.Engine(args.variant, args.agent, seed=args.seed)
    except ValueError as exc:
        args.parser.error(str(exc))
    # bytes in, so that no decoding error can end the session; answers are ASCII but for echoed input
    sys.stdout.reconfigure(errors="backslashreplace")
    return gtp.serve(engine, sys.stdin.buffer, sys.stdout)


GTP_DESCRIPTION = """\
Run a GTP engine on stdin/stdout with the command set of Pentobi's pentobi-gtp (set_game,
clear_board, play, genmove, reg_genmove, g, undo, all_legal, final_score, showboard,
set_random_seed, cputime, loadsgf, savesgf, param, known_command, list_commands, name, version,
protocol_version, quit),
so that blokus can be matched against other GTP programs and driven from GUI tools. Games use
each colour's fixed starting square, as Pentobi does.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="blokus", description="An exact, fast Blokus engine.")
    parser.add_argument("--version", action="version", version=f"blokus {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    rnd = sub.add_parser("random", help="play uniform-random games in C and print the score table")
    rnd.add_argument("--variant", choices=VARIANTS, default="classic", help="variant (default: classic)")
    rnd.add_argument("--games", type=argtypes.count, default=10_000, help="number of games (default: 10000)")
    rnd.add_argument("--seed", type=argtypes.seed, default=0, help="random seed (default: 0)")
    rnd.add_argument("--start", choices=START_RULES, default="any",
                     help="start rule: any free corner (rule sheet) or each colour its own (default: any)")
    rnd.set_defaults(func=cmd_random)

    sp = sub.add_parser("selfplay", help="play and record games between agents (SGF, Parquet, summary)",
                        description=SELFPLAY_DESCRIPTION, epilog=SELFPLAY_EPILOG,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("--out", required=True, metavar="DIR",
                    help="directory for the run's files; must be new or empty unless --resume")
    sp.add_argument("--variant", choices=VARIANTS,
                    help="variant (default: classic; on --resume, the run's)")
    sp.add_argument("--games", type=argtypes.count, metavar="N",
                    help="games in the run (default: 100; on --resume, the run's; a larger N extends it)")
    sp.add_argument("--agents", metavar="LIST",
                    help="comma-separated agents, at most one per seat, e.g. mcts:sims=500,greedy "
                         "(default: random; on --resume, the run's)")
    sp.add_argument("--seed", type=argtypes.seed, metavar="S",
                    help="run seed; game g is seeded from (S, g) (default: 0; on --resume, the run's)")
    sp.add_argument("--start", choices=START_RULES,
                    help="start rule: each colour its own starting square as Pentobi plays, or any "
                         "free corner as the rule sheet (default: fixed; on --resume, the run's)")
    sp.add_argument("--workers", type=argtypes.count, metavar="N",
                    help="processes on this machine (default: the number of cores); 1 plays in this "
                         "process; with --ray local, the local Ray instance's CPUs")
    sp.add_argument("--ray", metavar="ADDRESS",
                    help="play on a Ray cluster at ADDRESS (auto, ray://host:10001), or 'local' to start "
                         'a local Ray instance; needs pip install "blokus[ray]"')
    sp.add_argument("--resume", action="store_true",
                    help="continue the run in --out: keep its finished games, play the rest; other "
                         "settings than the run's are refused (--games may grow)")
    sp.add_argument("--plot", action="store_true",
                    help='also write scores.png, the score distribution per agent; needs '
                         'pip install "blokus[plot]"')
    sp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar with games/s and ETA on stderr (default: when stderr is a terminal)")
    sp.set_defaults(func=cmd_selfplay, parser=sp)

    tr = sub.add_parser("train", help="train a network by self-play with the batched search (Duo; needs torch)",
                        description=TRAIN_DESCRIPTION, epilog=TRAIN_EPILOG,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    tr.add_argument("--out", required=True, metavar="DIR",
                    help="directory for the run's files; must be new or empty unless --resume")
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
                    help="comma-separated agents to evaluate against (default: random,greedy)")
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

    gp = sub.add_parser("gtp", help="run a GTP engine on stdin/stdout (Pentobi's command set)",
                        description=GTP_DESCRIPTION)
    gp.add_argument("--variant", choices=VARIANTS, default="classic",
                    help="variant at start; set_game changes it (default: classic)")
    gp.add_argument("--agent", default="mcts:sims=2000",
                    help="agent that answers genmove, e.g. greedy or mcts:seconds=1 (default: mcts:sims=2000)")
    gp.add_argument("--seed", type=argtypes.seed, default=None, help="seed of the agent (default: fresh entropy)")
    gp.set_defaults(func=cmd_gtp, parser=gp)

    add_solve_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush is silent
        return 1


if __name__ == "__main__":
    sys.exit(main())
