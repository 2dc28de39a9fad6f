"""Evaluation: the network against the built-in agents, and the table of its win shares.

The network plays its search without root noise, taking the most visited move, or with
``simulations=0`` its raw policy (the most probable legal placement). In match game g it holds
seat ``g % 2`` (seats alternate); a game won alone counts 1, a tie 1/2 to each side (as the
``blokus selfplay`` report counts a k-way tie 1/k), and the 95% interval is Wilson's.
"""
from __future__ import annotations

import numpy as np
import torch

from blokus.agents import make_agent
from blokus.game import Game
from blokus.outcomes import wilson
from blokus.train.network import evaluator, forward
from blokus.train.play import SearchOptions, step_seed, win_shares


def choose_moves(net, games: list[Game], simulations: int, c_puct: float, seed: int) -> np.ndarray:
    """int (len(games),): the network's move in each game (none over), by its search or, with
    ``simulations=0``, its raw policy."""
    if simulations == 0:
        with torch.no_grad():
            masks = np.stack([g.legal_mask() for g in games])
            logits, _ = forward(net, np.stack([g.observation(g.to_move) for g in games]), masks)
        return logits.argmax(dim=1).numpy()
    options = SearchOptions(simulations, c_puct, dirichlet_alpha=0.3, dirichlet_fraction=0.0)
    return options.make(games, seed).run(evaluator(net)).best_moves()


class NetworkAgent:
    """An agent (``agent(game) -> placement id``, as ``blokus.agents``) that plays the network.

    Parameters
    ----------
    net : blokus.nn.PlacementNet
        A Duo network (``blokus.train.load_network``).
    simulations : int
        Simulations of its search per move; 0 plays the raw policy.
    c_puct : float
        The search's exploration constant.
    seed : int
        Seeds the search's ties (no noise is added).
    """

    def __init__(self, net, simulations: int = 32, *, c_puct: float = 1.25, seed: int = 0):
        self.net, self.simulations, self.c_puct, self.seed = net, simulations, c_puct, seed
        self.name = f"network:sims={simulations}"

    def __call__(self, game: Game) -> int:
        return int(choose_moves(self.net, [game], self.simulations, self.c_puct,
                                step_seed(self.seed, len(game.history)))[0])


def play_match(net, opponent: str, games: int, simulations: int, c_puct: float, seed: int,
               *, start: str = "fixed") -> dict:
    """``games`` Duo games of the network against the agent string ``opponent``, played side by
    side (the network's moves of all games in one batch). Returns games, wins (shares summed),
    win_share and its Wilson interval (win_share_low, win_share_high), and the mean score
    margin (network's score minus the opponent's)."""
    boards = [Game("duo", start=start) for _ in range(games)]
    seats = [g % 2 for g in range(games)]
    opponents = [make_agent(opponent, seed=step_seed(seed, g)) for g in range(games)]
    step = 0
    while not all(b.is_over for b in boards):
        ours = [i for i, b in enumerate(boards) if not b.is_over and b.player_to_move == seats[i]]
        if ours:
            for i, move in zip(ours, choose_moves(net, [boards[i] for i in ours], simulations, c_puct,
                                                  step_seed(seed, games, step))):
                boards[i].play(int(move))
        for i, b in enumerate(boards):
            while not b.is_over and b.player_to_move != seats[i]:
                b.play(opponents[i](b))
        step += 1
    wins = sum(win_shares(b)[s] for b, s in zip(boards, seats))
    low, high = wilson(wins, games)
    margins = [b.player_scores()[s] - b.player_scores()[1 - s] for b, s in zip(boards, seats)]
    return {"games": games, "wins": wins, "win_share": wins / games, "win_share_low": low,
            "win_share_high": high, "mean_margin": float(np.mean(margins))}


def format_table(entries: list[dict], opponents: list[str]) -> str:
    """The evaluations in ``entries`` (log lines with an ``evaluation``): one row per evaluated
    iteration, per opponent the win share and its 95% interval."""
    width = max(len(o) for o in opponents)
    cell = max(width, 21)
    lines = [f"{'iteration':>9} {'steps':>6}  " + "  ".join(f"{o:>{cell}}" for o in opponents)]
    for e in entries:
        cells = []
        for o in opponents:
            r = e["evaluation"].get(o)
            cells.append("-" if r is None else
                         f"{100 * r['win_share']:5.1f}% [{100 * r['win_share_low']:4.1f}, "
                         f"{100 * r['win_share_high']:5.1f}]")
        lines.append(f"{e['iteration']:>9} {e['steps']:>6}  " + "  ".join(f"{c:>{cell}}" for c in cells))
    games = entries[-1]["evaluation"][opponents[0]]["games"] if entries else 0
    lines.append(f"win share of the network over {games} games per opponent, seats alternating; a tie "
                 "counts 1/2; [95% Wilson interval]")
    return "\n".join(lines)
