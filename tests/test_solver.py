"""blokus.analysis.solve and _core.solve: the exact endgame solver (csrc/engine/solver.c).

Expected values come from outside the solver: a plain exhaustive minimax written here over
Game.legal_moves / play / undo / scores (no pruning, no table, no ordering: every line of play to
the end), and a hand-worked game of rules.md's examples (tests/constructed.py) in which the +20
monomino-last bonus decides the best move.
"""

import random

import pytest

import blokus
from blokus import _core, analysis
from blokus.agents import MCTSAgent
from blokus.variants import variant

from constructed import G20

TWO_SIDED = ("duo", "classic_2", "classic_teams")
MAX_TREE = 30000  # positions of the minimax tree of a test position: small enough for Python


class TreeTooLarge(Exception):
    pass


def colour_signs(game):
    """+1 for each colour that scores for side 0 (player 0's), -1 for the other side's."""
    v = variant(game.variant)
    side_of_colour = {c: v.player_sides[p] for p, colours in enumerate(v.player_colours) for c in colours}
    return [1 if side_of_colour[c] == 0 else -1 for c in range(game.num_colours)]


def sign(x):
    """1, 0 or -1: win, draw or loss for a margin x (an outcome solve's answer)."""
    return (x > 0) - (x < 0)


def margin0(game, signs):
    return sum(s * score for s, score in zip(signs, game.scores()))


def minimax(game, signs, budget):
    """The final margin of side 0 under best play by both sides, by trying every line to the end.
    budget: a one-item list, positions still allowed (TreeTooLarge past them)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TreeTooLarge
    if game.is_over:
        return margin0(game, signs)
    maximizing = signs[game.to_move] > 0
    values = []
    for move in game.legal_moves().tolist():
        game.play(move)
        try:
            values.append(minimax(game, signs, budget))
        finally:
            game.undo()
    return max(values) if maximizing else min(values)


def root_values(game, signs, limit=MAX_TREE):
    """{move: minimax value of side 0 after it}, or None when the tree exceeds `limit`."""
    budget = [limit]
    values = {}
    try:
        for move in game.legal_moves().tolist():
            game.play(move)
            try:
                values[move] = minimax(game, signs, budget)
            finally:
                game.undo()
    except TreeTooLarge:
        return None
    return values


def endgame(variant_name, seed, limit=MAX_TREE):
    """A random game of `variant_name` taken back from its end to the earliest position whose
    minimax tree is at most `limit` positions; with that tree's root move values."""
    rng = random.Random(seed)
    game = blokus.Game(variant_name, start="fixed")
    while not game.is_over:
        game.play(rng.choice(game.legal_moves().tolist()))
    signs = colour_signs(game)
    best = None
    while game.history:
        game.undo()
        values = root_values(game, signs, limit)
        if values is None:
            break
        best = (game.copy(), values)
    return best[0], best[1], signs


# classic_2 and classic_teams have the same turns and sides: other seeds give other games
POSITIONS = [(v, seed + 100 * i) for i, v in enumerate(TWO_SIDED) for seed in range(10)]
LARGER = [("duo", 50), ("duo", 51), ("classic_2", 150), ("classic_2", 151), ("classic_teams", 250),
          ("classic_teams", 251)]
LARGER_TREE = 500_000


@pytest.fixture(scope="module")
def endgames():
    return {key: endgame(*key) for key in POSITIONS}


@pytest.mark.slow
@pytest.mark.parametrize("key", POSITIONS, ids=[f"{v}-{s}" for v, s in POSITIONS])
def test_value_and_best_moves_match_exhaustive_minimax(endgames, key):
    game, values, signs = endgames[key]
    mover_sign = signs[game.to_move]
    by_mover = {move: mover_sign * v for move, v in values.items()}
    expected = max(by_mover.values())
    result = analysis.solve(game, max_nodes=10**6)
    assert result.exact
    assert result.margin == expected
    assert set(result.best_moves) == {m for m, v in by_mover.items() if v == expected}
    assert len(result.best_moves) == len(set(result.best_moves))
    assert game.player_to_move in result.players
    one = analysis.solve(game, max_nodes=10**6, all_best=False)
    assert one.margin == expected and len(one.best_moves) == 1 and one.best_moves[0] in result.best_moves


@pytest.mark.parametrize("key", POSITIONS, ids=[f"{v}-{s}" for v, s in POSITIONS])
def test_an_outcome_solve_gives_the_sign_of_the_minimax_margin_and_a_move_that_achieves_it(endgames, key):
    """_core.solve(outcome=True) proves only win, draw or loss (1, 0, -1 for the side to move):
    the sign of the exhaustive minimax's best margin, and its move is one of that sign."""
    game, values, signs = endgames[key]
    by_mover = {move: signs[game.to_move] * v for move, v in values.items()}
    best = max(by_mover.values())
    outcome, moves, _, side = _core.solve(game, max_nodes=10**6, outcome=True)
    assert side == variant(game.variant).player_sides[game.player_to_move]
    assert outcome == sign(best)
    assert len(moves) == 1 and sign(by_mover[moves[0]]) == outcome


def test_an_outcome_solve_that_runs_out_of_budget_knows_nothing(endgames):
    game, _, _ = endgames[("duo", 0)]
    assert _core.solve(game, max_nodes=1, outcome=True)[:2] == (None, ())


@pytest.mark.parametrize("variant_name", TWO_SIDED)
def test_an_outcome_solve_of_a_finished_game_is_the_sign_of_its_margin(variant_name):
    rng = random.Random(7)
    game = blokus.Game(variant_name, start="fixed")
    while not game.is_over:
        game.play(rng.choice(game.legal_moves().tolist()))
    margin = margin0(game, colour_signs(game))
    assert _core.solve(game, outcome=True) == (sign(margin), (), 1, 0)
    assert _core.solve(game)[0] == margin


class CountingSearches(MCTSAgent):
    """An MCTSAgent that counts the searches it runs (a solved move runs none)."""

    searches = 0

    def search(self, game):
        self.searches += 1
        return super().search(game)


def test_an_mcts_agent_with_a_solve_budget_plays_a_move_of_the_best_outcome(endgames):
    """MCTSAgent(solve=N): in these endgames (few legal moves left) the solve finishes; where the
    side to move can force a win or a draw, the agent plays a move that forces it without
    searching, and a lost position is left to the search. The positions hold wins, draws and
    losses, for either side to move, and moves of a worse outcome to choose."""
    seen = {"win": 0, "draw": 0, "loss": 0, "side 1 to move": 0, "a worse move": 0}
    for game, values, signs in endgames.values():
        by_mover = {move: signs[game.to_move] * v for move, v in values.items()}
        best = sign(max(by_mover.values()))
        agent = CountingSearches(1, threads=1, solve=10**6, seed=1)
        move = agent(game)
        assert move in values
        assert agent.searches == (best < 0)
        if best >= 0:
            assert sign(by_mover[move]) == best
        seen[("loss", "draw", "win")[best + 1]] += 1
        seen["side 1 to move"] += signs[game.to_move] < 0
        seen["a worse move"] += min(sign(v) for v in by_mover.values()) < best
    assert min(seen.values()) >= 1, seen
    starved = CountingSearches(1, threads=1, solve=1, seed=1)  # the solve runs out: the search plays
    assert all(starved(game) in values for game, values, _ in endgames.values())
    assert starved.searches == len(endgames)


def test_positions_are_real_endgames(endgames):
    """The test positions are not all trivial: several have both sides still to move."""
    both = 0
    for game, values, signs in endgames.values():
        assert len(values) >= 1
        movers = {signs[c] for c in range(game.num_colours) if not game.is_out(c)}
        both += movers == {1, -1}
    assert both >= len(POSITIONS) // 3


@pytest.mark.slow  # searches of up to LARGER_TREE positions, twice
@pytest.mark.parametrize("key", LARGER, ids=[f"{v}-{s}" for v, s in LARGER])
def test_larger_trees_match_exhaustive_minimax(key):
    """Positions whose minimax tree has up to LARGER_TREE positions, where the table, the bounds and
    the move ordering have more to cut."""
    game, values, signs = endgame(*key, limit=LARGER_TREE)
    mover_sign = signs[game.to_move]
    expected = max(mover_sign * v for v in values.values())
    result = analysis.solve(game)
    assert result.margin == expected
    assert set(result.best_moves) == {m for m, v in values.items() if mover_sign * v == expected}


def test_monomino_last_bonus_decides_the_best_move():
    """tests/constructed.py's G20 without its last two moves: blue holds only `1` and `2`, and
    every other colour is out. Placing `2` first and `1` last scores +20, the other order +15
    (docs/rules.md, "Scoring"); final scores (20, -32, -53, -38) give blue+red -33 against
    yellow+green -70: margin 37. Both of blue's domino placements leave a monomino spot."""
    for name in ("classic_2", "classic_teams"):
        game = blokus.Game(name, start="fixed")
        for colour, move in G20[:-2]:
            game.play(move)
        result = analysis.solve(game)
        assert result.margin == 37 and result.outcome == "win"
        assert sorted(game.move_text(m) for m in result.best_moves) == ["k13,l13", "o4,p4"]
        assert result.players == ((0,) if name == "classic_2" else (0, 2))


def test_game_over_gives_the_final_margin_of_player_0s_side():
    game = blokus.Game("classic_2", start="fixed")
    for colour, move in G20:
        game.play(move)
    assert game.is_over
    result = analysis.solve(game)
    assert (result.margin, result.best_moves, result.players) == (20 - 53 - (-32 - 38), (), (0,))


def test_side_to_move_of_the_other_side_sees_the_negated_margin(endgames):
    """The margin is the side to move's: for a position where side 1 moves, the minimax value of
    side 0 negated."""
    checked = 0
    for game, values, signs in endgames.values():
        if signs[game.to_move] < 0:
            assert analysis.solve(game).margin == -min(values.values())
            checked += 1
    assert checked


def test_budget_too_small_gives_unknown(endgames):
    """The budget counts positions: a solve that needs n of them (with the table of a budget of
    4096: the table grows with the budget) finishes with n and not with n - 1."""
    solved = [(analysis.solve(game, max_nodes=4096), game) for game, _, _ in endgames.values()]
    full, game = max(((r, g) for r, g in solved if r.exact), key=lambda rg: rg[0].nodes)
    assert full.nodes > 100
    again = analysis.solve(game, max_nodes=full.nodes)
    assert (again.margin, again.best_moves, again.nodes) == (full.margin, full.best_moves, full.nodes)
    cut = analysis.solve(game, max_nodes=full.nodes - 1)
    assert (cut.margin, cut.best_moves, cut.exact, cut.outcome) == (None, (), False, None)
    assert cut.nodes == full.nodes - 1
    assert analysis.solve(game, max_nodes=1).margin is None


@pytest.mark.parametrize("name", ["classic", "classic_3"])
def test_games_without_two_sides_are_refused(name):
    game = blokus.Game(name)
    with pytest.raises(ValueError, match="two sides"):
        analysis.solve(game)
    with pytest.raises(ValueError, match="two sides"):
        _core.solve(game)


@pytest.mark.parametrize("bad", [0, -1, 2**60])
def test_bad_budget_is_refused(bad):
    with pytest.raises(ValueError, match="max_nodes"):
        analysis.solve(blokus.Game("duo"), max_nodes=bad)


def test_bad_arguments_are_type_errors():
    with pytest.raises(TypeError, match="max_nodes"):
        analysis.solve(blokus.Game("duo"), max_nodes=1.5)
    with pytest.raises(TypeError, match="blokus.Game"):
        analysis.solve("duo")
    with pytest.raises(TypeError, match="blokus.Game"):
        _core.solve(None)


def test_the_game_is_not_changed(endgames):
    game, _, _ = endgames[("classic_teams", 203)]
    before = (game.history, game.key, game.to_move)
    analysis.solve(game)
    assert (game.history, game.key, game.to_move) == before


class PlaysOnIndex:
    """A budget whose __index__ first plays a move on the game being solved."""

    def __init__(self, value, game, move):
        self.value, self.game, self.move = value, game, move

    def __index__(self):
        self.game.play(self.move)
        return self.value


def test_budget_read_before_the_board(endgames):
    """Reading max_nodes runs Python code, which may play on the game: the solve sees the game
    as that code left it, not a board read before."""
    game, values, _ = endgames[("duo", 1)]
    game = game.copy()
    move = next(iter(values))
    after = game.copy()
    after.play(move)
    assert _core.solve(game, max_nodes=PlaysOnIndex(10**6, game, move)) == _core.solve(after)
    # the wrapper's side is the one the solve saw too, not the one to move before __index__ ran
    game, move = next((g.copy(), m) for g, vs, _ in endgames.values() for m in vs if passes_the_turn(g, m))
    after = game.copy()
    after.play(move)
    solved = analysis.solve(game, max_nodes=PlaysOnIndex(10**6, game, move))
    assert solved == analysis.solve(after) and solved.players == (after.player_to_move,)


def passes_the_turn(game, move):
    """Whether the other side is to move after `move` (no colour of it is out)."""
    after = game.copy()
    after.play(move)
    return not after.is_over and after.player_to_move != game.player_to_move
