"""The MCTS agent: its parameters, their limits and its search."""
from __future__ import annotations

import math
import os
from typing import Any

from blokus import _core
from blokus.agents._params import _check
from blokus.agents._policies import _Seeded
from blokus.agents._search import Search
from blokus.game import Game
from blokus.variants import variant

# The longest time limit a search takes (as the engine's time limits: about 31 years).
MAX_SECONDS = 1e9
# The most threads one search runs (the engine's BK_MCTS_MAX_THREADS).
MAX_THREADS = 64


def available_cores() -> int:
    """The number of cores this process may run on (its CPU affinity where the platform has it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# The engine's defaults of the search's parameters (bk_mcts_defaults in csrc/engine/mcts.c).
_DEFAULTS = _core.MCTS_DEFAULTS
# Legal moves of all colours at most, for an endgame solve to be tried: in Duo games a solve of
# the margin of 50,000 positions finishes at nearly every position below about 60 and at few
# above 80 (`benchmarks/bench_solver.py --by-moves`, measured before the agent's solve proved
# only the outcome, which reaches a little further), so above it would mostly be spent in vain.
SOLVE_WITHIN_MOVES = 100


class MCTSAgent(_Seeded):
    """Monte-Carlo tree search in C, after Pentobi's; see ``csrc/engine/mcts.h``.

    Each simulation descends the tree from the position, then finishes the game by a playout
    policy (local answers to the opponents' last moves, large pieces first, last good replies;
    ``csrc/engine/playout_policy.h``); the final scores give each player a value. In the tree:

    - a node's children are its legal moves with a positive prior (``csrc/engine/prior.h``: a
      log-linear function of the move's features, fitted per board to how Pentobi plays; on the
      20x20 board, while fewer than 8 pieces are down, only the moves nearest the centre have
      one), each starting with a value of small weight made from its prior, so that the moves
      the prior dislikes wait until the others have been found bad;
    - a child is chosen by its value plus c * P * sqrt(N) * log(N + 1) / n, P its share of its
      parent's priors, N the parent's visits, n the child's count (PUCT with Pentobi's log
      factor); once a node has more than 16 visits per child, its unvisited children come
      first, so that every move is tried at last;
    - RAVE: a playout also updates the children of each node on its path whose placement the
      same colour played later in it, as if played there;
    - a node is expanded once visited more than 1 + d / 2 times, d its depth below the root
      (the root at once).

    Parameters
    ----------
    simulations : int, optional
        Simulations per move (``sims`` in an agent string), in [1, 2**63). Default 1000 when
        ``seconds`` is not given either.
    seconds : float, optional
        Time limit per move, in (0, 1e9]: wall-clock seconds, or CPU seconds with
        ``cpu_seconds``; with both, the search stops at whichever comes first.
    exploration : float
        The exploration constant c above (``c`` or ``exploration``), >= 0 and finite; default
        0.5. 0: the children are chosen by their values alone.
    prior_temperature : float
        Temperature T of the children's priors (``prior_temperature``), > 0 and finite; default
        2.5: each prior is exp(w . x / T), w . x the log prior of the move's features fitted to
        the moves Pentobi chose (``csrc/engine/prior.h``), so T = 1 is the fitted prior and a
        higher T a flatter one (the matches that chose 2.5: ``benchmarks/LOG.md``).
    rave : float
        Weight of a RAVE update (``rave``), >= 0 and finite; default 0.3: a child gains the
        playout's value with nearly this weight when its colour played its placement soon after
        that node, and with a weight falling linearly to 0 the later in the simulation it played it
        (while the node has at most 25000 visits and the child a count of at most 2000). 0: no
        RAVE.
    margin : float or None
        Weight w of the score margin in a playout's value, in [0, 0.5) so that any win is worth
        more than any loss (``margin``; default None, the variant's: 0.375 with two sides, the
        balance of place and margin of Pentobi's value, and 0.2 with three or four, where a
        match counts the places alone; the matches that chose them: ``benchmarks/LOG.md``):
        the value is (1 - w) * place
        + w * (1 + tanh(z)) / 2, place the share of the win with two sides (1 won, 1/2 tied,
        0 lost) and with more the side's rank (0 last to 1 first in equal steps, tied sides
        averaging their ranks, as twogtp and Pentobi count a multi-player game), z the margin
        over the mean score of the other sides in standard deviations from its running mean over
        the search's simulations, as Pentobi's. 0: a small fixed margin term instead,
        0.9 * place + 0.1 * (1 + tanh(margin / 20)) / 2.
    evaluation : float
        Weight l of the static evaluation in a simulation's value, in [0, 1] (``evaluation``;
        default 0.3): in Duo the value each player backs up is (1 - l) times the playout's
        value above plus l times its chance to win the position the playout started from, as
        a logistic model of each colour's squares placed and legal placements reckons it,
        fitted to the outcomes of games at Pentobi's level 6 (``_core.evaluation``,
        ``csrc/engine/evaluation.h``; the matches that chose 0.3: ``benchmarks/LOG.md``).
        0, and in other variants: the playout's value alone.
    replies : bool
        Last good reply with forgetting in the playouts (``replies=1``/``0``; default on): each
        colour answers a move with its reply of the last playout its side won, until a
        playout with that reply is lost (LGRF-1, as Pentobi's playouts).
    early_stop : float
        Ends a search before its ``simulations`` once its choice is made (``early_stop``, >= 0
        and finite; default 0: every simulation runs): f > 0 stops once the most visited move
        leads the next by more than f times the simulations left, so f = 1 stops only when the
        move played cannot change any more and a smaller f earlier, as Pentobi does. For play
        at a budget: with f = 1 the same moves cost about a fifth less time in Duo, to spend
        on more simulations where the choice is close; the other moves' figures are rougher.
        Per tree with ``threads`` > 1; no effect on a search by ``seconds`` alone.
    growth : float
        How the budget grows over a colour's game (``growth``, in [0.5, 2]; default 1: the
        same for every move): a colour's k-th placement (k = 0 for its first) gets
        ``simulations`` and ``seconds`` times growth ** k, so that with growth > 1 the opening
        moves, whose simulations cost the most, get fewer of them than the middle game.
    max_nodes : int
        Positions the trees may hold in all (``max_nodes``, in [1, 2**32); default 4294967295,
        no cap: the memory budget decides). A tree that reaches its share of this or of the
        memory budget (a quarter of the machine's memory, at most 1 GiB, for all trees) frees
        the subtrees below its least visited positions and searches on; the root's moves keep
        their figures. A position costs 64 bytes, its considered moves 4 bytes each and a move
        the search has touched 32 more: about 0.5 KB per simulation from the Duo opening.
    threads : int, optional
        Threads searching, 1 to 64 (``threads``); default: the cores this process may use
        (``os.sched_getaffinity``). Root parallelisation: each thread grows its own tree from
        the position with its own random stream, and the trees' root statistics are added up
        (``simulations`` is the total over the threads). One thread is the plain search; a
        given seed gives the same moves for a given number of threads, so results with the
        default depend on the machine.
    shared : bool
        The threads grow one tree together (``shared=1``; default off): a thread locks a
        position only while its simulation passes through it, going down and backing up, so
        that the threads' simulations run side by side, and a simulation under way counts as
        a lost visit of its moves (a virtual loss), so that the threads spread over the tree.
        Its moves then depend on how the threads were scheduled, not on the seed alone. No
        effect with one thread.
    reuse : bool
        Keep the search between moves (``reuse=1``/``0``; default on): when the next position
        follows from the last one searched by moves that search tried (a game going on, its
        moves since then played in turn), the subtree below them is kept with its visits and
        values, and ``simulations`` more are run on top, as Pentobi does; any other position
        starts afresh. A search of the same position again continues the last one. The agent
        then holds its trees (within the budget above) between calls.
    cpu_seconds : bool
        ``seconds`` counts the CPU time each search thread uses (``cpu=1``; default off: wall
        time), read off the process's CPU clock, so that a busy machine slows the search down
        instead of cutting its thinking short (another thread of the process that runs meanwhile
        counts too).
    solve : int
        Positions an exact endgame solve may visit before each move (``solve``, in [0, 2**50);
        default 0: none; about 5 million positions per CPU second), in games of two sides
        (``duo``, ``classic_2``, ``classic_teams``) once the colours have at most
        ``SOLVE_WITHIN_MOVES`` (100) legal moves in all. The solve proves only the outcome under
        perfect play (win, draw or loss: ``_core.solve(..., outcome=True)``, a fraction of the
        positions the margin needs); when it proves a win or a draw, the agent plays a move
        that forces it instead of searching; a loss, or a solve that runs out, is left to the
        search. ``search`` never solves.
    seed : int or None

    Raises
    ------
    ValueError
        A parameter out of range (the message names it).

    Notes
    -----
    The defaults of ``exploration``, ``prior_temperature``, ``rave``, ``margin``, ``evaluation``,
    ``replies``, ``early_stop`` and ``max_nodes`` are the engine's (``blokus._core.MCTS_DEFAULTS``).
    """

    def __init__(self, simulations: int | None = None, seconds: float | None = None, *,
                 exploration: float = _DEFAULTS["exploration"],
                 prior_temperature: float = _DEFAULTS["prior_temperature"], rave: float = _DEFAULTS["rave"],
                 margin: float | None = _DEFAULTS["margin"], evaluation: float = _DEFAULTS["evaluation"],
                 replies: bool = _DEFAULTS["replies"],
                 early_stop: float = _DEFAULTS["early_stop"],
                 max_nodes: int = _DEFAULTS["max_nodes"], threads: int | None = None,
                 reuse: bool = True, cpu_seconds: bool = False, solve: int = 0, growth: float = 1.0,
                 shared: bool = False, seed: int | None = None):
        super().__init__(seed)
        if simulations is None and seconds is None:
            simulations = 1000
        if threads is None:
            threads = min(available_cores(), MAX_THREADS)
        _check(simulations is None or 1 <= simulations < 2**63, "simulations", simulations, "in [1, 2**63)")
        _check(seconds is None or 0 < seconds <= MAX_SECONDS, "seconds", seconds, f"in (0, {MAX_SECONDS:g}]")
        _check(0 <= exploration < math.inf, "exploration", exploration, ">= 0 and finite")
        _check(0 < prior_temperature < math.inf, "prior_temperature", prior_temperature, "> 0 and finite")
        _check(0 <= rave < math.inf, "rave", rave, ">= 0 and finite")
        _check(margin is None or 0 <= margin < 0.5, "margin", margin, "None or in [0, 0.5)")
        _check(0 <= evaluation <= 1, "evaluation", evaluation, "in [0, 1]")
        _check(replies in (0, 1), "replies", replies, "True or False (1 or 0)")
        _check(0 <= early_stop < math.inf, "early_stop", early_stop, ">= 0 and finite")
        _check(1 <= max_nodes < 2**32, "max_nodes", max_nodes, "in [1, 2**32)")
        _check(1 <= threads <= MAX_THREADS, "threads", threads, f"in [1, {MAX_THREADS}]")
        _check(reuse in (0, 1), "reuse", reuse, "True or False (1 or 0)")
        _check(cpu_seconds in (0, 1), "cpu_seconds", cpu_seconds, "True or False (1 or 0)")
        _check(0 <= solve < 2**50, "solve", solve, "in [0, 2**50)")
        _check(0.5 <= growth <= 2, "growth", growth, "in [0.5, 2]")
        _check(shared in (0, 1), "shared", shared, "True or False (1 or 0)")
        self.options: dict[str, Any] = {"simulations": int(simulations or 0), "seconds": float(seconds or 0.0),
                        "exploration": float(exploration), "prior_temperature": float(prior_temperature),
                        "rave": float(rave),
                        "margin": None if margin is None else float(margin), "evaluation": float(evaluation),
                        "replies": bool(replies),
                        "early_stop": float(early_stop),
                        "max_nodes": int(max_nodes), "threads": int(threads), "cpu": bool(cpu_seconds),
                        "shared": bool(shared)}
        parts = [f"sims={simulations}"] if simulations is not None else []
        parts += [f"seconds={seconds:g}"] if seconds is not None else []
        self.name = ":".join(["mcts"] + parts)
        self._tree = _core.mcts_tree() if reuse else None
        self._solve = int(solve)
        self._growth = float(growth)

    def search(self, game: Game) -> Search:
        """Searches the position for the colour to move; the game is not changed. With ``reuse``,
        the figures of the result count the simulations kept from the last search too
        (``Search.simulations`` is their total), except each player's, which are this call's.

        Raises
        ------
        ValueError
            The game is over.
        """
        return Search(*_core.mcts(game, seed=self._next_seed(), tree=self._tree, **self._budget(game)))

    def _budget(self, game: Game) -> dict:
        """The options with the budget of this move: growth ** k times the move's."""
        if self._growth == 1.0:
            return self.options
        placed = len(game.remaining[game.to_move]) - int(game.remaining[game.to_move].sum())
        scale = self._growth ** placed
        sims, seconds = self.options["simulations"], self.options["seconds"]
        return dict(self.options, simulations=max(1, min(round(sims * scale), 2**63 - 1)) if sims else 0,
                    seconds=min(seconds * scale, MAX_SECONDS))

    def __call__(self, game: Game) -> int:
        move = self._solved_move(game)
        return int(self.search(game).ids[0]) if move is None else move

    def _solved_move(self, game: Game) -> int | None:
        """A move that forces a win or a draw, proved by an outcome solve within the ``solve``
        budget, or None (a lost position, or the budget ran out)."""
        if not self._solve or len(set(variant(game.variant).player_sides)) != 2:
            return None
        if sum(len(game.legal_moves(c)) for c in range(game.num_colours)) > SOLVE_WITHIN_MOVES:
            return None
        outcome, best, _, _ = _core.solve(game, max_nodes=self._solve, all_best=False, outcome=True)
        return None if outcome is None or outcome < 0 else int(best[0])

    # A copy or unpickled agent (as multiprocessing sends it) starts with a search of its own:
    # the kept trees live in C memory and are this agent's alone.
    def __getstate__(self) -> dict:
        return dict(self.__dict__, _tree=self._tree is not None)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, _tree=_core.mcts_tree() if state["_tree"] else None)
