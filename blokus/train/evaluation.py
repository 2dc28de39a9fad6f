"""Evaluation: the network against the built-in agents, and the table of its win shares.

The network plays as ``NetworkAgent`` does (``blokus._network.choose_moves``): its search
without root noise, taking the most visited move, or with ``simulations=0`` its raw policy (the
most probable legal placement). In match game g it holds
seat ``g % 2`` (seats alternate); a game won alone counts 1, a tie 1/2 to each side (as the
``blokus selfplay`` report counts a k-way tie 1/k), and the 95% interval is Wilson's.
"""
from __future__ import annotations

import numpy as np

from blokus._network import choose_moves, step_seed
from blokus.agents import make_agent
from blokus.game import Game
from blokus.outcomes import wilson
from blokus.train.play import win_shares


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
