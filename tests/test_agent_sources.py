"""Agents from elsewhere (issue 27): ``gtp:COMMAND``, ``sb3:PATH``, ``net:PATH[:sims=N]``,
``level:N`` and agent objects, wherever agent strings are taken.

* ``gtp:`` against the tiny engine ``tests/gtp_first_move.py`` (its own GTP loop: it plays the
  colour's legal placement of lowest id): every move the agent returns is that placement;
  the engine is set up once per game and then only told the new moves, and set up again for a
  game that does not continue the one it holds; 4-colour games name colours 1-4. Its failures
  (a ``?`` answer, an exit, a hang past the timeout, text that is not GTP, ``resign``, an
  illegal move, a command that cannot start) raise ``EngineError`` naming the command, and
  leave no process behind (the pid is reaped: no /proc entry, not even a zombie).
* Pentobi (when ``../shared/pentobi/pentobi-gtp`` exists): a whole Duo game of its level 1
  against ``random`` is legal move by move, and its ``final_score`` is the margin of our rules.
* ``sb3:``: a tiny MaskablePPO saved to a file plays what the model itself predicts under the
  legal mask; ``net:``: a tiny ``blokus train`` network plays the argmax of its own masked
  logits, and with ``sims`` whole legal games.
* ``level:0`` and ``level:10`` are refused naming the range; level 6 is the measured budget.
* objects: ``make_agent`` returns an agent object as it is; ``blokus.gtp.Engine`` answers
  ``genmove`` with a callable's move.
"""
from __future__ import annotations

import os
import pathlib
import pickle
import shlex
import sys

import numpy as np
import pytest

import blokus
from blokus import gtp
from blokus.agents import LEVEL_SIMULATIONS, EngineError, GTPAgent, make_agent, parse_agents

TINY_ENGINE = pathlib.Path(__file__).parent / "gtp_first_move.py"
PENTOBI = pathlib.Path(os.environ.get("BLOKUS_PENTOBI", pathlib.Path(__file__).resolve().parents[2] / "shared"
                                      / "pentobi")) / "pentobi-gtp"


def tiny(*options: str) -> str:
    """The agent string of the tiny engine with ``options``."""
    return "gtp:" + shlex.join([sys.executable, str(TINY_ENGINE), *options])


def lowest_legal(game: blokus.Game) -> int:
    return int(game.legal_moves().min())


def reaped(pid: int) -> bool:
    """Whether process ``pid`` is gone: no /proc entry (a zombie keeps one)."""
    return not pathlib.Path(f"/proc/{pid}").exists()


needs_proc = pytest.mark.skipif(not pathlib.Path("/proc/self").exists(), reason="needs Linux's /proc")


@pytest.fixture
def log(tmp_path):
    return tmp_path / "commands.log"


def commands(log: pathlib.Path) -> list[str]:
    return [line.split()[0] for line in log.read_text().splitlines() if line.strip()]


# --- gtp: against the tiny engine ----------------------------------------------------------

def test_a_gtp_agent_plays_the_engines_moves_and_sends_only_new_moves(log):
    with make_agent(tiny("--log", str(log)), seed=1) as agent:
        opponent = make_agent("random", seed=2)
        game, ours, theirs, told = blokus.Game("duo", start="fixed"), 0, 0, 0
        while not game.is_over:
            if game.player_to_move == 0:
                move = agent(game)
                assert move == lowest_legal(game)
                ours, told = ours + 1, theirs  # the engine has heard of every move before this one
            else:
                move = opponent(game)
                theirs += 1
            game.play(move)
        sent = commands(log)
        assert sent.count("set_game") == 1 and sent.count("clear_board") == 1
        assert sent.count("genmove") == ours and sent.count("play") == told
        assert sent.count("set_random_seed") == ours  # a seed was given and the engine knows the command
        # a new game does not continue the one the engine holds: set up again
        agent(blokus.Game("duo", start="fixed"))
        assert commands(log).count("clear_board") == 2


def test_a_gtp_agent_sets_up_a_position_that_does_not_continue_the_last(log):
    agent = GTPAgent([sys.executable, str(TINY_ENGINE), "--log", str(log)])
    try:
        game = blokus.Game("classic", start="fixed")  # four colours: 1..4 on the wire
        rng = np.random.default_rng(5)
        for _ in range(6):
            game.play(int(rng.choice(game.legal_moves())))
        assert agent(game) == lowest_legal(game)
        game.undo()
        game.undo()  # no longer a continuation of the engine's game
        assert agent(game) == lowest_legal(game)
        sent = log.read_text().splitlines()
        assert [line.split()[0] for line in sent].count("clear_board") == 2
        # red (3) was to move after 6 moves, blue (1) after 4; the set-up replays blue's move as 1
        assert [line for line in sent if line.startswith("genmove")] == ["genmove 3", "genmove 1"]
        assert any(line.startswith("play 1 ") for line in sent)
    finally:
        agent.close()
    assert "set_random_seed" not in commands(log)  # no seed given: none sent


@pytest.mark.slow
def test_a_gtp_agent_survives_pickling_and_plays_in_worker_processes():
    from blokus import arena

    spec = tiny()
    copy = pickle.loads(pickle.dumps(make_agent(spec, seed=1)))
    game = blokus.Game("duo", start="fixed")
    assert copy(game) == lowest_legal(game)
    copy.close()
    result = arena.match([spec, "random"], games=4, variant="duo", seed=1, workers=2, progress=False)
    assert result[spec]["games"] == 4
    for r in result.results:  # every move of the engine's seat is its lowest legal one
        replay, seat = blokus.Game("duo", start="fixed"), r.agents.index(spec)
        for player, move in zip(r.players, r.placements):
            if player == seat:
                assert move == lowest_legal(replay)
            replay.play(int(move))


@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize("options,message", [
    (["--refuse", "genmove"], r"refused 'genmove b': refused"),
    (["--exit-on", "genmove"], r"exited \(exit status 3\) at 'genmove b'"),
    (["--chatter"], r"does not speak GTP: answered 'hello, I am not a GTP engine'"),
    (["--genmove", "resign"], r"answered 'resign' to 'genmove b'.*--noresign"),
    (["--genmove", "pass"], r"answered 'pass' to 'genmove b': purple has 414 legal moves"),
    (["--genmove", "a1"], r"answered 'a1' to 'genmove b', which is not a legal move of purple"),
    (["--genmove", "zz99,zz98"], r"answered 'zz99,zz98' to 'genmove b', which is not a legal move"),
])
def test_engine_failures_raise_naming_the_command_and_leave_no_process(options, message):
    agent = GTPAgent([sys.executable, str(TINY_ENGINE), *options])
    game = blokus.Game("duo", start="fixed")
    try:
        with pytest.raises(EngineError, match=message) as info:
            agent(game)
        assert "gtp_first_move.py" in str(info.value)
        pid = agent.pid
    finally:
        agent.close()
    if pid is not None:
        assert reaped(pid)


@needs_proc
def test_an_engine_that_hangs_is_killed_at_the_timeout():
    command = [sys.executable, str(TINY_ENGINE), "--hang-on", "genmove"]
    patient, hasty = GTPAgent(command), GTPAgent(command, timeout=0.5)
    assert patient.send("known_command set_random_seed") == "true"  # started (the agents of a command share its engine)
    pid = patient.pid
    with pytest.raises(EngineError, match=r"gave no answer within 0.5 s and was killed \(exit status -9\) "
                                          r"at 'genmove b'"):
        hasty(blokus.Game("duo", start="fixed"))
    assert reaped(pid) and hasty.pid is None
    hasty.close()


@pytest.mark.slow
@needs_proc
def test_an_engine_that_exits_midway_is_reaped_and_restarted(log):
    agent = GTPAgent([sys.executable, str(TINY_ENGINE), "--exit-on", "play"])
    game = blokus.Game("duo", start="fixed")
    game.play(agent(game))
    pid = agent.pid
    game.play(make_agent("random", seed=1)(game))
    with pytest.raises(EngineError, match=r"exited \(exit status 3\) at 'play w "):
        agent(game)
    assert reaped(pid)
    # a new game needs no play: the agent starts the engine again
    assert agent(blokus.Game("duo", start="fixed")) == lowest_legal(blokus.Game("duo", start="fixed"))
    assert agent.pid not in (None, pid)
    agent.close()


def test_gtp_agent_refusals():
    with pytest.raises(ValueError, match="gtp needs a command"):
        make_agent("gtp:  ")
    with pytest.raises(ValueError, match="No closing quotation"):
        make_agent("gtp:engine 'open")
    with pytest.raises(ValueError, match=r"timeout must be > 0"):
        GTPAgent("engine", timeout=0)
    with pytest.raises(TypeError, match="a str or a list of str"):
        GTPAgent([b"engine"])
    with pytest.raises(EngineError, match="cannot start the engine"):
        make_agent("gtp:/nonexistent/engine -l 3")(blokus.Game("duo", start="fixed"))
    with pytest.raises(ValueError, match="start='fixed'"):
        make_agent(tiny())(blokus.Game("duo", start="any"))
    with pytest.raises(ValueError, match="one non-empty line"):
        make_agent(tiny()).send("name\nquit")


def test_a_comma_always_separates_agents_and_a_gtp_agent_takes_no_parameters():
    assert parse_agents("gtp:engine -l 3,greedy,mcts:sims=5,c=0.5") == ["gtp:engine -l 3", "greedy",
                                                                       "mcts:sims=5:c=0.5"]
    with pytest.raises(ValueError, match="a gtp: agent takes no parameters"):
        parse_agents("gtp:engine --level,c=1")
    assert make_agent("gtp:engine --x=1:y").argv == ("engine", "--x=1:y")  # ':' and '=' are the command's


def test_the_gtp_server_relays_a_gtp_agent():
    """``blokus gtp --agent gtp:...``: our engine answers genmove with the tiny engine's move."""
    engine = gtp.Engine("duo", tiny())
    try:
        assert engine.handle("genmove b") == "= " + blokus.Game("duo", start="fixed").move_text(
            lowest_legal(blokus.Game("duo", start="fixed"))) + "\n\n"
        assert engine.handle("param") == "= \n\n"
        assert engine.handle("param sims 5").startswith("? unknown parameter 'sims' of gtp")
    finally:
        engine.agent.close()


# --- gtp: against Pentobi ------------------------------------------------------------------

@pytest.mark.skipif(not os.access(PENTOBI, os.X_OK), reason=f"Pentobi's engine is not at {PENTOBI} (set BLOKUS_PENTOBI "
                    "to the directory of a pentobi-gtp build; Pentobi is GPL, not shipped)")
def test_pentobi_level_1_plays_a_whole_duo_game_scored_as_our_rules_score_it():
    agent = make_agent(f"gtp:{PENTOBI} --nobook --noresign -l 1", seed=7)
    opponent = make_agent("random", seed=8)
    game = blokus.Game("duo", start="fixed")
    try:
        while not game.is_over:
            move = agent(game) if game.player_to_move == 0 else opponent(game)
            assert game.is_legal(move)
            game.play(move)
        first, second = game.player_scores()
        expected = f"B+{first - second}" if first > second else f"W+{second - first}" if second > first else "0"
        assert agent.send("final_score", game) == expected
    finally:
        agent.close()


# --- sb3: and net: -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ppo_file(tmp_path_factory):
    pytest.importorskip("sb3_contrib", reason='sb3: agents need sb3-contrib: pip install -e ".[train]"')
    import torch
    from sb3_contrib import MaskablePPO

    import blokus.nn
    import blokus.sb3

    torch.set_num_threads(1)
    env = blokus.sb3.VecEnv(2, "duo", opponent="random", seed=0)
    model = MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, n_steps=32, batch_size=32, n_epochs=1,
                        device="cpu", seed=0, policy_kwargs={"channels": 4, "blocks": 1})
    model.learn(64)
    path = tmp_path_factory.mktemp("sb3") / "ppo.zip"
    model.save(path)
    return path


@pytest.mark.slow
def test_an_sb3_agent_plays_what_the_model_predicts_under_the_legal_mask(ppo_file):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(ppo_file, device="cpu")
    agent = make_agent(f"sb3:{ppo_file}")
    game, rng = blokus.Game("duo", start="fixed"), np.random.default_rng(1)
    while not game.is_over:
        if game.player_to_move == 1:
            game.play(int(rng.choice(game.legal_moves())))
            continue
        colour = game.to_move
        obs = {"observation": game.observation(colour)[None], "remaining": game.remaining_from(colour)[None]}
        expected, _ = model.predict(obs, action_masks=game.legal_mask()[None], deterministic=True)
        move = agent(game)
        assert move == int(expected[0]) and game.is_legal(move)
        game.play(move)
    with pytest.raises(ValueError, match="not a classic game"):
        agent(blokus.Game("classic", start="fixed"))


def test_a_sampling_sb3_agent_is_legal_and_reproducible(ppo_file):
    from blokus.agents import SB3Agent

    def moves(seed):
        agent, game, out = SB3Agent(ppo_file, deterministic=False, seed=seed), blokus.Game("duo", start="fixed"), []
        for _ in range(8):
            move = agent(game)
            assert game.is_legal(move)
            out.append(move)
            game.play(move)
        return out

    assert moves(3) == moves(3)


def test_an_sb3_agent_of_duo_in_a_classic_game_names_the_variant_it_plays(ppo_file):
    # Trained on Duo's 14x14 board (3 planes); a classic game has 5 planes of 20x20.
    agent = make_agent(f"sb3:{ppo_file}")
    with pytest.raises(ValueError, match=r"not a classic game's \(5, 20, 20\): it plays duo \("):
        agent(blokus.Game("classic"))


def test_sb3_and_net_agents_of_a_missing_file_name_it():
    with pytest.raises(FileNotFoundError, match="no model file 'nowhere.zip'"):
        make_agent("sb3:nowhere.zip")
    with pytest.raises(FileNotFoundError, match="no model file 'nowhere.pt'"):
        make_agent("net:nowhere.pt:sims=4")
    # a list of agent strings (the command lines' --agents) says which agent, as a ValueError
    with pytest.raises(ValueError, match="^agent 'sb3:nowhere.zip': no model file 'nowhere.zip'$"):
        parse_agents("random,sb3:nowhere.zip")


@pytest.fixture(scope="module")
def net_file(tmp_path_factory):
    torch = pytest.importorskip("torch", reason='net: agents need PyTorch: pip install -e ".[torch]"')
    from blokus._network import make_network

    torch.manual_seed(0)
    net = make_network(4, 0)
    path = tmp_path_factory.mktemp("net") / "model.pt"
    torch.save({"channels": 4, "blocks": 0, "variant": "duo", "iteration": 0, "model": net.state_dict()}, path)
    return path, net.eval()


@pytest.mark.slow
def test_a_net_agent_plays_the_argmax_of_its_masked_logits(net_file):
    import torch

    path, net = net_file
    agent = make_agent(f"net:{path}")
    game, rng = blokus.Game("duo", start="fixed"), np.random.default_rng(2)
    for _ in range(10):
        colour = game.to_move
        with torch.no_grad():
            logits, _ = net(torch.as_tensor(game.observation(colour)[None]),
                            torch.as_tensor(game.remaining_from(colour)[None]),
                            torch.as_tensor(game.legal_mask()[None]))
        assert agent(game) == int(logits[0].argmax())
        game.play(int(rng.choice(game.legal_moves())))
    with pytest.raises(ValueError, match="plays duo .*not a classic_2 game"):
        agent(blokus.Game("classic_2", start="fixed"))


def test_a_net_agent_with_a_search_plays_legal_games_and_pickles(net_file):
    path, _ = net_file
    agent = pickle.loads(pickle.dumps(make_agent(f"net:{path}:sims=4", seed=1)))
    assert agent.name == f"net:{path}:sims=4"
    opponent, game = make_agent("random", seed=3), blokus.Game("duo", start="fixed")
    while not game.is_over:
        move = agent(game) if game.player_to_move == 0 else opponent(game)
        assert game.is_legal(move)
        game.play(move)


@pytest.mark.parametrize("sims,ok", [("0", True), ("16777216", True), ("16777217", False), ("-1", False)])
def test_net_simulations_at_their_extremes(net_file, sims, ok):
    path, _ = net_file
    if ok:
        assert make_agent(f"net:{path}:sims={sims}")._player.simulations == int(sims)
    else:
        with pytest.raises(ValueError, match=rf"^simulations must be in \[0, 16777216\], not {sims}$"):
            make_agent(f"net:{path}:sims={sims}")


# --- level: and agent objects --------------------------------------------------------------

@pytest.mark.parametrize("spec", ["level:0", "level:10", "level:-1"])
def test_a_level_outside_1_to_9_is_refused(spec):
    with pytest.raises(ValueError, match=r"^level must be an integer in 1\.\.9 \(Pentobi's levels\), not -?\d+$"):
        make_agent(spec)


def test_levels_climb_and_level_6_is_the_budget_measured_even_with_pentobi():
    assert list(LEVEL_SIMULATIONS) == sorted(set(LEVEL_SIMULATIONS)) and len(LEVEL_SIMULATIONS) == 9
    # README / benchmarks: mcts:sims=9000:early_stop=1:threads=1 scored about 50% against level 6
    options = make_agent("level:6").options
    assert (options["simulations"], options["early_stop"], options["threads"]) == (9000, 1.0, 1)
    assert options["evaluation"] == 0.0  # the ladder was measured with the playouts alone
    game = blokus.Game("duo", start="fixed")
    assert game.is_legal(make_agent("level:2", seed=1)(game))


def test_an_agent_object_is_taken_as_it_is():
    def first(game):
        return lowest_legal(game)

    assert make_agent(first) is first
    with pytest.raises(TypeError, match=r"must be a str \(or an agent a callable .* with a name\), not int"):
        make_agent(42)
    with pytest.raises(TypeError, match="has no name"):
        make_agent(type("Nameless", (), {"__call__": lambda self, game: 0})())
    engine = gtp.Engine("duo", first)
    assert engine.handle("genmove b") == "= " + blokus.Game("duo", start="fixed").move_text(
        lowest_legal(blokus.Game("duo", start="fixed"))) + "\n\n"
    assert engine.handle("set_random_seed 4") == "= \n\n" and engine.agent is first
    assert engine.handle("param sims 3").startswith("? the agent is a Python object")


class FirstLegal:
    """A picklable agent object: the legal placement of lowest id."""

    name = "first-legal"

    def __call__(self, game):
        return lowest_legal(game)


@pytest.mark.slow
def test_arena_plays_agent_objects_beside_strings_on_workers_too():
    from blokus import arena

    for workers in (1, 2):
        result = arena.match([FirstLegal(), "greedy"], games=4, variant="duo", seed=2, workers=workers,
                             progress=False)
        assert result.agents == ("first-legal", "greedy") and result["first-legal"]["games"] == 4
        for r in result.results:
            replay, seat = blokus.Game("duo", start="fixed"), r.agents.index("first-legal")
            for player, move in zip(r.players, r.placements):
                assert player != seat or move == lowest_legal(replay)
                replay.play(int(move))
    ratings = arena.tournament([FirstLegal(), "random", "greedy"], games=2, workers=1, progress=False)
    assert set(ratings.agents) == {"first-legal", "random", "greedy"}
    with pytest.raises(arena.ArenaError, match="'<lambda>' cannot be sent to worker processes"):
        arena.match([lambda game: lowest_legal(game), "random"], games=2, workers=2)
    with pytest.raises(arena.ArenaError, match="'greedy' is given twice"):
        arena.match([make_agent("greedy"), "greedy"], games=2, workers=1)


def test_a_selfplay_run_takes_agent_strings_only(tmp_path):
    from blokus import selfplay

    with pytest.raises(selfplay.SelfPlayError, match="a run records its agents by their strings"):
        selfplay.run(tmp_path / "run", agents=[FirstLegal(), "random"], games=2, variant="duo", workers=1)


def test_environment_opponents_take_the_new_agent_strings():
    import gymnasium

    import blokus.gym_env  # noqa: F401 (registers the ids)

    for opponent in (tiny(), "level:1"):
        env = gymnasium.make("blokus/Duo-v0", opponent=opponent, seat=1)
        obs, info = env.reset(seed=0)
        assert obs["observation"][:2].sum() >= 1  # the opponent moved first: a piece is down
        for _ in range(4):
            obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        env.close()
    make_agent(tiny()).close()


def test_analysis_takes_a_level_as_its_search_budget():
    from blokus import analysis

    rows = analysis.move_values(blokus.Game("duo", start="fixed"), "level:3", top=None, seed=1)
    assert sum(row["visits"] for row in rows) <= LEVEL_SIMULATIONS[2]  # early_stop may end it sooner
    with pytest.raises(ValueError, match="needs an MCTS agent"):
        analysis.move_values(blokus.Game("duo", start="fixed"), tiny())
