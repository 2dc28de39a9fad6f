"""Positions and exhaustive searches for test_agents.py (data and helpers, not tests).

Every position is a move list from an empty board. They were found by seeded uniform-random play
(``random.Random(seed).choice(game.legal_moves())`` each ply, ``start="fixed"`` for odd seeds and
``"any"`` for even ones), stopping at the first position that met the stated condition; the
seed is kept next to each one. test_agents.py re-derives, by exhaustive search at test time,
every property a test relies on, so a stale entry fails loudly instead of passing silently.
"""
from __future__ import annotations

import blokus

# Duo positions where the other colour can no longer move, so the rest of the game is the
# mover's alone, and where the choice of first move decides the game: the first moves from
# which the mover's best final score is reachable are exactly those that can still beat the
# other colour's (final) score, and at least one first move cannot. (seed, start, moves)
SOLO_DECISIVE = [
    (2954, "any", [10888, 2448, 13087, 8091, 3196, 5018, 12158, 1064, 5762, 711, 6073, 3460, 948,
                   9680, 7661, 256, 4549, 1582, 326, 4167, 28, 6104]),
    (2317, "fixed", [7298, 2786, 3689, 6925, 12209, 8568, 5046, 10639, 8913, 3197, 11161, 13697,
                     13705, 9653, 1561, 4115, 210, 11147, 3760, 1060, 3, 243, 4237]),
    (2619, "fixed", [9869, 8841, 12200, 12000, 7616, 4059, 11727, 2170, 11137, 1011, 12624,
                     11534, 3461, 7767, 1239, 126, 6610, 6178, 57, 3374, 10428, 4957, 448]),
    (675, "fixed", [4703, 13690, 8786, 8654, 11657, 5870, 13421, 13079, 4354, 7008, 3567, 543,
                    5683, 11144, 171, 1376, 313, 3799, 2024, 724, 3779, 3931, 1239]),
    (1716, "any", [513, 12472, 2284, 3767, 12429, 9727, 3394, 3158, 10396, 6170, 12541, 564, 9420,
                   387, 11412, 5540, 1058, 11026, 1837, 11292, 817, 1172, 186, 2479, 4741]),
    (398, "any", [7642, 8007, 6089, 11737, 5458, 11199, 12204, 2193, 13186, 1001, 360, 12871,
                  9451, 5765, 726, 1856, 3761, 6814, 2953, 462, 111, 121, 11127, 862, 1122, 3589,
                  3296]),
    (2413, "fixed", [8008, 11109, 4136, 6925, 400, 3583, 12026, 2433, 10910, 7924, 1824, 11418,
                     9898, 4878, 13274, 13030, 1235, 1055, 2820, 203, 5120, 790, 104, 192, 4726]),
]

# Duo positions, both colours still able to move, where exactly one legal move wins against
# every defence and every other move loses against best defence (no draws). (seed, start, moves)
DUEL_ONE_WIN = [
    (210, "any", [7343, 424, 10689, 3302, 456, 11468, 4438, 4087, 737, 11200, 2599, 1574, 9810,
                  12963, 7065, 1893, 12156, 884, 3595, 1139, 8403, 5059, 1376, 10620, 12629, 54,
                  105]),
    (68, "any", [12749, 8530, 11144, 2021, 13618, 4167, 8285, 12491, 3194, 13675, 5684, 10360,
                 10038, 3718, 492, 11024, 12410, 194, 89, 1865, 6043, 552, 2144, 755]),
    (283, "fixed", [12473, 863, 3031, 11275, 6115, 7816, 10334, 10081, 3966, 13575, 9998, 2151,
                    3517, 120, 11377, 1791, 7269, 6405, 1239, 9423, 154]),
    (127, "fixed", [1458, 11084, 3513, 791, 411, 6330, 4172, 7849, 5114, 5369, 12699, 12717,
                    11473, 3775, 3766, 111, 4797, 2809, 2317, 4712]),
    (1679, "fixed", [2403, 13258, 6865, 6250, 9553, 1532, 7577, 5338, 4303, 4211, 387, 11954,
                     11438, 10262, 3855, 647, 1, 187, 996, 11280, 3151]),
    (150, "any", [6497, 7559, 4540, 3666, 7535, 11780, 13263, 1594, 2334, 6916, 642, 4443, 1560,
                  5641, 10524, 13686, 11616, 10738, 9778, 1241, 41, 85, 1592, 2082]),
]

# classic_2 positions (start="fixed") where exactly one legal move wins for the player to move
# against every defence and every other move loses, the mover's partner colour still able to move:
# the search must add both colours' scores for the player and let the partner help. Found by
# seeded uniform-random play, stopping at the first such position with at most 40 legal moves in
# all. (seed, start, moves)
CLASSIC_2_ONE_WIN = [
    (11, "fixed", [12738, 26886, 17582, 26851, 27573, 16689, 26812, 23234, 6493, 8592, 21643, 14662,
                   26910, 21717, 7004, 4317, 17688, 10555, 4570, 3195, 25071, 28648, 29994, 986,
                   30241, 13430, 14599, 24458, 19605, 3152, 278, 21947, 590, 450, 973, 6998, 7470,
                   24606, 1691, 27647, 3853, 6067, 30384, 371, 9941, 214, 8808, 12206, 32, 1757,
                   10687, 3731, 8254, 19178, 19091]),
    (29, "fixed", [17260, 1539, 10476, 19236, 26601, 11189, 3902, 29714, 11562, 21418, 16543, 727,
                   782, 4772, 19765, 25810, 8241, 29924, 11337, 3292, 28670, 14135, 30279, 22518,
                   6835, 20774, 3260, 7220, 18632, 15829, 27496, 17897, 5035, 23008, 7194, 9431,
                   25995, 1034, 29616, 13593, 204, 25512, 733, 1514, 3152, 24500, 375, 26845, 21770,
                   4331, 8825, 179, 27418]),
    (33, "fixed", [17906, 4364, 19938, 6037, 13114, 28235, 10746, 28741, 28909, 24074, 15298, 23920,
                   23061, 22178, 8367, 2851, 11814, 11287, 7763, 26137, 27201, 874, 29976, 30311,
                   24948, 18928, 10076, 26726, 8936, 18038, 26516, 10636, 905, 1172, 3238, 10259,
                   2061, 255, 8798, 342, 7177, 7657, 16598, 1311, 3824, 1910, 773, 7300, 19402, 9618]),
]

# Classic positions (start="any", seed 0 of the random play) where the greedy rule read with
# "partners do not count as opponents" and read with "every other colour is an opponent" give
# disjoint sets of moves; the same cells are played in classic_2 and classic_teams.
_PARTNER = [6056, 14675, 11104, 3340, 10497, 27478, 2205, 4017, 9160, 9490, 28095, 11812, 18976,
            26143, 1045, 19948, 29248, 23500, 16178, 24977, 21812, 7001, 30294, 29241, 22765,
            2837, 24877, 9661, 103, 29022, 7241, 22488, 7625, 12234, 20613, 910, 10377, 5865,
            384, 113, 2299]
PARTNER_MATTERS = [(variant, "any", _PARTNER[:n]) for variant in ("classic_2", "classic_teams")
                   for n in (25, 31, 41)]

# A classic position (start="any") where blue has 1150 legal placements: more than fit in a
# small search tree. Built by a greedy search that maximised blue's placement count.
BIG_ROOT = ("classic", "any", [13707, 1140, 26562, 4003, 25612, 6345, 24976, 28433, 8565, 23939,
                               1638, 6659, 22468, 10739, 794, 22218, 3160, 26178, 3841, 17238,
                               7315, 15960, 1950, 1156])


def replay(variant: str, start: str, moves) -> blokus.Game:
    game = blokus.Game(variant, start=start)
    for move in moves:
        game.play(move)
    return game


def solo_range(game: blokus.Game, colour: int, memo: dict | None = None) -> tuple[int, int]:
    """(worst, best) final score of `colour` over every way to finish the game, when `colour`
    is the only colour left to move. Exhaustive depth-first search; the game is restored."""
    if memo is None:
        memo = {}
    if game.is_over:
        score = game.scores()[colour]
        return score, score
    assert game.to_move == colour, "another colour can still move"
    key = (game.board.tobytes(), game.remaining.tobytes())
    if key not in memo:
        worst, best = 10**9, -10**9
        for move in game.legal_moves().tolist():
            game.play(move)
            try:
                lo, hi = solo_range(game, colour, memo)
            finally:
                game.undo()
            worst, best = min(worst, lo), max(best, hi)
        memo[key] = (worst, best)
    return memo[key]


def duel_value(game: blokus.Game, player: int, memo: dict) -> int:
    """+1, 0 or -1: whether `player` wins, draws or loses a two-player game (Duo, or classic_2,
    where a player moves two colours and scores their sum) under best play by both players
    (exhaustive minimax; cut-offs only at the extreme values, so memo entries are exact). The
    game is restored."""
    if game.is_over:
        scores = game.player_scores()
        diff = int(scores[player]) - int(scores[1 - player])
        return (diff > 0) - (diff < 0)
    key = (game.board.tobytes(), game.remaining.tobytes(), game.to_move)
    if key in memo:
        return memo[key]
    maximise = game.player_to_move == player
    value = -2 if maximise else 2
    for move in game.legal_moves().tolist():
        game.play(move)
        try:
            v = duel_value(game, player, memo)
        finally:
            game.undo()
        value = max(value, v) if maximise else min(value, v)
        if value == (1 if maximise else -1):
            break
    memo[key] = value
    return value


def only_winning_move(game: blokus.Game) -> tuple[int, dict]:
    """The one move that wins for the player to move in a two-player position where exactly one
    does and every other loses (asserted), with every move's duel_value. The game is restored."""
    mover, memo, outcome = game.player_to_move, {}, {}
    for move in game.legal_moves().tolist():
        game.play(move)
        outcome[move] = duel_value(game, mover, memo)
        game.undo()
    wins = [m for m, v in outcome.items() if v == 1]
    assert len(wins) == 1 and all(v == -1 for m, v in outcome.items() if m != wins[0])
    return wins[0], outcome
