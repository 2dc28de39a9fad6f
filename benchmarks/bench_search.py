"""Batched search with an evaluator: leaf evaluations per second, B = 1, 16, 64 games of Duo.

    PYTHONPATH=. python3 benchmarks/bench_search.py [--simulations 64] [--rounds 3] [--threads 1]

`blokus.search.BatchedSearch` runs `simulations` simulations in each of B games from Duo
middle games (12 seeded random placements in, start="fixed"), its evaluator called on each
batch of pending leaves, with two evaluators:

* `uniform`: NumPy, uniform priors over the legal moves and an even value; nearly all the
  time is the search's own (tree walks in C, observation and mask arrays to Python and back);
* `tiny-net`: a small placement-aware PyTorch network, if torch is installed (a 3-layer
  16-channel convolutional trunk; a placement's logit is the sum of a per-cell score over its
  cells plus a per-piece bias, gathered through `blokus.placements`; a value head on the
  pooled trunk), run under `torch.no_grad()` on `--threads` CPU threads.

Columns: leaves evaluated per second of wall time; the same per second of the time outside
the evaluator (the search's own cost: walks, requests, checking and backing up the
evaluation); and the evaluator's share of the wall time. Each figure is the best of
`--rounds` runs, because this machine's speed drifts with other load.
"""
import argparse
import random

import numpy as np

import blokus
from blokus.search import BatchedSearch

from timing import Stopwatch

SIZES = (1, 16, 64)


def middle_games(n, plies=12):
    games = []
    for seed in range(n):
        rng, game = random.Random(seed), blokus.Game("duo", start="fixed")
        for _ in range(plies):
            game.play(rng.choice(game.legal_moves().tolist()))
        games.append(game)
    return games


def uniform(observations, remaining, masks):
    return masks.astype(np.float32), np.full((len(masks), 2), 0.5, np.float32)


def tiny_net(threads):
    """The `tiny-net` evaluator, or None without torch."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    table = blokus.placements("duo")
    side = 14
    cells = torch.as_tensor(np.array(table.cells), dtype=torch.long)  # (A, 5, 2), -1 padded
    valid = cells[..., 0] >= 0
    flat = torch.where(valid, cells[..., 0] * side + cells[..., 1], torch.zeros_like(cells[..., 0]))
    piece = torch.as_tensor(np.array(table.piece), dtype=torch.long)

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.trunk = torch.nn.Sequential(
                torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(),
                torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.ReLU(),
                torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.ReLU())
            self.cell_score = torch.nn.Conv2d(16, 1, 1)
            self.piece_bias = torch.nn.Parameter(torch.zeros(21))
            self.value = torch.nn.Linear(16, 1)

        def forward(self, obs, mask):
            h = self.trunk(obs)
            score = self.cell_score(h).flatten(1)                 # (K, H * W)
            logits = (score[:, flat] * valid).sum(-1) + self.piece_bias[piece]
            logits = logits.masked_fill(~mask, float("-inf"))
            v = torch.sigmoid(self.value(h.mean((2, 3))))[:, 0]
            return torch.softmax(logits, -1), v

    net = Net().eval()

    def evaluate(observations, remaining, masks):
        with torch.no_grad():
            priors, v = net(torch.from_numpy(observations).float(), torch.from_numpy(masks))
        return priors.numpy(), v.numpy()  # (K,): the value of the player to move

    return evaluate


def measure(evaluator, games, simulations):
    """(leaves, wall seconds, seconds inside the evaluator) of one full search."""
    spent, leaves = Stopwatch(), 0
    with Stopwatch() as wall:
        search = BatchedSearch(games, simulations=simulations, seed=1)
        while not search.done:
            request = search.pending()
            with spent:
                priors, values = evaluator(request.observations, request.remaining, request.masks)
            leaves += len(request.games)
            search.evaluate(priors, values)
    return leaves, wall.seconds, spent.seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="torch's CPU threads")
    args = parser.parse_args()
    evaluators = {"uniform": uniform, "tiny-net": tiny_net(args.threads)}
    print(f"Duo, {args.simulations} simulations per game, best of {args.rounds} rounds")
    print(f"{'evaluator':<10} {'B':>4} {'leaves':>7} {'leaves/s':>10} {'search-only leaves/s':>21} "
          f"{'evaluator share':>16}")
    for name, evaluator in evaluators.items():
        if evaluator is None:
            print(f"{name:<10} not measured: torch is not installed")
            continue
        for b in SIZES:
            games = middle_games(b)
            best = None
            for _ in range(args.rounds):
                leaves, wall, spent = measure(evaluator, games, args.simulations)
                if best is None or wall < best[1]:
                    best = (leaves, wall, spent)
            leaves, wall, spent = best
            print(f"{name:<10} {b:>4} {leaves:>7} {leaves / wall:>10,.0f} {leaves / (wall - spent):>21,.0f} "
                  f"{spent / wall:>15.0%}")


if __name__ == "__main__":
    main()
