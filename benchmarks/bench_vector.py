"""Batched stepping: VectorGame steps per second against N single Games driven from Python.

    PYTHONPATH=. python3 benchmarks/bench_vector.py [--seconds 0.5] [--rounds 3] [--variant duo]

A step is one placement in one game with its legal mask, observation planes and scores kept
current. For Duo and classic, at N = 1, 64, 256, 1024 and 4096 games with 1 and 2 threads, it times
the random policy inside C (`step_policy("random")`) and actions given from Python
(`step(actions)`, each drawn in NumPy from `legal_ids()`), and, for comparison, the same work
through N `blokus.Game` objects from Python (legal_moves, pick, play, legal_mask, observation;
at most 64 of them, the rate does not depend on N). Each figure is the
best of several short rounds, because this machine's speed drifts. Targets: 1,000,000 Duo and
300,000 classic steps/s on 2 threads with masks and observations kept current.
"""
import argparse
import random

import numpy as np

import blokus

from timing import best_rate

TARGET = {"duo": 1_000_000, "classic": 300_000}
SIZES = (1, 64, 256, 1024, 4096)


def vector_policy(variant, n, threads, rounds, seconds):
    games = blokus.VectorGame(n, variant, num_threads=threads, seed=1)

    def run():
        games.step_policy("random")
        return n

    return best_rate(run, rounds, seconds)


def vector_actions(variant, n, threads, rounds, seconds):
    games = blokus.VectorGame(n, variant, num_threads=threads, seed=1)
    rng = np.random.default_rng(1)
    rows = np.arange(n)

    def run():
        ids = games.legal_ids()
        pick = (rng.random(n) * np.maximum(games.num_legal, 1)).astype(np.int64)
        games.step(ids[rows, pick] if ids.shape[1] else np.zeros(n, np.int32))
        return n

    return best_rate(run, rounds, seconds)


def single_games(variant, n, rounds, seconds):
    rng = random.Random(1)
    games = [blokus.Game(variant, start="fixed") for _ in range(n)]

    def run():
        for i, game in enumerate(games):
            if game.is_over:
                games[i] = game = blokus.Game(variant, start="fixed")
            moves = game.legal_moves()
            game.play(int(moves[rng.randrange(len(moves))]))
            game.legal_mask()
            if not game.is_over:
                game.observation()
        return n

    return best_rate(run, rounds, seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=0.5, help="time per round (default 0.5)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per figure, best kept (default 3)")
    parser.add_argument("--variant", choices=("duo", "classic"), help="only this variant")
    args = parser.parse_args()
    print(f"{'variant':<8} {'N':>5} {'threads':>7} {'C random steps/s':>17} {'Python actions':>15} "
          f"{'N Games':>10} {'C vs Games':>10}")
    for variant in [args.variant] if args.variant else ["duo", "classic"]:
        best = 0.0
        for n in SIZES:
            single = single_games(variant, min(n, 64), args.rounds, args.seconds)
            for threads in (1, 2):
                policy = vector_policy(variant, n, threads, args.rounds, args.seconds)
                actions = vector_actions(variant, n, threads, args.rounds, args.seconds)
                best = max(best, policy) if threads == 2 else best
                print(f"{variant:<8} {n:>5} {threads:>7} {policy:>17,.0f} {actions:>15,.0f} {single:>10,.0f} "
                      f"{policy / single:>9.1f}x")
        verdict = "ok" if best >= TARGET[variant] else "MISSED"
        print(f"{variant}: best on 2 threads {best:,.0f} steps/s, target {TARGET[variant]:,}: {verdict}")


if __name__ == "__main__":
    main()
