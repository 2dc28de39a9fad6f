"""``blokus.rllib`` (issue 27): Blokus for RLlib's new API stack.

* ``MultiAgentEnv``, every variant: whole games of random legal moves replayed on the test's own
  ``blokus.Game``: each observation dict holds exactly the agent rules.md puts on move (the shared
  green in rotation in ``classic_3``, two colours a player in ``classic_2``), its planes seen from
  the colour to move and its ``action_mask`` the legal placements; the mover is paid 0 while the
  game goes on; at the end every agent gets an observation (an empty mask) and rules.md's result
  (``win_loss`` and ``score``); a recorded Duo draw pays 0 to both;
* an illegal action raises ``ValueError`` naming the mask, the game unchanged, the episode going
  on; ``illegal="end"`` ends it with -1 for the offender, 0 for the other; an action for an agent
  not on move and unknown options raise ``ValueError``; ``action_space.sample()`` is legal;
* ``PlacementNetModule``: illegal ids get probability 0 and the legal ones share 1; values (B,);
* ``ppo_config``: one training iteration with a shared policy and with one policy per seat
  changes the weights of every policy it trains (RLlib's own env check passes on the way).

Skipped with the reason when ``ray[rllib]`` is not installed (``pip install -e ".[rllib]"``, which
also brings the Gymnasium version RLlib pins).
"""

import logging

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason='needs ray[rllib]: pip install -e ".[rllib]"')
torch = pytest.importorskip("torch", reason='needs PyTorch: pip install -e ".[rllib]"')

import blokus  # noqa: E402
from blokus import rllib  # noqa: E402

from env_helpers import expected_planes, expected_reward, player_of  # noqa: E402
from recorded_games import DUO_DRAW  # noqa: E402
from reference import VARIANTS  # noqa: E402
from sanitizers import ASAN_PRELOADED, RAY_UNDER_ASAN  # noqa: E402


def agent_on_move(game):
    return f"player_{player_of(game)}"


def play_through(variant, reward, seed):
    env = rllib.MultiAgentEnv({"variant": variant, "reward": reward})
    game = blokus.Game(variant, start="fixed")
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    moves = 0
    while True:
        agent = agent_on_move(game)
        assert list(obs) == [agent], (moves, list(obs))
        seen = obs[agent]
        assert env.observation_spaces[agent].contains(seen)
        np.testing.assert_array_equal(seen["action_mask"], game.legal_mask().astype(np.int8))
        np.testing.assert_array_equal(seen["observation"], expected_planes(game, int(game.to_move)))
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        game.play(action)
        obs, rewards, terminated, truncated, infos = env.step({agent: action})
        moves += 1
        assert truncated == {"__all__": False}
        if game.is_over:
            break
        assert rewards == {agent: 0.0} and terminated == {"__all__": False}
    return env, game, obs, rewards, terminated


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("reward", ["win_loss", "score"])
def test_whole_game_of_every_variant(variant, reward):
    env, game, obs, rewards, terminated = play_through(variant, reward, seed=len(variant))
    agents = [f"player_{p}" for p in range(VARIANTS[variant][2])]
    assert env.possible_agents == agents
    assert set(obs) == set(agents) and terminated == dict.fromkeys(agents, True) | {"__all__": True}
    scores = [int(s) for s in game.scores()]
    assert rewards == {a: expected_reward(variant, scores, p, reward) for p, a in enumerate(agents)}
    for p, agent in enumerate(agents):
        assert not obs[agent]["action_mask"].any()
        np.testing.assert_array_equal(obs[agent]["observation"], expected_planes(game, p))


@pytest.mark.parametrize("reward, want", [("win_loss", 0.0), ("score", -28.0)])
def test_recorded_draw(reward, want):
    env = rllib.MultiAgentEnv({"variant": "duo", "reward": reward})
    env.reset()
    game = blokus.Game("duo", start="fixed")
    for colour, text in DUO_DRAW:
        assert int(game.to_move) == colour
        action, agent = int(blokus.parse_move(text, "duo")), agent_on_move(game)
        game.play(action)
        obs, rewards, terminated, _, _ = env.step({agent: action})
    assert game.is_over and terminated["__all__"]
    assert rewards == {"player_0": want, "player_1": want}  # final scores -28 and -28


def test_illegal_action_raises_and_changes_nothing():
    env = rllib.MultiAgentEnv({"variant": "classic"})
    obs, _ = env.reset()
    first = int(np.flatnonzero(obs["player_0"]["action_mask"])[0])
    obs, _, _, _, _ = env.step({"player_0": first})
    history = list(env.game.history)
    with pytest.raises(ValueError, match="player_1: placement id .* is not legal.*action_mask"):
        env.step({"player_1": first})  # blue's first placement, on blue's corner
    with pytest.raises(ValueError, match="player_1 is on move"):
        env.step({"player_0": first})
    assert list(env.game.history) == history
    legal = int(np.flatnonzero(obs["player_1"]["action_mask"])[0])
    obs, rewards, terminated, _, _ = env.step({"player_1": legal})
    assert list(obs) == ["player_2"] and rewards == {"player_1": 0.0} and not terminated["__all__"]
    assert env.action_spaces["player_2"].sample() in np.flatnonzero(obs["player_2"]["action_mask"])


def test_illegal_end_ends_the_game():
    env = rllib.MultiAgentEnv({"variant": "duo", "illegal": "end", "reward": "score"})
    obs, _ = env.reset()
    bad = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    obs, rewards, terminated, _, _ = env.step({"player_0": bad})
    # below the worst Duo score (-89, all squares in hand), so that breaking a rule never pays
    assert rewards == {"player_0": -90.0, "player_1": 0.0}
    assert terminated["__all__"] and set(obs) == {"player_0", "player_1"}


@pytest.mark.parametrize("config", [{"variant": "go"}, {"reward": "elo"}, {"illegal": "skip"}, {"seat": 0}])
def test_bad_options(config):
    with pytest.raises(ValueError):
        rllib.MultiAgentEnv(config)


def test_module_masks_illegal_placements():
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    env = rllib.MultiAgentEnv({"variant": "duo"})
    space = env.observation_spaces["player_0"]
    module = RLModuleSpec(module_class=rllib.PlacementNetModule, observation_space=space,
                          action_space=env.action_spaces["player_0"], model_config={"variant": "duo"}).build()
    obs, _ = env.reset()
    first = obs["player_0"]
    obs, *_ = env.step({"player_0": int(np.flatnonzero(first["action_mask"])[0])})
    batch = {key: torch.as_tensor(np.stack([first[key], obs["player_1"][key]])) for key in first}
    out = module.forward_exploration({Columns.OBS: batch})
    probs = torch.softmax(out[Columns.ACTION_DIST_INPUTS], dim=-1)
    legal = batch["action_mask"].bool()
    assert probs[~legal].sum() == 0
    torch.testing.assert_close(probs.sum(dim=-1), torch.ones(2))
    assert int(legal[0].sum()) == 414  # Duo's first placements (start="fixed")
    assert module.compute_values({Columns.OBS: batch}).shape == (2,)


@pytest.fixture(scope="module")
def ray_started():
    # the plain run trains
    if ASAN_PRELOADED:
        pytest.skip(RAY_UNDER_ASAN)
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    yield
    if started:
        ray.shutdown()


@pytest.mark.parametrize("shared", [True, False])
def test_one_training_iteration(ray_started, shared):
    config = rllib.ppo_config("duo", shared=shared, channels=8, blocks=1).training(
        train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1)
    algo = config.build_algo()
    try:
        policies = ["shared"] if shared else ["player_0", "player_1"]
        before = {p: [w.detach().clone() for w in algo.get_module(p).parameters()] for p in policies}
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
        for p in policies:
            assert isinstance(algo.get_module(p), rllib.PlacementNetModule)
            after = list(algo.get_module(p).parameters())
            assert any(not torch.equal(a, b) for a, b in zip(after, before[p])), f"{p} was not trained"
    finally:
        algo.stop()
