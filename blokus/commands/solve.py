"""``blokus solve``: the solo puzzles on the command line."""
from __future__ import annotations

import argparse
import secrets
import sys
import time

from blokus import argtypes
from blokus.puzzles.all84 import All84
from blokus.puzzles.named import puzzle
from blokus.puzzles.packing import Packing
from blokus.puzzles.pieces import parse_pieces
from blokus.variants import START_RULES


def add_solve_command(subparsers) -> argparse.ArgumentParser:
    """Adds ``solve`` to an argparse subparsers object (``parser.add_subparsers()``), for the
    ``blokus`` command line: ``blokus solve 8x10``, ``blokus solve 15x16 --no-same-colour-edges``,
    ``blokus solve all84``, ``blokus solve 6x10 --pieces pentominoes --count``.

    The solution goes to stdout as text (and to ``--out FILE``: SVG if FILE ends in .svg, else
    text), progress to stderr. The command (``args.func(args)``) returns the exit status: 0
    solved or counted, 1 when nothing was found in the time, 2 for a bad puzzle.
    """
    parser = subparsers.add_parser(
        "solve", help="solve a solo puzzle: 8x10, 15x16, all84, or any rectangle",
        description="Solve a solo puzzle of the rule sheet in C: the packings 8x10 (the 20 tetrominoes) "
                    "and 15x16 (the 48 pentominoes), or All 84 (one player places all four colours' "
                    "pieces); or any rectangle with --pieces.")
    parser.add_argument("puzzle", help="8x10, 15x16, all84, or HEIGHTxWIDTH with --pieces")
    parser.add_argument("--no-same-colour-edges", dest="same_colour_edges", action="store_false",
                        help="packings: the harder option, no two pieces of one colour share an edge")
    parser.add_argument("--pieces", metavar="LIST",
                        help="packings: the pieces, e.g. pentominoes, tetrominoes:4 or I4:2,O:2 "
                             "(copies take the colours blue, yellow, red, green in turn)")
    parser.add_argument("--start", choices=START_RULES, default="any",
                        help="all84: first pieces on any free corner (rule sheet) or each colour's own "
                             "(default: any)")
    parser.add_argument("--seed", type=argtypes.seed, default=None, help="random seed (default: a fresh one)")
    parser.add_argument("--time-limit", type=argtypes.seconds, default=None, metavar="SECONDS",
                        help="give up after this long (default: search until solved)")
    parser.add_argument("--out", metavar="FILE", help="write the picture: SVG if FILE ends in .svg, else text")
    parser.add_argument("--count", action="store_true", help="packings: count the solutions instead")
    parser.add_argument("--limit", type=argtypes.count, default=None, help="with --count: stop at this many")
    parser.add_argument("--up-to-symmetry", action="store_true",
                        help="with --count: count rotations and reflections of a tiling once")
    parser.set_defaults(func=cmd_solve)
    return parser


def _reporter(stream):
    def report(info: dict) -> None:
        fields = ", ".join(f"{k} {v:,.1f}" if isinstance(v, float) else f"{k} {v:,}" for k, v in info.items())
        print(f"  ... {fields}", file=stream, flush=True)

    return report


def cmd_solve(args: argparse.Namespace) -> int:
    """Runs ``blokus solve`` (see :func:`add_solve_command`)."""
    err = sys.stderr
    try:
        if args.pieces:
            try:
                height, width = (int(x) for x in args.puzzle.lower().replace("×", "x").split("x"))
            except ValueError:
                raise ValueError(f"with --pieces the puzzle is HEIGHTxWIDTH, not {args.puzzle!r}") from None
            target: Packing | All84 = Packing((height, width), parse_pieces(args.pieces),
                                              same_colour_edges=args.same_colour_edges)
        else:
            target = puzzle(args.puzzle, same_colour_edges=args.same_colour_edges, start=args.start)
        if args.count and not isinstance(target, Packing):
            raise ValueError("--count is for packings")
    except ValueError as exc:
        print(f"blokus solve: error: {exc}", file=err)
        return 2
    seed = secrets.randbits(64) if args.seed is None else args.seed
    print(f"{target!r}" + ("" if args.count else f", seed {seed}"), file=err, flush=True)
    t0 = time.perf_counter()
    if args.count and isinstance(target, Packing):  # --count of another puzzle was refused above
        try:
            n = target.count_solutions(args.limit, up_to_symmetry=args.up_to_symmetry,
                                       time_limit=args.time_limit, progress=_reporter(err))
        except TimeoutError as exc:
            print(f"blokus solve: {exc}", file=err)
            return 1
        what = " up to symmetry" if args.up_to_symmetry else ""
        print(f"{n:,} solutions{what} ({time.perf_counter() - t0:.2f} s)")
        return 0
    solution = target.solve(seed=seed, time_limit=args.time_limit, progress=_reporter(err))
    elapsed = time.perf_counter() - t0
    if solution is None:
        print(f"no solution found in {elapsed:.2f} s", file=err)
        return 1
    verdict = target.check(solution)
    print(solution)
    print(f"solved in {elapsed:.2f} s (seed {seed}); check: {verdict}")
    if args.out:
        solution.save(args.out)
        print(f"picture written to {args.out}", file=err)
    return 0 if verdict else 1
