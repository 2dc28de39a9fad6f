"""Fits the calibration map of ``blokus.analysis.evaluate`` per variant and writes it to
``blokus/analysis/_calibration_table.py``.

    PYTHONPATH=. python3 benchmarks/bench_calibration.py      # evaluates the positions (cached)
    PYTHONPATH=. python3 benchmarks/fit_calibration.py        # fits, prints, writes the table

On the training games of bench_calibration.py's fixed split only (self-play games whose index is
not 3 mod 4; the held-out games are only printed, never fitted on), from the evaluations it
cached. The candidates per variant: ``identity`` (the search's figure as it is) and four maps
fitted on the search's raw win probability of every player of every position the solver does
not settle, each as two maps, one for the players on the side to move and one for the others
(the search favours the side to move):

- ``platt``: one logistic map of the raw figure's logit, sigmoid(a * logit(p) + b), for all phases;
- ``platt_phase``: such a map per game phase;
- ``isotonic``: one non-decreasing step map (pool adjacent violators), interpolated linearly;
- ``isotonic_phase``: one per phase;

and three "power" maps of all the sides' figures at once (``apply_power``: each side's chance
proportional to raw ** (a + b * placed) times exp(c + d * placed) for the side to move, where
``placed`` is the share of all pieces on the board), fitted by maximum likelihood of how the
games ended (the multinomial log-loss over the sides), slightly pulled towards the identity:

- ``power``: a alone, one sharpness for the whole game;
- ``power_phase``: a and b, a sharpness that changes smoothly over the game;
- ``power_phase_move``: a, b, c and d, with the side to move's bias.

In a 5-fold cross-validation by game over the training games, the candidate of the least Brier
score (ties, to four decimals, to the one listed first) among those whose ECE is at most 0.05
is kept, refitted on all of them: the Brier score is a proper score (a map cannot lower it by
saying less, as a flat map can lower ECE), and per-phase step maps fitted on a few hundred
games overfit by it. Each candidate's ECE and Brier score on the
held-out games are printed beside, for information: choosing by them would make the benchmark's
held-out figure part of the fit.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from bench_calibration import ROOT, STRIDE, VARIANTS, by_phase, evaluated_rows, predictions, split

from blokus.analysis._calibration import PHASES, brier, ece, placed_share
from blokus.analysis._calibration_table import TABLE
from blokus.variants import variant as variant_facts

EPS = 1e-3  # raw figures are clipped to [EPS, 1 - EPS] before the logit: 0 and 1 happen at 2,000 simulations
FOLDS = 5
MAX_ECE = 0.05  # the most cross-validated ECE a chosen map may have
TABLE_FILE = ROOT / "blokus" / "analysis" / "_calibration_table.py"


def training_pairs(rows: list[dict], role: str) -> tuple[np.ndarray, np.ndarray]:
    """Raw win probability and label of every player of ``role`` ("to_move": on the side to
    move, "other") in every position not solved exactly."""
    p, y = [], []
    for row in rows:
        sides = variant_facts(row["variant"]).player_sides
        for player, margin in enumerate(row["margin"]):
            if margin is None and (sides[player] == sides[row["mover"]]) == (role == "to_move"):
                p.append(row["raw"][player])
                y.append(row["label"][player])
    return np.asarray(p, dtype=np.float64), np.asarray(y, dtype=np.float64)


def fit_platt(p: np.ndarray, y: np.ndarray) -> dict:
    """Logistic regression of the label on logit(p) (labels may be fractional: a split win), by
    Newton's method on the log-loss."""
    x = np.log(np.clip(p, EPS, 1 - EPS) / (1 - np.clip(p, EPS, 1 - EPS)))
    a, b = 1.0, 0.0
    for _ in range(50):
        q = 1 / (1 + np.exp(-(a * x + b)))
        g = np.array([np.sum((q - y) * x), np.sum(q - y)])
        w = q * (1 - q) + 1e-12
        h = np.array([[np.sum(w * x * x), np.sum(w * x)], [np.sum(w * x), np.sum(w)]])
        step = np.linalg.solve(h + 1e-9 * np.eye(2), g)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-10:
            break
    return {"method": "platt", "a": float(a), "b": float(b), "eps": EPS}


def fit_isotonic(p: np.ndarray, y: np.ndarray) -> dict:
    """The non-decreasing least-squares fit (pool adjacent violators), as the points (mean raw
    figure, mean label) of its blocks, which the map interpolates between."""
    order = np.argsort(p, kind="stable")
    blocks: list[list[float]] = []  # [sum p, sum y, count]
    for pi, yi in zip(p[order], y[order]):
        blocks.append([pi, yi, 1.0])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            blocks[-1] = [blocks[-1][0] + last[0], blocks[-1][1] + last[1], blocks[-1][2] + last[2]]
    x = [round(float(s / n), 6) for s, _, n in blocks]
    v = [round(float(t / n), 6) for _, t, n in blocks]
    return {"method": "isotonic", "x": x, "y": v}


FITS = {"platt": fit_platt, "isotonic": fit_isotonic}
# The power maps' free parameters among a, b, c, d (the others stay at the identity's 1, 0, 0, 0).
POWER_FREE = {"power": (0,), "power_phase": (0, 1), "power_phase_move": (0, 1, 2, 3)}
# Pull of the power maps' parameters towards the identity, as log-loss per unit squared: a
# few positions' worth, next to thousands.
RIDGE = 1.0


def power_features(row: dict) -> tuple[np.ndarray, np.ndarray]:
    """The power map's inputs of each side of a position, (sides, 4): log raw, placed * log
    raw, to move, placed * to move; and the sides' labels, (sides,)."""
    facts = variant_facts(row["variant"])
    firsts = [p for p, s in enumerate(facts.player_sides) if s == p]
    log_raw = np.log(np.clip([row["raw"][p] for p in firsts], EPS, 1.0))
    to_move = np.array([float(facts.player_sides[row["mover"]] == p) for p in firsts])
    placed = placed_share(row["pieces"], facts.num_colours)
    return (np.stack([log_raw, placed * log_raw, to_move, placed * to_move], axis=1),
            np.array([row["label"][p] for p in firsts]))


def fit_power(kind: str, rows: list[dict]) -> dict:
    """The power map ``kind`` fitted on the positions of ``rows`` the solver does not settle, by
    Newton's method on the multinomial log-loss (labels may be fractional: a split win) plus
    ``RIDGE`` times the squared distance from the identity."""
    free = list(POWER_FREE[kind])
    data = [power_features(r) for r in rows if all(m is None for m in r["margin"])]
    identity = np.array([1.0, 0.0, 0.0, 0.0])
    w = identity.copy()
    for _ in range(50):
        g = RIDGE * (w - identity)
        h = RIDGE * np.eye(4)
        for x, y in data:
            z = x @ w
            q = np.exp(z - z.max())
            q /= q.sum()
            g = g + x.T @ (q * y.sum() - y)
            h = h + y.sum() * (x.T @ (np.diag(q) - np.outer(q, q)) @ x)
        step = np.linalg.solve(h[np.ix_(free, free)], g[free])
        w[free] -= step
        if np.abs(step).max() < 1e-10:
            break
    a, b, c, d = (float(v) for v in w)
    return {"sides": {"method": "power", "a": a, "b": b, "c": c, "d": d, "eps": EPS}}


def fit_roles(method: str, rows: list[dict]) -> dict:
    """{"to_move": map, "other": map} fitted on ``rows`` (identity with fewer than 20 pairs)."""
    maps = {}
    for role in ("to_move", "other"):
        p, y = training_pairs(rows, role)
        maps[role] = FITS[method](p, y) if len(p) >= 20 else {"method": "identity"}
    return maps


def fit(kind: str, rows: list[dict]) -> dict:
    """The maps of candidate ``kind`` fitted on ``rows``: {phase: {role: map}}."""
    if kind == "identity":
        return {name: {"to_move": {"method": "identity"}, "other": {"method": "identity"}} for name in PHASES}
    if kind in POWER_FREE:
        return fit_power(kind, rows)
    method, _, per_phase = kind.partition("_")
    if not per_phase:
        one = fit_roles(method, rows)
        return {name: one for name in PHASES}
    return {name: fit_roles(method, part) for name, part in by_phase(rows).items()}


CANDIDATES = ("identity", "power", "power_phase", "platt", "power_phase_move", "platt_phase", "isotonic",
              "isotonic_phase")


def cross_validated(variant: str, kind: str, rows: list[dict]) -> tuple[float, float]:
    """ECE and Brier score of ``kind`` over the training games, each fold's predictions by the map
    fitted on the other folds (folds by game index)."""
    p_all, y_all = [], []
    for fold in range(FOLDS):
        fitted = fit(kind, [r for r in rows if r["game"] % FOLDS != fold])
        p, y = predictions([r for r in rows if r["game"] % FOLDS == fold], calibrated=True,
                           table={variant: fitted})
        p_all.append(p)
        y_all.append(y)
    p, y = np.concatenate(p_all), np.concatenate(y_all)
    return ece(p, y), brier(p, y)


def table_text(chosen: dict[str, dict]) -> str:
    lines = ['"""Calibration maps per variant (and game phase), written by benchmarks/fit_calibration.py',
             "(per variant the candidate of the least cross-validated Brier score on the training games",
             "among those of ECE at most 0.05; see there).",
             '"""', "TABLE: dict = {"]
    for variant, maps in chosen.items():
        lines.append(f"    {variant!r}: {{")
        for name, entry in maps.items():
            lines.append(f"        {name!r}: {entry!r},")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--runs", type=Path, default=ROOT / "runs")
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--dry-run", action="store_true", help="print the fits, do not write the table")
    args = parser.parse_args(argv)
    cache = args.cache or args.runs / "calibration_positions.jsonl"
    chosen = dict(TABLE)  # the variants not fitted now keep their maps
    for variant in args.variants:
        every = evaluated_rows(variant, args.runs, cache, STRIDE[variant], search=False)
        rows = [r for r in split(every, test=False) if r["source"] == "selfplay"]
        test = split(every, test=True)
        raw_p, y = predictions(rows, calibrated=False)
        print(f"{variant}: {len({r['game'] for r in rows})} training games, {len(rows)} positions; "
              f"uncalibrated (exact where solved) ECE {ece(raw_p, y):.3f}, Brier {brier(raw_p, y):.4f}")
        scores = {}
        for kind in CANDIDATES:
            scores[kind] = cross_validated(variant, kind, rows)
            # for information only: the choice is made on the training games
            p, y = predictions(test, calibrated=True, table={variant: fit(kind, rows)})
            print(f"  {kind:<16} cross-validated ECE {scores[kind][0]:.3f}, Brier {scores[kind][1]:.4f}; "
                  f"held out: ECE {ece(p, y):.3f}, Brier {brier(p, y):.4f}")
        allowed = [k for k in CANDIDATES if scores[k][0] <= MAX_ECE] or ["identity"]
        best = min(allowed, key=lambda k: (round(scores[k][1], 4), CANDIDATES.index(k)))
        chosen[variant] = {"fit": best, **fit(best, rows)}
        print(f"  chosen: {best}")
    if not args.dry_run:
        TABLE_FILE.write_text(table_text(chosen))
        print(f"written to {TABLE_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
