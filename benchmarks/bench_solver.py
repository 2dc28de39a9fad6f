"""How far from the end the exact endgame solver (csrc/engine/solver.c) finishes, and at what cost.

    PYTHONPATH=. python3 benchmarks/bench_solver.py                       # 20 greedy Duo games
    PYTHONPATH=. python3 benchmarks/bench_solver.py --games 40 --agent mcts:sims=300 --plies 2-20

Plays seeded games with ``--agent`` for both colours (one agent per game, seeded by the game's
number), then solves the position N plies before each game's end for every N of ``--plies``
(from the end backwards; a game whose solve ran out of ``--max-nodes`` at N is not tried further
out). One row per N: games solved, moves left per colour (mean), nodes (median, max) and CPU
seconds of the solve (its thread's, so that a busy machine does not inflate them: median, 90th
percentile, max, over the solved games), and the share of all the games whose solve finished
within the CPU per move of Pentobi's level 6 (~0.08 s) and level 7 (~1.3 s).

With ``--by-moves``, instead: every position of every game, grouped by the legal moves of all
colours (in steps of 20), and the share of each group that a solve of ``--max-nodes`` finishes:
where ``MCTSAgent(solve=N)`` starts trying (``SOLVE_WITHIN_MOVES``).

    PYTHONPATH=. python3 benchmarks/bench_solver.py --by-moves --agent mcts:sims=300:threads=1 --max-nodes 50000

With ``--outcome``, each solve proves only win, draw or loss (``_core.solve(..., outcome=True)``,
what ``MCTSAgent(solve=N)`` runs) instead of the final margin.

With ``--records FILE`` the games are read from an SGF file (as ``bench_strength.py``'s twogtp
records) instead of played. ``--decided`` then asks, per game, where it was decided: the
outcome for the first player proved at each ply from the end backwards (``--outcome`` solves)
until a solve runs out; a change of outcome within that reach is a mistake a solver would not
have made, and the side that made it.

    PYTHONPATH=. python3 benchmarks/bench_solver.py --records runs/duo-level7.blksgf --decided --max-nodes 15000000
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import blokus
from blokus import _core
from blokus.agents import make_agent
from blokus.sgf import read
from blokus.variants import variant

from timing import Stopwatch

LEVEL_SECONDS = {"L6": 0.08, "L7": 1.3}  # Pentobi's CPU per move at levels 6 and 7 (issue 26)


def plies_list(text: str) -> list[int]:
    plies = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        plies += range(int(lo), int(hi or lo) + 1)
    return sorted(set(plies))


def played_game(variant: str, agent: str, seed: int) -> blokus.Game:
    player = make_agent(agent, seed=seed)
    game = blokus.Game(variant, start="fixed")
    while not game.is_over:
        game.play(player(game))
    return game


def position_before_end(game: blokus.Game, plies: int) -> blokus.Game | None:
    if plies > len(game.history):
        return None
    position = game.copy()
    for _ in range(plies):
        position.undo()
    return position


def solve(position: blokus.Game, max_nodes: int, outcome: bool) -> tuple[bool, int]:
    """(whether the solve finished, the positions it searched): the margin's, or with `outcome`
    only win, draw or loss."""
    margin, _, nodes, _ = _core.solve(position, max_nodes=max_nodes, all_best=False, outcome=outcome)
    return margin is not None, nodes


def decided(games: list[blokus.Game], max_nodes: int) -> None:
    """Prints per game the outcome of player 1's side proved at each ply from the end backwards
    (W, D, L), to the first solve that runs out; then how far the solves reached and the moves
    within that reach that changed the outcome, by the side that made them."""
    mistakes, reach = [0, 0], []
    for number, game in enumerate(games):
        sides = variant(game.variant).player_sides
        proved = []  # (plies before the end, side 0's outcome, the side to move there)
        for plies in range(1, len(game.history) + 1):
            position = position_before_end(game, plies)  # a placement still to make: not over
            outcome, _, _, side = _core.solve(position, max_nodes=max_nodes, all_best=False, outcome=True)
            if outcome is None:
                break
            proved.append((plies, outcome if side == 0 else -outcome, sides[position.player_to_move]))
        reach.append(proved[-1][0] if proved else 0)
        for (_, later, _), (_, earlier, mover) in zip(proved, proved[1:]):
            if later != earlier:  # the move the mover made there changed the outcome
                mistakes[mover] += 1
        margin = _core.solve(game)[0]  # a finished game's: side 0's final margin (bk_final_margin)
        line = " ".join(f"{p}{'LDW'[o + 1]}" for p, o, _ in proved) or "-"
        print(f"game {number}: player 1's side {margin:+d}; proved (plies before the end): {line}", flush=True)
    print(f"reach in plies before the end: median {statistics.median(reach):g}, min {min(reach)}, "
          f"max {max(reach)}")
    print(f"moves that changed the outcome within it: player 1's side {mistakes[0]}, the other {mistakes[1]}")


def moves_left(game: blokus.Game, plies: int) -> float:
    """Placements each colour makes in the last `plies` of the game, averaged over the colours."""
    colours = [colour for colour, _ in game.history[len(game.history) - plies:]]
    return len(colours) / game.num_colours


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


MANY_MOVES = 200  # --by-moves: positions with this many legal moves or more share a row


def by_legal_moves(games: list[blokus.Game], max_nodes: int, outcome: bool) -> None:
    """Prints, per 20 legal moves of all colours, the positions and the share a solve finishes."""
    solved: dict[int, list[bool]] = {}
    for game in games:
        for plies in range(1, len(game.history) + 1):
            position = position_before_end(game, plies)
            legal = sum(len(position.legal_moves(c)) for c in range(position.num_colours))
            exact, _ = solve(position, max_nodes, outcome)
            solved.setdefault(min(legal // 20 * 20, MANY_MOVES), []).append(exact)
    print(f"{'legal moves':>11} {'positions':>9} {'solved':>7}")
    for low in sorted(solved):
        label = f"{low}-{low + 19}" if low < MANY_MOVES else f"{MANY_MOVES}+"
        print(f"{label:>11} {len(solved[low]):>9} {sum(solved[low]) / len(solved[low]):>7.0%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="duo", choices=["duo", "classic_2", "classic_teams"])
    parser.add_argument("--agent", default="greedy", help="agent string playing the games (default: greedy)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", type=plies_list, default=plies_list("2-16"),
                        help="plies before the end, e.g. 2-16 or 4,8,12 (default: 2-16)")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="budget of one solve")
    parser.add_argument("--by-moves", action="store_true",
                        help="the share solved by the legal moves of all colours, over every position")
    parser.add_argument("--outcome", action="store_true", help="prove only win, draw or loss, not the margin")
    parser.add_argument("--records", type=Path, help="read the games from this SGF file instead of playing them")
    parser.add_argument("--decided", action="store_true",
                        help="per game, the outcome proved at each ply from the end (with --records)")
    args = parser.parse_args(argv)

    if args.records:
        games = read(args.records)
        args.games, played = len(games), f"from {args.records}"
    else:
        games = [played_game(args.variant, args.agent, seed) for seed in range(args.games)]
        played = f"of {args.agent}"
    print(f"{games[0].variant if games else args.variant}, {args.games} games {played}, budget "
          f"{args.max_nodes:,} nodes per solve of the {'outcome' if args.outcome or args.decided else 'margin'}")
    if args.decided:
        decided(games, args.max_nodes)
        return 0
    if args.by_moves:
        by_legal_moves(games, args.max_nodes, args.outcome)
        return 0
    header = (f"{'plies':>5} {'solved':>7} {'left/col':>8} {'nodes med':>11} {'nodes max':>11} "
              f"{'s med':>8} {'s p90':>8} {'s max':>8} " + " ".join(f"{k + '<=' + str(v):>9}"
                                                              for k, v in LEVEL_SECONDS.items()))
    print(header)
    alive = set(range(args.games))  # games whose solves all finished so far
    for plies in args.plies:
        nodes, seconds, left, tried = [], [], [], 0
        for i in sorted(alive):
            position = position_before_end(games[i], plies)
            if position is None:
                continue
            tried += 1
            with Stopwatch(time.thread_time) as clock:
                exact, searched = solve(position, args.max_nodes, args.outcome)
            elapsed = clock.seconds
            if not exact:
                alive.discard(i)
                continue
            nodes.append(searched)
            seconds.append(elapsed)
            left.append(moves_left(games[i], plies))
        if not tried:
            break
        within = " ".join(f"{sum(s <= v for s in seconds) / args.games:>9.0%}" for v in LEVEL_SECONDS.values())
        if nodes:
            print(f"{plies:>5} {len(nodes):>3}/{args.games:<3} {statistics.mean(left):>8.1f} "
                  f"{statistics.median(nodes):>11,.0f} {max(nodes):>11,} {statistics.median(seconds):>8.4f} "
                  f"{percentile(seconds, 0.9):>8.4f} {max(seconds):>8.4f} {within}")
        else:
            print(f"{plies:>5} {0:>3}/{args.games:<3} (every solve ran out of the budget)")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
