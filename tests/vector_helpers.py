"""Helpers shared by test_vector.py and test_vector_env.py (not tests).

They keep plain ``blokus.Game`` objects in step with the games of a batch and work out what the
batch should show from those games, from the placement table and from rules.md (through
reference.py), never from the batch engine itself:

* ``expected_*``: what one game of a ``blokus.VectorGame`` should show, read off a ``Game``;
* ``replay_new_pieces``: find the pieces that appeared between two boards (moves the engine
  chose itself: built-in policies and opponents) and play them, in turn order, on a ``Game``,
  checking that each one is legal for the colour to move at that point (when a colour placed
  several pieces in one call, some legal order is searched for);
* ``greedy_report``: the greedy policy's choice set of a position (largest piece, then most
  attachment points for the mover after the move, then fewest left for the other colours),
  computed with reference.attachment_points on plain boards.
"""

import functools
import re

import numpy as np

import blokus

from reference import GREEN, PIECE_SIZES, PLACEMENT_COUNTS, VARIANTS, attachment_points, start_squares
from reference import player_to_move as ref_player_to_move
from reference import winners as ref_winners

ALL_VARIANTS = ["classic", "classic_2", "classic_3", "classic_teams", "duo"]

# name -> (dtype, shape from (N, H, W, C, P, A))
VIEW_SPECS = {
    "board": (np.int8, lambda n, h, w, c, p, a: (n, h, w)),
    "to_move": (np.int8, lambda n, h, w, c, p, a: (n,)),
    "legal_mask": (np.bool_, lambda n, h, w, c, p, a: (n, a)),
    "num_legal": (np.int32, lambda n, h, w, c, p, a: (n,)),
    "scores": (np.int16, lambda n, h, w, c, p, a: (n, c)),
    "done": (np.bool_, lambda n, h, w, c, p, a: (n,)),
    "observation": (np.int8, lambda n, h, w, c, p, a: (n, c + 1, h, w)),
    "remaining": (np.bool_, lambda n, h, w, c, p, a: (n, c, 21)),
    "ply": (np.int32, lambda n, h, w, c, p, a: (n,)),
    "episode_length": (np.int32, lambda n, h, w, c, p, a: (n,)),
    "episode_scores": (np.int16, lambda n, h, w, c, p, a: (n, c)),
    "episode_winners": (np.bool_, lambda n, h, w, c, p, a: (n, p)),
    "episodes": (np.int64, lambda n, h, w, c, p, a: (n,)),
}
VIEWS = tuple(VIEW_SPECS)


def dims(variant):
    """(H, W, colours, players, placements) of a variant, from rules.md."""
    side, colours, players = VARIANTS[variant]
    return side, side, colours, players, PLACEMENT_COUNTS[side]


def snapshot(vg):
    """Copies of every view of a VectorGame."""
    return {name: np.array(getattr(vg, name), copy=True) for name in VIEWS}


def assert_same_snapshot(a, b, what=""):
    for name in VIEWS:
        np.testing.assert_array_equal(a[name], b[name], err_msg=f"{what}: {name} differs")


def names_index(message, k):
    """True when an error message names the number k (not as part of a longer number)."""
    return re.search(r"(?<![0-9])%d(?![0-9])" % k, str(message)) is not None


# ------------------------------------------------------------------ placement table
@functools.lru_cache(maxsize=None)
def _table(variant):
    t = blokus.placements(variant)
    cells = [frozenset((int(r), int(c)) for r, c in t.cells[i, : t.size[i]]) for i in range(len(t.size))]
    return t, cells, {cs: i for i, cs in enumerate(cells)}


def placement_cells(variant, move):
    return _table(variant)[1][int(move)]


def placement_size(variant, move):
    return int(_table(variant)[0].size[int(move)])


def placement_piece(variant, move):
    return int(_table(variant)[0].piece[int(move)])


def placement_of_cells(variant, cells):
    """The placement id whose cells are exactly ``cells`` (None if no placement has them)."""
    return _table(variant)[2].get(frozenset((int(r), int(c)) for r, c in cells))


def sizes_of(variant, moves):
    return _table(variant)[0].size[np.asarray(moves, dtype=np.int64)]


# ------------------------------------------------------------------ expected views of one game
def view_colour(game, over_view=0):
    """The colour a game's observation and remaining rows are seen from: the colour to move;
    once the game is over, colour 0, or the learner's colour ``seat`` after step_with_opponents
    and play_opponents (the VectorGame contract)."""
    return over_view if game.is_over else int(game.to_move)


def expected_row(game, over_view=0):
    """What every view of one VectorGame game should hold for ``game``, except the episode
    statistics."""
    colour = view_colour(game, over_view)
    if game.is_over:
        mask = np.zeros(game.num_placements, dtype=bool)
    else:
        mask = np.asarray(game.legal_mask(), dtype=bool)
    return {
        "board": np.asarray(game.board),
        "to_move": int(game.to_move),
        "legal_mask": mask,
        "num_legal": int(mask.sum()),
        "scores": np.asarray(game.scores()),
        "done": bool(game.is_over),
        "observation": np.asarray(game.observation(colour)),
        "remaining": np.asarray(game.remaining_from(colour)),
        "ply": len(game.history),
    }


def assert_row_matches(vg, i, game, what="", over_view=0):
    """Game i of vg shows what ``game`` shows (board, turn, mask, scores, planes, ...)."""
    exp = expected_row(game, over_view)
    for name, value in exp.items():
        got = getattr(vg, name)[i]
        np.testing.assert_array_equal(got, value, err_msg=f"{what}: game {i}: {name}")
    assert int(vg.num_legal[i]) == int(np.count_nonzero(vg.legal_mask[i])), f"{what}: game {i}: num_legal"


def expected_winner_row(variant, scores):
    """rules.md: the players with the highest player score, as a bool row of length P."""
    row = np.zeros(VARIANTS[variant][2], dtype=bool)
    row[ref_winners(variant, [int(s) for s in scores])] = True
    return row


class EpisodeStats:
    """The episode statistics a batch should show, kept from the test's own games."""

    def __init__(self, n, variant):
        c, p = VARIANTS[variant][1], VARIANTS[variant][2]
        self.variant = variant
        self.episodes = np.zeros(n, dtype=np.int64)
        self.length = np.zeros(n, dtype=np.int64)
        self.scores = np.zeros((n, c), dtype=np.int64)
        self.winners = np.zeros((n, p), dtype=bool)

    def finished(self, i, game):
        assert game.is_over
        self.episodes[i] += 1
        self.length[i] = len(game.history)
        self.scores[i] = game.scores()
        self.winners[i] = expected_winner_row(self.variant, game.scores())

    def finished_loosely(self, i, vg):
        """Game i of vg just ended, its move order unknown: length and scores from its row (as
        checked by check_row_loosely), winners recomputed."""
        self.episodes[i] += 1
        self.length[i] = int(vg.ply[i])
        self.scores[i] = np.asarray(vg.scores[i])
        self.winners[i] = expected_winner_row(self.variant, self.scores[i])

    def check(self, vg, what=""):
        np.testing.assert_array_equal(vg.episodes, self.episodes, err_msg=f"{what}: episodes")
        seen = self.episodes > 0  # before a game's first finished episode the contract is silent
        np.testing.assert_array_equal(vg.episode_length[seen], self.length[seen], err_msg=f"{what}: episode_length")
        np.testing.assert_array_equal(vg.episode_scores[seen], self.scores[seen], err_msg=f"{what}: episode_scores")
        np.testing.assert_array_equal(vg.episode_winners[seen], self.winners[seen], err_msg=f"{what}: episode_winners")


# ------------------------------------------------------------------ replaying engine-chosen moves
def absolute_hands(remaining_rows, colour):
    """Rows of ``remaining`` seen from ``colour`` put back in colour order."""
    rows = np.asarray(remaining_rows)
    n = rows.shape[0]
    out = np.empty_like(rows)
    for k in range(n):
        out[(colour + k) % n] = rows[k]
    return out


def absolute_board(planes, colour):
    """The board (-1 empty) from observation planes seen from ``colour``."""
    planes = np.asarray(planes)
    n = planes.shape[0] - 1
    board = np.full(planes.shape[1:], -1, dtype=np.int8)
    for k in range(n):
        assert not (planes[k].astype(bool) & (board != -1)).any(), "a cell in two colour planes"
        board[planes[k].astype(bool)] = (colour + k) % n
    return board


def _candidates(game, pending, used):
    """Legal moves of the colour to move that lie within its new cells (and use a piece it
    gave up, when that is known)."""
    variant = game.variant
    colour = int(game.to_move)
    out = [int(m) for m in game.legal_moves() if placement_cells(variant, m) <= pending[colour]]
    if used is not None:
        out = [m for m in out if placement_piece(variant, m) in used[colour]]
    return out


class Ambiguous(Exception):
    """Several colours' pieces came in one call and the search for their order gave up (the
    caller then follows that game more loosely until its next reset)."""


def _decompose(game, pending, used, dead=None, budget=None):
    """Some order of legal moves, in turn order from ``game``, that places exactly the pending
    cells (depth-first search over the candidates, remembering the dead ends: different orders
    of the same pieces reach the same position; None when there is none; Ambiguous when the
    search runs over its budget)."""
    if dead is None:
        dead = set()
    if budget is None:
        budget = [600]
    budget[0] -= 1
    if budget[0] < 0:
        raise Ambiguous("search budget exhausted")
    if not any(pending.values()):
        return []
    if game.is_over:
        return None
    colour = int(game.to_move)
    if not pending[colour]:
        return None
    key = (colour, tuple(sorted((c, tuple(sorted(p))) for c, p in pending.items())),
           None if used is None else tuple(sorted((c, tuple(sorted(u))) for c, u in used.items())))
    if key in dead:
        return None
    for m in _candidates(game, pending, used):
        g = game.copy()
        g.play(m)
        cells = placement_cells(game.variant, m)
        sub_pending = dict(pending)
        sub_pending[colour] = pending[colour] - cells
        sub_used = None
        if used is not None:
            sub_used = dict(used)
            sub_used[colour] = used[colour] - {placement_piece(game.variant, m)}
        rest = _decompose(g, sub_pending, sub_used, dead, budget)
        if rest is not None:
            return [m] + rest
    dead.add(key)
    return None


def replay_new_pieces(game, after_board, after_hands=None, on_move=None, what=""):
    """Play on ``game`` the pieces that appeared between its board and ``after_board``.

    The colour to move places one of its new pieces, then the next colour to move, and so on
    until every new cell is accounted for. Each piece must be a legal placement for the colour
    to move at that point; ``after_hands`` (colour order), when given, says which pieces each
    colour used. ``on_move(game, move)`` is called before each move is played, as long as the
    order of the moves is certain (one new piece per colour so far); when a colour placed
    several pieces that could have come in more than one order, some legal order is found by
    search and played without ``on_move`` (Ambiguous when the search gives up; ``game`` may then
    hold part of the moves). Returns (moves, certain).
    """
    variant = game.variant
    before = np.asarray(game.board)
    after = np.asarray(after_board)
    assert after.shape == before.shape, what
    changed = before != after
    assert not (changed & (before != -1)).any(), f"{what}: a placed piece moved or vanished"
    ncol = game.num_colours
    pending = {c: frozenset((int(r), int(q)) for r, q in zip(*np.nonzero(changed & (after == c)))) for c in range(ncol)}
    used = None
    if after_hands is not None:
        hands = np.asarray(after_hands).astype(bool)
        have = np.asarray(game.remaining).astype(bool)
        assert not (hands & ~have).any(), f"{what}: a used piece came back into a hand"
        used = {c: frozenset(np.flatnonzero(have[c] & ~hands[c]).tolist()) for c in range(ncol)}
    moves = []
    while any(pending.values()):
        assert not game.is_over, f"{what}: pieces appeared after the end of the game: {pending}"
        colour = int(game.to_move)
        assert pending[colour], (
            f"{what}: colour {colour} is to move (rules.md turn order with passes) but the next "
            f"new piece is not its own: new cells {dict(pending)}"
        )
        exact = placement_of_cells(variant, pending[colour])
        if exact is not None and (used is None or len(used[colour]) == 1):
            move = exact
        else:
            cands = _candidates(game, pending, used)
            if not cands:
                raise AssertionError(f"{what}: colour {colour}'s new cells {sorted(pending[colour])} "
                                     "do not start with a legal placement")
            if len(cands) > 1:
                rest = _decompose(game.copy(), pending, used)
                assert rest is not None, (
                    f"{what}: the new pieces {dict(pending)} cannot be placed in any legal order "
                    "(rules.md 'Placing a piece', turn order with passes)"
                )
                for m in rest:
                    game.play(m)
                return moves + rest, False
            move = cands[0]
        assert game.legal_mask()[move], (
            f"{what}: the engine placed {sorted(placement_cells(variant, move))} for colour {colour}, "
            f"not a legal placement (rules.md 'Placing a piece')"
        )
        if on_move is not None:
            on_move(game, move)
        game.play(move)
        moves.append(move)
        pending[colour] = pending[colour] - placement_cells(variant, move)
        if used is not None:
            used[colour] = used[colour] - {placement_piece(variant, move)}
    if used is not None:
        assert not any(used.values()), f"{what}: pieces left hands without reaching the board: {used}"
    return moves, True


# ------------------------------------------------------------------ loose checks
def hand_squares(hands):
    """Squares left in each colour's hand (hands: 0/1 rows in colour order)."""
    return (np.asarray(hands).astype(np.int64) * np.asarray(PIECE_SIZES)).sum(axis=1)


def possible_scores(hands):
    """rules.md scores from the hands alone: minus the squares left; +15 or +20 (the last piece
    decides, which the hands do not show) for a colour with an empty hand."""
    out = []
    for left in hand_squares(hands):
        out.append({15, 20} if left == 0 else {-int(left)})
    return out


def check_row_loosely(vg, i, variant, start, seat, prev_board, what=""):
    """For a game whose move order could not be rebuilt: what must hold anyway. Placed cells
    stay; each colour has 89 minus its squares in hand on the board; ply counts the pieces
    placed; scores follow from the hands; a live game has the learner's player to move, a
    non-empty mask and planes that show the board from the colour to move."""
    board = np.asarray(vg.board[i])
    if prev_board is not None:
        old = np.asarray(prev_board) != -1
        assert np.array_equal(board[old], np.asarray(prev_board)[old]), f"{what}: a placed piece moved"
    done = bool(vg.done[i])
    colour = seat if done else int(vg.to_move[i])  # a finished game is seen from the learner's colour
    hands = absolute_hands(vg.remaining[i], colour)
    ncol = hands.shape[0]
    left = hand_squares(hands)
    for c in range(ncol):
        assert int((board == c).sum()) == 89 - int(left[c]), f"{what}: colour {c} cells vs hand"
    assert int(vg.ply[i]) == int((1 - hands).sum()), f"{what}: ply is not the number of pieces placed"
    for c, allowed in enumerate(possible_scores(hands)):
        assert int(vg.scores[i, c]) in allowed, f"{what}: colour {c} score {int(vg.scores[i, c])} not in {allowed}"
    mask = np.asarray(vg.legal_mask[i])
    assert int(vg.num_legal[i]) == int(mask.sum()), what
    np.testing.assert_array_equal(absolute_board(vg.observation[i], colour), board, err_msg=what)
    if done:
        assert int(vg.to_move[i]) == -1 and not mask.any(), what
    else:
        assert mask.any(), f"{what}: live game without legal moves"
        green = 21 - int(hands[GREEN].sum()) if ncol == 4 else 0
        assert ref_player_to_move(variant, colour, green) == seat, f"{what}: learner not to move"
        np.testing.assert_array_equal(
            vg.observation[i][ncol], attachment_points(board, colour, start_squares(variant, start, colour)),
            err_msg=f"{what}: attachment plane")


# ------------------------------------------------------------------ greedy
def _ap_all(board, variant, start, colours):
    return [attachment_points(board, d, start_squares(variant, start, d)) for d in range(colours)]


def greedy_report(game):
    """Score every legal move of the colour to move by the greedy policy's criteria.

    Returns (rows, best) where rows maps move -> (size, own, others, own_new, others_live):
    ``size`` its piece size; ``own`` the mover's attachment points after the move; ``others``
    the sum of the other colours' attachment points after it (rules.md / reference.py
    definition: empty cells diagonal to the colour and not edge-adjacent to it, or its free
    starting squares before its first piece); ``own_new`` the mover's attachment points that
    the move creates; ``others_live`` the other colours' points counting only colours that
    still have a legal placement (the last two only explain a failure). ``best`` is the set of
    moves greedy may choose: largest size, then most ``own``, then fewest ``others``.
    """
    variant, start = game.variant, game.start
    colour = int(game.to_move)
    ncol = game.num_colours
    board = np.array(game.board)
    before = _ap_all(board, variant, start, ncol)
    live = [d != colour and len(game.legal_moves(d)) > 0 for d in range(ncol)]
    legal = [int(m) for m in game.legal_moves()]
    sizes = sizes_of(variant, legal)
    biggest = int(sizes.max())
    rows = {}
    for m, s in zip(legal, sizes):
        if s != biggest:
            rows[m] = (int(s), None, None, None, None)
            continue
        cells = placement_cells(variant, m)
        b = board.copy()
        for r, c in cells:
            b[r, c] = colour
        own_ap = attachment_points(b, colour, start_squares(variant, start, colour))
        others = 0
        others_live = 0
        for d in range(ncol):
            if d == colour:
                continue
            lost = sum(1 for r, c in cells if before[d][r, c])
            left = int(before[d].sum()) - lost
            others += left
            if live[d]:
                others_live += left
        rows[m] = (int(s), int(own_ap.sum()), others, int((own_ap & ~before[colour]).sum()), others_live)
    top = [m for m in rows if rows[m][0] == biggest]
    best_key = max((rows[m][1], -rows[m][2]) for m in top)
    best = {m for m in top if (rows[m][1], -rows[m][2]) == best_key}
    return rows, best


def check_greedy_choice(game, move, what=""):
    """Assert that ``move`` is one of the greedy policy's choices in ``game`` (before it is played)."""
    rows, best = greedy_report(game)
    assert move in rows, f"{what}: greedy move {move} is not legal"
    biggest = max(r[0] for r in rows.values())
    assert rows[move][0] == biggest, (
        f"{what}: greedy placed a piece of {rows[move][0]} squares while a {biggest}-square piece "
        f"was legal (greedy: largest piece first)"
    )
    if move not in best:
        b = next(iter(best))
        raise AssertionError(
            f"{what}: greedy chose {move} (own points after {rows[move][1]}, others' {rows[move][2]}; "
            f"new own {rows[move][3]}, others' counting only live colours {rows[move][4]}) but {sorted(best)} "
            f"do better (own {rows[b][1]}, others' {rows[b][2]}; new own {rows[b][3]}, others live {rows[b][4]}); "
            "greedy: most attachment points for itself after the move, then fewest for the others"
        )
