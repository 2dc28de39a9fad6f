"""Where a 4-colour match against Pentobi is won or lost: from the game records of
``bench_strength.py --variant classic`` runs, each colour's rank share, and its points and legal
placements at checkpoints of the game as its value minus the mean of the other three colours',
for our colour by seat beside Pentobi's colour in that seat in the games where we held another.

    PYTHONPATH=. python3 benchmarks/seat_phases.py RUN_DIR [RUN_DIR ...] [--plies 16,32,40,48,56,64,72]

Each RUN_DIR is a ``bench_strength.py --out`` directory holding ``classic-level*.blksgf``; twogtp
gives our program the colour ``game number % 4``. Points are a colour's score so far (minus the
squares still in hand, docs/rules.md "Scoring"); legal placements are counted for every colour
at the checkpoint, 0 once it is out. The last row is the final score. The rank share is twogtp's
(``blokus.outcomes.places``: 1 first, 0 last, ties sharing). Pentobi's colour in a seat
plays beside two Pentobi colours and ours, so its rows are a yardstick, not Pentobi against
itself.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

import blokus.sgf
from blokus.game import Game
from blokus.outcomes import places

COLOURS = 4


def profile(record: Game, plies: list[int]) -> np.ndarray:
    """Per checkpoint (then the end) and colour: [points, legal placements], each minus the mean
    of the other colours'; shape (len(plies) + 1, COLOURS, 2), float64."""
    game, rows = Game("classic", start=record.start), []
    history = [move for _, move in record.history]
    for ply in plies + [len(history)]:
        while len(game.history) < min(ply, len(history)):
            game.play(history[len(game.history)])
        points = np.array(game.scores(), float)
        moves = np.array([len(game.legal_moves(c)) for c in range(COLOURS)], float)
        both = np.stack([points, moves], axis=1)
        rows.append(both - (both.sum(axis=0) - both) / (COLOURS - 1))
    return np.array(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="bench_strength.py --out directories (classic)")
    parser.add_argument("--plies", default="16,32,40,48,56,64,72", help="checkpoints (default: 16,32,...,72)")
    args = parser.parse_args(argv)
    plies = [int(text) for text in args.plies.split(",")]
    # ours (True) or Pentobi's (False) -> seat -> per game: (rows of profile, final rank share)
    games: dict[bool, dict[int, list[tuple[np.ndarray, float]]]] = {
        mine: {seat: [] for seat in range(COLOURS)} for mine in (True, False)}
    for run in args.runs:
        for path in sorted(run.glob("classic-level*.blksgf")):
            for record, root in blokus.sgf.records(path.read_text()):
                rows, seat = profile(record, plies), int(root["GN"][0]) % COLOURS
                share = places(np.array([record.scores()]), "classic")[0]
                for colour in range(COLOURS):
                    games[colour == seat][colour].append((rows[:, colour], float(share[colour])))
    if not games[True][0] and not games[False][0]:
        print("no classic-level*.blksgf records in the directories given", file=sys.stderr)
        return 2
    labels = [str(ply) for ply in plies] + ["end"]
    print("each colour's value minus the mean of the other three: points, legal placements")
    for seat in range(COLOURS):
        a, b = (np.array([rows for rows, _ in games[mine][seat]]) for mine in (True, False))
        share_a, share_b = (np.mean([share for _, share in games[mine][seat]]) for mine in (True, False))
        print(f"player {seat + 1}: ours over {len(a)} games, Pentobi's colour in that seat over {len(b)}; "
              f"rank share {share_a:.1%} / {share_b:.1%}")
        print(f"  {'ply':>5} {'points ours':>12} {'Pentobi':>8} {'placements ours':>16} {'Pentobi':>8}")
        for k, label in enumerate(labels):
            placements = "" if label == "end" else f" {a[:, k, 1].mean():>+16.1f} {b[:, k, 1].mean():>+8.1f}"
            print(f"  {label:>5} {a[:, k, 0].mean():>+12.1f} {b[:, k, 0].mean():>+8.1f}{placements}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
