"""Fits the weights of the search's static evaluation to the outcomes of recorded Duo games.

The evaluation of a position is colour 0's chance to win, 1 / (1 + exp(-w . x)): x its
features computed by the C core (csrc/engine/evaluation.h, blokus._core.evaluation), w the
weights of the game's phase.  The fit is a logistic regression per phase of each position's
features on its game's outcome (1 when colour 0 won, 1/2 for a draw, 0 when it lost), by
Newton's method with a small L2 penalty; the first position of each colour (before it has placed
a piece) is left out, the same in every game.  Every fifth game is held out; the script prints,
per phase, the held-out log-likelihood of the outcome for the phase's mean alone, for the build's
own evaluation and for the weights fitted to the other games, and with --header PATH fits again
to all the games and writes those weights as the C table the build includes
(csrc/engine/evaluation_duo.h), `--source` describing the games.

Games: .blksgf files of Duo games (game data is not kept in the repository), for instance
Pentobi's self-play under its match runner and our matches against it:

    twogtp -b "pentobi-gtp --nobook -l 6" -w "pentobi-gtp --nobook -l 6" \\
        -g duo -n 400 -f /tmp/eval-data/pentobi-l6
    PYTHONPATH=. python3 benchmarks/bench_strength.py --levels 6 --games 100 --out /tmp/eval-data/ours
    PYTHONPATH=. python3 benchmarks/fit_evaluation.py /tmp/eval-data/*.blksgf /tmp/eval-data/*/*.blksgf \\
        --header csrc/engine/evaluation_duo.h
"""
import argparse
import os
import textwrap

import numpy as np
from c_table import write_c_table

from blokus import Game, _core, sgf

PHASES = 5  # BK_EVAL_PHASES (evaluation.h)
PHASE_NAMES = ["< 10 pieces", "10-15", "16-21", "22-29", ">= 30"]  # pieces on the board, as evaluation.c
HELD_OUT = 5  # every fifth game


def outcome(game):
    """Colour 0's result: 1 won, 1/2 drawn, 0 lost (Duo: a colour is a player)."""
    first, second = game.player_scores()
    return 1.0 if first > second else 0.5 if first == second else 0.0


def positions(games):
    """(features (M, F), phase (M,), the build's evaluation (M,), outcome (M,), game (M,)) of the
    positions of the Duo games after both colours' first pieces."""
    x, phase, build, y, game_of = [], [], [], [], []
    for k, record in enumerate(games):
        if record.variant != "duo":
            continue
        result = outcome(record)
        game = Game("duo", start=record.start)
        for ply, (_, move) in enumerate(record.history):
            if ply >= game.num_colours:
                value, p, features = _core.evaluation(game)
                x.append(features)
                phase.append(p)
                build.append(value)
                y.append(result)
                game_of.append(k)
            game.play(move)
    if not x:
        raise SystemExit("no duo games in the records")
    return np.array(x), np.array(phase), np.array(build), np.array(y), np.array(game_of)


def fit(x, y, penalty):
    """The weights of a logistic regression of y (in [0, 1]) on x, by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + penalty * w
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + penalty * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def log_likelihood(p, y):
    """Mean log-likelihood of outcomes y (a draw half of each) under chances p."""
    p = np.clip(p, 1e-9, 1.0 - 1e-9)
    return float(np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)))


def write_header(path, w, figures):
    lines = [
        "/* The static evaluation: weights of the features of evaluation.h (BK_EVAL_BIAS ...),",
        " * one row per phase of the game (bk_evaluation_phase), colour 0's chance to win",
        " * being 1 / (1 + exp(-w . x)).  Fitted by benchmarks/fit_evaluation.py (a logistic",
        " * regression on each game's outcome) to Duo games:",
        *textwrap.wrap(figures, 92, initial_indent=" * ", subsequent_indent=" * "),
        " * Generated: fit again rather than edit. */",
    ]
    write_c_table(path, lines, "static const float bk_evaluation_duo[BK_EVAL_PHASES][BK_EVAL_FEATURES]", w.tolist(), 5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", help=".blksgf files")
    parser.add_argument("--penalty", type=float, default=1e-3, help="L2 penalty on the weights")
    parser.add_argument("--header", help="fit to all the games and write the weights as a C table to this file")
    parser.add_argument("--source", help="what the games are, for the header (default: the files' names)")
    args = parser.parse_args()
    games = [g for path in args.records for g in sgf.read(path, mainline=True)]
    x, phase, build, y, game_of = positions(games)
    held = game_of % HELD_OUT == 0
    print(f"{len(set(game_of))} duo games, {len(y)} positions ({int(held.sum())} held out)")
    print("held-out log-likelihood of the outcome per position:")
    print(f"{'phase':<12} {'positions':>9} {'mean alone':>11} {'this build':>11} {'fitted':>8}")
    fitted = {}
    for p in range(PHASES):
        train, test = (phase == p) & ~held, (phase == p) & held
        if not train.any() or not test.any():
            raise SystemExit(f"no positions of phase {p} ({PHASE_NAMES[p]}) to fit or to test")
        w = fit(x[train], y[train], args.penalty)
        mean = log_likelihood(np.full(int(test.sum()), y[train].mean()), y[test])
        ours = log_likelihood(build[test], y[test])
        fitted[p] = log_likelihood(1.0 / (1.0 + np.exp(-x[test] @ w)), y[test])
        print(f"{PHASE_NAMES[p]:<12} {int(test.sum()):>9} {mean:>11.3f} {ours:>11.3f} {fitted[p]:>8.3f}")
    w = np.array([fit(x[phase == p], y[phase == p], args.penalty) for p in range(PHASES)])
    print("weights fitted to all the games (rows: phases; columns: 1, colour 1 to move, squares, "
          "log(1 + moves)):")
    for p in range(PHASES):
        print(f"  {PHASE_NAMES[p]:<12}" + "".join(f"{v:>9.4f}" for v in w[p].tolist()))
    if args.header:
        source = args.source or " ".join(os.path.basename(p) for p in args.records)
        figures = (f"{len(set(game_of))} games ({source}); fitted to four fifths of them, the log-likelihood of"
                   " the others' outcomes by phase: " + ", ".join(f"{fitted[p]:.3f}" for p in range(PHASES)) + ".")
        write_header(args.header, w, figures)
        print("wrote", args.header)


if __name__ == "__main__":
    main()
