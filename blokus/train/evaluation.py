"""Evaluation: the network against the built-in agents, and the table of its win shares.

The network plays as ``NetworkAgent`` does (``blokus._network.choose_moves``): its search
without root noise, taking the most visited move, or with ``simulations=0`` its raw policy (the
most probable legal placement). In match game g it holds side ``g % S`` of the S sides
(``blokus._sides``: a player, both members of a classic_teams team; seats rotate), and the
opponent agent plays every other side; a game won alone counts 1, a k-way tie 1/k to each side
on top (as the ``blokus selfplay`` report counts it), and the 95% interval is Wilson's. Against
an equal opponent the network's share is 1/S.
"""
from __future__ import annotations

import numpy as np

from blokus._network import choose_moves, step_seed
from blokus._sides import side_scores, side_win_shares, sides
from blokus.agents import make_agent
from blokus.game import Game
from blokus.outcomes import wilson


def play_match(net, opponent: str, games: int, simulations: int, c_puct: float, seed: int,
               *, start: str = "fixed") -> dict:
    """``games`` games of the network's variant, the network holding one side and the agent
    string ``opponent`` the others, played side by side (the network's moves of all games in
    one batch). Returns games, wins (shares summed), win_share and its Wilson interval
    (win_share_low, win_share_high), and the mean score margin (the network's side's score
    minus the best other side's)."""
    facts = sides(net.variant)
    boards = [Game(net.variant, start=start) for _ in range(games)]
    seats = [g % facts.count for g in range(games)]
    opponents = [make_agent(opponent, seed=step_seed(seed, g)) for g in range(games)]
    step = 0
    while not all(b.is_over for b in boards):
        ours = [i for i, b in enumerate(boards) if not b.is_over and facts.of_player[b.player_to_move] == seats[i]]
        if ours:
            for i, move in zip(ours, choose_moves(net, [boards[i] for i in ours], simulations, c_puct,
                                                  step_seed(seed, games, step))):
                boards[i].play(int(move))
        for i, b in enumerate(boards):
            while not b.is_over and facts.of_player[b.player_to_move] != seats[i]:
                b.play(opponents[i](b))
        step += 1
    wins = float(sum(side_win_shares(b)[s] for b, s in zip(boards, seats)))
    low, high = wilson(wins, games)
    margins = [_margin(side_scores(b), s) for b, s in zip(boards, seats)]
    return {"games": games, "wins": wins, "win_share": wins / games, "win_share_low": low,
            "win_share_high": high, "mean_margin": float(np.mean(margins))}


def _margin(scores: np.ndarray, side: int) -> float:
    """``side``'s score minus the best of the others' (positive: won alone)."""
    return float(scores[side] - np.delete(scores, side).max())


def format_table(entries: list[dict], opponents: list[str], num_sides: int = 2) -> str:
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
    parity = f" (an equal opponent's share: {100 / num_sides:.1f}%)" if num_sides > 2 else ""
    lines.append(f"win share of the network's side over {games} games per opponent, seats rotating over "
                 f"{num_sides} sides{parity}; a k-way tie counts 1/k; [95% Wilson interval]")
    return "\n".join(lines)
