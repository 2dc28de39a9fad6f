"""How well ``blokus.analysis.evaluate``'s win probabilities mean what they say: expected
calibration error (ECE, 10 equal-width bins), Brier score and a reliability table per variant
and game phase, on positions of recorded games labelled by how each game ended.

    PYTHONPATH=. python3 benchmarks/bench_calibration.py                       # every variant
    PYTHONPATH=. python3 benchmarks/bench_calibration.py --variants duo --plot runs/reliability.png

Games: Pentobi's self-play records (``tests/data/pentobi_<variant>.blksgf``, 5 per variant) and
our own self-play at strong settings in ``--runs`` (``<runs>/cal_<variant>/games.blksgf``, made by
``blokus selfplay``; the commands are in benchmarks/README.md, "Calibrated win probabilities").

Held-out split, by game and fixed: every Pentobi game and the self-play games whose index
(``BKGAME``) is 3 mod 4 are held out; the map (``benchmarks/fit_calibration.py``) is fitted on
the other self-play games only. Positions: every ``--stride``-th ply of each game, from the empty
board to the last move, evaluated by ``evaluate(position, seed=...)`` at its defaults (the agent
``"mcts:sims=2000"`` on every core, the endgame solve of 100,000 positions), seeded by the
position. The label of a player is its side's share of the win at the end of the game (1, 0, 1/k
in a k-way tie for first); each (position, player) pair is one prediction. Evaluations are kept
in ``--cache`` (JSON lines), so a second run or the fit only reads them.

Phases: opening while fewer than 6 pieces per colour are on the board, end from 12 per colour.
The row "pentobi" is Pentobi's held-out games alone. The last line of a variant is the Brier
score of evaluate's default minus the search's own, with a 95% bootstrap interval that draws
whole held-out games.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import zlib
from pathlib import Path

import numpy as np

import blokus
import blokus.sgf
from blokus.analysis import evaluate
from blokus.analysis._calibration import PHASES, brier, calibrate_players, ece, phase, reliability
from blokus.outcomes import results
from blokus.variants import variant as variant_facts

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("duo", "classic_2", "classic", "classic_3")
# Every ply in Duo; every other in the four-colour games, whose neighbouring positions differ
# little and cost four times the search.
STRIDE = {"duo": 1, "classic_2": 2, "classic": 2, "classic_3": 2}


def held_out(source: str, index: int) -> bool:
    """The fixed split: Pentobi's games and every fourth self-play game are held out."""
    return source == "pentobi" or index % 4 == 3


def recorded_games(variant: str, runs: Path) -> list[tuple[str, int, blokus.Game]]:
    """(source, index, game) of every recorded game of the variant: Pentobi's, then our self-play."""
    pentobi = blokus.sgf.read(ROOT / "tests" / "data" / f"pentobi_{variant}.blksgf")
    games = [("pentobi", i, g) for i, g in enumerate(pentobi)]
    path = runs / f"cal_{variant}" / "games.blksgf"
    if path.exists():
        for game, root in blokus.sgf.records(path.read_text()):
            games.append(("selfplay", int(root["BKGAME"][0]), game))
    return games


def win_shares(game: blokus.Game) -> list[float]:
    """Each player's share of the win of a finished game: 1 alone, 1/k for k sides tied for first."""
    facts = variant_facts(game.variant)
    _, winners = results(np.asarray([game.scores()]), game.variant)
    firsts = [p for p, s in enumerate(facts.player_sides) if s == p]
    tied = int(winners[0, firsts].sum())
    return [float(winners[0, p]) / tied for p in range(len(facts.player_sides))]


def positions(game: blokus.Game, stride: int):
    """(ply, position) for every stride-th ply before the end of the game."""
    replay = blokus.Game(game.variant, start=game.start)
    for ply, (_, move) in enumerate(game.history):
        if ply % stride == 0:
            yield ply, replay.copy()
        replay.play(int(move))


def evaluated_rows(variant: str, runs: Path, cache: Path, stride: int, agent: str | None = None,
                   search: bool = True, report=print) -> list[dict]:
    """One row per evaluated position (from ``cache`` when there, else searched and appended):
    variant, source, game, ply, pieces, mover (the player to move), raw and expected (the search's
    win probability and expected score, per player), exact margins (or None), labels.
    ``agent``: evaluate's agent string (None: its default). ``search=False``: the cached rows
    only."""
    done = {}
    if cache.exists():
        for line in cache.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:  # a line another run is writing
                continue
            done[(row["variant"], row["source"], row["game"], row["ply"], row.get("agent"))] = row
    rows = []
    games = recorded_games(variant, runs)
    t0, searched = time.perf_counter(), 0
    with cache.open("a") as out:
        for number, (source, index, game) in enumerate(games):
            labels = win_shares(game)
            for ply, position in positions(game, stride):
                key = (variant, source, index, ply, agent)
                if key not in done and not search:
                    continue
                if key not in done:
                    seed = zlib.crc32(repr(key[:4]).encode())
                    found = evaluate(position, *([agent] if agent else []), seed=seed, calibrated=False)
                    done[key] = {"variant": variant, "source": source, "game": index, "ply": ply, "agent": agent,
                                 "pieces": len(position.history), "mover": int(position.player_to_move),
                                 "raw": [r["raw_win_probability"] for r in found],
                                 "expected": [r["expected_score"] for r in found],
                                 "margin": [r["margin"] for r in found], "label": labels}
                    out.write(json.dumps(done[key]) + "\n")
                    searched += 1
                rows.append(done[key])
            if searched and (number + 1) % 20 == 0:
                out.flush()
                report(f"  {variant}: {number + 1}/{len(games)} games, {searched} positions searched "
                       f"in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return rows


def predictions(rows: list[dict], calibrated: bool, table: dict | None = None,
                exact: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Predicted win probabilities and labels, one per (position, player): what ``evaluate``
    returns (exact when solved, else calibrated by ``table``'s map or the package's, or raw);
    ``exact=False``: the search's figure everywhere, as evaluate gave it before it solved."""
    p, y = [], []
    for row in rows:
        raw = np.asarray(row["raw"])
        if calibrated:
            chances = calibrate_players(row["variant"], row["pieces"], raw, row["mover"], table=table)
        else:
            chances = raw
        for player, margin in enumerate(row["margin"]):
            if margin is None or not exact:
                p.append(chances[player])
            else:
                p.append(1.0 if margin > 0 else 0.5 if margin == 0 else 0.0)
            y.append(row["label"][player])
    return np.asarray(p), np.asarray(y)


def split(rows: list[dict], test: bool) -> list[dict]:
    return [r for r in rows if held_out(r["source"], r["game"]) == test]


def by_phase(rows: list[dict]) -> dict[str, list[dict]]:
    out = {name: [] for name in PHASES}
    for row in rows:
        out[phase(row["pieces"], variant_facts(row["variant"]).num_colours)].append(row)
    return out


# The predictions compared: the search's raw figure (evaluate before the solve and the map),
# raw but exact where solved, and evaluate's default (calibrated, exact where solved).
KINDS = (("search", False, False), ("+exact", False, True), ("default", True, True))


def summary_lines(variant: str, rows: list[dict]) -> list[str]:
    test = split(rows, True)
    games = len({(r["source"], r["game"]) for r in test})
    lines = [(f"{variant}: {games} held-out games, {len(test)} positions "
              f"({len(split(rows, False))} positions of training games)"),
             f"  {'phase':<8} {'predictions':>11}   ECE: " + " ".join(f"{k:>8}" for k, _, _ in KINDS) +
             "   Brier: " + " ".join(f"{k:>8}" for k, _, _ in KINDS)]
    pentobi = [r for r in test if r["source"] == "pentobi"]
    for name, part in [("all", test), *by_phase(test).items(), ("pentobi", pentobi)]:
        if not part:
            continue
        figures = [predictions(part, calibrated, exact=exact) for _, calibrated, exact in KINDS]
        lines.append(f"  {name:<8} {len(figures[0][1]):>11}        " +
                     " ".join(f"{ece(p, y):>8.3f}" for p, y in figures) + "          " +
                     " ".join(f"{brier(p, y):>8.4f}" for p, y in figures))
    low, mid, high = brier_gain(test)
    lines.append(f"  Brier default - search {mid:+.4f}, 95% interval by game {low:+.4f} to {high:+.4f}")
    return lines


def brier_gain(rows: list[dict], draws: int = 2000) -> tuple[float, float, float]:
    """The Brier score of evaluate's default minus the search's own over ``rows`` and its 95%
    bootstrap interval, drawing whole games (one game's positions share one outcome)."""
    games = sorted({(r["source"], r["game"]) for r in rows})
    diffs, counts = [], []
    for game in games:
        part = [r for r in rows if (r["source"], r["game"]) == game]
        (p, y), (q, _) = predictions(part, True), predictions(part, False, exact=False)
        diffs.append(float(np.sum((p - y) ** 2 - (q - y) ** 2)))
        counts.append(len(y))
    diffs, counts = np.asarray(diffs), np.asarray(counts)
    picks = np.random.default_rng(0).integers(0, len(games), size=(draws, len(games)))
    gains = diffs[picks].sum(axis=1) / counts[picks].sum(axis=1)
    return float(np.percentile(gains, 2.5)), float(diffs.sum() / counts.sum()), float(np.percentile(gains, 97.5))


def reliability_lines(rows: list[dict]) -> list[str]:
    test = split(rows, True)
    raw_p, y = predictions(test, calibrated=False, exact=False)
    cal_p, _ = predictions(test, calibrated=True)
    lines = [f"  {'bin':<9} {'n search':>8} {'pred':>6} {'obs':>6}   {'n default':>9} {'pred':>6} {'obs':>6}"]
    for a, b in zip(reliability(raw_p, y), reliability(cal_p, y)):
        lines.append(f"  {a['lo']:.1f}-{a['hi']:.1f}   {a['count']:>8} {a['mean_predicted']:>6.3f} "
                     f"{a['mean_observed']:>6.3f}   {b['count']:>9} {b['mean_predicted']:>6.3f} "
                     f"{b['mean_observed']:>6.3f}")
    return lines


def plot(path: str, every: dict[str, list[dict]]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(every), figsize=(3.6 * len(every), 3.6), squeeze=False)
    for ax, (variant, rows) in zip(axes[0], every.items()):
        test = split(rows, True)
        for calibrated, style in ((False, "o--"), (True, "s-")):
            p, y = predictions(test, calibrated, exact=calibrated)
            table = [r for r in reliability(p, y) if r["count"]]
            ax.plot([r["mean_predicted"] for r in table], [r["mean_observed"] for r in table], style,
                    label=f"{'evaluate' if calibrated else 'search alone'} (ECE {ece(p, y):.3f})")
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8)
        ax.set(title=variant, xlabel="predicted win probability", ylabel="observed win share",
               xlim=(0, 1), ylim=(0, 1))
        ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--runs", type=Path, default=ROOT / "runs",
                        help="directory of the cal_<variant> self-play runs")
    parser.add_argument("--cache", type=Path, default=None,
                        help="JSON lines of evaluated positions (default: <runs>/calibration_positions.jsonl)")
    parser.add_argument("--stride", type=int, default=None, help="every Nth ply (default: 1 in Duo, 2 otherwise)")
    parser.add_argument("--agent", help="evaluate's agent string (default: its default, mcts:sims=2000)")
    parser.add_argument("--plot", metavar="PNG", help="save the reliability diagrams (needs matplotlib)")
    args = parser.parse_args(argv)
    cache = args.cache or args.runs / "calibration_positions.jsonl"
    every = {}
    for variant in args.variants:
        every[variant] = evaluated_rows(variant, args.runs, cache, args.stride or STRIDE[variant], args.agent)
        print("\n".join(summary_lines(variant, every[variant])))
        print("  reliability of the held-out predictions (the search's figure | evaluate's default):")
        print("\n".join(reliability_lines(every[variant])), flush=True)
    if args.plot:
        plot(args.plot, every)
        print(f"reliability diagrams written to {args.plot}")
    return 0


if __name__ == "__main__":
    os.nice(5)
    sys.exit(main())
