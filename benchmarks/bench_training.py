"""Training: MaskablePPO with blokus.nn on Duo, and SB3 stepping speed on blokus.sb3.VecEnv.

    PYTHONPATH=. python3 benchmarks/bench_training.py                      # all parts
    PYTHONPATH=. python3 benchmarks/bench_training.py --part speed         # steps/s only
    PYTHONPATH=. python3 benchmarks/bench_training.py --part train --checkpoints 20000

Needs ``pip install -e ".[train]"`` (a CPU build of torch will do). Torch runs on one thread
(``--torch-threads``), the training games on one C thread (``--threads``): 2 CPU cores in all.

``train``: one MaskablePPO run with ``blokus.nn.MaskablePlacementPolicy`` and
``blokus.nn.ppo_settings`` (an update every 1,024 moves; ``--update``, ``--lr``, ... override them) on
``blokus.sb3.VecEnv(16, "duo")``, the learner in both seats; up to the first checkpoint against
``random``, then against ``greedy`` (``--opponents``). At each checkpoint (learner moves trained
on) the model, choosing its most likely legal move, plays ``--eval-games`` games against
``random`` and against ``greedy``, seats alternating; a draw counts half. Targets: >= 95% against
random after 20,000 steps, >= 60% against greedy after 100,000. The 95% interval is Wilson's.

``speed``: SB3 steps per second (learner moves, each with the opponents' replies and the legal
masks SB3 asks for) on ``blokus.sb3.VecEnv`` (on 1 and 2 C threads, ``--speed-threads``) against
a ``DummyVecEnv`` of single ``blokus/Duo-v0`` envs, all with N = 64 games (``--speed-envs``)
against ``random`` (``--speed-opponent``; with ``greedy`` its move choice in C takes much of the
time on both sides): first uniformly random legal actions through the VecEnv API alone (the
masks and the steps; choosing the actions is not timed), then ``MaskablePPO.learn`` end to end
(network included). Target: >= 5x. Each rate is the best of ``--rounds`` rounds, the rounds of
the envs run in turn in the same run.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from blokus.outcomes import wilson

from timing import Stopwatch, timed


def make_model(env, seed, channels=32, blocks=2, **overrides):
    """MaskablePPO with blokus.nn's policy and settings (``blokus.nn.ppo_settings``), any of them
    overridden by keyword."""
    from sb3_contrib import MaskablePPO

    import blokus.nn

    settings = {**blokus.nn.ppo_settings(env.num_envs), **overrides}
    return MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, seed=seed, device="cpu", verbose=0,
                       policy_kwargs={"channels": channels, "blocks": blocks}, **settings)


def evaluate(model, opponent: str, games: int, threads: int, seed: int) -> float:
    """Win rate (draw = 1/2) of the model's most likely legal move, one episode per game."""
    import blokus.sb3

    env = blokus.sb3.VecEnv(games, "duo", opponent=opponent, seat=[g % 2 for g in range(games)],
                            num_threads=threads, seed=seed)
    obs = env.reset()
    result = np.full(games, np.nan)
    while np.isnan(result).any():
        actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, rewards, dones, _ = env.step(actions)
        first = dones & np.isnan(result)
        result[first] = rewards[first]
    return float(((result > 0) + 0.5 * (result == 0)).mean())


def training_env(opponents: list[str], threads: int, seed: int):
    """16 games, the learner in both seats, the opponents shared out among them."""
    from stable_baselines3.common.vec_env import VecMonitor

    import blokus.sb3

    n = 16
    return VecMonitor(blokus.sb3.VecEnv(n, "duo", opponent=[opponents[i % len(opponents)] for i in range(n)],
                                        seat=[(i // len(opponents)) % 2 for i in range(n)], num_threads=threads,
                                        seed=seed))


def train(args) -> None:
    phases = [group.split(",") for group in args.opponents.split(";")]
    checkpoints = sorted(int(c) for c in args.checkpoints.split(","))
    overrides = {key: value for key, value in (("batch_size", args.batch_size), ("n_epochs", args.epochs),
                                               ("learning_rate", args.lr), ("ent_coef", args.ent_coef),
                                               ("gae_lambda", args.gae_lambda), ("clip_range", args.clip_range),
                                               ("target_kl", args.target_kl),
                                               ("n_steps", args.update and max(1, args.update // 16)))
                 if value is not None}
    model = make_model(training_env(phases[0], args.threads, args.seed), args.seed, args.channels, args.blocks,
                       **overrides)
    print(f"MaskablePPO + blokus.nn.MaskablePlacementPolicy ({sum(p.numel() for p in model.policy.parameters()):,}"
          f" parameters, {args.channels} channels, {args.blocks} blocks) on 16 games of blokus.sb3.VecEnv, "
          f"an update every {16 * model.n_steps} moves, minibatches of {model.batch_size}, {model.n_epochs} "
          f"epochs, learning rate {model.learning_rate}, entropy coefficient {model.ent_coef}, GAE lambda "
          f"{model.gae_lambda}, clip range {model.clip_range(1):g}, target KL {model.target_kl}; "
          f"{args.eval_games} evaluation games per opponent")
    print(f"{'steps':>8} {'seconds':>8} {'trained against':>16} {'vs random':>10} {'95% interval':>14} "
          f"{'vs greedy':>10} {'95% interval':>14}")
    clock, done = Stopwatch().start(), 0
    for k, checkpoint in enumerate(checkpoints):
        opponents = phases[min(k, len(phases) - 1)]
        if k and opponents != phases[min(k - 1, len(phases) - 1)]:
            model.set_env(training_env(opponents, args.threads, args.seed + k))
        model.learn(checkpoint - done, reset_num_timesteps=False)
        done = model.num_timesteps
        seconds = clock.seconds
        cells = []
        for j, opponent in enumerate(("random", "greedy")):
            rate = evaluate(model, opponent, args.eval_games, args.threads, seed=10_000 + j)
            low, high = wilson(rate * args.eval_games, args.eval_games)
            cells.append(f"{rate:>10.1%} {f'[{low:.0%}, {high:.0%}]':>14}")
        print(f"{done:>8} {seconds:>8.0f} {'+'.join(opponents):>16} {' '.join(cells)}", flush=True)
    print("targets: >= 95% against random after 20,000 steps; >= 60% against greedy after 100,000")


def api_steps(env, steps: int, rng) -> tuple[int, float, float, float]:
    """Uniformly random legal actions through the SB3 VecEnv API: (learner moves, wall-clock
    seconds in the API calls, that is ``get_action_masks`` and ``step``, the part of them in
    ``get_action_masks``, and the process's CPU seconds in the API calls, all its threads';
    choosing the actions is not timed)."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    env.reset()
    mask_clock, step_clock, cpu = Stopwatch(), Stopwatch(), Stopwatch(time.process_time)
    for _ in range(steps // env.num_envs):
        with mask_clock, cpu:
            masks = get_action_masks(env)  # what MaskablePPO asks for at every step
        # row by row: a cumulative sum over the whole (N, A) mask would write 8 bytes per id and
        # push the env's arrays out of the caches, a cost of this loop, not of the env
        actions = np.array([legal[rng.integers(len(legal))] for legal in map(np.flatnonzero, masks)])
        with step_clock, cpu:
            env.step(actions)
    return (steps // env.num_envs * env.num_envs, mask_clock.seconds + step_clock.seconds, mask_clock.seconds,
            cpu.seconds)


def learn(model, steps: int) -> int:
    """``model.learn`` for about ``steps`` more learner moves; how many it made."""
    before = model.num_timesteps
    model.learn(steps, reset_num_timesteps=False)
    return model.num_timesteps - before


def speed(args) -> None:
    import gymnasium
    from stable_baselines3.common.vec_env import DummyVecEnv

    import blokus.sb3

    n, opponent = args.speed_envs, args.speed_opponent
    dummy = "DummyVecEnv of blokus/Duo-v0"
    envs = {dummy: lambda: DummyVecEnv([lambda: gymnasium.make("blokus/Duo-v0", opponent=opponent)] * n)}
    for threads in (int(t) for t in args.speed_threads.split(",")):
        envs[f"blokus.sb3.VecEnv, {threads} thread{'s' * (threads > 1)}"] = (
            lambda threads=threads: blokus.sb3.VecEnv(n, "duo", opponent=opponent, num_threads=threads, seed=1))
    print(f"SB3 steps per second (learner moves), {n} Duo games against {opponent}, best of {args.rounds} rounds")
    # the rounds of every env alternate, so that a drift of the machine's speed hits them alike
    runners = {}
    for name, make in envs.items():
        env, rng = make(), np.random.default_rng(1)
        runners[("api", name)] = lambda env=env, rng=rng: api_steps(env, args.speed_steps, rng)
        if args.learn_steps:
            model = make_model(make(), seed=1)
            runners[("learn", name)] = lambda model=model: timed(lambda: learn(model, args.learn_steps))
    rates, mask_share, cpu_rates = dict.fromkeys(runners, 0.0), {}, {}
    for _ in range(args.rounds):
        for key, run in runners.items():
            steps, seconds, *api = run()
            if steps / seconds > rates[key]:
                rates[key] = steps / seconds
                mask_share[key] = api[0] / seconds if api else None
            if api:
                cpu_rates[key] = max(cpu_rates.get(key, 0.0), steps / api[1])
    for part, label in (("api", "random legal actions, VecEnv API"), ("learn", "MaskablePPO.learn, end to end")):
        if (part, dummy) not in rates:
            continue
        print(f"  {label}:")
        for name in envs:
            key = (part, name)
            ratio = "" if name == dummy else f" {rates[key] / rates[(part, dummy)]:5.1f}x"
            line = f"    {name:<32} {rates[key]:>10,.0f}/s{ratio:>7}"
            if part == "api":  # per CPU second: what a loaded machine's descheduling leaves alone
                ratio = "" if name == dummy else f" {cpu_rates[key] / cpu_rates[(part, dummy)]:5.1f}x"
                line += (f"   {cpu_rates[key]:>10,.0f}/CPU s{ratio:>7}   ({mask_share[key]:.0%} of the time in "
                         "get_action_masks)")
            print(line)
    print("  target: >= 5x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("all", "train", "speed"), default="all")
    parser.add_argument("--checkpoints", default="20000,100000", help="learner moves at which to evaluate")
    parser.add_argument("--opponents", default="random;greedy",
                        help="training opponents up to each checkpoint, ';' between checkpoints (the last "
                             "group goes on), ',' between opponents shared among the 16 games")
    parser.add_argument("--eval-games", type=int, default=200)
    # the training's options default to blokus.nn.ppo_settings
    parser.add_argument("--update", type=int, help="learner moves per update (16 games x n_steps)")
    parser.add_argument("--batch-size", type=int, help="MaskablePPO's minibatch")
    parser.add_argument("--epochs", type=int, help="MaskablePPO's epochs per update")
    parser.add_argument("--lr", type=float, help="MaskablePPO's learning rate")
    parser.add_argument("--ent-coef", type=float, help="MaskablePPO's entropy coefficient")
    parser.add_argument("--gae-lambda", type=float, help="MaskablePPO's GAE lambda")
    parser.add_argument("--clip-range", type=float, help="MaskablePPO's clip range")
    parser.add_argument("--target-kl", type=float, help="MaskablePPO's target KL (stops an update's epochs early)")
    parser.add_argument("--channels", type=int, default=32, help="blokus.nn trunk channels")
    parser.add_argument("--blocks", type=int, default=2, help="blokus.nn trunk residual blocks")
    parser.add_argument("--speed-steps", type=int, default=16_000, help="learner moves per API round")
    parser.add_argument("--learn-steps", type=int, default=4096,
                        help="learner moves per learn() round (0: no learn() rounds)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--speed-opponent", default="random", help="the opponent of the speed part")
    parser.add_argument("--speed-envs", type=int, default=64, help="games of the speed part")
    parser.add_argument("--speed-threads", default="1,2", help="C threads of blokus.sb3.VecEnv in the speed part")
    parser.add_argument("--threads", type=int, default=1, help="C threads of the games")
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.torch_threads)
    if args.part in ("all", "speed"):
        speed(args)
    if args.part in ("all", "train"):
        train(args)


if __name__ == "__main__":
    main()
