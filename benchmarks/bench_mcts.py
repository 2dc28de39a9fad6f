"""The search's memory and speed beside Pentobi's, in one run:

    PYTHONPATH=. python benchmarks/bench_mcts.py
    PYTHONPATH=. python benchmarks/bench_mcts.py --simulations 1100000 --level 8 --speed-level 7

Memory: one search of ``--simulations`` simulations (default 1,100,000, Pentobi level 8's
budget) from the Duo opening, one thread, in a process of its own, against one ``genmove`` of
``pentobi-gtp --nobook -l LEVEL -g duo`` from the same position; each process's peak resident
set (``os.wait4``'s ``ru_maxrss``), the bytes our tree holds (``_core.mcts_tree_memory``, and
how often it was pruned to stay within its budget) and our resident-set growth over the
search, both per simulation. Pentobi's simulations are read from its search report (it stops a
search once its move cannot change, so it may run fewer than its level's budget).

Speed: simulations per CPU second after 2, 10 and 20 plies (``--plies``) of the first Duo game
of ``oracle_games.txt`` (of its first classic game with ``--speed-variant classic``): Pentobi's
for one ``genmove`` at ``--speed-level`` (its CPU time from GTP ``cputime`` before and after,
its simulations from its report), ours for a search of as many simulations from the same
position (``time.process_time`` around ``_core.mcts``), so that both trees are of the same size.
Each position is timed in ``--repeats`` rounds (default 3), one of each side in turn: a round's
ratio is ours over Pentobi's in that round (a search lasts well under a second, and Pentobi's
simulations vary from run to run), and the table gives the median round and the range of the
ratios.

Pentobi is looked for in ``--pentobi`` (default ``../shared/pentobi`` beside the checkout);
without it only our columns are printed. ``--max-nodes`` passes ``max_nodes`` to our search
(default: the engine's); a build before the memory-bounded tree needs ``--max-nodes
4294967295`` to search uncapped.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path(__file__).resolve().parent / "oracle_games.txt"

# Run in a process of its own, so that its peak RSS is the search's.
_OUR_SEARCH = """
import json, resource, sys, time
from blokus import _core
from blokus.game import Game
simulations, max_nodes = int(sys.argv[1]), int(sys.argv[2])
options = {"max_nodes": max_nodes} if max_nodes else {}
game, tree = Game("duo", start="fixed"), _core.mcts_tree()
_core.mcts(game, simulations=1, threads=1, seed=1, **options)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
cpu = time.process_time()
_core.mcts(game, simulations=simulations, threads=1, seed=1, tree=tree, **options)
cpu = time.process_time() - cpu
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
tree_bytes, prunings = _core.mcts_tree_memory(tree) if hasattr(_core, "mcts_tree_memory") else (None, None)
print(json.dumps({"cpu": cpu, "growth": after - before, "tree": tree_bytes, "prunings": prunings}))
"""


def wait_rss(process: subprocess.Popen) -> int:
    """Waits for the process; its peak resident set in bytes (Linux reports KiB)."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss * 1024


def game_moves(variant: str = "duo") -> list[tuple[int, str]]:
    """The moves of the file's first game of `variant`: (colour, cells), the cells Pentobi's move
    text too."""
    for line in GAMES.read_text().splitlines():
        if line.startswith(variant + "|"):
            return [(int(move[0]), move[2:]) for move in line.split("|", 1)[1].split(";")]
    raise SystemExit(f"{GAMES}: no {variant} game")


def gtp_colour(variant: str, colour: int) -> str:
    """Pentobi's GTP name of `colour`: b and w in Duo, 1 to 4 on the 20x20 board."""
    return "bw"[colour] if variant == "duo" else str(colour + 1)


def pentobi_genmove(binary: Path, level: int, moves: list[tuple[int, str]],
                    variant: str = "duo") -> tuple[float, int, int]:
    """One ``genmove`` of a fresh pentobi-gtp after `moves`: (its CPU seconds by GTP ``cputime``
    before and after, the simulations its search report gives, its peak resident set in bytes)."""
    with tempfile.TemporaryFile("w+") as report:
        process = subprocess.Popen([str(binary), "--nobook", "--noresign", "-l", str(level), "-g", variant],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=report, text=True)

        def send(command: str) -> str:
            process.stdin.write(command + "\n")
            process.stdin.flush()
            lines = []
            while (line := process.stdout.readline()) not in ("\n", ""):
                lines.append(line.strip())
            answer = " ".join(lines)
            if not answer.startswith("="):
                raise SystemExit(f"pentobi-gtp: {command!r} -> {answer!r}")
            return answer[1:].strip()

        for colour, cells in moves:
            send(f"play {gtp_colour(variant, colour)} {cells}")
        before = float(send("cputime"))
        send(f"genmove {gtp_colour(variant, game_after(moves, variant).to_move)}")
        cpu = float(send("cputime")) - before
        send("quit")
        process.stdin.close()
        rss = wait_rss(process)
        report.seek(0)
        simulations = [int(n) for n in re.findall(r"\bSim (\d+)", report.read())]
    return cpu, simulations[-1], rss


def our_memory(simulations: int, max_nodes: int) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    process = subprocess.Popen([sys.executable, "-c", _OUR_SEARCH, str(simulations), str(max_nodes)],
                               stdout=subprocess.PIPE, text=True, env=env)
    out = process.stdout.read()
    rss = wait_rss(process)
    if process.returncode:
        raise SystemExit(f"our search failed ({process.returncode})")
    return dict(json.loads(out), rss=rss)


def game_after(moves: list[tuple[int, str]], variant: str = "duo"):
    """The game of `variant` (fixed starts, Pentobi's rule) after `moves`."""
    from blokus.game import Game

    game = Game(variant, start="fixed")
    for _, cells in moves:
        game.play(cells)
    return game


def our_speed(moves: list[tuple[int, str]], simulations: int, max_nodes: int, variant: str = "duo") -> float:
    from blokus import _core

    game = game_after(moves, variant)
    options = {"max_nodes": max_nodes} if max_nodes else {}
    cpu = time.process_time()
    _core.mcts(game, simulations=simulations, threads=1, seed=1, **options)
    return simulations / (time.process_time() - cpu)


def mib(x: float) -> str:
    return f"{x / 2**20:,.0f} MiB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=1_100_000,
                        help="simulations of the memory search (default: 1100000)")
    parser.add_argument("--level", type=int, default=8, help="Pentobi's level for memory (default: 8)")
    parser.add_argument("--speed-level", type=int, default=7, help="Pentobi's level for speed (default: 7)")
    parser.add_argument("--speed-simulations", type=int, default=100_000,
                        help="our simulations per speed position without Pentobi (default: 100000)")
    parser.add_argument("--plies", default="2,10,20", help="plies of the speed positions (default: 2,10,20)")
    parser.add_argument("--speed-variant", choices=("duo", "classic"), default="duo",
                        help="the game of the speed positions (default: duo)")
    parser.add_argument("--repeats", type=int, default=3, help="rounds per speed position (default: 3)")
    parser.add_argument("--max-nodes", type=int, default=0, help="our max_nodes (default: the engine's)")
    parser.add_argument("--pentobi", type=Path, default=ROOT.parent / "shared" / "pentobi",
                        help="directory holding pentobi-gtp (default: ../shared/pentobi)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    binary = args.pentobi / "pentobi-gtp"
    has_pentobi = os.access(binary, os.X_OK)
    if not has_pentobi:
        print(f"no {binary}: our figures only", file=sys.stderr)

    import blokus  # noqa: F401  (long before any timing: numpy's BLAS threads spin a while once it starts them)

    ours = our_memory(args.simulations, args.max_nodes)
    print(f"memory, Duo opening, one thread (ours: {ours['cpu']:.1f} CPU s):")
    print(f"{'':>10} {'simulations':>12} {'peak RSS':>10} {'RSS growth/sim':>15} {'tree/sim':>9} {'prunings':>8}")
    tree = f"{ours['tree'] / args.simulations:,.0f} B" if ours["tree"] is not None else "-"
    prunings = ours["prunings"] if ours["prunings"] is not None else "-"
    print(f"{'ours':>10} {args.simulations:>12,} {mib(ours['rss']):>10} "
          f"{ours['growth'] / args.simulations:>13,.0f} B {tree:>9} {prunings:>8}", flush=True)
    if has_pentobi:
        cpu, sims, rss = pentobi_genmove(binary, args.level, [])
        print(f"{f'Pentobi {args.level}':>10} {sims:>12,} {mib(rss):>10} {'-':>15} {'-':>9} {'-':>8}"
              f"   ({cpu:.1f} CPU s)", flush=True)

    variant = args.speed_variant
    moves = game_moves(variant)
    print(f"\nspeed, simulations per CPU second after PLIES plies of {GAMES.name}'s first {variant} game, one thread"
          + (f" (Pentobi level {args.speed_level}; ours as many simulations):" if has_pentobi else ":"))
    print(f"{'plies':>5} {'simulations':>12} {'ours':>10} {'Pentobi':>10} {'ratio':>6} {'ratios':>11}")
    for plies in (int(p) for p in args.plies.split(",")):
        rounds = []  # (ratio or None, simulations, ours, Pentobi's or None)
        for _ in range(args.repeats):
            simulations, theirs = args.speed_simulations, None
            if has_pentobi:
                cpu, simulations, _ = pentobi_genmove(binary, args.speed_level, moves[:plies], variant)
                theirs = simulations / cpu
            rate = our_speed(moves[:plies], simulations, args.max_nodes, variant)
            rounds.append((rate / theirs if theirs else None, simulations, rate, theirs))
        rounds.sort(key=lambda r: r[0] if r[0] is not None else r[2])
        ratio, simulations, rate, theirs = rounds[len(rounds) // 2]
        spread = f"{rounds[0][0]:.2f}-{rounds[-1][0]:.2f}" if theirs else "-"
        print(f"{plies:>5} {simulations:>12,} {rate:>10,.0f} {f'{theirs:,.0f}' if theirs else '-':>10} "
              f"{f'{ratio:.2f}' if theirs else '-':>6} {spread:>11}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
