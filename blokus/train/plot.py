"""``win_share.png``: the network's win share against each opponent over training steps."""
from __future__ import annotations

from pathlib import Path

from blokus._optional import needs
from blokus._rundir import replace_file
from blokus.train.errors import TrainError


def require_matplotlib():
    with needs("plot", "--plot", TrainError):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    return Figure, FigureCanvasAgg


def plot_win_shares(path: Path, entries: list[dict], opponents: list[str], variant: str = "duo") -> None:
    """Per opponent, the win share and its 95% interval at each evaluation (Agg, no pyplot state)."""
    Figure, FigureCanvasAgg = require_matplotlib()
    fig = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    evaluated = [e for e in entries if "evaluation" in e]
    steps = [e["steps"] for e in evaluated]
    for i, opponent in enumerate(opponents):
        rows = [e["evaluation"][opponent] for e in evaluated]
        colour = f"C{i % 10}"
        ax.plot(steps, [r["win_share"] for r in rows], marker="o", color=colour, label=f"against {opponent}")
        ax.fill_between(steps, [r["win_share_low"] for r in rows], [r["win_share_high"] for r in rows],
                        color=colour, alpha=0.15)
    ax.set_ylim(0, 1)
    ax.set_xlabel("optimiser steps")
    ax.set_ylabel("win share of the network (95% interval)")
    ax.set_title(f"blokus train ({variant}): win share against each opponent")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    replace_file(path, lambda tmp: fig.savefig(tmp, format="png"))
