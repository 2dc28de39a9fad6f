"""AEC environment steps per second against the bare Game loop.

    PYTHONPATH=. python3 benchmarks/bench_env.py [--seconds 0.5] [--rounds 6] [--variant duo]

A step is one placement with random legal actions. The env loop is PettingZoo's usual one
(`agent_iter`, `last`, `step`) through the wrapped env (and, for comparison, raw_env), so every step builds the
observation planes and the action mask. The bare loop is `legal_moves` -> pick -> `play` on a `Game`. Both
pick with Python's `random` from `game.legal_moves()`, so the ratio is the env's own cost.
Target: the env costs at most 3x the bare loop. This machine's speed drifts from second to
second, so the two loops run alternately in short rounds and each keeps its best round.
"""
import argparse
import random

import blokus
import blokus.env

from timing import rate

TARGET_RATIO = 3.0


def bare_steps(variant: str, seconds: float) -> float:
    rng = random.Random(1)

    def one_game():
        game, steps = blokus.Game(variant, start="fixed"), 0
        while not game.is_over:
            moves = game.legal_moves()
            game.play(int(moves[rng.randrange(len(moves))]))
            steps += 1
        return steps

    return rate(one_game, seconds)


def env_steps(variant: str, seconds: float, wrapped: bool = True) -> float:
    rng = random.Random(1)
    env = blokus.env.env(variant) if wrapped else blokus.env.raw_env(variant)
    game_of = env.unwrapped

    def one_game():
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            _, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            moves = game_of.game.legal_moves()
            env.step(int(moves[rng.randrange(len(moves))]))
            steps += 1
        return steps

    return rate(one_game, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=0.5, help="time per round (default 0.5)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds per loop (default 6)")
    parser.add_argument("--variant", choices=("classic", "duo"), help="only this variant")
    args = parser.parse_args()
    print(f"{'variant':<8} {'bare steps/s':>13} {'env steps/s':>12} {'env cost':>9} {'raw_env steps/s':>16} "
          f"{'raw cost':>9}  target <= {TARGET_RATIO:.0f}x")
    for variant in [args.variant] if args.variant else ["classic", "duo"]:
        bare = env = raw = 0.0
        for _ in range(args.rounds):
            bare = max(bare, bare_steps(variant, args.seconds))
            env = max(env, env_steps(variant, args.seconds))
            raw = max(raw, env_steps(variant, args.seconds, wrapped=False))
        verdict = "ok" if bare / env <= TARGET_RATIO else "MISSED"
        print(f"{variant:<8} {bare:>13,.0f} {env:>12,.0f} {bare / env:>8.2f}x {raw:>16,.0f} {bare / raw:>8.2f}x  "
              f"{verdict}")
    print("env: blokus.env.env (PettingZoo's three standard wrappers); raw_env: without them")


if __name__ == "__main__":
    main()
