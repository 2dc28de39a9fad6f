"""Fits the weights of the tree's prior (Duo) to the moves of recorded games.

The prior of a legal move is exp(w . x): x its features computed by the C
core (csrc/engine/playout_policy.h, blokus._core.prior_features), w the
weights of the game's phase.  The fit is a conditional logit: a softmax over
each position's legal moves of the move played, by maximum likelihood (L-BFGS,
a small L2 penalty).  Every fifth game is held out; the script prints the
held-out log-likelihood and how the played move ranks, for the fitted weights
and for the tree's hand-set prior (bk_policy_priors), and with --header PATH
writes the fitted weights as a C table for a build to try.

The rank figures are those of the tree's order: priors in the same
half-octave are tied and come in random order (csrc/engine/mcts.c,
order_by_prior), so "top 1" is the chance that the played move comes first
and "top k" that it is among the first k; a node visited n times admits
1 + 2 sqrt(n) children (k = 5: 4 visits, k = 21: 100 visits).

Games: .blksgf files of Duo games (game data is not kept in the repository),
for instance Pentobi's self-play under its match runner:

    twogtp -b "pentobi-gtp --nobook -l 6" -w "pentobi-gtp --nobook -l 6" \\
        -g duo -n 200 -f /tmp/prior-data/l6
    python3 benchmarks/fit_prior.py /tmp/prior-data/*.blksgf --header /tmp/prior_weights.h

Measured (benchmarks/README.md, strength section): the fitted prior predicts
Pentobi's moves better than the hand-set one but did not make the search
stronger, so the tree keeps the hand-set prior.
"""
import argparse
import math
import os

import numpy as np
import torch

from blokus import PIECE_NAMES, Game, _core, sgf

PHASES = 3  # BK_PRIOR_PHASES: before 8 pieces on the board, before 20, after (playout_policy.h)
PIECES = len(PIECE_NAMES)
FEATURES = [f"piece {name}" for name in PIECE_NAMES] + [
    "local count", "any local", "cells on rivals' points", "cells on partner's points",
    "edge: partner", "edge: occupied", "edge: forbidden", "edge: own point", "edge: free",
    "corner: own", "corner: taken"] + [f"corner: open {k}" for k in range(5)] + [
    "corner: partner's point", "below opening size"]
HELD_OUT = 5  # every fifth game


def positions(games):
    """(features (M, F), position of each row (M,), phase (P,), played row (P,), game (P,))."""
    rows, owner, phase, played, game_of = [], [], [], [], []
    m = 0
    for k, record in enumerate(games):
        if record.variant != "duo":
            continue
        game = Game("duo", start=record.start)
        for colour, move in record.history:
            if game.to_move != colour:
                raise ValueError(f"game {k}: colour {colour} plays out of turn")
            ids, x, p = _core.prior_features(game)
            hit = np.flatnonzero(ids == move)
            if len(hit) != 1:
                raise ValueError(f"game {k}: move {move} is not legal")
            if len(ids) > 1:  # a forced move says nothing
                rows.append(x)
                owner.append(np.full(len(ids), len(phase)))
                phase.append(p)
                played.append(m + hit[0])
                game_of.append(k)
                m += len(ids)
            game.play(move)
    return (np.concatenate(rows), np.concatenate(owner), np.array(phase), np.array(played),
            np.array(game_of))


def log_likelihoods(w, x, owner, phase, played):
    """Per position, the log probability of the played move under weights w (PHASES, F)."""
    s = (x * w[phase[owner]]).sum(1)
    top = torch.full((len(phase),), -math.inf, dtype=s.dtype).scatter_reduce(0, owner, s, "amax")
    total = torch.zeros(len(phase), dtype=s.dtype).index_add(0, owner, torch.exp(s - top[owner]))
    return s[played] - top - torch.log(total)


def ranks(w, x, owner, phase, played, ks=(1, 5, 21)):
    """Chance that the played move is among the first k of the tree's order, for each k."""
    s = (x * w[phase[owner]]).sum(1)
    bucket = torch.floor(2 * s / math.log(2))  # half-octaves, as order_by_prior
    mine = bucket[played][owner]
    above = torch.zeros(len(phase)).index_add(0, owner, (bucket > mine).float())
    tied = torch.zeros(len(phase)).index_add(0, owner, (bucket == mine).float())
    return [float(((k - above) / tied).clamp(0, 1).mean()) for k in ks]


def fit(x, owner, phase, played, penalty):
    w = torch.zeros(PHASES, x.shape[1], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=200, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = -log_likelihoods(w, x, owner, phase, played).mean() + penalty * (w ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return w.detach()


def subset(data, keep):
    x, owner, phase, played, _ = data
    pos = np.flatnonzero(keep)
    rows = np.flatnonzero(keep[owner])
    new_index = np.full(len(phase), -1)
    new_index[pos] = np.arange(len(pos))
    row_index = np.full(len(owner), -1)
    row_index[rows] = np.arange(len(rows))
    return (torch.tensor(x[rows], dtype=torch.float64), torch.tensor(new_index[owner[rows]]),
            torch.tensor(phase[pos]), torch.tensor(row_index[played[pos]]))


def write_header(path, w, command, figures):
    lines = [
        "/* A prior for the tree in Duo: weights of the move features of playout_policy.h",
        " * (BK_PRIOR_PIECE ...), one row per phase of the game (bk_prior_phase), the prior",
        " * being exp(w . x).  Fitted by benchmarks/fit_prior.py (a softmax over each",
        " * position's legal moves of the move played) to Pentobi's self-play games:",
        f" *     {command}",
        f" * {figures}",
        " * x from bk_prior_features, w = bk_prior_weights[bk_prior_phase(b)]. */",
        "#ifndef BK_PRIOR_WEIGHTS_H",
        "#define BK_PRIOR_WEIGHTS_H",
        "",
        "static const float bk_prior_weights[BK_PRIOR_PHASES][BK_PRIOR_FEATURES] = {",
    ]
    for row in w.tolist():
        lines.append("    {" + ", ".join(f"{v:.4f}f" for v in row) + "},")
    lines += ["};", "", "#endif", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", help=".blksgf files of Duo games")
    parser.add_argument("--penalty", type=float, default=1e-4, help="L2 penalty on the weights")
    parser.add_argument("--header", help="write the fitted weights as a C table to this file")
    args = parser.parse_args()
    torch.set_num_threads(1)
    games = [g for path in args.records for g in sgf.read(path, mainline=True)]
    data = positions(games)
    held = data[4] % HELD_OUT == 0
    train, test = subset(data, ~held), subset(data, held)
    print(f"{len(games)} games, {len(data[2])} positions ({int(held.sum())} held out), "
          f"{len(data[1]) / len(data[2]):.0f} legal moves per position")
    w = fit(*train, args.penalty)
    ks = (1, 5, 21)
    print(f"{'held-out games':<16} {'log-lik/move':>12} " + " ".join(f"{'top ' + str(k):>7}" for k in ks))
    results = {}
    for name, weights in (("fitted", w),):
        ll = float(log_likelihoods(weights, *test).mean())
        top = ranks(weights, *test, ks)
        results[name] = (ll, top)
        print(f"{name:<16} {ll:>12.3f} " + " ".join(f"{t:>7.1%}" for t in top))
    print("fitted weights (columns: phases 0-2 of playout_policy.h, before 8 pieces, before 20, after):")
    for f, name in enumerate(FEATURES):
        print(f"  {name:<28}" + "".join(f"{v:>8.3f}" for v in w[:, f].tolist()))
    if args.header:
        ll, top = results["fitted"]
        figures = (f"{len(games)} games; held out: log-likelihood/move {ll:.3f},\n"
                   f" * top 1 {top[0]:.0%}, top 21 {top[2]:.0%}.")
        command = "python3 benchmarks/fit_prior.py " + " ".join(os.path.basename(p) for p in args.records)
        write_header(args.header, w, command, figures)
        print("wrote", args.header)


if __name__ == "__main__":
    main()
