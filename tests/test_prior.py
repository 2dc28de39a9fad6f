"""Tests of the tree's prior (csrc/engine/prior.h) through ``blokus._core.prior_features``.

The features are recomputed here from their definitions in prior.h and the rules (attachment
points from ``Game.attachment_points``, cells from ``blokus.placements``), for every legal move of
positions of each variant, and a few are worked out by hand; the prior is checked to be exp of a
linear function of the features per phase (a least-squares fit of its log leaves no residual),
positive except for the 20x20 opening's moves away from the centre, and a function of the position.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from random_games import random_game

import blokus
from blokus import _core

PIECES = len(blokus.PIECE_NAMES)
NAMES = _core.PRIOR_FEATURES
F = {name: i for i, name in enumerate(NAMES)}
VARIANTS = ("classic", "classic_2", "classic_3", "classic_teams", "duo")
LOCAL_MOVES = 3        # the opponents' moves among the last 3 leave local points (csrc/engine/move_features.h)
EDGES = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def features_of(game):
    """{placement id: features} and the phase, from _core.prior_features."""
    ids, features, phase, _ = _core.prior_features(game)
    return {int(m): x for m, x in zip(ids, features)}, phase


# --- the features recomputed from their definitions ---------------------------------------------

class Oracle:
    """The features of prior.h for the colour to move in `game`, from the rules alone."""

    def __init__(self, game):
        self.game, self.me = game, game.to_move
        self.side = game.shape[0]
        self.board = np.asarray(game.board)
        self.table = blokus.placements(game.variant)
        weights = _core.player_weights(game.variant)[game.player_to_move]
        # the partner scores for the mover's side (classic_2: the player's other colour;
        # classic_teams: the team mate); rivals are the colours scoring nothing for the mover
        self.partner = (self.me + 2) % 4 if game.variant in ("classic_2", "classic_teams") else None
        self.rivals = [c for c in range(game.num_colours) if c != self.me and c != self.partner and not weights[c]]
        # attachment points by the pieces on the board: prior.c does not count a colour's open
        # starting squares as its points before its first piece (the rules do, and so does
        # Game.attachment_points)
        self.attach = [np.asarray(game.attachment_points(c)) & (self.board == c).any()
                       for c in range(game.num_colours)]
        self.forbidden = [self.forbidden_to(c) for c in range(game.num_colours)]
        self.local, self.twice = self.local_points(weights)

    def on(self, r, c):
        return 0 <= r < self.side and 0 <= c < self.side

    def around(self, cells, steps):
        return {(r + dr, c + dc) for r, c in cells for dr, dc in steps if self.on(r + dr, c + dc)}

    def forbidden_to(self, colour):
        """Occupied cells and the empty cells edge-adjacent to the colour's own."""
        own = set(zip(*np.nonzero(self.board == colour)))
        out = self.board >= 0
        for r, c in self.around(own, EDGES):
            out[r, c] = True
        return out

    def free(self, r, c):
        return self.on(r, c) and not self.forbidden[self.me][r, c]

    def local_points(self, weights):
        """The attachment points the opponents' last moves left (diagonal to their cells), and
        the cells next to them still open to that opponent; `twice`: those also the mover's."""
        local = np.zeros_like(self.attach[0])
        for colour, move in self.game.history[-LOCAL_MOVES:]:
            if weights[colour]:
                continue                    # a colour scoring for the mover's player
            points = {(r, c) for r, c in self.around(self.cells(move), DIAGONALS) if self.attach[colour][r, c]}
            for r, c in points | {x for x in self.around(points, EDGES) if not self.forbidden[colour][x]}:
                local[r, c] = True
        return local, local & self.attach[self.me]

    def cells(self, move):
        return {(int(r), int(c)) for r, c in self.table.cells[move][:self.table.size[move]]}

    def features(self, move):
        x = np.zeros(len(NAMES))
        cells = self.cells(move)
        edges = self.around(cells, EDGES) - cells
        corners = self.around(cells, DIAGONALS) - cells - edges
        x[self.table.piece[move]] = 1
        n, colours = len(self.game.history), 4 if self.game.num_colours == 4 else 2
        smallest = 5 if n < 2 * colours else 4 if n < 3 * colours else 3 if n < 5 * colours else 1
        x[F["below opening size"]] = len(cells) < smallest
        partner_points = self.attach[self.partner] if self.partner is not None else np.zeros_like(self.local)
        for r, c in cells:
            x[F["local count"]] += int(self.local[r, c]) + int(self.twice[r, c])
            x[F["cells on rivals' points"]] += any(
                not self.forbidden[k][r, c] and (self.attach[k][r, c] or any(
                    self.attach[k][y] for y in self.around({(r, c)}, EDGES))) for k in self.rivals)
            x[F["cells on partner's points"]] += partner_points[r, c]
        x[F["any local"]] = x[F["local count"]] > 0
        for r, c in edges:
            colour = self.board[r, c]
            name = ("edge: partner" if colour >= 0 and colour == self.partner else
                    "edge: other colour" if colour >= 0 else
                    "edge: forbidden" if self.forbidden[self.me][r, c] else
                    "edge: own point" if self.attach[self.me][r, c] else "edge: free")
            x[F[name]] += 1
        for r, c in corners:
            if self.board[r, c] == self.me:
                x[F["corner: own"]] += 1
            elif self.forbidden[self.me][r, c]:
                x[F["corner: taken"]] += 1
            else:
                x[F[f"corner: open {sum(self.free(r + dr, c + dc) for dr, dc in EDGES)}"]] += 1
                x[F["corner: partner's point"]] += partner_points[r, c]
        return x


def test_the_feature_names_shapes_and_errors():
    # the pieces one-hot in PIECE_NAMES' order, then the counts of prior.h
    assert NAMES[:PIECES] == tuple(f"piece {name}" for name in blokus.PIECE_NAMES)
    assert len(NAMES) == PIECES + 18 and len(set(NAMES)) == len(NAMES)
    game = random_game("classic_3", 1, 9, start="any")
    ids, features, phase, log_priors = _core.prior_features(game)
    assert ids.dtype == np.int32 and features.dtype == log_priors.dtype == np.float32
    assert features.shape == (len(ids), len(NAMES)) and log_priors.shape == ids.shape and phase == 1
    assert sorted(ids.tolist()) == game.legal_moves().tolist()
    while not game.is_over:
        game.play(int(game.legal_moves()[0]))
    with pytest.raises(ValueError, match="game over"):
        _core.prior_features(game)
    with pytest.raises(TypeError):
        _core.prior_features("duo")


@pytest.mark.slow
@pytest.mark.parametrize("start", ["any", "fixed"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_features_follow_their_definitions(variant, start):
    # every legal move of positions along a random game: the opening, the middle game with
    # pieces touching, and later (with classic_3's shared colour and the partners' colours)
    checked, seen = 0, set()
    for plies in (0, 1, 3, 6, 10, 17, 25, 40):
        game = random_game(variant, f"{variant}/{start}/{plies}", plies, start=start)
        if game.is_over:
            continue
        features, phase = features_of(game)
        assert sorted(features) == sorted(game.legal_moves().tolist())
        assert phase == (0 if len(game.history) < 8 else 1 if len(game.history) < 20 else 2)
        oracle = Oracle(game)
        for move, x in features.items():
            expected = oracle.features(move)
            assert x.tolist() == expected.tolist(), (plies, game.move_text(move), [
                (NAMES[i], x[i], expected[i]) for i in np.nonzero(x != expected)[0]])
            seen.update(NAMES[i] for i in np.nonzero(x)[0])
        checked += 1
    assert checked >= 6
    # the positions exercise every feature (a partner's only where there is one; a corner with
    # no free neighbour is rare)
    partner = {"cells on partner's points", "edge: partner", "corner: partner's point"}
    assert set(NAMES) - seen <= {"corner: open 0", "edge: partner"} | (
        set() if variant in ("classic_2", "classic_teams") else partner | set(NAMES[:PIECES]))
    assert variant in ("classic_2", "classic_teams") or not seen & partner


# --- hand-worked values ----------------------------------------------------------------------

def features_after(variant, moves, start="fixed"):
    """The features of every legal move after `moves` (each a list of (row, col) cells)."""
    game = blokus.Game(variant, start=start)
    for cells in moves:
        game.play(cells)
    features, phase = features_of(game)
    return game, features, phase


def move_id(game, cells):
    """The legal move of the colour to move covering exactly `cells`."""
    table = blokus.placements(game.variant)
    ids = [m for m in game.legal_moves().tolist()
           if {tuple(x) for x in table.cells[m][:table.size[m]].tolist()} == set(cells)]
    assert len(ids) == 1, cells
    return ids[0]


def counts(x):
    """The piece and the non-zero counts of a move's features, by name."""
    assert x[:PIECES].sum() == 1
    return NAMES[int(np.argmax(x[:PIECES]))], {NAMES[i]: float(x[i]) for i in range(PIECES, len(NAMES)) if x[i]}


def test_the_first_monomino_of_duo():
    # Duo, fixed start: purple's monomino on its starting square (4, 4). Its 4 edge neighbours
    # are empty and not next to purple's cells (it has none): free, and none is an attachment
    # point of purple (it has no piece). Its 4 corners (3, 3), (3, 5), (5, 3), (5, 5) are free,
    # each with 4 free edge neighbours. A monomino is below the pentominoes of the first 2 rounds;
    # nothing is local before orange has moved, and orange has no piece whose points it covers.
    game, features, phase = features_after("duo", [])
    assert phase == 0
    assert counts(features[move_id(game, [(4, 4)])]) == (
        "piece 1", {"edge: free": 4, "corner: open 4": 4, "below opening size": 1})


def test_a_duo_pentomino_beside_the_opponents_piece():
    # Purple's I5 along row 4 from its start (4, 4) to (4, 8); orange's I5 down column 9 from
    # (5, 9) to its start (9, 9), its end diagonal to purple's (4, 8). Orange's attachment points
    # are (4, 10), (10, 8), (10, 10) ((4, 8) is purple's cell); purple's are (3, 3), (5, 3), (3, 9).
    # Purple's L5 (3, 9), (3, 10), (4, 10), (5, 10), (6, 10):
    # - cells on orange's points or next to one and open to orange: (4, 10) and (3, 10) (next to
    #   (4, 10)); (5, 10) and (6, 10) are next to orange's cells: 2. The same two are local
    #   (orange's last move left (4, 10); (3, 10) is next to it and open to orange), neither
    #   purple's point: local count 2;
    # - edge neighbours (11): orange's (5, 9), (6, 9); forbidden to purple (next to its (4, 8)):
    #   (3, 8), (4, 9); free: (2, 9), (2, 10), (3, 11), (4, 11), (5, 11), (6, 11), (7, 10);
    # - corners: (4, 8) purple's; (7, 9) orange's, so taken; (2, 8) free with 3 free neighbours
    #   ((3, 8) is forbidden); (2, 11) and (7, 11) free with 4.
    game, features, phase = features_after("duo", [[(4, c) for c in range(4, 9)],
                                                   [(r, 9) for r in range(5, 10)]])
    x = features[move_id(game, [(3, 9), (3, 10), (4, 10), (5, 10), (6, 10)])]
    assert phase == 0
    assert counts(x) == ("piece L5", {
        "local count": 2, "any local": 1, "cells on rivals' points": 2, "edge: other colour": 2,
        "edge: forbidden": 2, "edge: free": 7, "corner: own": 1, "corner: taken": 1,
        "corner: open 3": 1, "corner: open 4": 2})


def test_a_classic_2_move_beside_its_partner_colour():
    # classic_2, any start: player 0 moves blue (0) and red (2), which score together. Blue and
    # red go down and up the left edge (blue: I5 (0..4, 0), I4 (5..8, 1); red: I5 (15..19, 0),
    # I4 (11..14, 1)), yellow and green the right edge. Red's attachment points: (10, 0),
    # (10, 2), (15, 2). Blue's V3 (9, 2), (10, 2), (10, 1) at ply 8:
    # - (10, 2) is on red's point: 1; nothing of yellow or green is near: no rival or local cell;
    # - edge neighbours (7): red's (11, 1), the partner's; (8, 2) and (9, 1), next to blue's
    #   (8, 1): forbidden; (9, 3), (10, 3), (11, 2), (10, 0): free;
    # - corners: (8, 1) blue's; (9, 0) free with 1 free neighbour ((8, 0) and (9, 1) forbidden,
    #   the third off the board); (11, 0) with 2 ((10, 0), (12, 0); (11, 1) is red's); (8, 3)
    #   with 3 ((8, 2) forbidden); (11, 3) with 4;
    # - a tromino, below the 4 squares of the third round; 8 pieces down: phase 1.
    left = [[(r, 0) for r in range(5)], [(r, 19) for r in range(5)],
            [(r, 0) for r in range(15, 20)], [(r, 19) for r in range(15, 20)],
            [(r, 1) for r in range(5, 9)], [(r, 18) for r in range(5, 9)],
            [(r, 1) for r in range(11, 15)], [(r, 18) for r in range(11, 15)]]
    game, features, phase = features_after("classic_2", left, start="any")
    assert game.to_move == 0 and phase == 1
    assert counts(features[move_id(game, [(9, 2), (10, 2), (10, 1)])]) == ("piece V3", {
        "cells on partner's points": 1, "edge: partner": 1, "edge: forbidden": 2, "edge: free": 4,
        "corner: own": 1, "corner: open 1": 1, "corner: open 2": 1, "corner: open 3": 1,
        "corner: open 4": 1, "below opening size": 1})
    # in classic (4 players) red is a rival: its cells are "other colour", its points (10, 2)
    # and (9, 2) next to it (open to red; (10, 1) is next to red's cells) are a rival's, and red's
    # last move left them local, (9, 2) counting twice as blue's own point: local count 3
    game, features, phase = features_after("classic", left, start="any")
    assert counts(features[move_id(game, [(9, 2), (10, 2), (10, 1)])])[1] == {
        "local count": 3, "any local": 1, "cells on rivals' points": 2, "edge: other colour": 1,
        "edge: forbidden": 2, "edge: free": 4, "corner: own": 1, "corner: open 1": 1,
        "corner: open 2": 1, "corner: open 3": 1, "corner: open 4": 1, "below opening size": 1}


# --- the prior ------------------------------------------------------------------------------

def positions(variant, games, seed, every=1):
    """The positions along `games` random games (every `every` plies)."""
    rng = random.Random(seed)
    for _ in range(games):
        game = blokus.Game(variant, start=rng.choice(["any", "fixed"]))
        while not game.is_over:
            if len(game.history) % every == 0:
                yield game
            game.play(rng.choice(game.legal_moves().tolist()))


def rows_by_phase(variants, games, every):
    """{phase: (features, log priors)} over the moves the tree considers."""
    rows = {}
    for variant in variants:
        for game in positions(variant, games, seed=variant, every=every):
            _, features, phase, log_priors = _core.prior_features(game)
            keep = log_priors > -np.inf
            xs, ys = rows.setdefault(phase, ([], []))
            xs.append(features[keep].astype(np.float64))
            ys.append(log_priors[keep].astype(np.float64))
    return {phase: (np.concatenate(xs), np.concatenate(ys)) for phase, (xs, ys) in rows.items()}


def worst_fit(x, y):
    """The largest residual of the least-squares fit of y on the columns of x."""
    w = np.linalg.lstsq(x, y, rcond=None)[0]
    return float(np.abs(x @ w - y).max())


@pytest.mark.slow
@pytest.mark.parametrize("variants,games,every", [
    (["duo"], 12, 1), (["classic", "classic_2", "classic_3", "classic_teams"], 2, 3)], ids=["14x14", "20x20"])
def test_the_prior_is_exp_of_a_linear_function_of_the_features_per_phase(variants, games, every):
    # prior.h: exp(w . x), w the weights of the game's phase fitted for its board (classic_2's
    # for every 20x20 variant): over many moves of positions of one phase, on one board, the log
    # priors are a linear function of the features (float32 rounding aside). The weights of
    # different phases may coincide (the 20x20 ones do until they are fitted): not checked.
    rows = rows_by_phase(variants, games, every)
    assert sorted(rows) == [0, 1, 2]
    for phase, (x, y) in rows.items():
        assert len(y) > 10 * np.linalg.matrix_rank(x), phase   # far more moves than weights fitted
        assert worst_fit(x, y) < 1e-4, phase


def centre_distance(cells):
    """The 20x20 board's centre's distance to a placement's nearest cell centre, at least 2."""
    return max(2.0, min(math.hypot(r - 9.5, c - 9.5) for r, c in cells))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_prior_is_positive_but_for_the_20x20_opening_away_from_the_centre(variant):
    # prior.h: 0 only on the 20x20 board while fewer than 8 pieces are down, for the moves more
    # than 0.3 squares farther from the centre than the nearest pentomino (the opening's size)
    table = blokus.placements(variant)
    pruned = 0
    for game in positions(variant, 2, seed=f"centre/{variant}"):
        ids, _, _, log_priors = _core.prior_features(game)
        if game.shape[0] == 14 or len(game.history) >= 8:
            assert np.isfinite(log_priors).all(), len(game.history)
            continue
        distance = {int(m): centre_distance(table.cells[m][:table.size[m]].tolist()) for m in ids}
        nearest = min(d for m, d in distance.items() if table.size[m] == 5)
        far = {m for m, d in distance.items() if d > nearest + 0.3}
        assert {int(m) for m, s in zip(ids, log_priors) if s == -np.inf} == far, len(game.history)
        pruned += len(far)
    assert (pruned > 0) == (variant != "duo")


def swapped_games(variant, seed):
    """Two games reaching one position by different orders of one colour's moves, both at least
    LOCAL_MOVES moves before the end (the local points depend on the last moves' order)."""
    rng = random.Random(seed)
    while True:
        plies = rng.randrange(12, 30)
        game = random_game(variant, rng.random(), plies)
        if game.is_over:
            continue
        moves = [m for _, m in game.history]
        colours = [c for c, _ in game.history]
        for i in range(len(moves) - LOCAL_MOVES):
            for j in range(i + 1, len(moves) - LOCAL_MOVES):
                if colours[i] != colours[j]:
                    continue
                swapped = moves[:i] + [moves[j]] + moves[i + 1:j] + [moves[i]] + moves[j + 1:]
                other = blokus.Game(variant, start="fixed")
                try:
                    for m in swapped:
                        other.play(m)
                except blokus.IllegalMoveError:
                    continue                # the later move needed the earlier one's corner
                return game, other


@pytest.mark.parametrize("variant", ["duo", "classic_2", "classic_3"])
def test_the_prior_is_a_function_of_the_position(variant):
    for seed in range(3):
        game, other = swapped_games(variant, seed=f"{variant}/{seed}")
        assert [m for _, m in game.history] != [m for _, m in other.history]
        assert other.key == game.key and np.array_equal(other.board, game.board)
        mine, theirs = _core.prior_features(game), _core.prior_features(other)
        assert mine[2] == theirs[2]
        first = {int(m): (x.tolist(), p) for m, x, p in zip(mine[0], mine[1], mine[3])}
        second = {int(m): (x.tolist(), p) for m, x, p in zip(theirs[0], theirs[1], theirs[3])}
        assert first == second
