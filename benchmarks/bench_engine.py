"""Engine throughput, start rule "fixed", one thread:

(a) uniform-random full games per second played inside C by
    blokus.random_playouts (no Python per move);
(b) plies per second of a Python loop driving a Game:
    moves = game.legal_moves(); game.play(moves[random index]).

    PYTHONPATH=. python3 benchmarks/bench_engine.py [--seconds S] [--rounds R] [--variant V]

This machine's speed drifts from second to second, so each figure is the best of R rounds.
"""
import argparse
import random

import blokus

from timing import rate, timed

VARIANTS = ("classic", "duo")
PLAYOUT_TARGET = {"classic": 10_000, "duo": 40_000}  # games/s
PLY_TARGET = 150_000  # plies/s, the Python loop


def playouts_per_second(variant, seconds):
    """Games/s of blokus.random_playouts over about `seconds`."""
    blokus.random_playouts(variant, 50, 0, start="fixed")  # warm caches, page in tables
    # Calibrate on a short batch, then time a single call long enough that
    # the call's fixed cost (argument parsing, the result array) is nothing.
    n = 200
    _, elapsed = timed(lambda: blokus.random_playouts(variant, n, 1, start="fixed"))
    n = max(n, int(n / elapsed * seconds))
    scores, elapsed = timed(lambda: blokus.random_playouts(variant, n, 2, start="fixed"))
    assert scores.shape[0] == n
    return n / elapsed


def python_plies_per_second(variant, seconds):
    """Plies/s of the Python legal_moves/play loop, new Game each game, for about `seconds`."""
    rng = random.Random(12345)

    def one_game():
        game, plies = blokus.Game(variant, start="fixed"), 0
        while not game.is_over:
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
            plies += 1
        return plies

    return rate(one_game, seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per round (default 1)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per measurement, best kept (default 4)")
    parser.add_argument("--variant", choices=VARIANTS, help="only this variant")
    args = parser.parse_args()

    rows = []
    for variant in VARIANTS:
        if args.variant and variant != args.variant:
            continue
        best = max(playouts_per_second(variant, args.seconds) for _ in range(args.rounds))
        rows.append((variant, "C random playouts", best, "games/s", PLAYOUT_TARGET[variant]))
        best = max(python_plies_per_second(variant, args.seconds) for _ in range(args.rounds))
        rows.append((variant, "Python legal_moves+play", best, "plies/s", PLY_TARGET))

    print(f'start="fixed", one thread, best of {args.rounds} rounds of about {args.seconds:g} s')
    print(f"{'variant':<8} {'measurement':<24} {'rate':>16} {'target':>20} {'ratio':>6}")
    for variant, what, figure, unit, target in rows:
        print(f"{variant:<8} {what:<24} {f'{figure:,.0f} {unit}':>16} {f'>= {target:,} {unit}':>20}"
              f" {figure / target:>5.2f}x")
    print("Pentobi: not measured (its playouts are not uniform random: no like-for-like figure)")


if __name__ == "__main__":
    main()
