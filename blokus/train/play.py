"""Self-play: B games at once, every move chosen by a ``BatchedSearch`` with the network.

At each step one search runs over every game still going. A move is drawn from the root's
visit counts (temperature 1) for the first ``sample_plies`` plies of a game, then it is the
most visited one (``best_moves``). Every position searched becomes a sample: its visit-count
policy and, once its game is over, the value target of the colour that was to move there
(``blokus._sides``: each side's share of the win, docs/rules.md, "Scoring", and of the scores; with
two sides, the mover's side's value, else one per colour).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from blokus._network import run_search, step_seed
from blokus._sides import mover_target, side_values
from blokus.game import Game
from blokus.search import BatchedSearch
from blokus.train.buffer import Samples


@dataclass
class SearchOptions:
    simulations: int
    c_puct: float
    dirichlet_alpha: float
    dirichlet_fraction: float

    def make(self, games: list[Game], seed: int) -> BatchedSearch:
        return BatchedSearch(games, simulations=self.simulations, c_puct=self.c_puct,
                             dirichlet_alpha=self.dirichlet_alpha,
                             dirichlet_fraction=self.dirichlet_fraction, seed=seed)

    def run(self, games: list[Game], seed: int, evaluate) -> BatchedSearch:
        """The search of ``games`` run to its end: ``evaluate(observations, remaining, masks,
        colours) -> (priors, values)`` on each ``pending()`` batch (``blokus._network.run_search``)."""
        return run_search(self.make(games, seed), evaluate)


def play_games(evaluate, count: int, options: SearchOptions, sample_plies: int,
               rng: np.random.Generator, seed: int, *, variant: str = "duo", start: str = "fixed",
               margin_weight: float = 0.0, margin_scale: float = 10.0, progress=None) -> tuple[Samples, list[Game]]:
    """Plays ``count`` games of ``variant`` against itself; the samples of every position, in
    game order then ply order, and the finished games.

    ``evaluate``: ``fn(observations, remaining, masks, colours) -> (priors, values)`` as
    ``SearchOptions.run`` takes it. ``rng`` draws the sampled moves; the search of step t is seeded ``(seed, t)``.
    ``progress(step)``, if given, is called after every step. A position's value target is
    ``blokus._sides.mover_target`` of ``blokus._sides.side_values(game, margin_weight, margin_scale)`` for the
    colour to move there.
    """
    games = [Game(variant, start=start) for _ in range(count)]
    # per game: (observation, remaining, mask, ids, shares, colour to move)
    positions: list[list[tuple]] = [[] for _ in games]
    step = 0
    while True:
        active = [i for i, g in enumerate(games) if not g.is_over]
        if not active:
            break
        search = options.run([games[i] for i in active], step_seed(seed, step), evaluate)
        counts, best = search.visit_counts(), search.best_moves()
        for row, i in enumerate(active):
            game = games[i]
            ids = np.flatnonzero(counts[row]).astype(np.int32)
            shares = (counts[row, ids] / counts[row, ids].sum()).astype(np.float32)
            positions[i].append((game.observation(game.to_move), game.remaining_from(game.to_move),
                                 np.packbits(game.legal_mask()), ids, shares, game.to_move))
            move = rng.choice(ids, p=shares) if len(game.history) < sample_plies else best[row]
            game.play(int(move))
        step += 1
        if progress is not None:
            progress(step)
    return _samples(games, positions, options.simulations, margin_weight, margin_scale), games


def _samples(games: list[Game], positions: list[list[tuple]], width: int, margin_weight: float,
             margin_scale: float) -> Samples:
    rows = [(p, side_values(g, margin_weight, margin_scale)) for g, ps in zip(games, positions) for p in ps]
    n, variant = len(rows), games[0].variant
    ids = np.full((n, width), -1, np.int32)
    shares = np.zeros((n, width), np.float32)
    for r, ((_, _, _, move_ids, move_shares, _), _) in enumerate(rows):
        ids[r, :len(move_ids)] = move_ids
        shares[r, :len(move_shares)] = move_shares
    return Samples(observations=np.stack([p[0] for p, _ in rows]), remaining=np.stack([p[1] for p, _ in rows]),
                   masks=np.stack([p[2] for p, _ in rows]), policy_ids=ids, policy=shares,
                   values=np.array([mover_target(variant, targets, p[5]) for p, targets in rows], np.float32))
