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
itself. Last, for the colours moving 1, 2 and 3 turns after ours, the rank share each got
minus what that colour got as Pentobi's over all the games given: whom our play helps and whom
it hurts.
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
    # by our seat, per game: the profile's rows (checkpoints, colours, 2) and every colour's rank share
    rows: dict[int, list[np.ndarray]] = {seat: [] for seat in range(COLOURS)}
    shares: dict[int, list[np.ndarray]] = {seat: [] for seat in range(COLOURS)}
    for run in args.runs:
        for path in sorted(run.glob("classic-level*.blksgf")):
            for record, root in blokus.sgf.records(path.read_text()):
                seat = int(root["GN"][0]) % COLOURS
                rows[seat].append(profile(record, plies))
                shares[seat].append(places(np.array([record.scores()]), "classic")[0])
    if not any(rows.values()):
        print("no classic-level*.blksgf records in the directories given", file=sys.stderr)
        return 2
    by_seat = {seat: (np.array(rows[seat]), np.array(shares[seat])) for seat in range(COLOURS) if rows[seat]}

    def theirs(colour: int) -> tuple[np.ndarray, np.ndarray]:
        """Pentobi's colour `colour`: its rows and rank shares over the games where we held another."""
        held = [s for s in by_seat if s != colour]
        return (np.concatenate([by_seat[s][0][:, :, colour] for s in held]),
                np.concatenate([by_seat[s][1][:, colour] for s in held]))

    labels = [str(ply) for ply in plies] + ["end"]
    print("each colour's value minus the mean of the other three: points, legal placements")
    for seat, (ours_rows, ours_shares) in by_seat.items():
        a, share_a = ours_rows[:, :, seat], ours_shares[:, seat]
        b, share_b = theirs(seat)
        print(f"player {seat + 1}: ours over {len(a)} games, Pentobi's colour in that seat over {len(b)}; "
              f"rank share {share_a.mean():.1%} / {share_b.mean():.1%}")
        print(f"  {'ply':>5} {'points ours':>12} {'Pentobi':>8} {'placements ours':>16} {'Pentobi':>8}")
        for k, label in enumerate(labels):
            placements = "" if label == "end" else f" {a[:, k, 1].mean():>+16.1f} {b[:, k, 1].mean():>+8.1f}"
            print(f"  {label:>5} {a[:, k, 0].mean():>+12.1f} {b[:, k, 0].mean():>+8.1f}{placements}")
    print("the rank share of the colour moving k turns after ours, minus its share as Pentobi's colour "
          "in all these games (by our seat):")
    for k in range(1, COLOURS):
        gains = {seat: by_seat[seat][1][:, (seat + k) % COLOURS].mean() - theirs((seat + k) % COLOURS)[1].mean()
                 for seat in by_seat}
        print(f"  k = {k}: {np.mean(list(gains.values())):+.1%} "
              f"({', '.join(f'player {seat + 1} {gain:+.1%}' for seat, gain in gains.items())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
