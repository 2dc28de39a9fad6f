"""``blokus review``: the engine's review of a recorded game (``blokus.analysis.review``)."""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from blokus import argtypes
from blokus._optional import installed

EPILOG = """\
files written (PREFIX: --out, default the record's path without .blksgf, plus .review):
  PREFIX.csv      one row per move: mover, move played, engine's best move, win probability and
                  expected score before and after, loss in win probability, label
  PREFIX.parquet  the same table
  PREFIX.png      the win-probability curve with the mistakes marked (when matplotlib is installed)
  PREFIX.blksgf   with --annotate: the game with the review in each move's comment (Pentobi shows it)

labels: best (the engine's choice, or a move the endgame solver proves as good), else by the
loss in the mover's win probability: good < 0.05 <= inaccuracy < 0.10 <= mistake < 0.20 <= blunder

examples:
  blokus review game.blksgf
  blokus review games.blksgf --game 3 --agent mcts:sims=5000 --seed 1 --annotate
"""


def add_review_command(subparsers) -> argparse.ArgumentParser:
    """Adds ``review`` to an argparse subparsers object (``parser.add_subparsers()``)."""
    parser = subparsers.add_parser(
        "review", help="review a recorded game: win probability and label of every move",
        description="Review every move of a Blokus SGF game record with the engine: the table (CSV, "
                    "Parquet), the win-probability curve (PNG) and, with --annotate, the record "
                    "with comments. The table is also printed.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", metavar="FILE.blksgf", help="the game record")
    parser.add_argument("--game", type=argtypes.count, default=1, metavar="N",
                        help="which game of the file, from 1 (default: 1)")
    parser.add_argument("--agent", default="mcts:sims=2000", help="MCTS agent string (default: mcts:sims=2000)")
    parser.add_argument("--seed", type=argtypes.seed, default=None, help="random seed (default: a fresh one)")
    parser.add_argument("--workers", type=argtypes.count, default=None, metavar="N",
                        help="positions searched at once (default: the cores over the agent's threads)")
    parser.add_argument("--out", metavar="PREFIX", help="where to write (default: FILE without .blksgf, plus .review)")
    parser.add_argument("--annotate", action="store_true", help="also write PREFIX.blksgf with a comment per move")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar on stderr (default: when stderr is a terminal)")
    parser.set_defaults(func=cmd_review)
    return parser


def _game(path: str, number: int):
    import blokus.sgf

    games = blokus.sgf.read(path)
    if not 1 <= number <= len(games):
        raise ValueError(f"--game {number}: {path} holds {len(games)} game{'s' * (len(games) != 1)}")
    return games[number - 1]


def _write_csv(path: Path, rows: list[dict], columns) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(rows)


def _write_parquet(path: Path, rows: list[dict], columns) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows, schema=None).select(list(columns)), path)


def _write_plot(path: Path, result) -> bool:
    if not installed("matplotlib"):  # the review's other files are written all the same
        return False
    import matplotlib

    matplotlib.use("Agg")
    ax = result.plot()
    ax.figure.tight_layout()
    ax.figure.savefig(path, dpi=120)
    return True


def cmd_review(args: argparse.Namespace) -> int:
    """Runs ``blokus review`` (see :func:`add_review_command`): 0 on success, 2 for a bad record
    or agent."""
    from blokus.analysis import review
    from blokus.analysis._review import COLUMNS

    err = sys.stderr
    try:
        game = _game(args.record, args.game)
        result = review(game, args.agent, seed=args.seed, workers=args.workers, progress=args.progress)
    except (OSError, ValueError) as exc:
        print(f"blokus review: error: {exc}", file=err)
        return 2
    print(result)
    prefix = Path(args.out) if args.out else Path(args.record).with_suffix("").with_name(
        Path(args.record).with_suffix("").name + ".review")
    written = [prefix.with_name(prefix.name + ".csv")]
    _write_csv(written[0], result.rows, COLUMNS)
    written.append(prefix.with_name(prefix.name + ".parquet"))
    _write_parquet(written[-1], result.rows, COLUMNS)
    if _write_plot(prefix.with_name(prefix.name + ".png"), result):
        written.append(prefix.with_name(prefix.name + ".png"))
    if args.annotate:
        written.append(prefix.with_name(prefix.name + ".blksgf"))
        written[-1].write_text(result.sgf() + "\n", encoding="utf-8")
    print(f"written: {', '.join(map(str, written))}", file=err)
    return 0
