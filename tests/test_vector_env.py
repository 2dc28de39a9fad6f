"""The Gymnasium vector environment ``blokus.vector.VectorEnv`` (issue 4), checked against its
contract.

* it is a ``gymnasium.vector.VectorEnv`` with ``metadata["autoreset_mode"] == NEXT_STEP``;
  ``single_observation_space`` is a ``Dict`` of ``observation`` Box(0, 1, (C+1, H, W), int8) and
  ``remaining`` Box(0, 1, (C, 21), int8), ``observation_space`` its batched form,
  ``single_action_space`` ``Discrete(A)``, ``action_space`` ``MultiDiscrete([A] * N)``, for every
  variant;
* ``reset(seed=)`` and ``step``: shapes and dtypes (obs dict of (N, ...) int8 arrays, float
  rewards, bool terminations, truncations all False, ``infos["action_mask"]`` (N, A) int8 equal
  to ``action_masks()``);
* whole episodes against the built-in ``"greedy"`` and ``"random"`` opponents, for several
  variants and seats: each env's game is rebuilt on a ``blokus.Game`` from the observations (the
  learner's moves, then the opponents' pieces read off the board and replayed, each one legal for
  the colour to move); at every learner turn the observation is ``Game.observation`` and
  ``Game.remaining_from`` of the learner's colour to move and the mask is the legal placements;
  the greedy opponent plays largest pieces; rewards are 0 until the game ends and then rules.md's
  result for the seat's player (``win_loss``: +1 among the winners unless all tie, -1 otherwise,
  0 on an all-way tie; ``score``: the player score); the mask of a finished game is empty;
* next-step autoreset: the step after a termination ignores that env's action (even an illegal
  one), returns the fresh game's first learner observation with reward 0 and no termination;
* Gymnasium's own ``RecordEpisodeStatistics`` vector wrapper (which relies on the autoreset
  mode) reports each episode with the env's final reward and its number of learner steps;
* an illegal action (or out of range) raises ``ValueError`` naming the env index, with nothing
  played; ``reset(seed)`` reproduces a run;
* one seat and one opponent per game (``seat=[...]``, ``opponent=[...]``): the learner's colour
  in game i is ``seat[i]`` (planes and attachment point at its first turn), callable opponents
  replayed on the test's own games, ``mask_in_observation``'s ``action_mask`` equal to their
  legal placements, each game paid for its own seat; Gymnasium's ``_key`` masks in the infos
  (read by its ``DictInfoToList`` wrapper); an illegal action in a mixed env raises naming the
  env's game index, nothing played.

When the learner's player is out of moves the opponents play on within one step, and the order
of several pieces of one colour (hence the +20 bonus) cannot always be rebuilt: that env is then
checked loosely (cells against hands, learner to move, attachment plane, a reward among those the
hands allow) until its reset.
"""

import itertools

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

import blokus
import blokus.vector

from env_helpers import expected_reward, player_of
from reference import GREEN, attachment_points, start_squares
from reference import player_to_move as ref_player_to_move
from vector_helpers import (
    ALL_VARIANTS,
    Ambiguous,
    absolute_board,
    absolute_hands,
    dims,
    hand_squares,
    names_index,
    placement_size,
    possible_scores,
    replay_new_pieces,
    sizes_of,
)


def make(n, variant="duo", **kwargs):
    return blokus.vector.VectorEnv(n, variant, **kwargs)


# ------------------------------------------------------------------ type, spaces, shapes
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_spaces(variant):
    n = 3
    h, w, c, p, a = dims(variant)
    env = make(n, variant)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    assert env.num_envs == n
    single = spaces.Dict(
        {"observation": spaces.Box(0, 1, (c + 1, h, w), np.int8), "remaining": spaces.Box(0, 1, (c, 21), np.int8)}
    )
    assert env.single_observation_space == single
    assert env.observation_space == batch_space(single, n)
    assert env.single_action_space == spaces.Discrete(a)
    assert env.action_space == spaces.MultiDiscrete([a] * n)
    env.close()


def check_batch(env, obs, info, variant, n):
    h, w, c, p, a = dims(variant)
    assert isinstance(obs, dict) and set(obs) == {"observation", "remaining"}
    assert obs["observation"].dtype == np.int8 and obs["observation"].shape == (n, c + 1, h, w)
    assert obs["remaining"].dtype == np.int8 and obs["remaining"].shape == (n, c, 21)
    assert env.observation_space.contains(obs)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (n, a)
    am = env.action_masks()
    assert am.dtype == np.bool_ and am.shape == (n, a)
    np.testing.assert_array_equal(am, mask.astype(bool))


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_reset_and_step_shapes(variant):
    n = 4
    env = make(n, variant)
    obs, info = env.reset(seed=0)
    check_batch(env, obs, info, variant, n)
    game = blokus.Game(variant, start="fixed")
    for i in range(n):  # seat 0 moves first: the empty board seen from colour 0
        np.testing.assert_array_equal(obs["observation"][i], game.observation(0))
        np.testing.assert_array_equal(obs["remaining"][i], game.remaining_from(0))
        np.testing.assert_array_equal(info["action_mask"][i], game.legal_mask().astype(np.int8))
    rng = np.random.default_rng(0)
    acts = np.asarray([rng.choice(np.flatnonzero(info["action_mask"][i])) for i in range(n)], dtype=np.int64)
    obs, rewards, terms, truncs, info = env.step(acts)
    check_batch(env, obs, info, variant, n)
    assert rewards.shape == (n,) and np.issubdtype(rewards.dtype, np.floating)
    assert terms.shape == (n,) and terms.dtype == np.bool_
    assert truncs.shape == (n,) and truncs.dtype == np.bool_
    assert not truncs.any() and not terms.any()
    np.testing.assert_array_equal(rewards, 0)


# ------------------------------------------------------------------ episodes
class Follower:
    """Rebuilds every env's game on a blokus.Game from what the env shows.

    When the opponents play several pieces of a colour in one step (the learner's player is out
    of moves) and their order cannot be rebuilt, that env is followed loosely until its reset:
    its board from the planes, the hands from the remaining rows, the reward among the results
    those hands allow."""

    def __init__(self, env, variant, seat, opponent, mode, start):
        self.env, self.variant, self.seat = env, variant, seat
        self.opponent, self.mode, self.start = opponent, mode, start
        self.n = env.num_envs
        self.games = [None] * self.n
        self.loose = [None] * self.n  # (board, hands) of an env followed loosely
        for i in range(self.n):
            self.new_game(i)
        self.opponent_moves = 0
        self.loose_steps = 0
        self.exact_steps = 0

    def new_game(self, i):
        self.games[i] = blokus.Game(self.variant, start=self.start)
        self.loose[i] = None

    def known_board(self, i):
        return self.loose[i][0] if self.loose[i] is not None else np.asarray(self.games[i].board)

    def on_move(self, game, move):
        assert player_of(game) != self.seat, "an opponent moved the learner's colour"
        self.opponent_moves += 1
        if self.opponent == "greedy":
            sizes = sizes_of(self.variant, game.legal_moves())
            assert placement_size(self.variant, move) == sizes.max(), "greedy opponent: not a largest piece"

    def readings(self, i, obs, what, live):
        """Possible (colour seen from, board, hands) of env i's observation: the points of view
        whose reading agrees with the pieces already known (mid-game, the colour must be one
        of the learner's player)."""
        planes = obs["observation"][i]
        ncol = planes.shape[0] - 1
        known = self.known_board(i)
        out = []
        for colour in range(ncol):
            board = absolute_board(planes, colour)
            hands = absolute_hands(obs["remaining"][i], colour)
            if not np.array_equal(board[known != -1], known[known != -1]):
                continue
            green = 21 - int(hands[GREEN].sum()) if ncol == 4 else 0
            if live and ref_player_to_move(self.variant, colour, green) != self.seat:
                continue
            out.append((colour, board, hands))
        assert out, f"{what}: the observation does not show the pieces already played from the learner's colour"
        return out

    def absorb(self, i, obs, what, live):
        """Replay on game i the opponents' pieces that the observation shows."""
        readings = self.readings(i, obs, what, live)
        if self.loose[i] is None:
            # the point of view is the one under which the new pieces replay in turn order and
            # leave that colour to move (or the game over)
            chosen, failures = None, []
            for colour, board, hands in readings:
                g = self.games[i].copy()
                try:
                    _, certain = replay_new_pieces(g, board, hands, what=what)
                except Ambiguous:
                    chosen = chosen or (colour, board, hands, False)
                    continue
                except AssertionError as e:
                    failures.append(e)
                    continue
                if (g.is_over and not live) or (live and not g.is_over and int(g.to_move) == colour):
                    chosen = (colour, board, hands, certain)
                    if certain:
                        break
            if chosen is None:
                raise failures[0] if failures else AssertionError(f"{what}: no reading of the observation fits")
            colour, board, hands, certain = chosen
            if certain:
                replay_new_pieces(self.games[i], board, hands, on_move=self.on_move, what=what)
                self.exact_steps += 1
                return
        else:
            assert len({r[1].tobytes() for r in readings}) == 1, f"{what}: cannot tell the point of view"
            colour, board, hands = readings[0]
        old = self.known_board(i)
        assert np.array_equal(board[old != -1], old[old != -1]), f"{what}: a placed piece moved"
        left = hand_squares(hands)
        for c in range(len(left)):
            assert int((board == c).sum()) == 89 - int(left[c]), f"{what}: colour {c} cells vs hand"
        self.loose[i] = (board, hands, colour)
        self.loose_steps += 1

    def check_learner_turn(self, i, obs, info, what):
        mask = info["action_mask"][i]
        if self.loose[i] is not None:
            board, hands, colour = self.loose[i]
            ncol = hands.shape[0]
            green = 21 - int(hands[GREEN].sum()) if ncol == 4 else 0
            assert ref_player_to_move(self.variant, colour, green) == self.seat, f"{what}: not the learner's turn"
            assert mask.any(), f"{what}: the learner has no legal move"
            np.testing.assert_array_equal(
                obs["observation"][i][ncol],
                attachment_points(board, colour, start_squares(self.variant, self.start, colour)), err_msg=what)
            return
        game = self.games[i]
        assert not game.is_over, what
        assert player_of(game) == self.seat, f"{what}: not the learner's turn"
        colour = int(game.to_move)
        np.testing.assert_array_equal(obs["observation"][i], game.observation(colour), err_msg=what)
        np.testing.assert_array_equal(obs["remaining"][i], game.remaining_from(colour), err_msg=what)
        np.testing.assert_array_equal(mask, game.legal_mask().astype(np.int8), err_msg=what)

    def final_rewards(self, i):
        """The rewards rules.md allows at the end of env i's game."""
        if self.loose[i] is None:
            game = self.games[i]
            assert game.is_over
            return {expected_reward(self.variant, [int(s) for s in game.scores()], self.seat, self.mode)}
        options = possible_scores(self.loose[i][1])
        return {expected_reward(self.variant, list(s), self.seat, self.mode) for s in itertools.product(*options)}


def run_episodes(variant, seat, opponent, mode, start="fixed", n=3, episodes=1, seed=0, max_steps=200):
    env = make(n, variant, opponent=opponent, seat=seat, reward=mode, start=start)
    f = Follower(env, variant, seat, opponent, mode, start)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for i in range(n):
        f.absorb(i, obs, "reset", live=True)
        f.check_learner_turn(i, obs, info, "reset")
    finished = np.zeros(n, dtype=int)
    prev_term = np.zeros(n, dtype=bool)
    first = blokus.Game(variant, start=start)
    never_legal = int(np.flatnonzero(~first.legal_mask())[0])  # illegal on every fresh board
    rewards_seen = []
    for step in range(max_steps):
        acts = np.zeros(n, dtype=np.int64)
        for i in range(n):
            if prev_term[i]:
                acts[i] = never_legal  # ignored: the env resets instead
            else:
                acts[i] = rng.choice(np.flatnonzero(info["action_mask"][i]))
        obs, rewards, terms, truncs, info = env.step(acts)
        check_batch(env, obs, info, variant, n)
        assert not truncs.any()
        for i in range(n):
            what = f"step {step} env {i}"
            if prev_term[i]:
                assert not terms[i] and rewards[i] == 0, f"{what}: the autoreset step"
                f.new_game(i)
            elif f.loose[i] is None:
                f.games[i].play(int(acts[i]))
            f.absorb(i, obs, what, live=not terms[i])
            if terms[i]:
                allowed = f.final_rewards(i)
                assert rewards[i] in allowed, f"{what}: reward {rewards[i]}, rules.md gives {allowed}"
                rewards_seen.append(float(rewards[i]))
                assert not info["action_mask"][i].any(), f"{what}: a finished game has legal moves"
                assert not env.action_masks()[i].any()
                finished[i] += 1
            else:
                if f.loose[i] is None:
                    assert not f.games[i].is_over, f"{what}: the game is over but not terminated"
                assert rewards[i] == 0, f"{what}: reward before the end"
                f.check_learner_turn(i, obs, info, what)
        prev_term = terms.copy()
        if (finished >= episodes).all() and not prev_term.any():
            break
    assert (finished >= episodes).all(), f"episodes finished: {finished}"
    assert f.exact_steps > 2 * f.loose_steps, (f.exact_steps, f.loose_steps)
    env.close()
    return f, rewards_seen


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant, seat, opponent, mode",
    [
        ("duo", 0, "greedy", "win_loss"),
        ("duo", 1, "greedy", "score"),
        ("duo", 1, "random", "win_loss"),
        ("duo", 0, "random", "score"),
        ("classic", 0, "greedy", "win_loss"),
        ("classic", 3, "random", "score"),
        ("classic_2", 1, "greedy", "win_loss"),
        ("classic_3", 2, "random", "win_loss"),
        ("classic_teams", 1, "greedy", "score"),
    ],
)
def test_episodes(variant, seat, opponent, mode):
    f, rewards = run_episodes(variant, seat, opponent, mode, episodes=2 if variant == "duo" else 1)
    assert f.opponent_moves > 0
    assert rewards


def test_episodes_start_any():
    run_episodes("duo", 1, "greedy", "win_loss", start="any")
    run_episodes("classic", 0, "random", "score", start="any", n=2)


def test_greedy_beats_random_learner():
    """Not a rule, a sanity check on the opponent: greedy wins most Duo games against a random
    learner (rules.md win rule through the rewards)."""
    _, rewards = run_episodes("duo", 0, "greedy", "win_loss", n=16, episodes=1, seed=3)
    assert np.mean(np.asarray(rewards) == -1) > 0.6, rewards


def test_record_episode_statistics_wrapper():
    """Gymnasium's own vector wrapper, which relies on the next-step autoreset mode, reports each
    finished episode with the env's final reward and the number of learner steps in it."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    n = 4
    env = RecordEpisodeStatistics(make(n, "duo", opponent="greedy", seat=1))
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = np.zeros(n, dtype=int)
    prev = np.zeros(n, dtype=bool)
    reported = 0
    for _ in range(120):
        acts = np.asarray([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, rewards, terms, truncs, info = env.step(acts)
        steps[prev] = 0
        steps[~prev] += 1
        if terms.any():
            assert "episode" in info
            for i in np.flatnonzero(terms):
                assert info["_episode"][i]
                assert info["episode"]["r"][i] == rewards[i]
                assert info["episode"]["l"][i] == steps[i]
                reported += 1
        prev = terms.copy()
        if reported >= 6:
            break
    assert reported >= 6


# ------------------------------------------------------------------ errors, seeds
@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_illegal_action_names_env(variant):
    n = 3
    a = dims(variant)[4]
    env = make(n, variant, opponent="random")
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    good = np.asarray([rng.choice(np.flatnonzero(info["action_mask"][i])) for i in range(n)], dtype=np.int64)
    masks = env.action_masks().copy()
    for k in range(n):
        for value in (int(np.flatnonzero(~masks[k])[0]), -1, a, 2**32 + int(good[k])):
            acts = good.copy()
            acts[k] = value
            with pytest.raises(ValueError) as err:
                env.step(acts)
            assert names_index(err.value, k), f"env {k}, action {value}: {err.value}"
            np.testing.assert_array_equal(env.action_masks(), masks, err_msg="state changed by a refused step")
    # nothing was played: the same run as a fresh env
    twin = make(n, variant, opponent="random")
    twin.reset(seed=1)
    o1 = env.step(good)
    o2 = twin.step(good)
    for k in ("observation", "remaining"):
        np.testing.assert_array_equal(o1[0][k], o2[0][k])
    np.testing.assert_array_equal(o1[4]["action_mask"], o2[4]["action_mask"])


def test_reset_seed_reproducible():
    def run(env, seed):
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=seed)
        out = [obs["observation"].copy()]
        for _ in range(25):
            acts = np.asarray([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
            obs, r, t, tr, info = env.step(acts)
            out.append(obs["observation"].copy())
            out.append(r.copy())
        return out

    env = make(4, "duo", opponent="greedy", seat=1)
    a = run(env, 10)
    b = run(env, 10)
    c = run(make(4, "duo", opponent="greedy", seat=1), 10)
    for x, y, z in zip(a, b, c):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, z)
    d = run(make(4, "duo", opponent="random", seat=1), 11)
    e = run(make(4, "duo", opponent="random", seat=1), 12)
    assert any(not np.array_equal(x, y) for x, y in zip(d, e))


# ------------------------------------------------------------------ one seat and one opponent per game
def first_legal(game):
    return int(game.legal_moves()[0])


def last_legal(game):
    return int(game.legal_moves()[-1])


def test_one_seat_per_game_classic():
    """The learner's colour in game i is seat[i]: at its first turn, the colours before it have
    placed one piece each (in turn order after it in the planes), its own plane is empty, and
    its only attachment point is its own starting corner (rules.md)."""
    seats = [0, 1, 2, 3, 3, 1]
    env = gymnasium.make_vec("blokus/Classic-v0", num_envs=len(seats), seat=seats, opponent="greedy")
    assert env.seat == seats
    obs, infos = env.reset(seed=0)
    for i, seat in enumerate(seats):
        planes = obs["observation"][i]
        assert planes[0].sum() == 0 and obs["remaining"][i, 0].all()
        # plane k holds colour (seat + k) % 4: colours 0 .. seat-1 have one greedy pentomino each
        pieces = [int(planes[(colour - seat) % 4].sum()) for colour in range(4)]
        assert pieces == [5] * seat + [0] * (4 - seat), (i, seat, pieces)
        corner = np.zeros((20, 20), np.int8)
        (r, c), = start_squares("classic", "fixed", seat)
        corner[r, c] = 1
        np.testing.assert_array_equal(planes[4], corner)
    assert infos["_action_mask"].all() and infos["_scores"].all()


def test_one_opponent_per_game_and_per_seat_rewards():
    """opponent[i] plays game i: a first-legal and a last-legal player, replayed on our own games;
    the mask at each learner turn is the legal placements there; at the end each game pays the
    result for its own seat (rules.md)."""
    opponents, seats = [first_legal, last_legal, last_legal, first_legal], [1, 1, 0, 0]
    env = blokus.vector.VectorEnv(4, "duo", opponent=opponents, seat=seats, mask_in_observation=True)
    assert env.single_observation_space["action_mask"] == spaces.Box(0, 1, (13729,), np.int8)
    ours = [blokus.Game("duo", start="fixed") for _ in seats]
    for game, opponent, seat in zip(ours, opponents, seats):
        if seat == 1:
            game.play(opponent(game))
    obs, infos = env.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = np.zeros(4, bool)
    while not ended.all():
        assert env.observation_space.contains(obs)
        actions = np.zeros(4, np.int64)
        for i, game in enumerate(ours):
            if ended[i]:  # any legal move of its next game; the step after the end ignores it
                mask = obs["action_mask"][i]
                actions[i] = np.flatnonzero(mask)[0] if mask.any() else 0
                continue
            np.testing.assert_array_equal(obs["action_mask"][i], game.legal_mask().astype(np.int8))
            actions[i] = rng.choice(game.legal_moves())
            game.play(int(actions[i]))
            while not game.is_over and player_of(game) != seats[i]:
                game.play(opponents[i](game))
        np.testing.assert_array_equal(obs["action_mask"], infos["action_mask"])
        obs, rewards, terminated, _, infos = env.step(actions)
        for i, game in enumerate(ours):
            if ended[i]:
                continue
            assert terminated[i] == game.is_over
            if game.is_over:
                scores = [int(s) for s in game.scores()]
                np.testing.assert_array_equal(infos["scores"][i], scores)
                assert rewards[i] == expected_reward("duo", scores, seats[i], "win_loss")
                ended[i] = True
            else:
                assert rewards[i] == 0


def test_per_game_illegal_actions():
    env = blokus.vector.VectorEnv(4, "duo", seat=[0, 1, 0, 1], opponent="random", illegal="end")
    _, infos = env.reset(seed=2)
    masks = infos["action_mask"].view(bool)
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    actions[1] = np.flatnonzero(~masks[1])[0]
    _, rewards, terminated, _, infos = env.step(actions)
    assert infos["illegal_move"].tolist() == infos["_illegal_move"].tolist() == [False, True, False, False]
    assert rewards[1] == -1 and terminated.tolist() == [False, True, False, False]
    # Gymnasium's own wrapper reads the _key masks: illegal_move only in the info of game 1
    listed = gymnasium.wrappers.vector.DictInfoToList(env)
    _, infos = listed.reset(seed=2)
    assert all("action_mask" in info and "scores" in info for info in infos)
    actions = np.array([np.flatnonzero(info["action_mask"])[0] for info in infos])
    actions[3] = 13_729
    _, _, _, _, infos = listed.step(actions)
    assert ["illegal_move" in info for info in infos] == [False, False, False, True]

    raising = blokus.vector.VectorEnv(4, "duo", seat=[0, 1, 0, 1])
    obs, infos = raising.reset(seed=3)
    actions = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"].view(bool)])
    actions[3] = np.flatnonzero(~infos["action_mask"][3].view(bool))[0]
    with pytest.raises(ValueError, match="game 3: placement id"):
        raising.step(actions)
    again, _ = raising._arrays()
    np.testing.assert_array_equal(again["observation"], obs["observation"])  # nothing played
    with pytest.raises(ValueError, match="shape"):
        raising.step(actions[:3])


@pytest.mark.parametrize("kwargs, message", [({"seat": [0, 1, 0]}, "seat must be one value or a sequence"),
                                             ({"seat": [0, 2, 0, 1]}, "seat must be in range"),
                                             ({"opponent": ["random", "nobody"] * 2}, "unknown agent")])
def test_per_game_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        gymnasium.make_vec("blokus/Duo-v0", num_envs=4, **kwargs)
