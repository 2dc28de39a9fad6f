"""The single-agent Gymnasium environment ``blokus.gym_env.BlokusEnv`` (issue 3).

* the five ids are registered, once and without a warning, when blokus and Gymnasium are both
  imported in either order or ``gymnasium.make("blokus:...")`` imports blokus (checked in fresh
  interpreters), and make the right variant; Gymnasium's ``check_env`` passes for each; spaces: ``Discrete`` over
  the placement ids, a ``Dict`` of ``observation`` and ``remaining`` (no mask in it);
* whole episodes against a callable opponent (a seeded random player that also keeps its own
  copy of the game): the callable is called with a ``blokus.Game`` on the opponents' turns only,
  its moves are the ones played, and at every learner turn the observation is seen from the
  learner's colour to move (planes and remaining rows recomputed from the board and rules.md),
  ``info["action_mask"]`` equals the legal placements of that colour and equals
  ``env.unwrapped.action_masks()``; reward 0 until the end, then rules.md's result for the
  learner's player (``win_loss`` and ``score``), ``truncated`` always False. Seats 0 .. n-1,
  ``classic_2`` (the learner moves two colours) and ``classic_3`` (green in rotation);
* recorded tie games (scripted learner and opponent): 0 for a Duo draw and an all-way
  ``classic_teams`` draw, +1 / -1 where two of three ``classic_3`` players share the win;
* the built-in ``"random"`` opponent: in Duo every opponent reply is read off the observations
  and replayed on a fresh game (so it must be legal and the final reward must match rules.md);
  ``reset(seed)`` reproduces a whole episode, other seeds give other episodes;
* illegal actions: by default ``ValueError`` naming where the mask is, the game and episode
  unchanged (a legal action then plays on); with ``illegal="end"``: terminated, reward -1,
  ``info["illegal_move"]`` carries the engine's reason; ``action_space.sample()`` draws legal
  placements (a whole episode of them); ``mask_in_observation=True``: the observation's
  ``action_mask`` is the legal placements of the test's own copy of the game at every turn;
  bad ``seat`` / ``opponent`` / ``illegal`` raise ``ValueError``; ``start="any"`` / ``"fixed"``
  first-move counts;
* a MaskablePPO (sb3-contrib) smoke run of 256 steps on ``blokus/Duo-v0``, skipped when
  sb3-contrib is not installed.
"""

import os
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import blokus
import blokus.gym_env

from env_helpers import expected_planes, expected_remaining, expected_reward, history, ints, player_of
from recorded_games import CLASSIC_SHARED_WIN, CLASSIC_TEAMS_DRAW, DUO_DRAW
from reference import GREEN, PLACEMENT_COUNTS, VARIANTS

IDS = {
    "blokus/Classic-v0": "classic",
    "blokus/Classic2-v0": "classic_2",
    "blokus/Classic3-v0": "classic_3",
    "blokus/ClassicTeams-v0": "classic_teams",
    "blokus/Duo-v0": "duo",
}
ID_OF = {v: k for k, v in IDS.items()}


def check_learner_turn(env, game, seat, obs, info):
    """The learner is on move in game (the test's own copy): obs and masks from its colour."""
    variant = game.variant
    assert not game.is_over
    assert player_of(game) == seat
    colour = int(game.to_move)
    assert set(obs) == {"observation", "remaining"}
    assert obs["observation"].dtype == np.int8 and obs["remaining"].dtype == np.int8
    np.testing.assert_array_equal(obs["observation"], expected_planes(game, colour))
    np.testing.assert_array_equal(obs["remaining"], expected_remaining(game, colour))
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (PLACEMENT_COUNTS[VARIANTS[variant][0]],)
    np.testing.assert_array_equal(mask, game.legal_mask().astype(np.int8))
    assert mask.any()
    am = env.unwrapped.action_masks()
    assert am.dtype == np.bool_
    np.testing.assert_array_equal(am, mask.astype(bool))
    assert env.observation_space.contains(obs)


def check_over(env, info):
    assert not np.asarray(info["action_mask"]).any()
    assert not env.unwrapped.action_masks().any()


class ShadowOpponent:
    """A seeded uniform-random opponent that keeps its own game in step with the env's."""

    def __init__(self, variant, seat, seed, start="fixed"):
        self.variant, self.seat = variant, seat
        self.shadow = blokus.Game(variant, start=start)
        self.rng = np.random.default_rng(seed)
        self.calls = 0

    def __call__(self, game):
        assert isinstance(game, blokus.Game)
        assert game.variant == self.variant
        assert history(game) == history(self.shadow), "the env's game is not the one played"
        assert not game.is_over
        assert player_of(game) != self.seat, "the opponent was asked to move the learner's colour"
        moves = game.legal_moves()
        move = int(moves[self.rng.integers(len(moves))])
        self.shadow.play(move)
        self.calls += 1
        return move


def run_against_shadow(env_id, seat, mode="win_loss", seed=0, start="fixed"):
    variant = IDS[env_id]
    opp = ShadowOpponent(variant, seat, seed, start=start)
    env = gymnasium.make(env_id, opponent=opp, seat=seat, reward=mode, start=start)
    rng = np.random.default_rng(1000 + seed)
    game = opp.shadow
    obs, info = env.reset(seed=seed)
    learner_colours = set()
    steps = 0
    while True:
        check_learner_turn(env, game, seat, obs, info)
        learner_colours.add(int(game.to_move))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        game.play(action)
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        assert isinstance(terminated, bool) and isinstance(truncated, bool)
        assert truncated is False
        if terminated:
            break
        assert reward == 0
    assert game.is_over, "terminated before the end of the game"
    assert reward == expected_reward(variant, ints(game.scores()), seat, mode)
    assert env.observation_space.contains(obs)
    check_over(env, info)
    return opp, steps, learner_colours


# ------------------------------------------------------------------ registration and spaces
def run_fresh(code):
    """Runs code in a fresh interpreter that imports this checkout's blokus; returns its stdout."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(blokus.__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


# Gymnasium 1.0 dropped its plugin entry points, so the ids need blokus imported: in either order
# (import blokus before Gymnasium leaves a hook that registers them after Gymnasium's import), or
# by Gymnasium itself for an id "blokus:<id>". The hook must survive a find_spec that only looks.
@pytest.mark.slow
@pytest.mark.parametrize("imports, make_id", [
    ("import gymnasium, blokus", "blokus/Duo-v0"),
    ("import blokus, gymnasium", "blokus/Duo-v0"),
    ("import blokus, importlib.util; importlib.util.find_spec('gymnasium'); import gymnasium", "blokus/Duo-v0"),
    ("import blokus.gym_env, gymnasium", "blokus/Duo-v0"),
    ("import gymnasium", "blokus:blokus/Duo-v0"),
])
def test_registered_once_blokus_and_gymnasium_are_imported(imports, make_id):
    code = (
        "import warnings; warnings.simplefilter('error')\n"  # a second registration would warn
        f"{imports}\n"
        "env = gymnasium.make(" + repr(make_id) + ")\n"
        "import blokus.gym_env; blokus.gym_env.register_envs()\n"
        "print(sorted(i for i in gymnasium.registry if i.startswith('blokus/')))\n"
        "print(env.unwrapped.game.variant)\n"
    )
    assert run_fresh(code).splitlines() == [repr(sorted(IDS)), "duo"]


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_make_and_spaces(env_id):
    variant = IDS[env_id]
    env = gymnasium.make(env_id)
    assert isinstance(env.unwrapped, blokus.gym_env.BlokusEnv)
    side, n, _ = VARIANTS[variant]
    na = PLACEMENT_COUNTS[side]
    assert env.action_space == spaces.Discrete(na)
    space = env.observation_space
    assert isinstance(space, spaces.Dict)
    assert set(space.spaces) == {"observation", "remaining"}
    assert space["observation"] == spaces.Box(0, 1, (n + 1, side, side), np.int8)
    assert space["remaining"] == spaces.Box(0, 1, (n, 21), np.int8)
    obs, info = env.reset(seed=0)
    assert space.contains(obs)
    assert "action_mask" not in obs
    # seat 0 moves first in every variant: its start planes and its first placements
    game = blokus.Game(variant, start="fixed")
    check_learner_turn(env, game, 0, obs, info)


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_check_env(env_id):
    # its determinism check steps an action sampled in the position before its reset: only
    # illegal="end" survives that (the default raises, as test_check_env_needs_illegal_end shows)
    check_env(gymnasium.make(env_id, illegal="end").unwrapped)


def test_check_env_needs_illegal_end():
    with pytest.raises(ValueError, match="illegal='end'"):
        check_env(gymnasium.make("blokus/Duo-v0").unwrapped)


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_variant_of_id(env_id):
    """The callable opponent sees the game of the id's variant."""
    seen = []

    def opponent(game):
        seen.append(game.variant)
        return int(game.legal_moves()[0])

    env = gymnasium.make(env_id, opponent=opponent)
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert seen and set(seen) == {IDS[env_id]}


@pytest.mark.parametrize(
    "env_id, start, count",
    [("blokus/Duo-v0", "fixed", 414), ("blokus/Duo-v0", "any", 828),
     ("blokus/Classic-v0", "fixed", 58), ("blokus/Classic-v0", "any", 232)],
)
def test_start_option(env_id, start, count):
    """rules.md's first-move counts for the learner in seat 0."""
    env = gymnasium.make(env_id, start=start)
    _, info = env.reset(seed=0)
    assert int(info["action_mask"].sum()) == count
    assert int(env.unwrapped.action_masks().sum()) == count


# ------------------------------------------------------------------ episodes, callable opponent
@pytest.mark.parametrize("env_id", sorted(IDS))
def test_episode_seat_0(env_id):
    opp, steps, colours = run_against_shadow(env_id, 0)
    assert opp.calls > 0 and steps > 0
    variant = IDS[env_id]
    if variant == "classic_2":
        assert colours == {0, 2}, "the classic_2 learner must move blue and red"
    elif variant == "classic_3":
        assert colours == {0, 3}, "player 0 moves blue and, in rotation, green"
    else:
        assert colours == {0}


@pytest.mark.slow
@pytest.mark.parametrize(
    "env_id, seat, mode",
    [
        ("blokus/Duo-v0", 1, "win_loss"),
        ("blokus/Duo-v0", 1, "score"),
        ("blokus/Duo-v0", 0, "score"),
        ("blokus/Classic-v0", 3, "score"),
        ("blokus/Classic2-v0", 1, "win_loss"),
        ("blokus/Classic2-v0", 1, "score"),
        ("blokus/Classic3-v0", 1, "score"),
        ("blokus/Classic3-v0", 2, "win_loss"),
        ("blokus/ClassicTeams-v0", 2, "score"),
        ("blokus/ClassicTeams-v0", 1, "win_loss"),
    ],
)
def test_episode_other_seats(env_id, seat, mode):
    _, _, colours = run_against_shadow(env_id, seat, mode, seed=seat + 3)
    variant = IDS[env_id]
    if variant == "classic_2":
        assert colours == {seat, seat + 2}
    elif variant == "classic_3":
        assert colours == {seat, GREEN}
    else:
        assert colours == {seat}


def test_seat_1_first_observation():
    """Duo seat 1: reset() plays purple's first piece, then orange (the learner) sees it."""
    opp = ShadowOpponent("duo", 1, seed=5)
    env = gymnasium.make("blokus/Duo-v0", opponent=opp, seat=1)
    obs, info = env.reset(seed=5)
    assert opp.calls == 1
    game = opp.shadow
    assert game.to_move == 1
    assert not obs["observation"][0].any()  # orange has no cell yet
    np.testing.assert_array_equal(obs["observation"][1], np.asarray(game.board) == 0)
    assert obs["observation"][2].sum() == 1 and obs["observation"][2][9, 9] == 1
    assert int(info["action_mask"].sum()) == int(game.legal_mask(1).sum()) > 0
    check_learner_turn(env, game, 1, obs, info)


def test_several_seeds_duo():
    for seed in range(4):
        run_against_shadow("blokus/Duo-v0", seed % 2, "win_loss", seed=10 + seed)


def test_start_any_episode():
    run_against_shadow("blokus/Duo-v0", 0, start="any", seed=4)
    run_against_shadow("blokus/Classic-v0", 1, start="any", seed=4)


# ------------------------------------------------------------------ recorded ties
# The games are in recorded_games.py (shared with test_env.py).
def recorded(name):
    return {"duo": DUO_DRAW, "teams": CLASSIC_TEAMS_DRAW, "shared": CLASSIC_SHARED_WIN}[name]


@pytest.mark.parametrize(
    "env_id, moves, seat, mode, want",
    [
        ("blokus/Duo-v0", "duo", 0, "win_loss", 0.0),
        ("blokus/Duo-v0", "duo", 1, "win_loss", 0.0),
        ("blokus/Duo-v0", "duo", 1, "score", -28.0),
        ("blokus/ClassicTeams-v0", "teams", 3, "win_loss", 0.0),   # teams -57 / -57
        ("blokus/ClassicTeams-v0", "teams", 0, "score", -57.0),
        ("blokus/Classic2-v0", "teams", 1, "win_loss", 0.0),
        ("blokus/Classic3-v0", "shared", 1, "win_loss", 1.0),     # -33, -25, -25 (green -28)
        ("blokus/Classic3-v0", "shared", 2, "win_loss", 1.0),
        ("blokus/Classic3-v0", "shared", 0, "win_loss", -1.0),
        ("blokus/Classic3-v0", "shared", 0, "score", -33.0),
        ("blokus/Classic-v0", "shared", 3, "win_loss", -1.0),
        ("blokus/Classic-v0", "shared", 1, "win_loss", 1.0),
    ],
)
def test_recorded_ties(env_id, moves, seat, mode, want):
    variant = IDS[env_id]
    script = list(recorded(moves))
    pos = [0]
    shadow = blokus.Game(variant, start="fixed")

    def next_move(game):
        colour, text = script[pos[0]]
        assert int(game.to_move) == colour
        pos[0] += 1
        move = blokus.parse_move(text, variant)
        shadow.play(move)
        return move

    env = gymnasium.make(env_id, opponent=next_move, seat=seat, reward=mode)
    obs, info = env.reset(seed=0)
    while True:
        check_learner_turn(env, shadow, seat, obs, info)
        action = next_move(shadow)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            break
        assert reward == 0
    assert pos[0] == len(script) and shadow.is_over
    assert reward == want
    check_over(env, info)


# ------------------------------------------------------------------ the built-in random opponent
def components(mask):
    """Edge-connected components of a boolean plane (pieces of one colour never share an edge,
    so each component of one colour's new cells is one placement)."""
    seen = np.zeros_like(mask, dtype=bool)
    out = []
    for r, c in zip(*np.nonzero(mask)):
        if seen[r, c]:
            continue
        comp, stack = [], [(int(r), int(c))]
        seen[r, c] = True
        while stack:
            y, x = stack.pop()
            comp.append((y, x))
            for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                v, u = y + dy, x + dx
                if 0 <= v < mask.shape[0] and 0 <= u < mask.shape[1] and mask[v, u] and not seen[v, u]:
                    seen[v, u] = True
                    stack.append((v, u))
        out.append(comp)
    return out


def absorb_opponent(game, obs, seat, final):
    """Replay on game the opponent's pieces that appeared in obs (Duo: plane 0 the learner's
    colour, plane 1 the opponent's). Returns how many were placed."""
    opp = 1 - seat
    board = np.asarray(game.board)
    np.testing.assert_array_equal(obs["observation"][0], board == seat)
    old = board == opp
    new_cells = obs["observation"][1].astype(bool)
    assert not (old & ~new_cells).any(), "opponent cells disappeared"
    pending = components(new_cells & ~old)
    if not final:
        assert len(pending) <= 1, "the opponent moved twice between two learner turns"
    placed = 0
    while pending:
        for comp in pending:
            assert int(game.to_move) == opp, "the opponent moved out of turn"
            try:
                game.play(comp)
            except blokus.IllegalMoveError:
                continue
            pending.remove(comp)
            placed += 1
            break
        else:
            pytest.fail(f"the random opponent's pieces {pending} cannot be legal")
    return placed


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("mode", ["win_loss", "score"])
def test_random_opponent_duo_episode(seat, mode):
    env = gymnasium.make("blokus/Duo-v0", seat=seat, reward=mode)  # opponent="random"
    game = blokus.Game("duo", start="fixed")
    rng = np.random.default_rng(seat)
    obs, info = env.reset(seed=20 + seat)
    absorb_opponent(game, obs, seat, final=False)
    while True:
        check_learner_turn(env, game, seat, obs, info)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        game.play(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        placed = absorb_opponent(game, obs, seat, final=terminated)
        if terminated:
            break
        assert reward == 0
    assert game.is_over
    # The order of several final opponent pieces is not seen; it matters only for the +20 bonus.
    assert not (placed > 1 and not game.remaining[1 - seat].any()), "pick another seed"
    assert reward == expected_reward("duo", ints(game.scores()), seat, mode)
    np.testing.assert_array_equal(obs["remaining"], expected_remaining(game, seat))
    check_over(env, info)


def rollout(env_id, seed, env=None, **kwargs):
    env = env or gymnasium.make(env_id, **kwargs)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(99)
    traj = [(obs["observation"].tobytes(), obs["remaining"].tobytes(), info["action_mask"].tobytes())]
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        traj.append((obs["observation"].tobytes(), obs["remaining"].tobytes(),
                     info["action_mask"].tobytes(), float(reward), terminated, truncated))
        if terminated or truncated:
            return traj


@pytest.mark.parametrize("env_id, seat", [("blokus/Duo-v0", 0), ("blokus/Duo-v0", 1),
                                          ("blokus/Classic3-v0", 1)])
def test_random_opponent_reproducible(env_id, seat):
    a = rollout(env_id, 7, seat=seat)
    b = rollout(env_id, 7, seat=seat)
    assert a == b
    env = gymnasium.make(env_id, seat=seat)
    rollout(env_id, 3, env=env)
    assert rollout(env_id, 7, env=env) == a, "reset(seed) on a used env does not start over"
    others = [rollout(env_id, s, seat=seat) for s in range(4)]
    assert len({t[1][0] for t in others}) > 1, "the opponent ignores the seed"


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_random_opponent_episode_ends(env_id):
    variant = IDS[env_id]
    env = gymnasium.make(env_id, seat=VARIANTS[variant][2] - 1)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
        assert info["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        assert not truncated
        if terminated:
            break
        assert reward == 0
        assert steps < 200
    assert reward in (-1.0, 0.0, 1.0)
    check_over(env, info)


# ------------------------------------------------------------------ illegal actions, bad arguments
@pytest.mark.parametrize("mode", ["win_loss", "score"])
def test_illegal_first_move_ends_the_game_with_illegal_end(mode):
    env = gymnasium.make("blokus/Duo-v0", reward=mode, illegal="end")
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(blokus.IllegalMoveError) as err:
        blokus.Game("duo", start="fixed").play(bad)
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated is True and truncated is False
    # win/loss: -1, PettingZoo's convention; score: below the worst Duo score, -89 (all 89
    # squares in hand), so that breaking a rule never pays better than playing
    assert reward == (-1 if mode == "win_loss" else -90)
    assert isinstance(info["illegal_move"], str)
    assert str(err.value) in info["illegal_move"]
    assert not info["action_mask"].any(), "an ended episode has no legal action"
    with pytest.raises(RuntimeError, match="reset"):
        env.step(bad)


@pytest.mark.parametrize("action", ["e10", 3.0, None])
def test_non_integer_action_is_a_type_error(action):
    env = gymnasium.make("blokus/Duo-v0")
    env.reset(seed=0)
    with pytest.raises(TypeError):
        env.step(action)


def test_step_after_the_end_raises():
    env = gymnasium.make("blokus/Duo-v0", opponent="random")
    _, info = env.reset(seed=3)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_move_mid_game_with_illegal_end():
    opp = ShadowOpponent("classic", 0, seed=2)
    env = gymnasium.make("blokus/Classic-v0", opponent=opp, illegal="end")
    _, info = env.reset(seed=0)
    first = int(np.flatnonzero(info["action_mask"])[0])
    opp.shadow.play(first)
    _, _, terminated, _, info = env.step(first)
    assert not terminated
    game = opp.shadow.copy()
    with pytest.raises(blokus.IllegalMoveError) as err:  # blue's first placement again
        game.play(first)
    _, reward, terminated, truncated, info = env.step(first)
    assert terminated and not truncated and reward == -1
    assert str(err.value) in info["illegal_move"]


@pytest.mark.parametrize("bad", ["occupied", "out_of_range"])
def test_illegal_action_raises_by_default_and_changes_nothing(bad):
    opp = ShadowOpponent("classic", 0, seed=4)
    env = gymnasium.make("blokus/Classic-v0", opponent=opp)
    obs, info = env.reset(seed=0)
    first = int(np.flatnonzero(info["action_mask"])[0])
    opp.shadow.play(first)
    obs, _, _, _, info = env.step(first)
    action = first if bad == "occupied" else 30_433  # blue's first placement again; one past the table
    before = history(opp.shadow)
    with pytest.raises(ValueError, match=r"action_mask.*action_masks\(\)") as err:
        env.step(action)
    assert f"placement id {action} " in str(err.value)
    if bad == "occupied":
        with pytest.raises(blokus.IllegalMoveError) as reason:
            opp.shadow.copy().play(first)
        assert str(reason.value) in str(err.value)
    assert history(env.unwrapped.game) == before and opp.calls == 3, "the refused action changed the game"
    assert env.unwrapped.action_masks().any(), "the refused action ended the episode"
    # the episode goes on from the same position
    check_learner_turn(env, opp.shadow, 0, obs, info)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    opp.shadow.play(legal)
    _, reward, terminated, _, info = env.step(legal)
    assert (reward, terminated) == (0, False) and opp.calls == 6
    np.testing.assert_array_equal(info["action_mask"], opp.shadow.legal_mask().astype(np.int8))


@pytest.mark.parametrize("env_id", ["blokus/Duo-v0", "blokus/Classic3-v0"])
def test_action_space_sample_plays_a_whole_episode(env_id):
    """Checkers and random agents step with ``action_space.sample()``: by default an illegal
    action raises, so sample() must draw legal placements, and every one of them."""
    env = gymnasium.make(env_id)
    env.reset(seed=5)
    env.action_space.seed(5)
    mask = env.unwrapped.action_masks()
    drawn = {int(env.action_space.sample()) for _ in range(20 * int(mask.sum()))}
    assert drawn == set(np.flatnonzero(mask).tolist())  # all of them: each missed with p = e^-20
    steps, terminated = 0, False
    while not terminated:
        _, reward, terminated, _, info = env.step(env.action_space.sample())
        steps += 1
    assert "illegal_move" not in info and 10 < steps <= 21 * 3
    assert env.action_space.sample() == 0, "no legal placement once over: Gymnasium's start"


@pytest.mark.parametrize("env_id, seat", [("blokus/Duo-v0", 1), ("blokus/Classic3-v0", 2)])
def test_mask_in_observation(env_id, seat):
    variant = IDS[env_id]
    opp = ShadowOpponent(variant, seat, seed=6)
    env = gymnasium.make(env_id, opponent=opp, seat=seat, mask_in_observation=True)
    assert set(env.observation_space.keys()) == {"observation", "remaining", "action_mask"}
    assert env.observation_space["action_mask"].shape == (PLACEMENT_COUNTS[VARIANTS[variant][0]],)
    obs, info = env.reset(seed=6)
    rng, turns, terminated = np.random.default_rng(6), 0, False
    while not terminated:
        assert env.observation_space.contains(obs)
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        np.testing.assert_array_equal(mask, opp.shadow.legal_mask().astype(np.int8))
        np.testing.assert_array_equal(obs["observation"], expected_planes(opp.shadow, int(opp.shadow.to_move)))
        action = int(rng.choice(np.flatnonzero(mask)))
        opp.shadow.play(action)
        obs, _, terminated, _, info = env.step(action)
        turns += 1
    assert not obs["action_mask"].any() and env.observation_space.contains(obs)
    assert turns > 5


def test_check_env_with_mask_in_observation():
    check_env(gymnasium.make("blokus/Classic-v0", mask_in_observation=True, illegal="end").unwrapped)


@pytest.mark.parametrize(
    "env_id, kwargs",
    [
        ("blokus/Duo-v0", {"seat": True}),
        ("blokus/Duo-v0", {"seat": 2}),
        ("blokus/Duo-v0", {"seat": -1}),
        ("blokus/Classic-v0", {"seat": 4}),
        ("blokus/Classic2-v0", {"seat": 2}),
        ("blokus/Classic3-v0", {"seat": 3}),
        ("blokus/Duo-v0", {"opponent": "bogus"}),
        ("blokus/Duo-v0", {"opponent": 3}),
        ("blokus/Duo-v0", {"illegal": "ignore"}),
    ],
)
def test_bad_arguments(env_id, kwargs):
    with pytest.raises(ValueError):
        env = gymnasium.make(env_id, **kwargs)
        env.reset(seed=0)


# ------------------------------------------------------------------ MaskablePPO smoke test
@pytest.mark.slow  # trains
def test_maskable_ppo_smoke():
    """A few hundred MaskablePPO steps (CPU) on blokus/Duo-v0; skipped without sb3-contrib."""
    sb3_contrib = pytest.importorskip(
        "sb3_contrib", reason='needs sb3-contrib and torch: pip install -e ".[train]" runs it')
    env = gymnasium.make("blokus/Duo-v0")
    model = sb3_contrib.MaskablePPO(
        "MultiInputPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu"
    )
    model.learn(256)
    obs, info = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
    assert info["action_mask"][int(action)] == 1
