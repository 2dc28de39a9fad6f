"""Calibrated win probabilities: the map from a search's raw win probability to one that means
what it says, and the measures of calibration (ECE, Brier score, reliability table).

The raw figure of an MCTS search is the mean share of the win over its own playouts, which
are far from best play: it is overconfident (a side that lost by one point was given 2-6%).
The map per variant and game phase is fitted on positions of recorded games against how the
games ended (``benchmarks/fit_calibration.py``) and stored in ``_calibration_table.py``: per
phase and role a map of each player's figure (Platt, isotonic), or one "power" map of all the
sides' figures at once whose sharpness changes with the share of the pieces placed.
"""
from __future__ import annotations

import numpy as np

from blokus._core import PIECE_NAMES
from blokus.analysis._calibration_table import TABLE
from blokus.variants import variant as variant_facts

PHASES = ("opening", "middle", "end")
# Pieces on the board per colour at which the middle game and the endgame begin: in Duo games
# between strong players about 15 pieces per colour are placed in all, in classic games about 17.
MIDDLE_PIECES, END_PIECES = 6, 12


def phase(pieces_on_board: int, num_colours: int) -> str:
    """``"opening"`` while fewer than 6 pieces per colour are on the board, ``"end"`` from 12 per
    colour on, ``"middle"`` between (Duo: 12 and 24 pieces in all; 4 colours: 24 and 48)."""
    per_colour = pieces_on_board / num_colours
    return "opening" if per_colour < MIDDLE_PIECES else "end" if per_colour >= END_PIECES else "middle"


def _logit(p: np.ndarray, eps: float) -> np.ndarray:
    p = np.clip(p, eps, 1.0 - eps)
    return np.log(p / (1.0 - p))


def apply_map(entry: dict, raw) -> np.ndarray:
    """One calibration map of the table (``{"method": "platt", "a", "b", "eps"}`` or
    ``{"method": "isotonic", "x", "y"}`` or ``{"method": "identity"}``) applied to raw win
    probabilities (array-like in [0, 1]); float64 of the same shape, in [0, 1]."""
    raw = np.asarray(raw, dtype=np.float64)
    method = entry["method"]
    if method == "platt":
        return 1.0 / (1.0 + np.exp(-(entry["a"] * _logit(raw, entry["eps"]) + entry["b"])))
    if method == "isotonic":
        return np.interp(raw, entry["x"], entry["y"])
    if method == "identity":
        return raw.copy()
    raise ValueError(f"unknown calibration method {method!r}")


def apply_power(entry: dict, raw, to_move: int, placed: float) -> np.ndarray:
    """A "power" map (``{"method": "power", "a", "b", "c", "d", "eps"}``) of the raw win
    probabilities of all the sides (array-like, one per side, each in [0, 1]; ``to_move`` the
    index of the side to move, ``placed`` the share of all pieces on the board, in [0, 1]): side
    s gets a chance proportional to raw_s ** (a + b * placed), times exp(c + d * placed) for the
    side to move. a = 1, b = c = d = 0 is the identity; a + b * placed below 1 flattens the
    figures (early, when the search's favourite wins less often than it says), above 1
    sharpens them. float64, shape (sides,), summing to 1; non-decreasing in each side's raw."""
    raw = np.clip(np.asarray(raw, dtype=np.float64), entry["eps"], 1.0)
    bonus = np.zeros(raw.shape)
    bonus[to_move] = entry["c"] + entry["d"] * placed
    z = (entry["a"] + entry["b"] * placed) * np.log(raw) + bonus
    e = np.exp(z - z.max())
    return e / e.sum()


def _maps(variant: str, table: dict | None = None) -> dict | None:
    """The variant's entry of the table (None: no map)."""
    return (TABLE if table is None else table).get(TABLE_OF_VARIANT.get(variant, variant))


def _entry(variant: str, phase_name: str, table: dict | None = None) -> dict:
    """The maps of a variant and phase: ``{"to_move": map, "other": map}``."""
    maps = _maps(variant, table)
    if maps is None:
        return {"to_move": {"method": "identity"}, "other": {"method": "identity"}}
    return maps[phase_name]


# classic_teams has no games of its own: two sides of two colours each on the 20x20 board, as
# classic_2, whose map it takes.
TABLE_OF_VARIANT = {"classic_teams": "classic_2"}


def calibrate_move(variant: str, pieces_on_board: int, raw: float) -> float:
    """The calibrated win probability of the mover's raw figure for one of its moves (as
    ``move_values`` gives it), ``pieces_on_board`` counted after the move: by the map of a
    player not to move, which the mover is then; not normalised by the other sides'. Under a
    power map the other sides' figures after the move are not known: they are taken to share
    the rest evenly, one of them to move."""
    facts = variant_facts(variant)
    power = (_maps(variant) or {}).get("sides")
    if power is not None:
        sides = len(set(facts.player_sides))
        raw_sides = [raw] + [(1.0 - raw) / (sides - 1)] * (sides - 1)
        return float(apply_power(power, raw_sides, 1, placed_share(pieces_on_board, facts.num_colours))[0])
    return float(apply_map(_entry(variant, phase(pieces_on_board, facts.num_colours))["other"], raw))


def placed_share(pieces_on_board: int, num_colours: int) -> float:
    """The share of all the pieces of the game (21 per colour) on the board, in [0, 1]."""
    return pieces_on_board / (num_colours * len(PIECE_NAMES))


def calibrate_players(variant: str, pieces_on_board: int, raw, mover: int, table: dict | None = None) -> np.ndarray:
    """Calibrated win probabilities of every player, from the raw ones (one per player, each its
    side's share of the win; ``mover`` the player to move): each mapped by the map of its role
    (the search favours the side to move: its raw figure runs a few hundredths above the one
    the same position gets a move later), then scaled so that the sides' add up to 1 as the raw
    ones do; or, where the variant has a "power" map (``{"sides": map}``), all the sides' at
    once by ``apply_power``. float64, shape (P,). ``table``: maps to use instead of the
    package's (``{variant: {phase: {"to_move": map, "other": map}}}`` or ``{variant: {"sides":
    map}}``, as ``TABLE``; the fit tries candidates so)."""
    facts = variant_facts(variant)
    raw = np.asarray(raw, dtype=np.float64)
    firsts = [p for p, s in enumerate(facts.player_sides) if s == p]
    power = (_maps(variant, table) or {}).get("sides")
    if power is not None:
        chances = apply_power(power, raw[firsts], firsts.index(facts.player_sides[mover]),
                              placed_share(pieces_on_board, facts.num_colours))
        return chances[[firsts.index(s) for s in facts.player_sides]]
    maps = _entry(variant, phase(pieces_on_board, facts.num_colours), table)
    mapped = np.array([float(apply_map(maps["to_move" if facts.player_sides[p] == facts.player_sides[mover]
                                            else "other"], raw[p])) for p in range(len(raw))])
    total = mapped[firsts].sum()
    return mapped / total if total > 0 else raw.copy()


# ---------------------------------------------------------------------------------------------
# Measures of calibration

def _binned(p: np.ndarray, bins: int) -> np.ndarray:
    """Bin index of each probability among ``bins`` equal-width bins of [0, 1] (1.0 in the last)."""
    return np.minimum((p * bins).astype(np.int64), bins - 1)


def reliability(p, y, bins: int = 10) -> list[dict]:
    """The reliability table: per equal-width bin of predicted probability, ``lo``, ``hi``,
    ``count``, ``mean_predicted`` and ``mean_observed`` (NaN for an empty bin).

    ``p``: predicted win probabilities; ``y``: what happened, the side's share of the win
    (1, 0, or 1/k for a k-way tie); array-likes of the same length."""
    p, y = np.asarray(p, dtype=np.float64), np.asarray(y, dtype=np.float64)
    which = _binned(p, bins)
    rows = []
    for b in range(bins):
        inside = which == b
        n = int(inside.sum())
        rows.append({"lo": b / bins, "hi": (b + 1) / bins, "count": n,
                     "mean_predicted": float(p[inside].mean()) if n else float("nan"),
                     "mean_observed": float(y[inside].mean()) if n else float("nan")})
    return rows


def ece(p, y, bins: int = 10) -> float:
    """Expected calibration error: the mean over equal-width bins of |mean predicted - mean
    observed|, weighted by the bin's share of the predictions; in [0, 1]. NaN with no data."""
    table = reliability(p, y, bins)
    total = sum(row["count"] for row in table)
    if not total:
        return float("nan")
    return sum(row["count"] * abs(row["mean_predicted"] - row["mean_observed"])
               for row in table if row["count"]) / total


def brier(p, y) -> float:
    """Brier score: the mean squared difference of prediction and outcome, in [0, 1]; lower is
    better, 0.25 for always saying 0.5 to a fair coin. NaN with no data."""
    p, y = np.asarray(p, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return float(np.mean((p - y) ** 2)) if p.size else float("nan")
