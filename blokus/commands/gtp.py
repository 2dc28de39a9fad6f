"""``blokus gtp``: a GTP engine on stdin/stdout."""
from __future__ import annotations

import argparse
import sys

from blokus import argtypes
from blokus.variants import VARIANTS


def cmd_gtp(args: argparse.Namespace) -> int:
    from blokus import gtp

    try:
        engine = gtp.Engine(args.variant, args.agent, seed=args.seed)
    except (ValueError, OSError, ModuleNotFoundError) as exc:  # OSError: an sb3: or net: file
        args.parser.error(str(exc))
    # bytes in, so that no decoding error can end the session; answers are ASCII but for echoed input
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
    return gtp.serve(engine, sys.stdin.buffer, sys.stdout)


DESCRIPTION = """\
Run a GTP engine on stdin/stdout with the command set of Pentobi's pentobi-gtp (set_game,
clear_board, play, genmove, reg_genmove, g, undo, all_legal, final_score, showboard,
set_random_seed, cputime, loadsgf, savesgf, param, known_command, list_commands, name, version,
protocol_version, quit),
so that blokus can be matched against other GTP programs and driven from GUI tools. Games use
each colour's fixed starting square, as Pentobi does.
"""


def add_gtp_command(subparsers) -> argparse.ArgumentParser:
    """Adds ``gtp`` to an argparse subparsers object (``parser.add_subparsers()``)."""
    gp = subparsers.add_parser("gtp", help="run a GTP engine on stdin/stdout (Pentobi's command set)",
                               description=DESCRIPTION)
    gp.add_argument("--variant", choices=VARIANTS, default="classic",
                    help="variant at start; set_game changes it (default: classic)")
    gp.add_argument("--agent", default="mcts:sims=2000",
                    help="agent that answers genmove, e.g. greedy, mcts:seconds=1, level:5 or net:model.pt "
                         "(default: mcts:sims=2000)")
    gp.add_argument("--seed", type=argtypes.seed, default=None, help="seed of the agent (default: fresh entropy)")
    gp.set_defaults(func=cmd_gtp, parser=gp)
    return gp
