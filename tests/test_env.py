"""The PettingZoo AEC environment ``blokus.env`` (issue 3), checked against its contract.

* PettingZoo's own ``api_test`` and ``seed_test`` for every variant, played to the end of a game;
* construction: the wrapper chain of PettingZoo's classic environments, ``raw_env``, bad
  arguments (``ValueError``), agents ``player_0 .. player_{n-1}`` per rules.md's variant table,
  ``Discrete(num_placements)`` actions (30,433 classic, 13,729 Duo) and the ``Dict`` observation
  space (``observation`` / ``action_mask`` / ``remaining``, int8 boxes of 0 and 1);
* full random games through the wrapped env, for every variant: at every step the agent to act is
  the player rules.md names for the colour to move (``classic_2``: blue+red -> player 0,
  yellow+green -> player 1; ``classic_3``: green moved by (green pieces on the board) mod 3), the
  acting agent's mask equals ``game.legal_mask()`` and is never all zero, the others' masks are
  zero, every agent's planes and remaining rows are seen from its perspective colour (recomputed
  here from the board and from rules.md, not only taken from ``game.observation``), rewards are 0
  until the end, infos carry the scores and the colour to move; at the end the moves replayed on
  a fresh ``blokus.Game`` give the same scores and winners, and the rewards are the ones rules.md's
  scoring gives (``win_loss``: +1 winners, -1 losers, 0 to all on an all-way tie; ``score``: the
  player score);
* recorded games (found with the engine, confirmed with tests/reference.py) that end in ties:
  a Duo draw, a ``classic_2`` draw, a ``classic_teams`` draw (all four players 0), a ``classic_3``
  and a ``classic`` game where two players share the win;
* observation planes of hand-built Duo and classic positions, cell by cell, with the attachment
  points worked out by hand from the definition (empty cells diagonal to own cells and not
  edge-adjacent to them; before the first piece, the starting squares open to the colour);
* illegal actions: the wrapped env ends the game with -1 for the offender and 0 for the others
  and logs PettingZoo's warning; ``raw_env`` raises ``blokus.IllegalMoveError``;
* render modes ``ansi`` (``str(game)``) and ``rgb_array`` (``uint8 (H*k, W*k, 3)``, colours told
  apart), and ``reset(seed=...)`` reproducibility.
"""

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import (
    AssertOutOfBoundsWrapper,
    OrderEnforcingWrapper,
    TerminateIllegalWrapper,
)

import blokus
import blokus.env

from env_helpers import expected_planes, expected_remaining, expected_reward, green_on_board, history, ints, player_of
from recorded_games import CLASSIC_SHARED_WIN, CLASSIC_TEAMS_DRAW, DUO_DRAW
from reference import GREEN, PIECE_NAMES, PLACEMENT_COUNTS, VARIANTS
from reference import player_scores as ref_player_scores
from reference import winners as ref_winners

ALL_VARIANTS = list(VARIANTS)
MAX_ITER = 10_000


def agent_name(player):
    return f"player_{player}"


def own_colour(agent):
    """Player p's own colour is colour p (classic_2: player 0 -> blue, player 1 -> yellow)."""
    return int(agent.rsplit("_", 1)[1])


def expected_agent(game):
    """The agent rules.md names for the colour to move."""
    return agent_name(player_of(game))


def expected_rewards(variant, colour_scores, mode):
    """Rewards per agent from colour scores, by rules.md's player table and win rule."""
    return {agent_name(p): expected_reward(variant, colour_scores, p, mode)
            for p in range(VARIANTS[variant][2])}


def perspective(game, agent):
    """The colour to move for the agent on move, else the agent's own colour."""
    if not game.is_over and agent == agent_name(game.player_to_move):
        return int(game.to_move)
    return own_colour(agent)


def check_observation(env, game, agent, obs):
    """obs (from env.observe(agent) or last()) against the spec, value by value."""
    variant = game.variant
    side, n, _ = VARIANTS[variant]
    na = PLACEMENT_COUNTS[side]
    assert set(obs) == {"observation", "action_mask", "remaining"}
    o, m, rem = obs["observation"], obs["action_mask"], obs["remaining"]
    assert o.dtype == np.int8 and o.shape == (n + 1, side, side)
    assert m.dtype == np.int8 and m.shape == (na,)
    assert rem.dtype == np.int8 and rem.shape == (n, 21)
    colour = perspective(game, agent)
    np.testing.assert_array_equal(o, expected_planes(game, colour), err_msg=f"{agent} planes")
    np.testing.assert_array_equal(o, game.observation(colour))
    np.testing.assert_array_equal(rem, expected_remaining(game, colour), err_msg=f"{agent} remaining")
    if not game.is_over and agent == agent_name(game.player_to_move):
        np.testing.assert_array_equal(m, game.legal_mask().astype(np.int8))
        assert m.any(), "the agent on move was handed an all-zero mask"
    else:
        assert not m.any(), f"{agent} is not on move but has a non-zero mask"
    assert env.observation_space(agent).contains(obs)


def check_infos(env, game):
    for agent in env.agents:
        info = env.infos[agent]
        assert ints(info["scores"]) == ints(game.scores())
        assert ints(info["player_scores"]) == ints(game.player_scores())
        assert int(info["colour_to_move"]) == int(game.to_move)


def play_out(env, choose, check_every_step=True):
    """Play an already reset env to the end through agent_iter.

    choose(agent, obs, game) gives the action of a live agent. Returns (actions, rewards right
    after the last move, final reward of each agent as last() reports it at its dead step,
    terminations and truncations right after the last move).
    """
    game = env.unwrapped.game
    actions, final, at_end = [], {}, None
    for agent in env.agent_iter(MAX_ITER):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert game.is_over
            assert term and not trunc
            assert agent not in final, f"{agent} got two dead steps"
            final[agent] = reward
            assert ints(info["scores"]) == ints(game.scores())
            assert int(info["colour_to_move"]) == -1
            env.step(None)
            continue
        assert not game.is_over
        assert agent == expected_agent(game), (len(actions), agent)
        assert reward == 0
        if check_every_step:
            check_infos(env, game)
            for a in env.possible_agents:
                check_observation(env, game, a, env.observe(a))
            check_observation(env, game, agent, obs)
        action = choose(agent, obs, game)
        actions.append(int(action))
        before = len(game.history)
        env.step(action)
        assert len(game.history) == before + 1
        assert int(game.history[-1][1]) == int(action)
        if game.is_over:
            at_end = (dict(env.rewards), dict(env.terminations), dict(env.truncations),
                      env.terminations is env.truncations)
            check_infos(env, game)
            for a in env.possible_agents:  # after the end: own colour, zero mask
                check_observation(env, game, a, env.observe(a))
        else:
            assert all(v == 0 for v in env.rewards.values()), env.rewards
            assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert at_end is not None, "the game did not end"
    assert sorted(final) == sorted(env.possible_agents), "not every agent got its dead step"
    assert env.agents == []
    return actions, at_end, final


def random_chooser(seed):
    rng = np.random.default_rng(seed)

    def choose(agent, obs, game):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    return choose


def replay(variant, actions, start="fixed"):
    game = blokus.Game(variant, start=start)
    for a in actions:
        game.play(a)
    return game


# ------------------------------------------------------------------ PettingZoo's own tests
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_pettingzoo_api_test(variant):
    env = blokus.env.env(variant=variant)
    api_test(env, num_cycles=100)  # 100 cycles play a whole game in every variant


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_pettingzoo_seed_test(variant):
    seed_test(lambda: blokus.env.env(variant=variant), num_cycles=100)


# ------------------------------------------------------------------ construction and spaces
def test_wrapped_like_classic_envs():
    env = blokus.env.env()
    assert isinstance(env, AECEnv)
    assert isinstance(env, OrderEnforcingWrapper)
    chain, e = [], env
    while hasattr(e, "env"):
        chain.append(type(e))
        e = e.env
    for w in (OrderEnforcingWrapper, AssertOutOfBoundsWrapper, TerminateIllegalWrapper):
        assert any(issubclass(t, w) for t in chain), (w, chain)
    assert e is env.unwrapped
    raw = blokus.env.raw_env()
    assert isinstance(raw, AECEnv)
    assert raw.unwrapped is raw
    assert not isinstance(raw, (OrderEnforcingWrapper, TerminateIllegalWrapper))


@pytest.mark.parametrize("factory", [blokus.env.env, blokus.env.raw_env])
def test_defaults(factory):
    env = factory()
    env.reset(seed=0)
    game = env.unwrapped.game
    assert isinstance(game, blokus.Game)
    assert game.variant == "duo" and game.start == "fixed"
    assert env.possible_agents == ["player_0", "player_1"]
    # rules.md: with the fixed Duo start, purple has 414 first placements, all covering (4, 4).
    obs = env.observe("player_0")
    assert int(obs["action_mask"].sum()) == 414


@pytest.mark.parametrize("factory", [blokus.env.env, blokus.env.raw_env])
@pytest.mark.parametrize(
    "kwargs",
    [{"variant": "bogus"}, {"reward": "bogus"}, {"render_mode": "bogus"}],
)
def test_bad_arguments(factory, kwargs):
    with pytest.raises(ValueError):
        env = factory(**kwargs)
        env.reset(seed=0)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_agents_and_spaces(variant):
    env = blokus.env.env(variant=variant)
    side, n, players = VARIANTS[variant]
    na = PLACEMENT_COUNTS[side]
    agents = [f"player_{p}" for p in range(players)]
    assert env.possible_agents == agents
    env.reset(seed=0)
    assert env.agents == agents
    assert env.num_agents == len(agents)
    game = env.unwrapped.game
    assert game.variant == variant and game.start == "fixed"
    assert game.num_placements == na
    for agent in agents:
        assert env.action_space(agent) == spaces.Discrete(na)
        space = env.observation_space(agent)
        assert isinstance(space, spaces.Dict)
        assert set(space.spaces) == {"observation", "action_mask", "remaining"}
        assert space["observation"] == spaces.Box(0, 1, (n + 1, side, side), np.int8)
        assert space["action_mask"] == spaces.Box(0, 1, (na,), np.int8)
        assert space["remaining"] == spaces.Box(0, 1, (n, 21), np.int8)
    assert env.agent_selection == "player_0"
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.terminations is not env.truncations
    assert all(v == 0 for v in env.rewards.values())
    check_infos(env, game)
    for agent in agents:
        check_observation(env, game, agent, env.observe(agent))


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_start_option(variant):
    """start="any": rules.md's first-move counts (232 any corner, 828 either Duo point)."""
    env = blokus.env.env(variant=variant, start="any")
    env.reset(seed=0)
    game = env.unwrapped.game
    assert game.start == "any"
    obs, *_ = env.last()
    assert int(obs["action_mask"].sum()) == (828 if variant == "duo" else 232)
    check_observation(env, game, "player_0", obs)
    env2 = blokus.env.env(variant=variant, start="fixed")
    env2.reset(seed=0)
    obs2, *_ = env2.last()
    assert int(obs2["action_mask"].sum()) == (414 if variant == "duo" else 58)


# ------------------------------------------------------------------ full random games
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_random_game_matches_engine(variant):
    env = blokus.env.env(variant=variant)
    env.reset(seed=1)
    actions, (rewards, terms, truncs, same), final = play_out(env, random_chooser(100 + len(variant)))
    game = env.unwrapped.game

    fresh = replay(variant, actions)
    assert fresh.is_over
    assert history(fresh) == history(game)
    scores = ints(fresh.scores())
    assert ints(game.scores()) == scores
    assert ints(fresh.player_scores()) == ints(ref_player_scores(variant, scores))
    assert ints(fresh.winners()) == ints(ref_winners(variant, scores))

    want = expected_rewards(variant, scores, "win_loss")
    assert rewards == want
    assert final == want
    assert terms == {a: True for a in env.possible_agents}
    assert truncs == {a: False for a in env.possible_agents}
    assert not same, "terminations and truncations are the same object"

    # The same moves under reward="score": every agent its player score.
    env_s = blokus.env.env(variant=variant, reward="score")
    env_s.reset(seed=1)
    moves = iter(actions)
    _, (rewards_s, *_), final_s = play_out(env_s, lambda a, o, g: next(moves), check_every_step=False)
    assert rewards_s == expected_rewards(variant, scores, "score")
    assert final_s == expected_rewards(variant, scores, "score")


@pytest.mark.parametrize("variant", ["classic", "duo"])
def test_random_game_any_start(variant):
    """The same checks at every step with rules.md's default start (any corner / either point)."""
    env = blokus.env.env(variant=variant, start="any")
    env.reset(seed=2)
    actions, (rewards, *_), final = play_out(env, random_chooser(7))
    fresh = replay(variant, actions, start="any")
    assert fresh.is_over and history(fresh) == history(env.unwrapped.game)
    assert final == expected_rewards(variant, ints(fresh.scores()), "win_loss")


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_raw_env_random_game(variant):
    """raw_env plays a whole game the same way (no wrapper needed for legal play)."""
    env = blokus.env.raw_env(variant=variant, reward="score")
    env.reset(seed=3)
    actions, (rewards, *_), final = play_out(env, random_chooser(11), check_every_step=False)
    fresh = replay(variant, actions)
    assert final == expected_rewards(variant, ints(fresh.scores()), "score")


# ------------------------------------------------------------------ recorded tie games
# The games are in recorded_games.py (shared with test_gym_env.py).
RECORDED = {
    # variant: (moves, colour scores, win_loss rewards, score rewards), all from rules.md
    "duo": (DUO_DRAW, [-28, -28], [0, 0], [-28, -28]),
    "classic_2": (CLASSIC_TEAMS_DRAW, [-30, -28, -27, -29], [0, 0], [-57, -57]),
    "classic_teams": (CLASSIC_TEAMS_DRAW, [-30, -28, -27, -29], [0, 0, 0, 0], [-57] * 4),
    "classic_3": (CLASSIC_SHARED_WIN, [-33, -25, -25, -28], [-1, 1, 1], [-33, -25, -25]),
    "classic": (CLASSIC_SHARED_WIN, [-33, -25, -25, -28], [-1, 1, 1, -1], [-33, -25, -25, -28]),
}


def scripted(variant, moves, agents_seen=None):
    it = iter(moves)

    def choose(agent, obs, game):
        colour, text = next(it)
        assert int(game.to_move) == colour
        if agents_seen is not None:
            agents_seen.append((colour, agent))
        action = blokus.parse_move(text, variant)
        assert obs["action_mask"][action] == 1
        return action

    return choose


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("mode", ["win_loss", "score"])
def test_recorded_ties(variant, mode):
    moves, scores, win_loss, score = RECORDED[variant]
    env = blokus.env.env(variant=variant, reward=mode)
    env.reset(seed=0)
    seen = []
    actions, (rewards, *_), final = play_out(env, scripted(variant, moves, seen), check_every_step=False)
    assert len(actions) == len(moves)
    assert ints(env.unwrapped.game.scores()) == scores
    want = {agent_name(p): float(v) for p, v in enumerate(win_loss if mode == "win_loss" else score)}
    assert rewards == want
    assert final == want


def test_classic_2_one_agent_moves_two_colours():
    variant = "classic_2"
    env = blokus.env.env(variant=variant)
    env.reset(seed=0)
    seen = []
    play_out(env, scripted(variant, CLASSIC_TEAMS_DRAW, seen))
    by_agent = {}
    for colour, agent in seen:
        by_agent.setdefault(agent, set()).add(colour)
    assert by_agent == {"player_0": {0, 2}, "player_1": {1, 3}}
    assert [agent for _, agent in seen[:4]] == ["player_0", "player_1", "player_0", "player_1"]


def test_classic_3_green_rotation():
    variant = "classic_3"
    env = blokus.env.env(variant=variant)
    env.reset(seed=0)
    seen = []
    play_out(env, scripted(variant, CLASSIC_SHARED_WIN, seen))
    green = [agent for colour, agent in seen if colour == GREEN]
    assert len(green) == 15
    # rules.md: the k-th green piece (from 0) is placed by player k mod 3.
    assert green == [f"player_{k % 3}" for k in range(15)]
    others = {(colour, agent) for colour, agent in seen if colour != GREEN}
    assert others == {(0, "player_0"), (1, "player_1"), (2, "player_2")}


def test_classic_3_green_perspective():
    """Green on move with one green piece down: player_1 acts and sees from green."""
    env = blokus.env.raw_env(variant="classic_3")
    env.reset(seed=0)
    for colour, text in CLASSIC_SHARED_WIN[:7]:
        env.step(blokus.parse_move(text, "classic_3"))
    game = env.unwrapped.game
    assert game.to_move == GREEN and green_on_board(game) == 1
    assert env.agent_selection == "player_1"
    obs = env.observe("player_1")
    board = np.asarray(game.board)
    for k, colour in enumerate([3, 0, 1, 2]):  # green, then blue, yellow, red
        np.testing.assert_array_equal(obs["observation"][k], board == colour)
    np.testing.assert_array_equal(obs["remaining"], np.asarray(game.remaining)[[3, 0, 1, 2]])
    np.testing.assert_array_equal(obs["action_mask"], game.legal_mask(GREEN).astype(np.int8))
    obs0 = env.observe("player_0")  # not on move: its own blue
    np.testing.assert_array_equal(obs0["observation"][0], board == 0)
    assert not obs0["action_mask"].any()


# ------------------------------------------------------------------ hand-built positions
def cells_plane(side, cells):
    out = np.zeros((side, side), dtype=np.int8)
    for r, c in cells:
        out[r, c] = 1
    return out


def remaining_row(*used):
    row = np.ones(21, dtype=np.int8)
    for name in used:
        row[PIECE_NAMES.index(name)] = 0
    return row


def build(variant, texts, start="fixed"):
    env = blokus.env.env(variant=variant, start=start)
    env.reset(seed=0)
    for text in texts:
        env.step(blokus.parse_move(text, variant))
    return env


def test_hand_built_duo_start():
    env = build("duo", [])
    o0, o1 = env.observe("player_0"), env.observe("player_1")
    empty = np.zeros((14, 14), dtype=np.int8)
    np.testing.assert_array_equal(o0["observation"], np.stack([empty, empty, cells_plane(14, [(4, 4)])]))
    np.testing.assert_array_equal(o1["observation"], np.stack([empty, empty, cells_plane(14, [(9, 9)])]))
    assert (o0["remaining"] == 1).all() and (o1["remaining"] == 1).all()
    assert not o1["action_mask"].any()

    env = build("duo", [], start="any")
    both = cells_plane(14, [(4, 4), (9, 9)])
    np.testing.assert_array_equal(env.observe("player_0")["observation"][2], both)
    np.testing.assert_array_equal(env.observe("player_1")["observation"][2], both)
    env.step(blokus.parse_move("e10", "duo"))  # purple takes (4, 4): orange only has (9, 9)
    np.testing.assert_array_equal(env.observe("player_1")["observation"][2], cells_plane(14, [(9, 9)]))


def test_hand_built_duo_position():
    # purple 1 on e10 = (4, 4); orange 2 on j5,j6 = (9, 9), (8, 9); purple 2 on f9,g9 = (5, 5), (5, 6)
    env = build("duo", ["e10", "j5,j6", "f9,g9"])
    game = env.unwrapped.game
    assert env.agent_selection == "player_1"
    purple = [(4, 4), (5, 5), (5, 6)]
    orange = [(8, 9), (9, 9)]
    # attachment points worked out by hand: diagonal neighbours of own cells minus the
    # edge neighbours of own cells and occupied cells.
    orange_ap = [(7, 8), (7, 10), (10, 8), (10, 10)]
    purple_ap = [(3, 3), (3, 5), (5, 3), (6, 4), (4, 7), (6, 7)]

    o1 = env.observe("player_1")  # on move: orange's view
    want1 = np.stack([cells_plane(14, orange), cells_plane(14, purple), cells_plane(14, orange_ap)])
    np.testing.assert_array_equal(o1["observation"], want1)
    np.testing.assert_array_equal(o1["remaining"], np.stack([remaining_row("2"), remaining_row("1", "2")]))
    np.testing.assert_array_equal(o1["action_mask"], game.legal_mask().astype(np.int8))
    assert o1["action_mask"].any()

    o0 = env.observe("player_0")  # not on move: its own purple
    want0 = np.stack([cells_plane(14, purple), cells_plane(14, orange), cells_plane(14, purple_ap)])
    np.testing.assert_array_equal(o0["observation"], want0)
    np.testing.assert_array_equal(o0["remaining"], np.stack([remaining_row("1", "2"), remaining_row("2")]))
    assert not o0["action_mask"].any()

    last_obs, *_ = env.last()
    np.testing.assert_array_equal(last_obs["observation"], want1)


# blue V3 on (0,0),(0,1),(1,0); yellow I4 on (0..3, 19); red 1 on (19,19); green 2 on (19,0),(19,1);
# blue 2 on (2,1),(2,2). Yellow to move.
CLASSIC_MOVES = ["a20,b20,a19", "t20,t19,t18,t17", "t1", "a1,b1", "b18,c18"]
CELLS = {
    0: [(0, 0), (0, 1), (1, 0), (2, 1), (2, 2)],
    1: [(0, 19), (1, 19), (2, 19), (3, 19)],
    2: [(19, 19)],
    3: [(19, 0), (19, 1)],
}
AP = {0: [(3, 0), (1, 3), (3, 3)], 1: [(4, 18)], 2: [(18, 18)], 3: [(18, 2)]}
USED = {0: ["V3", "2"], 1: ["I4"], 2: ["1"], 3: ["2"]}


def want_view(colour, cells=CELLS, ap=AP, used=USED):
    order = [(colour + k) % 4 for k in range(4)]
    planes = [cells_plane(20, cells[c]) for c in order] + [cells_plane(20, ap[colour])]
    return np.stack(planes), np.stack([remaining_row(*used[c]) for c in order])


def test_hand_built_classic_position():
    env = build("classic", CLASSIC_MOVES)
    game = env.unwrapped.game
    assert env.agent_selection == "player_1"
    for p in range(4):
        obs = env.observe(f"player_{p}")
        planes, rem = want_view(p)
        np.testing.assert_array_equal(obs["observation"], planes, err_msg=f"player_{p}")
        np.testing.assert_array_equal(obs["remaining"], rem, err_msg=f"player_{p}")
        if p == 1:
            np.testing.assert_array_equal(obs["action_mask"], game.legal_mask().astype(np.int8))
        else:
            assert not obs["action_mask"].any()
    # the helper used in the random games agrees with the hand-worked planes
    for c in range(4):
        np.testing.assert_array_equal(expected_planes(game, c), want_view(c)[0])


def test_hand_built_classic_2_position():
    env = build("classic_2", CLASSIC_MOVES)
    game = env.unwrapped.game
    assert env.agent_selection == "player_1"  # yellow
    planes, rem = want_view(0)  # player_0, not on move, sees from blue
    np.testing.assert_array_equal(env.observe("player_0")["observation"], planes)
    np.testing.assert_array_equal(env.observe("player_0")["remaining"], rem)
    np.testing.assert_array_equal(env.observe("player_1")["observation"], want_view(1)[0])

    env.step(blokus.parse_move("s16", "classic_2"))  # yellow 1 on (4, 18)
    assert game.to_move == 2
    assert env.agent_selection == "player_0"  # red is player 0's
    cells = dict(CELLS)
    cells[1] = CELLS[1] + [(4, 18)]
    ap = dict(AP)
    ap[1] = [(3, 17), (5, 17), (5, 19)]
    used = dict(USED)
    used[1] = ["I4", "1"]
    planes, rem = want_view(2, cells, ap, used)  # player_0 on move sees from red
    o0 = env.observe("player_0")
    np.testing.assert_array_equal(o0["observation"], planes)
    np.testing.assert_array_equal(o0["remaining"], rem)
    np.testing.assert_array_equal(o0["action_mask"], game.legal_mask(2).astype(np.int8))
    planes, rem = want_view(1, cells, ap, used)  # player_1 not on move sees from yellow
    o1 = env.observe("player_1")
    np.testing.assert_array_equal(o1["observation"], planes)
    np.testing.assert_array_equal(o1["remaining"], rem)
    assert not o1["action_mask"].any()


def test_hand_built_classic_3_green():
    env = build("classic_3", CLASSIC_MOVES + ["s16", "s2,s3"])  # yellow 1 (4,18); red 2 (18,18),(17,18)
    game = env.unwrapped.game
    assert game.to_move == GREEN
    assert env.agent_selection == "player_1"  # one green piece on the board: 1 mod 3
    cells = dict(CELLS)
    cells[1] = CELLS[1] + [(4, 18)]
    cells[2] = [(19, 19), (18, 18), (17, 18)]
    ap = dict(AP)
    ap[1] = [(3, 17), (5, 17), (5, 19)]
    ap[2] = [(16, 17), (16, 19), (19, 17)]
    used = {0: ["V3", "2"], 1: ["I4", "1"], 2: ["1", "2"], 3: ["2"]}
    planes, rem = want_view(3, cells, ap, used)
    o1 = env.observe("player_1")  # on move: green's view
    np.testing.assert_array_equal(o1["observation"], planes)
    np.testing.assert_array_equal(o1["remaining"], rem)
    np.testing.assert_array_equal(o1["action_mask"], game.legal_mask(GREEN).astype(np.int8))
    for p in (0, 2):  # not on move: their own colours
        planes, rem = want_view(p, cells, ap, used)
        obs = env.observe(f"player_{p}")
        np.testing.assert_array_equal(obs["observation"], planes, err_msg=f"player_{p}")
        np.testing.assert_array_equal(obs["remaining"], rem, err_msg=f"player_{p}")
        assert not obs["action_mask"].any()


# ------------------------------------------------------------------ illegal actions
def illegal_action(obs):
    return int(np.flatnonzero(obs["action_mask"] == 0)[0])


@pytest.mark.parametrize("variant", ["duo", "classic_3"])
@pytest.mark.parametrize("moves_before", [0, 5])
def test_illegal_action_wrapped(variant, moves_before):
    env = blokus.env.env(variant=variant)
    env.reset(seed=0)
    choose = random_chooser(5)
    for _ in range(moves_before):
        obs, *_ = env.last()
        env.step(choose(env.agent_selection, obs, None))
    game = env.unwrapped.game
    before = history(game)
    offender = env.agent_selection
    obs, *_ = env.last()
    EnvLogger.flush()
    env.step(illegal_action(obs))
    assert any("Illegal move" in str(m) for m in EnvLogger.mqueue), "no PettingZoo warning"
    assert history(game) == before, "the illegal action changed the game"
    assert all(env.terminations.values())
    want = {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert dict(env.rewards) == want
    final = {}
    for agent in env.agent_iter(MAX_ITER):
        _, reward, term, trunc, _ = env.last()
        assert term or trunc
        final[agent] = reward
        env.step(None)
    assert final == want


def test_illegal_action_with_score_rewards_costs_more_than_any_game():
    # classic_2: a player scores two colours, so the worst end is -178; an illegal action
    # must cost more than that
    env = blokus.env.env("classic_2", reward="score")
    env.reset()
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.rewards[offender] == -179


def test_out_of_bounds_action_wrapped():
    env = blokus.env.env()
    env.reset(seed=0)
    with pytest.raises(AssertionError):
        env.step(PLACEMENT_COUNTS[VARIANTS["duo"][0]])


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_illegal_action_raw(variant):
    env = blokus.env.raw_env(variant=variant)
    env.reset(seed=0)
    game = env.unwrapped.game
    obs = env.observe(env.agent_selection)
    with pytest.raises(blokus.IllegalMoveError):
        env.step(illegal_action(obs))
    assert history(game) == []
    assert env.agent_selection == "player_0"
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(legal)
    assert history(game) == [(0, legal)]
    # the same placement again is illegal for the next colour too (its cells are occupied)
    with pytest.raises(blokus.IllegalMoveError):
        env.step(legal)
    assert history(game) == [(0, legal)]


# ------------------------------------------------------------------ rendering
def test_render_ansi():
    env = blokus.env.env(variant="duo", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(env.unwrapped.game)
    for text in ["e10", "j5,j6"]:
        env.step(blokus.parse_move(text, "duo"))
    text = env.render()
    assert isinstance(text, str)
    assert text == str(env.unwrapped.game)


@pytest.mark.parametrize("variant", ["classic", "duo"])
def test_render_rgb_array(variant):
    env = blokus.env.env(variant=variant, render_mode="rgb_array")
    moves = CLASSIC_MOVES if variant == "classic" else ["e10", "j5,j6", "f9,g9"]
    env.reset(seed=0)
    for text in moves:
        env.step(blokus.parse_move(text, variant))
    img = env.render()
    side, colours, _ = VARIANTS[variant]
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8
    assert img.ndim == 3 and img.shape[2] == 3
    k = img.shape[0] // side
    assert k >= 1 and img.shape == (side * k, side * k, 3)
    board = np.asarray(env.unwrapped.game.board)
    centre = {}
    for r in range(side):
        for c in range(side):
            centre.setdefault(int(board[r, c]), set()).add(tuple(int(x) for x in img[r * k + k // 2, c * k + k // 2]))
    assert set(centre) == set(range(-1, colours))
    keys = sorted(centre)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            assert not (centre[a] & centre[b]), f"cells of {a} and {b} share a colour in the image"


# ------------------------------------------------------------------ seeding
@pytest.mark.parametrize("variant", ["duo", "classic_3"])
def test_reset_seed_reproducible(variant):
    def trajectory():
        env = blokus.env.env(variant=variant)
        env.reset(seed=42)
        rng = np.random.default_rng(0)
        out = []
        for agent in env.agent_iter(60):
            obs, reward, term, trunc, info = env.last()
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
            if term or trunc:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    assert trajectory() == trajectory()
    env = blokus.env.env(variant=variant)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    env.reset(seed=1)  # reset really starts over
    assert history(env.unwrapped.game) == []
    assert env.agent_selection == "player_0"
    assert env.agents == env.possible_agents
