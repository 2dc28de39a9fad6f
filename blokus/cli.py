"""The ``blokus`` command line: one parser, a subcommand per module of :mod:`blokus.commands`."""
from __future__ import annotations

import argparse
import os
import sys

from blokus import __version__
from blokus.commands.gtp import add_gtp_command
from blokus.commands.random_games import add_random_command
from blokus.commands.review import add_review_command
from blokus.commands.selfplay import add_selfplay_command
from blokus.commands.solve import add_solve_command
from blokus.commands.tournament import add_tournament_command
from blokus.commands.train import add_train_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="blokus", description="An exact, fast Blokus engine.")
    parser.add_argument("--version", action="version", version=f"blokus {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (add_random_command, add_selfplay_command, add_tournament_command, add_train_command, add_gtp_command,
                add_solve_command, add_review_command):
        add(sub)
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
