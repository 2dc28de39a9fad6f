"""The summary of a run (``summary.json``): wins with Wilson's interval, scores and lengths per
agent and per seat; and the table the command prints from it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from blokus import __version__
from blokus.outcomes import wilson
from blokus.selfplay.games import GameResult
from blokus.selfplay.settings import Config
from blokus.variants import variant as variant_facts

TIE_NOTE = ("Wins: a game won alone counts 1, a k-way tie for the top score 1/k to each tied side "
            "(a split win);\nthe 95% interval is Wilson's. Length: pieces placed in the game.")
TEAMS_NOTE = ("classic_teams: per agent, a team's share is split between its two seats (an agent "
              "holding both gets all of it);\nper seat, the win share is the seat's team's.")
SHARED_SEATS_NOTE = ("With fewer agents than seats an agent holds several seats in a game; its "
                     "wins add up their shares\nand its mean score is over the seats it held.")


def summarize(config: Config, results: dict[int, GameResult], *, played: int, elapsed: float,
              interrupted: bool, workers: int, ray: str | None, out: Path, files: list[str]) -> dict:
    """What ``summary.json`` holds: the settings, progress and the per-agent and per-seat tables."""
    n = len(results)
    return {
        "variant": config.variant, "start": config.start, "agents": config.agents,
        "seed": config.seed, "games": config.games, "finished": n, "complete": n == config.games,
        "interrupted": interrupted, "seats": len(seat_sides(config.variant)[0]),
        "rotation": "game g: seat s plays agents[(s + g) % len(agents)]",
        "played": played, "elapsed_seconds": round(elapsed, 3),
        "games_per_second": round(played / elapsed, 3) if played and elapsed > 0 else None,
        "workers": workers, "ray": ray, "out": str(out), "files": files,
        "per_agent": _per_agent(config.variant, config.agents, results),
        "per_seat": _per_seat(config.variant, results), "blokus": __version__,
    }


def seat_sides(variant: str) -> tuple[list[int], list[int]]:
    """Per seat, its side (seats whose score is always the same: classic_teams' teams), and per
    side its number of seats."""
    side = list(variant_facts(variant).player_sides)
    return side, [side.count(s) for s in range(len(side))]


def seat_shares(result: GameResult, side: list[int], size: list[int]) -> tuple[list[float], list[float]]:
    """Per seat: its side's share of the win, and the seat's own part of it."""
    winning = {side[p] for p in result.winners}
    side_share = [1 / len(winning) if side[s] in winning else 0.0 for s in range(len(side))]
    return side_share, [side_share[s] / size[side[s]] for s in range(len(side))]


def _per_agent(variant: str, agents: list[str], results: dict[int, GameResult]) -> list[dict]:
    side, size = seat_sides(variant)
    stats: dict[str, dict[str, Any]] = {a: {"games": 0, "wins": 0.0, "scores": [], "lengths": []} for a in agents}
    for i in sorted(results):
        r = results[i]
        own = seat_shares(r, side, size)[1]
        for a in set(r.agents):
            stats[a]["games"] += 1
            stats[a]["lengths"].append(r.length)
        for s, a in enumerate(r.agents):
            stats[a]["wins"] += own[s]
            stats[a]["scores"].append(r.player_scores[s])
    rows = []
    for a in agents:
        st = stats[a]
        low, high = wilson(st["wins"], st["games"])
        rows.append({
            "agent": a, "games": st["games"], "wins": round(st["wins"], 6),
            "win_rate": st["wins"] / st["games"] if st["games"] else None,
            "win_rate_low": low if st["games"] else None, "win_rate_high": high if st["games"] else None,
            "mean_score": float(np.mean(st["scores"])) if st["scores"] else None,
            "mean_length": float(np.mean(st["lengths"])) if st["lengths"] else None})
    return rows


def _per_seat(variant: str, results: dict[int, GameResult]) -> list[dict]:
    facts = variant_facts(variant)
    side, size = seat_sides(variant)
    seat_scores: list[list[int]] = [[] for _ in side]
    seat_wins = [0.0 for _ in side]
    for i in sorted(results):
        r = results[i]
        side_share = seat_shares(r, side, size)[0]
        for s in range(len(r.agents)):
            seat_scores[s].append(r.player_scores[s])
            seat_wins[s] += side_share[s]
    n = len(results)
    rows = []
    for s in range(len(side)):
        if size[side[s]] > 1:  # a team's seat moves its own colour and scores its team's
            colours = facts.colours[s]
        else:
            colours = "+".join(facts.colours[c] for c in facts.player_colours[s])
        rows.append({"seat": s, "colours": colours,
                     "mean_score": float(np.mean(seat_scores[s])) if n else None,
                     "win_share": seat_wins[s] / n if n else None})
    return rows


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x, digits=2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def format_table(summary: dict) -> str:
    """The per-agent and per-seat tables of a summary, with the notes that explain them."""
    lines = _agent_lines(summary["per_agent"]) + [""] + _seat_lines(summary["per_seat"]) + [""]
    lines.append(TIE_NOTE)
    if max(seat_sides(summary["variant"])[1]) > 1:  # teams: sides of several seats
        lines.append(TEAMS_NOTE)
    if len(summary["agents"]) < summary["seats"]:
        lines.append(SHARED_SEATS_NOTE)
    lines.append("Seats rotate: game g gives seat s the agent (s + g) mod the number of agents.")
    return "\n".join(lines)


def _agent_lines(per_agent: list[dict]) -> list[str]:
    width = max([5] + [len(row["agent"]) for row in per_agent])
    lines = [f"{'agent':<{width}} {'games':>7} {'wins':>9} {'win rate':>9} {'95% interval':>16} "
             f"{'mean score':>11} {'mean length':>12}"]
    for row in per_agent:
        wins = f"{row['wins']:.6g}" if row["games"] else "-"
        interval = (f"[{_pct(row['win_rate_low'])}, {_pct(row['win_rate_high'])}]"
                    if row["games"] else "-")
        lines.append(f"{row['agent']:<{width}} {row['games']:>7} {wins:>9} {_pct(row['win_rate']):>9} "
                     f"{interval:>16} {_num(row['mean_score']):>11} {_num(row['mean_length'], 1):>12}")
    return lines


def _seat_lines(per_seat: list[dict]) -> list[str]:
    lines = [f"{'seat':<8} {'colours':<13} {'mean score':>11} {'win share':>10}"]
    for row in per_seat:
        lines.append(f"{'player ' + str(row['seat']):<8} {row['colours']:<13} "
                     f"{_num(row['mean_score']):>11} {_pct(row['win_share']):>10}")
    return lines
