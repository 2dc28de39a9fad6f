"""What the engine would play: the moves and chances an MCTS search finds from a position."""
from __future__ import annotations

import numpy as np

from blokus import _core
from blokus.agents import Agent, MCTSAgent, make_agent
from blokus.game import Game
from blokus.placements import placements


def move_values(game: Game, agent: str | MCTSAgent = "mcts:sims=2000", top: int | None = 10,
                seed: int | None = None) -> list[dict]:
    """What the engine would play here: the most searched moves of an MCTS search from this
    position, for the colour to move.

    Parameters
    ----------
    game : Game
        Not changed.
    agent : str or MCTSAgent
        An MCTS agent string for ``blokus.agents.make_agent`` (``"mcts"``,
        ``"mcts:sims=2000"``, ``"mcts:seconds=1:c=0.5"``, ...) or an ``MCTSAgent``.
    top : int or None
        How many moves to return (fewer if the search tried fewer); None for all it tried.
    seed : int or None
        Seed of an agent built from a string (None: fresh entropy); unused for an ``MCTSAgent``.

    Returns
    -------
    list of dict
        Most visited first (ties keep the search's order), one record per move with ``rank``
        (0 first), ``colour`` (the colour to move), ``id`` (placement id), ``move``
        (``game.move_text(id)``), ``piece`` (its name in ``blokus.PIECE_NAMES``), ``size``
        (squares), ``visits`` (simulations through it), ``value`` (its mean playout value for
        the player making it, in [0, 1]; see ``blokus.agents.Search``), ``win_probability``
        (the mean share of the win of that player's side in [0, 1]), ``expected_score`` (its
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
            "win_probability": float(found.win_probability[i]),
            "expected_score": float(found.expected_score[i]),
            "share": float(visits[i]) / total if total else 0.0,
        })
    return rows


def _mcts_agent(agent: str | Agent, seed: int | None, caller: str) -> MCTSAgent:
    """The MCTS agent an agent string names, or ``agent`` itself; ValueError for any other."""
    if isinstance(agent, str) and agent.strip().split(":")[0] == "mcts":
        agent = make_agent(agent, seed=seed)
    if not isinstance(agent, MCTSAgent):
        raise ValueError(f"{caller} needs an MCTS agent: an agent string 'mcts' or "
                         f"'mcts:key=value...' (e.g. 'mcts:sims=2000') or an MCTSAgent, "
                         f"not {agent!r}")
    return agent


def evaluate(game: Game, agent: str | MCTSAgent = "mcts:sims=2000", seed: int | None = None) -> list[dict]:
    """How the position stands: each player's chances by an MCTS search from it.

    Parameters
    ----------
    game : Game
        Not changed; a colour must be to move.
    agent : str or MCTSAgent
        As for ``move_values``.
    seed : int or None
        Seed of an agent built from a string (None: fresh entropy).

    Returns
    -------
    list of dict
        One record per player (``Game.player_scores``'s order) with ``player``,
        ``win_probability`` (its side's mean share of the win over every simulation, in
        [0, 1]; the sides' shares sum to 1), ``expected_score`` (its mean final score) and
        ``simulations``. The principal variation is ``agent.search(game).principal_variation``.
        These are playout statistics, rough at a few hundred simulations (see
        ``blokus.agents.Search``).

    Raises
    ------
    ValueError
        ``agent`` is not an MCTS agent (or a bad agent string), or the game is over.
    """
    agent = _mcts_agent(agent, seed, "evaluate")
    if game.is_over:
        raise ValueError("the game is over: nothing to search (see Game.player_scores)")
    found = agent.search(game)
    return [{"player": p, "win_probability": float(w), "expected_score": float(e),
             "simulations": found.simulations}
            for p, (w, e) in enumerate(zip(found.player_win_probability, found.player_expected_score))]
