"""``blokus selfplay``: play and record games between agents."""
from __future__ import annotations

import argparse
import shlex
import sys
from concurrent.futures.process import BrokenProcessPool

from blokus import argtypes
from blokus.variants import START_RULES, VARIANTS

DESCRIPTION = """\
Play games between agents and record them: every game as Blokus SGF (Pentobi reads it), Parquet
tables of moves and games for training pipelines, and a summary; then print, per agent, games,
wins, win rate with a 95% (Wilson) interval, mean score and mean game length.

Seats rotate: with k agents, game g gives seat s (player s) the agent number (s + g) mod k, so
over k consecutive games every agent plays every seat; one agent plays every seat (self-play).
Each game depends only on (--seed, game index): the same command writes the same games.blksgf
on any number of workers or on Ray.
"""

EPILOG = """\
agents: random, greedy, mcts with parameters after colons or as key=value items after it:
  mcts:sims=500:c=0.5 (or mcts:sims=500,c=0.5), mcts:seconds=1 (time-limited: not deterministic);
  level:N (1..9, graded against Pentobi), sb3:PATH (a saved MaskablePPO model), net:PATH (a
  blokus train network), gtp:COMMAND (a GTP engine); help(blokus.agents) has them all

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


def add_selfplay_command(subparsers) -> argparse.ArgumentParser:
    """Adds ``selfplay`` to an argparse subparsers object (``parser.add_subparsers()``)."""
    sp = subparsers.add_parser("selfplay", help="play and record games between agents (SGF, Parquet, summary)",
                               description=DESCRIPTION, epilog=EPILOG,
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
    return sp
