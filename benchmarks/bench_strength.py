"""Playing strength: our ``blokus gtp`` against Pentobi's ``pentobi-gtp`` under Pentobi's own match
runner ``twogtp``, colours alternating by game.

    PYTHONPATH=. python benchmarks/bench_strength.py --levels 5,6 --games 20 --agent mcts:sims=5000

Per level it prints the games played, our score share with its 95% Wilson interval, and the CPU
seconds per move of each side (twogtp's per-game ``cputime`` differences divided by the moves each
side made, counted in the game records) and our mean final score margin (our points minus the
best other player's, replaying the game records with our rules): a finer reading of strength
than the score share when few games are played. Pentobi runs with ``--nobook`` (no opening book)
and ``--noresign``. Exits 2 when ``pentobi-gtp`` or ``twogtp`` is missing (``--pentobi DIR``,
default ``../shared/pentobi`` next to the checkout).

Who plays what, as twogtp arranges it (we are its program ``-b``, Pentobi ``-w``):

- ``duo``, ``classic_2``: two players; we are player ``game % 2`` (classic_2: blue and red, or
  yellow and green). The score share counts a win 1, a draw 1/2.
- ``classic``: four players; we play the one colour ``game % 4`` (blue, yellow, red, green),
  one Pentobi process the other three. Our score is our rank share among the four colours'
  points: a single winner 1, a single loser 0, rank r (from 0, the lowest) r/3, tied players the
  mean of their ranks (so 0, 1/6, 1/3, 1/2, 2/3, 5/6 or 1): a program as strong as Pentobi
  scores 50%.
- ``classic_3``: three players; we play the colour ``game % 3`` (blue, yellow or red), Pentobi
  the other two, and the shared green is moved by player (green pieces on the board) mod 3, so
  we play every third green move. Green's points count for no one; our score is our rank share
  among the three players' colours (rank r/2, ties averaged: 0, 1/4, 1/2, 3/4 or 1; 50% for an
  equal program).

The margin is our player's points minus the highest points of the other players (in Duo and
classic_2 simply ours minus Pentobi's; in classic and classic_3 positive only when we won alone).
Pentobi's CPU per move is its process's CPU over the moves of all the players it played.

Below each level's row, our score by seat: as player 1 (the first to move), 2, ...  In Duo the
first player wins most games between programs of this strength (benchmarks/LOG.md), so the
overall share moves with the second seat's games.

The engine launched is this checkout's: ``sys.executable -m blokus`` with this checkout first on
``PYTHONPATH``, so build it in place first (``python setup.py build_ext --inplace``).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from blokus.outcomes import wilson

ROOT = Path(__file__).resolve().parent.parent
# twogtp's and pentobi-gtp's -g names; our `blokus gtp --variant` takes the same, and twogtp's
# `set_game` (Blokus, Blokus Two-Player, Blokus Three-Player, Blokus Duo) is one of our SGF GM names.
VARIANTS = {"duo": "duo", "classic_2": "classic_2", "classic": "classic", "classic_3": "classic_3"}


def replay(sgf_file: Path, variant: str) -> dict[int, tuple[list[int], list[int]]]:
    """Game number -> ([moves made by each player], [final score of each player]), replaying
    twogtp's game records (``blokus.sgf.records``) with our rules; each move is credited to the
    player our rules say moves its colour (classic_3's green to the player whose turn it is in
    the rotation).

    Raises ValueError when a record's move is not by the colour to move, or is illegal."""
    from blokus import sgf
    from blokus.game import Game

    games = {}
    for record, root in sgf.records(sgf_file.read_text(encoding="utf-8")):
        game = Game(variant, start="fixed")
        per_player = [0] * game.num_players
        for _, move in record.history:
            per_player[game.player_to_move] += 1
            game.play(move)
        games[int(root["GN"][0])] = (per_player, [int(s) for s in game.player_scores()])
    return games


def play_level(args: argparse.Namespace, pentobi: Path, prefix: Path, level: int) -> None:
    """Plays the level's games under twogtp into ``prefix``.dat, .blksgf and .log."""
    for suffix in (".dat", ".blksgf", ".log"):
        prefix.with_suffix(suffix).unlink(missing_ok=True)
    ours = f"{sys.executable} -m blokus gtp --variant {args.variant} --agent {args.agent}"
    theirs = f"{pentobi / 'pentobi-gtp'} --nobook --noresign -l {level} -g {VARIANTS[args.variant]}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    with open(prefix.with_suffix(".log"), "w") as log:  # the engines' search reports
        subprocess.run([str(pentobi / "twogtp"), "-b", ours, "-w", theirs, "-g", VARIANTS[args.variant],
                        "-n", str(args.games), "-f", str(prefix), "--threads", str(args.threads), "--quiet"],
                       env=env, check=True, stdout=log, stderr=log)


def summarise(prefix: Path, variant: str, level: int) -> dict:
    """The figures of the games finished in ``prefix``.dat and .blksgf (a run may have been cut short)."""
    records = replay(prefix.with_suffix(".blksgf"), variant)
    games = score = cpu_ours = cpu_theirs = moves_ours = moves_theirs = margin = 0
    seats: dict[int, list[float]] = {}  # our player index -> [games, score, our points, the others' mean points]
    for line in prefix.with_suffix(".dat").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        number, result, _length, ours_player, cpu_b, cpu_w, _fast = line.split("\t")
        games += 1
        score += float(result)
        (moves, scores), ours = records[int(number)], int(ours_player)
        seat = seats.setdefault(ours, [0, 0.0, 0.0, 0.0])
        seat[0] += 1
        seat[1] += float(result)
        seat[2] += scores[ours]
        seat[3] += (sum(scores) - scores[ours]) / (len(scores) - 1)
        cpu_ours += float(cpu_b)
        cpu_theirs += float(cpu_w)
        moves_ours += moves[ours]
        moves_theirs += sum(moves) - moves[ours]
        margin += scores[ours] - max(points for player, points in enumerate(scores) if player != ours)
    return {"level": level, "games": games, "share": score / games, "interval": wilson(score, games),
            "margin": margin / games, "seats": {k: seats[k] for k in sorted(seats)},
            "cpu_ours": cpu_ours / max(moves_ours, 1), "cpu_theirs": cpu_theirs / max(moves_theirs, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="5,6", help="comma-separated Pentobi levels 1..9 (default: 5,6)")
    parser.add_argument("--games", type=int, default=20, help="games per level (default: 20)")
    parser.add_argument("--agent", default="mcts", help="our agent string (default: mcts)")
    parser.add_argument("--variant", choices=VARIANTS, default="duo", help="variant (default: duo)")
    parser.add_argument("--out", type=Path, help="directory for twogtp's .dat, .blksgf and .log files "
                                                 "(default: a fresh temporary directory)")
    parser.add_argument("--threads", type=int, default=1,
                        help="games twogtp plays at once (default: 1); our engine searches on the agent's "
                             "threads= (default: every core), so with more give the agent threads=1")
    parser.add_argument("--pentobi", type=Path, default=ROOT.parent / "shared" / "pentobi",
                        help="directory holding pentobi-gtp and twogtp (default: ../shared/pentobi)")
    parser.add_argument("--summary", action="store_true",
                        help="play nothing: print the figures of the games finished in --out (a run cut short)")
    args = parser.parse_args(argv)
    if args.summary and not args.out:
        parser.error("--summary reads the records in --out: give --out")
    missing = [tool for tool in ("pentobi-gtp", "twogtp") if not os.access(args.pentobi / tool, os.X_OK)]
    if missing and not args.summary:
        print(f"missing: {', '.join(missing)} in {args.pentobi} (build them with its build.sh)", file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="bench_strength_"))
    out.mkdir(parents=True, exist_ok=True)
    what = "the games in" if args.summary else f"{args.agent} against pentobi-gtp --nobook; records in"
    print(f"{args.variant}: {what} {out}")
    print(f"{'level':>5} {'games':>5} {'our score':>9} {'95% interval':>14} {'our CPU/move':>12} "
          f"{'Pentobi CPU/move':>16} {'ratio':>6} {'margin':>7}")
    for level in (int(text) for text in args.levels.split(",")):
        prefix = out / f"{args.variant}-level{level}"
        if not args.summary:
            play_level(args, args.pentobi, prefix, level)
        r = summarise(prefix, args.variant, level)
        low, high = r["interval"]
        print(f"{r['level']:>5} {r['games']:>5} {r['share']:>9.0%} {f'{low:.0%}-{high:.0%}':>14} "
              f"{r['cpu_ours']:>11.3f}s {r['cpu_theirs']:>15.3f}s {r['cpu_ours'] / r['cpu_theirs']:>6.1f} "
              f"{r['margin']:>+7.1f}")
        seats = r["seats"].items()
        print("      by seat: " + ", ".join(f"player {k + 1} {s / n:.0%} of {n}" for k, (n, s, _, _) in seats))
        print("      mean points by seat, ours / the others': " +
              ", ".join(f"{ours / n:+.1f} / {others / n:+.1f}" for _, (n, _, ours, others) in seats), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
