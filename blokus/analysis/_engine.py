"""What the engine would play: the moves and chances an MCTS search finds from a position."""
from __future__ import annotations

import numpy as np

from blokus import _core
from blokus.agents import Agent, MCTSAgent, Search, make_agent
from blokus.agents._mcts import SOLVE_WITHIN_MOVES
from blokus.analysis._calibration import calibrate_move, calibrate_players
from blokus.analysis._solver import Solution
from blokus.analysis._solver import solve as solve_game
from blokus.game import Game
from blokus.placements import placements
from blokus.variants import variant

# Positions an endgame solve may visit in evaluate and review: in Duo about 0.02 s, enough to
# settle most positions from about 4 moves per colour before the end
# (benchmarks/bench_solver.py).
DEFAULT_SOLVE = 100_000


def move_values(game: Game, agent: str | MCTSAgent = "mcts:sims=2000", top: int | None = 10,
                seed: int | None = None, *, calibrated: bool = True) -> list[dict]:
    """What the engine would play here: the most searched moves of an MCTS search from this
    position, for the colour to move.

    Parameters
    ----------
    game : Game
        Not changed.
    agent : str or MCTSAgent
        An MCTS agent string for ``blokus.agents.make_agent`` (``"mcts"``,
        ``"mcts:sims=2000"``, ``"mcts:seconds=1:c=0.5"``, ``"level:5"``, ...) or an
        ``MCTSAgent``.
    top : int or None
        How many moves to return (fewer if the search tried fewer); None for all it tried.
    seed : int or None
        Seed of an agent built from a string (None: fresh entropy); unused for an ``MCTSAgent``.
    calibrated : bool
        ``win_probability`` through the calibration map of the variant and the game phase after
        the move (the default; see ``evaluate``), or the search's raw figure.

    Returns
    -------
    list of dict
        Most visited first (ties keep the search's order), one record per move with ``rank``
        (0 first), ``colour`` (the colour to move), ``id`` (placement id), ``move``
        (``game.move_text(id)``), ``piece`` (its name in ``blokus.PIECE_NAMES``), ``size``
        (squares), ``visits`` (simulations through it), ``value`` (its mean playout value for
        the player making it, in [0, 1]; see ``blokus.agents.Search``), ``win_probability``
        (that player's side's chance to win after it, in [0, 1], calibrated as in
        ``evaluate``; never solved exactly), ``raw_win_probability`` (the search's mean share
        of the win of that side over the simulations through it), ``expected_score`` (its
        mean final score, ``Game.player_scores``'s scale) and ``share`` (its visits over the
        visits of all root moves searched, in [0, 1]). How far to trust them: see
        ``blokus.agents.Search``.

    Raises
    ------
    ValueError
        ``agent`` is not an MCTS agent (or a bad agent string), ``top`` < 1, or the game is over.
    """
    agent = _mcts_agent(agent, seed, "move_values")
    if top is not None and top < 1:
        raise ValueError(f"top must be >= 1 or None, not {top!r}")
    if game.is_over:
        raise ValueError("the game is over: no move to search")
    colour = int(game.to_move)
    found = agent.search(game)
    ids = np.asarray(found.ids)
    visits = np.asarray(found.visits, dtype=np.int64)
    values = np.asarray(found.values, dtype=np.float64)
    order = np.argsort(-visits, kind="stable")
    if top is not None:
        order = order[:top]
    total = int(visits.sum())
    table = placements(game.variant)
    rows = []
    for rank, i in enumerate(order.tolist()):
        pid = int(ids[i])
        rows.append({
            "rank": rank,
            "colour": colour,
            "id": pid,
            "move": game.move_text(pid),
            "piece": _core.PIECE_NAMES[int(table.piece[pid])],
            "size": int(table.size[pid]),
            "visits": int(visits[i]),
            "value": float(values[i]),
            "win_probability": (calibrate_move(game.variant, len(game.history) + 1, float(found.win_probability[i]))
                                if calibrated else float(found.win_probability[i])),
            "raw_win_probability": float(found.win_probability[i]),
            "expected_score": float(found.expected_score[i]),
            "share": float(visits[i]) / total if total else 0.0,
        })
    return rows


def _mcts_agent(agent: str | Agent, seed: int | None, caller: str) -> MCTSAgent:
    """The MCTS agent an agent string names, or ``agent`` itself; ValueError for any other."""
    if isinstance(agent, str) and agent.strip().split(":")[0] in ("mcts", "level"):  # level:N is an MCTS budget
        agent = make_agent(agent, seed=seed)
    if not isinstance(agent, MCTSAgent):
        raise ValueError(f"{caller} needs an MCTS agent: an agent string 'mcts' or "
                         f"'mcts:key=value...' (e.g. 'mcts:sims=2000'), 'level:N', or an MCTSAgent, "
                         f"not {agent!r}")
    return agent


def evaluate(game: Game, agent: str | MCTSAgent = "mcts:sims=2000", seed: int | None = None, *,
             calibrated: bool = True, solve: int = DEFAULT_SOLVE) -> list[dict]:
    """How the position stands: each player's chances by an MCTS search from it, calibrated, or
    exact when the endgame solver settles them.

    Parameters
    ----------
    game : Game
        Not changed; a colour must be to move.
    agent : str or MCTSAgent
        As for ``move_values``.
    seed : int or None
        Seed of an agent built from a string (None: fresh entropy).
    calibrated : bool
        ``win_probability`` through the calibration map of the variant and game phase (the
        default), or the search's raw figure.
    solve : int
        Positions an exact endgame solve (``blokus.analysis.solve``) may visit, tried in games
        of two sides once the colours have at most 100 legal moves in all (0: never). When it
        finishes, ``win_probability`` is 1, 0.5 or 0 by the margin under best play and
        ``exact`` is True. About 5 million positions per CPU second.

    Returns
    -------
    list of dict
        One record per player (``Game.player_scores``'s order) with ``player``,
        ``win_probability`` (its side's chance to win, a tie counting as a split win, in
        [0, 1]; the sides' figures sum to 1), ``raw_win_probability`` (the search's: its
        side's mean share of the win over every simulation), ``expected_score`` (its mean final
        score in the search), ``simulations``, ``exact`` (the solver decided
        ``win_probability``) and ``margin`` (the side's exact final margin under best play, an
        int, when ``exact``; else None). The principal variation is
        ``agent.search(game).principal_variation``.

        The calibration map (``benchmarks/fit_calibration.py``) was fitted on positions of
        strong games at the default agent, ``"mcts:sims=2000"`` on two threads; its error on
        held-out games is in ``benchmarks/README.md``. With another agent it is applied as it
        is: a much stronger search is sharper than the map assumes.

    Raises
    ------
    ValueError
        ``agent`` is not an MCTS agent (or a bad agent string), the game is over, or ``solve``
        is negative.
    TypeError
        ``solve`` is not an int.
    """
    agent = _mcts_agent(agent, seed, "evaluate")
    if game.is_over:
        raise ValueError("the game is over: nothing to search (see Game.player_scores)")
    _check_solve(solve)
    return _evaluation(game, agent.search(game), calibrated, _solution(game, solve, all_best=False))



def _check_solve(solve) -> None:
    if isinstance(solve, bool) or not isinstance(solve, int):
        raise TypeError(f"solve must be an int (positions the endgame solve may visit), not {type(solve).__name__}")
    if solve < 0:
        raise ValueError(f"solve must be >= 0 (positions the endgame solve may visit), not {solve}")


def _evaluation(game: Game, found: Search, calibrated: bool, solution: Solution | None) -> list[dict]:
    """evaluate's records of a search's result, with a finished solve's verdict."""
    raw = np.asarray(found.player_win_probability, dtype=np.float64)
    if calibrated:
        chances = calibrate_players(game.variant, len(game.history), raw, int(game.player_to_move))
    else:
        chances = raw
    margins = None
    if solution is not None and solution.margin is not None:
        margins = [solution.margin if p in solution.players else -solution.margin
                   for p in range(len(found.player_win_probability))]
    rows = []
    for p, (w, e) in enumerate(zip(found.player_win_probability, found.player_expected_score)):
        margin = None if margins is None else margins[p]
        chance = float(chances[p]) if margin is None else 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        rows.append({"player": p, "win_probability": chance, "raw_win_probability": float(w),
                     "expected_score": float(e), "simulations": found.simulations,
                     "exact": margin is not None, "margin": margin})
    return rows


def _solution(game: Game, solve: int, all_best: bool) -> Solution | None:
    """The exact solve of the position within ``solve`` positions, when it finishes (two sides
    only, and few enough legal moves that it may); else None."""
    if not solve or len(set(variant(game.variant).player_sides)) != 2:
        return None
    if sum(len(game.legal_moves(c)) for c in range(game.num_colours)) > SOLVE_WITHIN_MOVES:
        return None
    found = solve_game(game, max_nodes=solve, all_best=all_best)
    return found if found.exact else None
