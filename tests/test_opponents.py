"""One opponent vocabulary for the RL environments (issues 14 and 15), ``make_vec``, the vector
env's illegal-action option and scores, and optional dependencies that name their extra.

* ``gymnasium.make_vec(id, num_envs=N)`` gives the C-stepped ``blokus.vector.VectorEnv`` for
  every id (default mode and ``"vector_entry_point"``), with the id's variant and the options
  given; ``"sync"`` still gives Gymnasium's ``SyncVectorEnv`` of single envs;
* the single env, the vector env and the SB3 env share one default (``"random"``) and accept
  the same agent strings and callables, and reject the same bad ones with the same message;
* ``"greedy"`` plays the same way in both: its first reply to the learner's first Duo move is
  a piece of 5 cells (the rule of greedy: largest piece first);
* a callable opponent in the vector env (game by game in Python) is asked only on the
  opponent's turns, with a ``blokus.Game`` of the env's variant, and the pieces it chose are the
  ones the learner then sees on the board; ``"mcts:sims=..."`` plays whole vector episodes;
* ``illegal="end"`` in the vector env: reward -1, terminated, ``infos["illegal_move"]`` for that
  game only, as in the single env; the next step restarts it; ``infos["scores"]`` is the colour
  scores and decides the reward of every game that ends (+1 higher, -1 lower, 0 tie);
* ``import blokus.env`` without PettingZoo, ``blokus.gym_env`` without Gymnasium, ``blokus.nn``
  without torch, ``blokus.sb3`` without Stable-Baselines3: ``ModuleNotFoundError`` naming the
  extra to install.
"""

import importlib
import inspect
import sys

import gymnasium
import numpy as np
import pytest

import blokus
import blokus.gym_env
import blokus.vector


def first_legal(mask_rows):
    return np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in mask_rows])


@pytest.mark.parametrize("env_id, variant", sorted(blokus.gym_env.ENV_IDS.items()))
def test_make_vec_gives_the_c_env(env_id, variant):
    env = gymnasium.make_vec(env_id, num_envs=3, opponent="greedy", seat=1)
    assert isinstance(env, blokus.vector.VectorEnv) and env.num_envs == 3
    assert env.games.variant == variant and env.seat == 1 and env.opponent == "greedy"
    explicit = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point")
    assert isinstance(explicit, blokus.vector.VectorEnv) and explicit.opponent == "random"
    sync = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


def test_one_default():
    sb3 = pytest.importorskip("blokus.sb3", reason='blokus.sb3 needs Stable-Baselines3: pip install -e ".[train]"')
    defaults = {inspect.signature(f).parameters["opponent"].default
                for f in (blokus.gym_env.BlokusEnv, blokus.vector.VectorEnv, sb3.VecEnv)}
    assert defaults == {"random"} == {blokus.opponents.DEFAULT}


@pytest.mark.parametrize("bad, message", [("bogus", "unknown agent 'bogus'"),
                                          ("mcts:sims=x", "sims must be an integer"),
                                          (3, "an opponent is an agent string")])
def test_same_errors(bad, message):
    with pytest.raises(ValueError, match=message):
        gymnasium.make("blokus/Duo-v0", opponent=bad)
    with pytest.raises(ValueError, match=message):
        blokus.vector.VectorEnv(2, "duo", opponent=bad)


@pytest.mark.parametrize("opponent", ["greedy", " greedy "])
def test_greedy_replies_alike(opponent):
    single = gymnasium.make("blokus/Duo-v0", opponent=opponent)
    obs, info = single.reset(seed=0)
    obs, *_ = single.step(int(np.flatnonzero(info["action_mask"].view(bool))[0]))
    vector = blokus.vector.VectorEnv(2, "duo", opponent=opponent, seed=0)
    vobs, vinfo = vector.reset(seed=0)
    vobs, *_ = vector.step(first_legal(vinfo["action_mask"].view(bool)))
    assert obs["observation"][1].sum() == 5  # the opponent's plane: its largest piece
    assert (vobs["observation"][:, 1].sum(axis=(1, 2)) == 5).all()


def test_callable_opponent_in_the_vector_env():
    chosen = []

    def smallest_id(game):
        assert isinstance(game, blokus.Game) and game.variant == "duo" and game.to_move == 1
        move = int(game.legal_moves().min())
        chosen.append(move)
        return move

    env = blokus.vector.VectorEnv(1, "duo", opponent=smallest_id)
    obs, info = env.reset(seed=0)
    assert chosen == []  # the learner moves first
    cells = blokus.placements("duo").cells
    for ply in range(1, 4):
        obs, _, terminated, _, info = env.step(first_legal(info["action_mask"].view(bool)))
        assert len(chosen) == ply and not terminated[0]
        expected = np.zeros((14, 14), np.int8)
        for move in chosen:
            rows, cols = cells[move][cells[move, :, 0] >= 0].T
            expected[rows, cols] = 1
        np.testing.assert_array_equal(obs["observation"][0, 1], expected)


def test_mcts_opponent_plays_vector_episodes():
    env = blokus.vector.VectorEnv(2, "duo", opponent="mcts:sims=8", seat=1)
    obs, info = env.reset(seed=1)
    ended = 0
    for _ in range(40):
        obs, rewards, terminated, _, info = env.step(first_legal(info["action_mask"].view(bool)))
        for i in np.flatnonzero(terminated):
            ended += 1
            scores = info["scores"][i]
            assert rewards[i] == np.sign(scores[1] - scores[0])
        if ended >= 2:
            break
    assert ended >= 2


def test_vector_illegal_end_like_the_single_env():
    single = gymnasium.make("blokus/Duo-v0", illegal="end")
    _, info = single.reset(seed=0)
    bad = int(np.flatnonzero(~info["action_mask"].view(bool))[0])
    _, reward, terminated, _, info = single.step(bad)
    vector = blokus.vector.VectorEnv(3, "duo", illegal="end")
    _, vinfo = vector.reset(seed=0)
    actions = first_legal(vinfo["action_mask"].view(bool))
    actions[2] = bad
    obs, rewards, vterminated, _, vinfo = vector.step(actions)
    assert (reward, terminated) == (-1.0, True) and "illegal_move" in info
    assert rewards.tolist() == [0, 0, -1] and vterminated.tolist() == [False, False, True]
    assert vinfo["illegal_move"].tolist() == [False, False, True]
    obs, rewards, vterminated, _, vinfo = vector.step(first_legal(vinfo["action_mask"].view(bool)))
    assert obs["observation"][2, :2].sum() == 0 and not vterminated[2]  # restarted, learner first
    with pytest.raises(ValueError, match="unknown illegal"):
        blokus.vector.VectorEnv(2, "duo", illegal="ignore")


def test_vector_scores_decide_the_rewards():
    env = blokus.vector.VectorEnv(4, "duo", opponent="greedy", seat=0)
    obs, info = env.reset(seed=5)
    ended, rng = 0, np.random.default_rng(5)
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"].view(bool)])
        obs, rewards, terminated, _, info = env.step(actions)
        assert info["scores"].shape == (4, 2) and info["scores"].dtype == np.int16
        for i in np.flatnonzero(terminated):
            ended += 1
            assert rewards[i] == np.sign(info["scores"][i, 0] - info["scores"][i, 1])
    assert ended >= 4


@pytest.mark.parametrize("module, missing, extra", [
    ("blokus.env", "pettingzoo", "rl"),
    ("blokus.gym_env", "gymnasium", "rl"),
    ("blokus.nn", "torch", "torch"),
    ("blokus.sb3", "stable_baselines3", "train"),
    ("blokus.rllib", "ray", "rllib"),
    ("blokus.widgets", "anywidget", "widgets"),
])
def test_missing_optional_dependency_names_the_extra(monkeypatch, module, missing, extra):
    for name in [m for m in sys.modules if m == missing or m.startswith(missing + ".")] or [missing]:
        monkeypatch.setitem(sys.modules, name, None)  # makes importing it fail
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ModuleNotFoundError, match=rf'pip install "blokus\[{extra}\]"'):
        importlib.import_module(module)


# ------------------------------------------------------------------ the C batch's forfeits and restarts
def games_moves(board):
    """Cells per colour on a board: the one piece each colour has placed, as a placement id."""
    cells = blokus.placements("duo").cells
    moves = []
    for colour in (0, 1):
        mine = sorted(map(tuple, np.argwhere(board == colour).tolist()))
        padded = mine + [(-1, -1)] * (5 - len(mine))
        moves.append(int(np.flatnonzero((cells == np.array(padded)).all(axis=(1, 2)))[0]))
    return moves


def test_forfeit_ends_games_where_they_stand_and_restart_done_resets_only_them():
    games = blokus.VectorGame(3, "duo", seed=4, num_threads=1)
    games.play_opponents("random", 0)
    games.step_with_opponents(games.legal_ids()[:, 0], "random", 0)  # one move each side
    board_before = games.board.copy()
    actions = games.legal_ids()[:, 0]
    actions[1] = -5  # not checked in a forfeited game
    games.step_with_opponents(actions, "random", 0, forfeit=np.array([False, True, False]))
    assert games.done.tolist() == [False, True, False]
    np.testing.assert_array_equal(games.board[1], board_before[1])  # nothing played in game 1
    assert (games.board[[0, 2]] != board_before[[0, 2]]).any(axis=(1, 2)).all()
    # its result is the position as it stood: one piece of each colour placed
    sizes = blokus.placements("duo").size
    assert sorted(89 + games.episode_scores[1]) == sorted(sizes[m] for m in games_moves(board_before[1]))
    assert games.episodes.tolist() == [0, 1, 0] and games.ply[1] == 2
    plies = games.ply.copy()
    games.restart_done("random", 0)
    assert games.done.tolist() == [False, False, False] and games.ply[1] == 0
    assert games.ply[0] == plies[0] and games.ply[2] == plies[2] and (games.board[1] == -1).all()
    with pytest.raises(TypeError, match="forfeit must be booleans"):
        games.step_with_opponents(actions, "random", 0, forfeit=np.zeros(3, np.int8))
    with pytest.raises(ValueError, match=r"forfeit must have shape \(3,\)"):
        games.step_with_opponents(actions, "random", 0, forfeit=np.zeros(2, bool))
    with pytest.raises(ValueError, match="game 1: placement id -5 out of range"):
        games.step_with_opponents(actions, "random", 0, forfeit=np.zeros(3, bool))
