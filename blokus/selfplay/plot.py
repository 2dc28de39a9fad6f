"""``scores.png``: the distribution of final scores per agent (needs matplotlib)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from blokus._optional import needs
from blokus._rundir import replace_file
from blokus.selfplay.errors import SelfPlayError
from blokus.selfplay.games import GameResult
from blokus.selfplay.settings import Config


def require_matplotlib():
    with needs("plot", "--plot", SelfPlayError):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    return Figure, FigureCanvasAgg


def plot_scores(path: Path, config: Config, results: dict[int, GameResult]) -> None:
    """scores.png: per agent, the distribution of its seats' final scores (Agg, no pyplot state)."""
    Figure, FigureCanvasAgg = require_matplotlib()
    scores: dict[str, list[int]] = {a: [] for a in config.agents}
    for r in results.values():
        for s, a in enumerate(r.agents):
            scores[a].append(r.player_scores[s])
    fig = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    every = [x for xs in scores.values() for x in xs]
    if every:
        _histograms(ax, scores, min(every), max(every))
    ax.set_xlabel("final score of the seat (player score)")
    ax.set_ylabel("seat-games")
    ax.set_title(f"{config.variant}: {len(results)} games, score distribution per agent")
    fig.tight_layout()
    replace_file(path, lambda tmp: fig.savefig(tmp, format="png"))


def _histograms(ax, scores: dict[str, list], lo: int, hi: int) -> None:
    """A step histogram and a dashed line at the mean per agent, on bins shared by all."""
    step = max(1, math.ceil((hi - lo + 1) / 60))
    bins = np.arange(lo - 0.5, hi + step + 0.5, step)
    for i, (agent, xs) in enumerate(scores.items()):
        if not xs:
            continue
        colour = f"C{i % 10}"
        ax.hist(xs, bins=bins, histtype="step", linewidth=1.5, color=colour,
                label=f"{agent}: mean {np.mean(xs):.1f}, {len(xs)} seat-games")
        ax.axvline(float(np.mean(xs)), color=colour, linestyle="--", linewidth=1)
    ax.legend(loc="upper left", fontsize="small")
