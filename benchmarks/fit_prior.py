"""Fits the weights of the tree's prior to the moves of recorded games.

The prior of a legal move is exp(w . x): x its features computed by the C
core (csrc/engine/prior.h, blokus._core.prior_features; names in
blokus._core.PRIOR_FEATURES), w the weights of the game's phase.  The fit is
a conditional logit: a softmax over each position's legal moves of the move
played, by maximum likelihood (L-BFGS, a small L2 penalty).  Every fifth game
is held out; the script prints the held-out log-likelihood and how often the
played move has the highest prior or is among the 5 or 21 highest, for the
fitted weights and for the build's own prior (bk_prior_scores, the prior at temperature
1, as _core.prior_features gives it; the search takes it flatter, at its
prior_temperature), and with --header PATH writes the fitted weights as the C table the build includes
(csrc/engine/prior_duo.h for Duo, csrc/engine/prior_classic.h, used on every
20x20 board, for classic_2). 4-colour classic has no table of its own yet: --variant classic
fits and reports, and writes nothing.

With --pentobi-only the records are bench_strength.py's (twogtp's game number GN in each
record's root): the moves of our colours, which twogtp gives its program -b by game number, are
played but not fitted, so that a match's records fit Pentobi's moves alone:

    python3 benchmarks/fit_prior.py --variant classic --pentobi-only RUN_DIR/classic-level6.blksgf

Games: .blksgf files (game data is not kept in the repository), for
instance Pentobi's self-play under its match runner:

    twogtp -b "pentobi-gtp --nobook -l 6" -w "pentobi-gtp --nobook -l 6" \\
        -g duo -n 400 -f /tmp/prior-data/duo-l6
    python3 benchmarks/fit_prior.py --variant duo /tmp/prior-data/duo-*.blksgf \\
        --header csrc/engine/prior_duo.h
"""
import argparse
import math
import os

import numpy as np
import torch
from c_table import write_c_table

from blokus import Game, _core, sgf

PHASES = 3  # BK_PRIOR_PHASES: before 8 pieces on the board, before 20, after (prior.h)
# the C table each variant's fit makes (4-colour classic: none yet)
TABLES = {"duo": "bk_prior_duo", "classic_2": "bk_prior_classic", "classic": None}
FEATURES = _core.PRIOR_FEATURES
HELD_OUT = 5  # every fifth game


def positions(games, variant, skipped):
    """(features (M, F), position of each row (M,), phase (P,), played row (P,), game (P,),
    the build's log prior (M,)) of the games of `variant`, but for the moves of the players
    skipped(root properties of the record) names."""
    rows, owner, phase, played, game_of, priors = [], [], [], [], [], []
    m = 0
    for k, (record, root) in enumerate(games):
        if record.variant != variant:
            continue
        game, skip = Game(variant, start=record.start), skipped(root)
        for colour, move in record.history:
            if game.to_move != colour:
                raise ValueError(f"game {k}: colour {colour} plays out of turn")
            if game.player_to_move in skip:
                game.play(move)
                continue
            ids, x, p, log_prior = _core.prior_features(game)
            hit = np.flatnonzero(ids == move)
            if len(hit) != 1:
                raise ValueError(f"game {k}: move {move} is not legal")
            if len(ids) > 1:  # a forced move says nothing
                rows.append(x)
                priors.append(log_prior)
                owner.append(np.full(len(ids), len(phase)))
                phase.append(p)
                played.append(m + hit[0])
                game_of.append(k)
                m += len(ids)
            game.play(move)
    if not phase:
        raise SystemExit(f"no {variant} games in the records")
    return (np.concatenate(rows), np.concatenate(owner), np.array(phase), np.array(played),
            np.array(game_of), np.concatenate(priors))


def scores(w, x, owner, phase):
    """Each move's log prior (unnormalised) under weights w (PHASES, F)."""
    return (x * w[phase[owner]]).sum(1)


def log_likelihoods(s, owner, played):
    """Per position, the log probability of the played move under log priors s (a move of
    prior 0 is -inf; the played move's then counts as -inf too)."""
    n = len(played)
    top = torch.full((n,), -math.inf, dtype=s.dtype).scatter_reduce(0, owner, s, "amax")
    total = torch.zeros(n, dtype=s.dtype).index_add(0, owner, torch.exp(s - top[owner]))
    return s[played] - top - torch.log(total)


def ranks(s, owner, played, ks=(1, 5, 21)):
    """Chance that the played move is among the k of highest prior, for each k (ties shared)."""
    n = len(played)
    mine = s[played][owner]
    above = torch.zeros(n).index_add(0, owner, (s > mine).float())
    tied = torch.zeros(n).index_add(0, owner, (s == mine).float())
    return [float(((k - above) / tied).clamp(0, 1).mean()) for k in ks]


def fit(x, owner, phase, played, penalty):
    w = torch.zeros(PHASES, x.shape[1], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=200, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = -log_likelihoods(scores(w, x, owner, phase), owner, played).mean() + penalty * (w ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return w.detach()


def subset(data, keep):
    """(features, owner, phase, played, build's log prior) of the positions `keep` selects, as tensors
    indexed afresh."""
    x, owner, phase, played, _, prior = data
    pos = np.flatnonzero(keep)
    rows = np.flatnonzero(keep[owner])
    new_index = np.full(len(phase), -1)
    new_index[pos] = np.arange(len(pos))
    row_index = np.full(len(owner), -1)
    row_index[rows] = np.arange(len(rows))
    return (torch.tensor(x[rows], dtype=torch.float64), torch.tensor(new_index[owner[rows]]),
            torch.tensor(phase[pos]), torch.tensor(row_index[played[pos]]),
            torch.tensor(prior[rows], dtype=torch.float64))


def write_header(path, table, w, command, figures):
    lines = [
        "/* The tree's prior: weights of the move features of prior.h (BK_PRIOR_PIECE ...),",
        " * one row per phase of the game (bk_prior_phase), the prior being exp(w . x).",
        " * Fitted by benchmarks/fit_prior.py (a softmax over each position's legal moves",
        " * of the move played) to Pentobi's self-play games:",
        f" *     {command}",
        f" * {figures}",
        " * Generated: fit again rather than edit. */",
    ]
    write_c_table(path, lines, f"static const float {table}[BK_PRIOR_PHASES][BK_PRIOR_FEATURES]", w.tolist(), 4)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", help=".blksgf files")
    parser.add_argument("--variant", choices=TABLES, default="duo", help="the games to fit (default: duo)")
    parser.add_argument("--penalty", type=float, default=1e-4, help="L2 penalty on the weights")
    parser.add_argument("--header", help="write the fitted weights as a C table to this file")
    parser.add_argument("--pentobi-only", action="store_true",
                        help="bench_strength.py's records: leave out the moves of the player twogtp's -b "
                             "held (game number GN mod the players)")
    args = parser.parse_args()
    if args.header and TABLES[args.variant] is None:
        parser.error(f"{args.variant} has no C table yet: fit without --header")
    torch.set_num_threads(1)
    games = [g for path in args.records for g in sgf.records(open(path, encoding="utf-8").read(), mainline=True)]
    players = Game(args.variant).num_players

    def skipped(root):
        if not args.pentobi_only:
            return set()
        if "GN" not in root:
            raise SystemExit("--pentobi-only: a record without twogtp's game number (GN)")
        return {int(root["GN"][0]) % players}

    data = positions(games, args.variant, skipped)
    held = data[4] % HELD_OUT == 0
    train, test = subset(data, ~held), subset(data, held)
    print(f"{len(set(data[4]))} {args.variant} games, {len(data[2])} positions ({int(held.sum())} held out), "
          f"{len(data[1]) / len(data[2]):.0f} legal moves per position")
    w = fit(*train[:4], args.penalty)
    x, owner, phase, played, build = test
    ks = (1, 5, 21)
    print(f"{'held-out games':<16} {'log-lik/move':>12} " + " ".join(f"{'top ' + str(k):>7}" for k in ks))
    results = {}
    for name, s in (("this build", build), ("fitted", scores(w, x, owner, phase))):
        ll = float(log_likelihoods(s, owner, played).mean())
        top = ranks(s, owner, played, ks)
        results[name] = (ll, top)
        print(f"{name:<16} {ll:>12.3f} " + " ".join(f"{t:>7.1%}" for t in top))
    print("fitted weights (columns: phases 0-2 of prior.h, before 8 pieces, before 20, after):")
    for f, name in enumerate(FEATURES):
        print(f"  {name:<28}" + "".join(f"{v:>8.3f}" for v in w[:, f].tolist()))
    if args.header:
        ll, top = results["fitted"]
        figures = (f"{len(set(data[4]))} games; held out: log-likelihood/move {ll:.3f}, top 1 {top[0]:.0%}, "
                   f"top 21 {top[2]:.0%}.")
        command = (f"python3 benchmarks/fit_prior.py --variant {args.variant} "
                   + " ".join(os.path.basename(p) for p in args.records))
        write_header(args.header, TABLES[args.variant], w, command, figures)
        print("wrote", args.header)


if __name__ == "__main__":
    main()
