"""``blokus.sb3.VecEnv``: Stable-Baselines3's VecEnv contract over the C batch.

* it is a ``stable_baselines3.common.vec_env.VecEnv``; every observation from ``reset`` and
  ``step`` lies in its observation space (int8 planes and hands, one row per game); rewards are
  float32 (N,), dones bool (N,), infos a list of N dicts;
* the masks: ``action_masks()`` and MaskablePPO's ``get_action_masks`` agree; Duo's first move
  has 414 legal placements at the fixed start (the rules' count, also Pentobi's);
* SB3's same-step autoreset: a game that ends reports done with ``terminal_observation`` (in
  the space) and its final ``scores``; its reward follows rules.md from those scores (+1 when the
  seat's score is the higher, -1 when lower, 0 on a tie); the observation returned with it is
  already the next game's, at the learner's turn;
* per-game seats and opponents: with ``seat=[0, 1]``, at reset game 0 shows an empty board and
  game 1 one opponent piece of 1..5 cells; seat and opponent sequences of the wrong length fail;
* ``illegal="end"``: an illegal action ends that game with reward -1, ``illegal_move`` in its
  info and the others go on; ``illegal="raise"``: ``ValueError`` naming the game (its index in
  the VecEnv, whichever seat batch it is in) and nothing played;
* SB3's ``check_env`` accepts the single env ``blokus/Duo-v0``; a tiny ``MaskablePPO.learn`` with
  ``blokus.nn``'s policy runs on the VecEnv and never plays an illegal move.
"""

import warnings

import gymnasium
import numpy as np
import pytest

import blokus

pytest.importorskip("stable_baselines3", reason='blokus.sb3 needs Stable-Baselines3: pip install -e ".[train]"')
from stable_baselines3.common.vec_env import VecEnv as SB3VecEnv  # noqa: E402

import blokus.sb3  # noqa: E402


def random_actions(env, rng):
    masks = env.action_masks()
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def play(env, steps, seed=0):
    """Random legal play; yields (obs, rewards, dones, infos) after each step."""
    rng = np.random.default_rng(seed)
    env.reset()
    for _ in range(steps):
        yield env.step(random_actions(env, rng))


@pytest.mark.parametrize("seats", [[0, 1, 0, 1], [0] * 4], ids=["two batches", "one batch"])
def test_vecenv_contract_and_same_step_autoreset(seats):
    env = blokus.sb3.VecEnv(4, "duo", opponent="random", seat=seats, seed=3)
    assert isinstance(env, SB3VecEnv) and env.num_envs == 4
    obs = env.reset()
    space = env.observation_space
    assert all(space.contains({k: v[i] for k, v in obs.items()}) for i in range(4))
    from sb3_contrib.common.maskable.utils import get_action_masks

    np.testing.assert_array_equal(get_action_masks(env), env.action_masks())
    assert env.action_masks()[0].sum() == 414  # Duo's first move at the fixed start
    ended, finals = 0, []
    for obs, rewards, dones, infos in play(env, 120):
        assert rewards.dtype == np.float32 and rewards.shape == (4,) and dones.dtype == bool and len(infos) == 4
        masks = env.action_masks()  # the masks MaskablePPO reads follow the games, whole or by index
        np.testing.assert_array_equal(get_action_masks(env), masks)
        np.testing.assert_array_equal(np.stack(env.env_method("action_masks", indices=[3, 1])), masks[[3, 1]])
        for i in range(4):
            assert space.contains({k: v[i] for k, v in obs.items()})
            if not dones[i]:
                assert rewards[i] == 0 and "terminal_observation" not in infos[i]
                continue
            ended += 1
            final = infos[i]["terminal_observation"]
            assert space.contains(final)
            finals.append((final, {k: v.copy() for k, v in final.items()}))
            seat = seats[i]
            mine, theirs = infos[i]["scores"][seat], infos[i]["scores"][1 - seat]
            assert rewards[i] == np.sign(mine - theirs)
            # the returned observation is the next game's first learner turn: few cells placed
            assert obs["observation"][i, :2].sum() <= 5 * seat
            assert infos[i]["TimeLimit.truncated"] is False
    assert ended >= 4
    for final, first_seen in finals:  # later steps leave the terminal observations handed out alone
        for key in first_seen:
            np.testing.assert_array_equal(final[key], first_seen[key])


def test_seats_at_reset():
    env = blokus.sb3.VecEnv(2, "duo", seat=[0, 1], seed=1)
    planes = env.reset()["observation"]
    assert planes[0, :2].sum() == 0  # the learner moves first: empty board
    assert planes[1, 0].sum() == 0 and 1 <= planes[1, 1].sum() <= 5  # one opponent piece
    with pytest.raises(ValueError, match="num_envs=2"):
        blokus.sb3.VecEnv(2, "duo", seat=[0, 1, 0])
    with pytest.raises(ValueError, match="num_envs=3"):
        blokus.sb3.VecEnv(3, "duo", opponent=["random", "greedy"])
    with pytest.raises(ValueError, match="seat must be in range"):
        blokus.sb3.VecEnv(2, "duo", seat=2)


def test_illegal_end_and_raise():
    env = blokus.sb3.VecEnv(3, "duo", illegal="end", seed=2)
    env.reset()
    actions = random_actions(env, np.random.default_rng(0))
    actions[1] = np.flatnonzero(~env.action_masks()[1])[0]
    obs, rewards, dones, infos = env.step(actions)
    assert dones.tolist() == [False, True, False] and rewards[1] == -1
    assert infos[1]["illegal_move"] is True and "illegal_move" not in infos[0]
    assert obs["observation"][1, :2].sum() == 0  # game 1 restarted: the learner moves first
    strict = blokus.sb3.VecEnv(3, "duo", seed=2)
    strict.reset()
    with pytest.raises(ValueError, match="game 1: placement id"):
        strict.step(actions)
    # several batches (one per seat): the env's own index, and nothing played in any game
    mixed = blokus.sb3.VecEnv(4, "duo", seat=[0, 1, 0, 1], seed=2)
    before = mixed.reset()["observation"]
    actions = random_actions(mixed, np.random.default_rng(0))
    actions[3] = np.flatnonzero(~mixed.action_masks()[3])[0]
    with pytest.raises(ValueError, match="game 3: placement id"):
        mixed.step(actions)
    np.testing.assert_array_equal(mixed._gather()["observation"], before)


def test_check_env_on_the_single_env():
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SB3 takes the int8 planes for images and says so
        check_env(gymnasium.make("blokus/Duo-v0").unwrapped)


@pytest.mark.slow  # trains
def test_tiny_maskable_ppo_learn_on_the_vecenv():
    torch = pytest.importorskip("torch", reason='blokus.nn needs PyTorch: pip install -e ".[torch]"')
    sb3_contrib = pytest.importorskip("sb3_contrib", reason='MaskablePPO needs sb3-contrib: pip install -e ".[train]"')
    import blokus.nn

    torch.set_num_threads(1)
    env = blokus.sb3.VecEnv(4, "duo", opponent=["random", "greedy"] * 2, seed=0)
    model = sb3_contrib.MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, n_steps=16, batch_size=32,
                                    n_epochs=1, device="cpu", seed=0,
                                    policy_kwargs={"channels": 4, "blocks": 1})
    model.learn(64)  # illegal="raise": an illegal move would fail the run
    assert model.num_timesteps >= 64
