"""Position analysis for notebooks: per-colour metrics, their timeline over a game, and what the
engine would play.

Every function returns plain Python lists of dicts (one record per row), so
``pandas.DataFrame(records)`` works directly without pandas being a dependency:

>>> import blokus, blokus.analysis as an
>>> game = blokus.Game("duo", start="fixed")
>>> game.play("e10")
>>> [row["mobility"] for row in an.metrics(game)]
[496, 414]
>>> rows = an.timeline(game)          # long format: one row per (ply, colour)
>>> # pandas.DataFrame(rows).pivot(index="ply", columns="colour_name", values="reachable")

Definitions (docs/rules.md, "Placing a piece", for attachment points and the edge rule):

- **forbidden cells** of a colour: empty cells sharing an edge with one of its own cells (rule 3:
  it can never cover them). Its **open cells** are the empty cells that are not forbidden.
- **reachable** cells of a colour: open cells connected to one of its attachment points by a
  chain of 8-neighbour steps (edge or corner) through its open cells. Before its first piece the
  attachment points are the free starting squares open to it ("Starting squares"). The corner
  step is what lets a chain of pieces link corner to corner. This is an *upper bound* on the
  cells the colour can still cover, and nothing else is capped: it ignores which pieces are left,
  how many squares they hold, whether a piece fits, and cells the other colours take later. A
  colour that is out (mobility 0) never covers anything again, even where reachable > 0.
- **distance** of a reachable cell: the least number of 8-neighbour steps from an attachment
  point through the colour's open cells (0 on an attachment point).
- **territory** of a colour: its reachable cells that it reaches at a strictly smaller distance
  than every other colour (a cell another colour cannot reach counts as infinitely far for it);
  ties count for nobody. Territories of different colours are disjoint and each lies within the
  colour's reachable cells.
"""
from __future__ import annotations

import numpy as np

from blokus import _core
from blokus.agents import MCTSAgent, make_agent
from blokus.game import Game
from blokus.placements import placements

__all__ = ["distances", "evaluate", "metrics", "move_values", "reachable", "territory", "timeline"]

SIZES = (1, 2, 3, 4, 5)


# ------------------------------------------------------------------ grid helpers
def _shift_or(mask: np.ndarray, steps) -> np.ndarray:
    """OR of ``mask`` shifted by each (dr, dc) in ``steps`` (cells shifted off the board are
    dropped, none wrap around): bool, same shape."""
    height, width = mask.shape
    padded = np.pad(mask, 1)
    out = np.zeros_like(mask)
    for dr, dc in steps:
        out |= padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
    return out


_EDGE = ((-1, 0), (1, 0), (0, -1), (0, 1))
_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))  # 8 neighbours and the cell


def _check_colour(game: Game, colour: int) -> int:
    if not isinstance(colour, (int, np.integer)) or isinstance(colour, bool):
        raise TypeError(f"colour must be an int, not {type(colour).__name__}")
    colour = int(colour)
    if not 0 <= colour < game.num_colours:
        raise ValueError(f"colour {colour!r} out of range({game.num_colours})")
    return colour


def _open_cells(board: np.ndarray, colour: int) -> np.ndarray:
    """Empty cells not edge-adjacent to ``colour``'s cells: bool (H, W)."""
    free = board < 0
    return free & ~_shift_or(board == colour, _EDGE)


def _distances(board: np.ndarray, seeds: np.ndarray, colour: int) -> np.ndarray:
    """Breadth-first search by 8-neighbour dilation: int32 (H, W), -1 where unreachable."""
    allowed = _open_cells(board, colour)
    dist = np.full(board.shape, -1, dtype=np.int32)
    frontier = seeds & allowed
    seen = frontier.copy()
    step = 0
    while frontier.any():
        dist[frontier] = step
        frontier = _shift_or(frontier, _KING) & allowed & ~seen
        seen |= frontier
        step += 1
    return dist


def distances(game: Game, colour: int) -> np.ndarray:
    """Distance map of a colour (module docstring, "distance").

    Returns
    -------
    numpy.ndarray
        int32, shape (H, W): the least number of 8-neighbour steps (edge or corner) from one of
        the colour's attachment points to the cell through its open cells; 0 on an attachment
        point, -1 where the cell is not reachable (occupied, forbidden or cut off).

    Raises
    ------
    ValueError
        Colour out of range.
    TypeError
        Colour not an int.
    """
    colour = _check_colour(game, colour)
    return _distances(np.asarray(game.board), game.attachment_points(colour), colour)


def reachable(game: Game, colour: int) -> np.ndarray:
    """Cells the colour could still ever cover, an upper bound (module docstring, "reachable";
    rules: docs/rules.md, "Placing a piece").

    Returns
    -------
    numpy.ndarray
        bool, shape (H, W).

    Raises
    ------
    ValueError
        Colour out of range.
    TypeError
        Colour not an int.
    """
    return distances(game, colour) >= 0


def _territory(dist: np.ndarray) -> np.ndarray:
    """int8 (H, W) owner from a (C, H, W) distance stack (-1 unreachable); -1 for nobody."""
    big = np.iinfo(np.int32).max
    d = np.where(dist < 0, big, dist)
    order = np.sort(d, axis=0)
    best = np.argmin(d, axis=0)
    owner = np.where((order[0] < order[1]) & (order[0] < big), best, -1)
    return owner.astype(np.int8)


def territory(game: Game) -> np.ndarray:
    """Territory estimate (module docstring, "territory"): each cell's owner.

    Returns
    -------
    numpy.ndarray
        int8, shape (H, W): the colour that reaches the cell strictly sooner (fewer 8-neighbour
        steps from its attachment points through its open cells) than every other colour, -1
        where no colour does (a tie, or unreachable for all, or occupied).
    """
    board = np.asarray(game.board)
    dist = np.stack([_distances(board, game.attachment_points(c), c)
                     for c in range(game.num_colours)])
    return _territory(dist)


# ------------------------------------------------------------------ metrics
# Squares of each piece, in PIECE_NAMES order: int64 (21,).
_PIECE_SIZES = np.array(_core.PIECE_SIZES, dtype=np.int64)


def metrics(game: Game) -> list[dict]:
    """Position metrics, one record per colour in turn order.

    ``pandas.DataFrame(metrics(game))`` gives one row per colour. Keys (all ints except the name):

    - ``colour``: colour index; ``colour_name``: ``game.colour_name(colour)``;
    - ``score``: ``game.scores()[colour]`` as if the game ended now (docs/rules.md, "Scoring");
    - ``mobility``: number of legal placements of that colour in this position, whoever is to
      move (``len(game.legal_moves(colour))``; 0 once it is out);
    - ``attachment_points``: number of its attachment points (``game.attachment_points(colour)``;
      before its first piece, the free starting squares open to it);
    - ``squares_placed``: its cells on the board; ``squares_left``: squares of its pieces in
      hand (the two add up to 89, docs/rules.md, "Pieces");
    - ``pieces_left``: its pieces in hand, and ``pieces_left_1`` .. ``pieces_left_5`` those of
      each size (1, 1, 2, 5 and 12 at the start);
    - ``reachable``: number of cells it could still ever cover, an upper bound (module
      docstring); ``territory``: number of cells it reaches strictly sooner than every other
      colour (module docstring). ``0 <= territory <= reachable``.

    Returns
    -------
    list of dict
        ``game.num_colours`` records. The game is not changed.
    """
    board = np.asarray(game.board).copy()
    remaining = np.asarray(game.remaining, dtype=bool)
    sizes = _PIECE_SIZES
    scores = game.scores()
    attach = [np.asarray(game.attachment_points(c), dtype=bool) for c in range(game.num_colours)]
    dist = np.stack([_distances(board, attach[c], c) for c in range(game.num_colours)])
    owner = _territory(dist)
    rows = []
    for c in range(game.num_colours):
        hand = sizes[remaining[c]]
        row = {
            "colour": c,
            "colour_name": game.colour_name(c),
            "score": int(scores[c]),
            "mobility": int(len(game.legal_moves(c))),
            "attachment_points": int(attach[c].sum()),
            "squares_placed": int((board == c).sum()),
            "squares_left": int(hand.sum()),
            "pieces_left": int(hand.size),
        }
        for s in SIZES:
            row[f"pieces_left_{s}"] = int((hand == s).sum())
        row["reachable"] = int((dist[c] >= 0).sum())
        row["territory"] = int((owner == c).sum())
        rows.append(row)
    return rows


def timeline(game: Game) -> list[dict]:
    """The metrics of every position of the game, in long format.

    Replays ``game.history`` on a fresh ``Game(game.variant, start=game.start)``; ply 0 is the
    empty board, ply k the position after the k-th move. One record per (ply, colour), ply-major,
    colours in turn order: the keys of ``metrics`` plus

    - ``ply``: number of moves played;
    - ``move_colour``, ``move``: the colour that made the ply-th move and its text
      (``game.move_text``); None at ply 0;
    - ``to_move``: the colour to move after it (-1 once the game is over).

    E.g. ``DataFrame(rows).pivot(index="ply", columns="colour_name", values="mobility")``.

    Returns
    -------
    list of dict
        ``(len(game.history) + 1) * game.num_colours`` records. The game is not changed.
    """
    replay = Game(game.variant, start=game.start)
    moves = [(int(c), int(m)) for c, m in game.history]
    rows = []
    for ply in range(len(moves) + 1):
        if ply:
            colour, move = moves[ply - 1]
            replay.play(move)
            head = {"ply": ply, "move_colour": colour, "move": replay.move_text(move)}
        else:
            head = {"ply": 0, "move_colour": None, "move": None}
        head["to_move"] = int(replay.to_move)
        rows.extend({**head, **row} for row in metrics(replay))
    return rows


# ------------------------------------------------------------------ engine
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


def _mcts_agent(agent: str | MCTSAgent, seed: int | None, caller: str) -> MCTSAgent:
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
