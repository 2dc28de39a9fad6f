"""AEC environment steps per second against the bare Game loop.

    PYTHONPATH=. python3 benchmarks/bench_env.py [--seconds 3] [--variant duo]

A step is one placement with random legal actions. The env loop is PettingZoo's usual one
(`agent_iter`, `last`, `step`) through the wrapped env, so every step builds the observation
planes and the action mask. The bare loop is `legal_moves` -> pick -> `play` on a `Game`. Both
pick with Python's `random` from `game.legal_moves()`, so the ratio is the env's own cost.
Target: the env costs at most 3x the bare loop.
"""
import argparse
import random
import time

import blokus
import blokus.env

TARGET_RATIO = 3.0


def bare_steps(variant: str, seconds: float) -> float:
    rng = random.Random(1)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        game = blokus.Game(variant, start="fixed")
        while not game.is_over:
            moves = game.legal_moves()
            game.play(int(moves[rng.randrange(len(moves))]))
            steps += 1
    return steps / (time.perf_counter() - t0)


def env_steps(variant: str, seconds: float) -> float:
    rng = random.Random(1)
    env = blokus.env.env(variant)
    game_of = env.unwrapped
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.reset()
        for _ in env.agent_iter():
            _, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            moves = game_of.game.legal_moves()
            env.step(int(moves[rng.randrange(len(moves))]))
            steps += 1
    return steps / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--variant", choices=("classic", "duo"), help="only this variant")
    args = parser.parse_args()
    print(f"{'variant':<8} {'bare steps/s':>13} {'env steps/s':>12} {'env cost':>9}  target <= {TARGET_RATIO:.0f}x")
    for variant in [args.variant] if args.variant else ["classic", "duo"]:
        bare, env = bare_steps(variant, args.seconds), env_steps(variant, args.seconds)
        ratio = bare / env
        verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
        print(f"{variant:<8} {bare:>13,.0f} {env:>12,.0f} {ratio:>8.2f}x  {verdict}")


if __name__ == "__main__":
    main()
