"""Per-colour metrics of a position, and their timeline over a game."""
from __future__ import annotations

import numpy as np

from blokus import _core
from blokus.analysis._reach import _distances, _territory
from blokus.game import Game

# Squares of each piece, in PIECE_NAMES order: int64 (21,); and the sizes there are (1 to 5).
_PIECE_SIZES = np.array(_core.PIECE_SIZES, dtype=np.int64)
SIZES = tuple(sorted(set(_core.PIECE_SIZES)))


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
    rows: list[dict] = []
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
