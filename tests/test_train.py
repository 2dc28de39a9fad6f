"""``blokus train``: self-play targets, checkpoints and exact resume, evaluation shares, the CLI.

* the value targets are the rules' outcomes: along a recorded game that purple wins by placing
  all 21 pieces (monomino last: 15 + 5 bonus against orange's pieces left), every position
  where purple was to move has target 1 and every orange one 0; along a recorded draw (both
  -28) every target is 1/2;
* the policy targets are distributions over the legal moves of their position only (the mask
  is the game's own legal mask there, replayed);
* one iteration writes run.json, log.jsonl, checkpoint.pt and model.pt; a run of 2 iterations
  stopped after 1 and resumed ends with the same weights, buffer and log as the run of 2;
* a k-way tie counts 1/k in the evaluation's win share, with Wilson's interval as in the
  ``blokus selfplay`` report;
* bad options, a resume with other settings and a missing torch exit 2 with a message;
* classic, classic_3 and classic_teams (recorded games with known final scores): the value
  targets are the sides' win shares, per colour seen from the mover (the shared green without
  one) or one per team; the search gets each player's value from the network's outputs; a
  run of one iteration in each writes a checkpoint of its variant whose network plays as
  ``net:PATH`` in a game of that variant, refuses another, and a resume of another variant
  is refused.
"""
import json
import pathlib
import shutil
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import numpy as np
import pytest

import blokus
from blokus.agents import make_agent
from blokus.cli import main

from recorded_games import CLASSIC_SHARED_WIN, CLASSIC_TEAMS_DRAW, DUO_DRAW

torch = pytest.importorskip("torch", reason='blokus train needs PyTorch: pip install -e ".[torch]"')
from blokus import train  # noqa: E402
from blokus._network import evaluator, make_network, player_values  # noqa: E402
from blokus._sides import side_values  # noqa: E402
from blokus.train import evaluation, optimise, symmetry  # noqa: E402
from blokus.train.play import SearchOptions, play_games  # noqa: E402
from blokus.train.symmetry import transpose_ids, transpose_rows  # noqa: E402

pytestmark = pytest.mark.slow  # trains networks, in this process and in `blokus train` subprocesses
torch.set_num_threads(1)
TINY = dict(games_per_iteration=2, simulations=4, train_steps=4, batch_size=16, eval_every=1, eval_games=2,
            opponents="random", channels=4, blocks=0, seed=3)
DATA = pathlib.Path(__file__).parent / "data"


def recorded(name):
    """(colour, text) moves of the first game of tests/data/NAME.jsonl."""
    line = (DATA / name).read_text().splitlines()[0]
    return [tuple(m) for m in json.loads(line)["moves"]]


def scripted(moves, variant="duo"):
    """An evaluator that puts all the prior on the recorded move at each position of the
    recorded game (found by its observation and legal mask) and is uniform elsewhere; with the
    root's prior on one move the search's most visited move is that one."""
    game, script = blokus.Game(variant, start="fixed"), {}
    per_player = () if game.num_players == 2 else (game.num_players,)  # values (K,) with 2 players, else (K, P)
    for colour, text in moves:
        assert game.to_move == colour
        key = game.observation(colour).tobytes() + game.legal_mask().tobytes()
        move = blokus.parse_move(text, variant)
        script[key] = move
        game.play(move)
    assert game.is_over

    def evaluate(observations, remaining, masks, colours):
        priors = masks.astype(np.float32)
        for row, (obs, mask) in enumerate(zip(observations, masks)):
            move = script.get(obs.tobytes() + mask.tobytes())
            if move is not None:
                priors[row] = 0
                priors[row, move] = 1
        return priors, np.full((len(masks), *per_player), 0.5, np.float32)
    return evaluate, game


def replay_targets(moves, variant="duo", margin_weight=0.0):
    evaluate, final = scripted(moves, variant)
    options = SearchOptions(simulations=8, c_puct=1.25, dirichlet_alpha=0.3, dirichlet_fraction=0.0)
    samples, games = play_games(evaluate, 1, options, sample_plies=0, rng=np.random.default_rng(0), seed=0,
                                variant=variant, margin_weight=margin_weight)
    assert games[0].history == final.history  # the recorded game was played
    return samples, games[0]


def test_value_targets_are_the_outcomes_of_a_won_game():
    moves = recorded("duo_all_placed.jsonl")
    samples, game = replay_targets(moves)
    assert game.player_scores()[0] == 20 and game.player_scores()[1] < 0  # all 21 placed, monomino last
    movers = np.array([colour for colour, _ in moves])
    assert len(samples) == len(moves)
    np.testing.assert_array_equal(samples.values, np.where(movers == 0, 1.0, 0.0))
    assert (movers[-3:] == 0).all()  # orange was out: purple moved on alone


def test_value_targets_of_a_draw_are_one_half():
    samples, game = replay_targets(DUO_DRAW)
    assert game.player_scores() == [-28, -28]
    np.testing.assert_array_equal(samples.values, np.full(len(DUO_DRAW), 0.5, np.float32))


def test_value_targets_add_the_score_margin_by_its_weight():
    # the won game: purple 20 (all 21 pieces, monomino last: 15 + 5), orange minus the squares
    # of its pieces left; margin weight 1/2, scale 10: purple 1/2 + 1/2 sigmoid(margin / 10)
    game = blokus.Game("duo", start="fixed")
    for _, text in recorded("duo_all_placed.jsonl"):
        game.play(blokus.parse_move(text, "duo"))
    size = blokus.placements("duo").size
    placed = [sum(int(size[m]) for c, m in game.history if c == colour) for colour in (0, 1)]
    assert placed[0] == 89
    margin = 20 - (placed[1] - 89)
    purple = 0.5 + 0.5 / (1 + np.exp(-margin / 10))
    np.testing.assert_allclose(side_values(game, 0.5, 10.0), [purple, 1 - purple], rtol=1e-12)
    np.testing.assert_array_equal(side_values(game, 0.0, 10.0), [1.0, 0.0])
    draw = blokus.Game("duo", start="fixed")
    for _, text in DUO_DRAW:
        draw.play(blokus.parse_move(text, "duo"))
    np.testing.assert_array_equal(side_values(draw, 0.5, 10.0), [0.5, 0.5])  # margin 0: 1/2 either way


# ---- the variants of 3 and 4 players, teams and the shared colour ----------------------------
# CLASSIC_SHARED_WIN ends with colour scores blue -33, yellow -25, red -25, green -28.

def _mover_rows(moves, targets):
    """The expected value target of each recorded position: ``targets[colour]`` of its mover."""
    return np.array([targets[colour] for colour, _ in moves])


def test_classic_value_targets_are_per_colour_win_shares_seen_from_the_mover():
    # yellow and red tie on top: 1/2 each; outputs in the mover's order (itself, then turn order)
    samples, game = replay_targets(CLASSIC_SHARED_WIN, "classic")
    assert game.scores() == [-33, -25, -25, -28]
    expected = {0: [0, .5, .5, 0], 1: [.5, .5, 0, 0], 2: [.5, 0, 0, .5], 3: [0, 0, .5, .5]}
    np.testing.assert_array_equal(samples.values, _mover_rows(CLASSIC_SHARED_WIN, expected))


def test_classic_3_value_targets_leave_out_the_shared_colour():
    # players blue, yellow, red: yellow and red share the win; green's slot has no target (NaN)
    samples, _ = replay_targets(CLASSIC_SHARED_WIN, "classic_3")
    nan = np.nan
    expected = {0: [0, .5, .5, nan], 1: [.5, .5, nan, 0], 2: [.5, nan, 0, .5], 3: [nan, 0, .5, .5]}
    np.testing.assert_array_equal(samples.values, _mover_rows(CLASSIC_SHARED_WIN, expected))
    # with the score term: blue 1/2 * e^-3.3 / (e^-3.3 + 2 e^-2.5) = 1/2 / (1 + 2 e^0.8); yellow and
    # red 1/4 + 1/2 * e^0.8 / (1 + 2 e^0.8) each; the three sum to 1
    samples, _ = replay_targets(CLASSIC_SHARED_WIN, "classic_3", margin_weight=0.5)
    blue = 0.5 / (1 + 2 * np.exp(0.8))
    other = 0.25 + 0.5 * np.exp(0.8) / (1 + 2 * np.exp(0.8))
    assert blue + 2 * other == pytest.approx(1.0)
    np.testing.assert_allclose(samples.values[0], [blue, other, other, nan], rtol=1e-6)  # blue to move


def test_classic_teams_value_targets_are_one_value_shared_by_the_partners():
    # teams blue+red -33 - 25 = -58, yellow+green -25 - 28 = -53: yellow+green win
    samples, _ = replay_targets(CLASSIC_SHARED_WIN, "classic_teams")
    np.testing.assert_array_equal(samples.values, _mover_rows(CLASSIC_SHARED_WIN, [0.0, 1.0, 0.0, 1.0]))
    samples, _ = replay_targets(CLASSIC_TEAMS_DRAW, "classic_teams")  # both teams -57
    np.testing.assert_array_equal(samples.values, np.full(len(CLASSIC_TEAMS_DRAW), 0.5, np.float32))
    samples, _ = replay_targets(CLASSIC_SHARED_WIN, "classic_teams", margin_weight=0.5)
    winner = 0.5 + 0.5 / (1 + np.exp(-0.5))  # margin 5, scale 10
    np.testing.assert_allclose(samples.values, _mover_rows(CLASSIC_SHARED_WIN, [1 - winner, winner] * 2),
                               rtol=1e-6)


def test_the_search_gets_each_players_value_from_the_network_outputs():
    # classic_3, green to move: outputs green, blue, yellow, red; green scores for nobody, so the
    # softmax of logits (9, 0, ln 2, 0) over blue, yellow, red is 1/4, 1/2, 1/4
    logits = torch.tensor([[9.0, 0.0, np.log(2.0), 0.0]])
    np.testing.assert_allclose(player_values("classic_3", logits, [3]), [[0.25, 0.5, 0.25]], rtol=1e-6)
    # classic, red to move: outputs red, green, blue, yellow (no colour left out)
    logits = torch.tensor([[np.log(4.0), 0.0, np.log(2.0), np.log(1.0)]])
    np.testing.assert_allclose(player_values("classic", logits, [2]), [[2 / 8, 1 / 8, 4 / 8, 1 / 8]],
                               rtol=1e-6)
    # classic_teams, yellow to move, its side's value sigmoid(ln 3) = 3/4: both partners 3/4
    np.testing.assert_allclose(player_values("classic_teams", torch.tensor([np.log(3.0)]), [1]),
                               [[0.25, 0.75, 0.25, 0.75]], rtol=1e-6)


def test_the_value_loss_leaves_out_a_colour_without_target():
    # uniform logits over 3 scoring colours: -sum t log(1/3) = ln 3, whatever the 4th logit
    targets = torch.tensor([[np.nan, 0.5, 0.5, 0.0]])
    assert optimise.value_loss(torch.tensor([[50.0, 1.0, 1.0, 1.0]]), targets).item() == pytest.approx(np.log(3))


def test_only_duo_trains_with_the_transpose():
    # it keeps Duo's (4, 4) and (9, 9); on the 20x20 board it swaps yellow's and green's corners
    assert symmetry.keeps_starts("duo")
    assert not any(symmetry.keeps_starts(v) for v in ("classic", "classic_2", "classic_3", "classic_teams"))


@pytest.fixture(scope="module")
def variant_runs(tmp_path_factory):
    """Tiny runs of one iteration in the 4-player, shared-colour and team variants."""
    runs = {}
    for variant in ("classic", "classic_3", "classic_teams"):
        runs[variant] = tmp_path_factory.mktemp(variant) / "run"
        train.run(runs[variant], variant=variant, iterations=1, **TINY)
    return runs


@pytest.mark.parametrize("variant", ["classic", "classic_3", "classic_teams"])
def test_a_run_of_another_variant_trains_and_its_network_plays_as_net_agent(variant_runs, variant):
    out = variant_runs[variant]
    log = read_log(out)
    assert [e["iteration"] for e in log] == [0, 1] and log[1]["positions"] > 0
    state = torch.load(out / "checkpoint.pt", weights_only=False)
    assert state["config"]["variant"] == variant and state["config"]["augment"] is False
    assert state["buffer"]["values"].shape == ((log[1]["positions"],) if variant == "classic_teams"
                                               else (log[1]["positions"], 4))
    agent = make_agent(f"net:{out / 'model.pt'}:sims=2", seed=1)
    game, opponent = blokus.Game(variant, start="fixed"), make_agent("random", seed=2)
    moves = 0
    while not game.is_over:
        mover = agent if game.player_to_move == 0 else opponent
        move = mover(game)
        assert game.is_legal(move)
        game.play(move)
        moves += mover is agent
    assert moves >= 1
    other = "classic_2" if variant != "classic_2" else "classic"
    with pytest.raises(ValueError, match=f"plays {variant} .*not a {other} game"):
        agent(blokus.Game(other, start="fixed"))


def test_a_resume_of_another_variant_is_refused(variant_runs, capsys):
    out = variant_runs["classic_3"]
    err = _error(["--out", str(out), "--resume", "--variant", "classic"], capsys)
    assert f"the run in {out} has --variant classic_3, not classic" in err
    assert "--variant: invalid choice: 'hex'" in _error(["--out", str(out), "--variant", "hex"], capsys)


def test_policy_targets_sum_to_one_over_the_legal_moves_only():
    net = make_network(4, 0).eval()
    options = SearchOptions(simulations=6, c_puct=1.25, dirichlet_alpha=0.3, dirichlet_fraction=0.25)
    samples, games = play_games(evaluator(net), 2, options, sample_plies=4,
                                rng=np.random.default_rng(1), seed=1)
    a = 13_729
    policy, masks = samples.dense_policy(a), samples.legal_masks(a)
    np.testing.assert_allclose(policy.sum(axis=1), 1.0, rtol=1e-6)
    assert (policy[~masks] == 0).all()
    assert ((policy > 0).sum(axis=1) <= 6).all()  # at most one root move per simulation
    # the masks are the games' legal masks, position by position (games in order, then plies);
    # the pieces in hand are the mover's first, then the other colour's, the pieces placed so
    # far taken out
    expected, hands, piece = [], [], blokus.placements("duo").piece
    for g in games:
        replay, placed = blokus.Game("duo", start="fixed"), np.zeros((2, 21), bool)
        for colour, move in g.history:
            expected.append(replay.legal_mask())
            hands.append(~placed[[colour, 1 - colour]])
            replay.play(move)
            placed[colour, piece[move]] = True
    np.testing.assert_array_equal(masks, np.stack(expected))
    np.testing.assert_array_equal(samples.remaining, np.stack(hands))


def test_the_transpose_of_a_game_is_the_game_of_the_transposed_moves():
    # replaying each move's transpose from the start gives, position by position, the
    # transposed observation and legal mask: the rules see a transposed Duo game
    t = transpose_ids()
    assert (t[t] == np.arange(13_729)).all() and (t != np.arange(13_729)).any()
    rng = np.random.default_rng(4)
    game, mirror = blokus.Game("duo", start="fixed"), blokus.Game("duo", start="fixed")
    samples = []
    while not game.is_over:
        obs, mask = game.observation(game.to_move), game.legal_mask()
        np.testing.assert_array_equal(mirror.observation(mirror.to_move), obs.swapaxes(-1, -2))
        np.testing.assert_array_equal(mirror.legal_mask(), mask[t])
        samples.append((obs, mask, mirror.observation(mirror.to_move), mirror.legal_mask()))
        move = int(rng.choice(game.legal_moves()))
        game.play(move)
        mirror.play(int(t[move]))
    # transpose_rows transposes the rows chosen and leaves the others
    obs, mask = np.stack([s[0] for s in samples]), np.stack([s[1] for s in samples])
    rows = np.arange(len(samples)) % 2 == 1
    policy = mask / mask.sum(axis=1, keepdims=True)
    t_obs, t_mask, t_policy = transpose_rows(rows, obs, mask, policy)
    np.testing.assert_array_equal(t_obs[rows], np.stack([s[2] for s in samples])[rows])
    np.testing.assert_array_equal(t_mask[rows], np.stack([s[3] for s in samples])[rows])
    np.testing.assert_array_equal(t_obs[~rows], obs[~rows])
    np.testing.assert_array_equal(t_mask[~rows], mask[~rows])
    np.testing.assert_array_equal(t_policy[rows] > 0, t_mask[rows])


def test_one_iteration_writes_checkpoint_and_log(tmp_path):
    out = tmp_path / "run"
    summary = train.run(out, iterations=1, **TINY)
    assert summary["iteration"] == 1 and summary["steps"] == 4
    for name in ("run.json", "log.jsonl", "checkpoint.pt", "model.pt"):
        assert (out / name).exists(), name
    log = read_log(out)
    assert [e["iteration"] for e in log] == [0, 1]
    assert log[1]["positions"] == log[1]["buffer"] > 0
    assert set(log[1]["evaluation"]) == {"random"} and log[1]["evaluation"]["random"]["games"] == 2
    state = torch.load(out / "checkpoint.pt", weights_only=False)
    assert state["iteration"] == 1 and state["buffer"]["size"] == log[1]["positions"]
    net = train.load_network(out / "model.pt")
    assert net.trunk.channels == 4
    game = blokus.Game("duo", start="fixed")
    assert game.is_legal(train.NetworkAgent(net, simulations=2)(game))
    assert game.is_legal(train.NetworkAgent(net, simulations=0)(game))


def read_log(out):
    return [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]


def _without_times(entries):
    return [{k: v for k, v in e.items() if not k.endswith("_seconds")} for e in entries]


def test_resume_continues_exactly_as_an_uninterrupted_run(tmp_path):
    whole, part = tmp_path / "whole", tmp_path / "part"
    train.run(whole, iterations=2, **TINY)
    train.run(part, iterations=1, **TINY)
    summary = train.run(part, iterations=2, resume=True)  # the other settings are the run's
    assert summary["iteration"] == 2 and summary["steps"] == 8
    a = torch.load(whole / "checkpoint.pt", weights_only=False)
    b = torch.load(part / "checkpoint.pt", weights_only=False)
    assert a["iteration"] == b["iteration"] == 2
    for key in a["model"]:
        assert torch.equal(a["model"][key], b["model"][key]), key
    for key in ("observations", "masks", "policy_ids", "policy", "values"):
        np.testing.assert_array_equal(a["buffer"][key], b["buffer"][key])
    assert _without_times(read_log(whole)) == _without_times(read_log(part))
    # another seed gives another run: the comparison above can fail
    other = tmp_path / "other"
    train.run(other, iterations=1, **{**TINY, "seed": 4})
    c = torch.load(other / "checkpoint.pt", weights_only=False)
    assert not np.array_equal(c["buffer"]["observations"], a["buffer"]["observations"])


def test_a_tie_counts_one_half_in_the_win_share():
    # three finished games from the network's seat: won, lost, tied
    def finished(winners):
        return SimpleNamespace(winners=lambda: winners, variant="duo")
    shares = [evaluation.side_win_shares(finished(w))[seat] for w, seat in (([0], 0), ([0], 1), ([0, 1], 1))]
    assert shares == [1.0, 0.0, 0.5]
    # Wilson's 95% interval for 1.5 wins in 3, from its formula:
    # (p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)
    z, n, p = 1.959963984540054, 3, 0.5
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    low, high = blokus.selfplay.wilson(sum(shares), 3)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    entry = {"iteration": 5, "steps": 160, "evaluation": {"random": {
        "games": 3, "wins": 1.5, "win_share": 0.5, "win_share_low": low, "win_share_high": high}}}
    table = train.format_table([entry], ["random"])
    assert " 50.0% [" in table and "a k-way tie counts 1/k" in table


def _error(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["train", *argv])
    assert exc.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--simulations", "0"], "--simulations: must be at least 1"),
    (["--eval-simulations", "-1"], "--eval-simulations: must be at least 0"),
    (["--opponents", "nobody"], "--opponents: unknown agent 'nobody'"),
    (["--opponents", "random,random"], "'random' is given twice"),
    (["--seed", "-1"], "--seed: must be in [0, 2**64)"),
])
def test_bad_options_exit_2(tmp_path, capsys, argv, message):
    assert message in _error(["--out", str(tmp_path / "run"), *argv], capsys)
    assert not (tmp_path / "run").exists()


def test_resume_with_other_settings_is_refused(tmp_path, capsys):
    out = tmp_path / "run"
    train.run(out, iterations=1, **TINY)
    err = _error(["--out", str(out), "--resume", "--seed", "5"], capsys)
    assert f"the run in {out} has --seed 3, not 5" in err
    err = _error(["--out", str(out), "--resume", "--opponents", "greedy"], capsys)
    assert "--opponents random, not greedy" in err
    err = _error(["--out", str(out), "--resume", "--iterations", "1", "--channels", "8"], capsys)
    assert "--channels 4, not 8" in err
    assert "is not empty: add --resume" in _error(["--out", str(out)], capsys)
    before = (out / "log.jsonl").read_text()
    assert main(["train", "--out", str(out), "--resume", "--iterations", "1"]) == 0
    assert (out / "log.jsonl").read_text() == before  # already complete: nothing trained


def test_ctrl_c_keeps_the_last_checkpoint_and_exits_130(tmp_path):
    out = tmp_path / "run"
    options = [f"--{k.replace('_', '-')}={v}" for k, v in TINY.items()]
    proc = subprocess.Popen([sys.executable, "-m", "blokus", "train", "--out", str(out), "--iterations", "1000",
                             *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120  # a generous bound on the first iterations, not a timing
    while time.monotonic() < deadline and proc.poll() is None:
        if (out / "log.jsonl").exists() and len((out / "log.jsonl").read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    state = torch.load(out / "checkpoint.pt", weights_only=False)
    log = read_log(out)
    assert f"the checkpoint of iteration {state['iteration']} is kept" in err and "--resume" in err
    assert state["iteration"] >= 2
    assert [e["iteration"] for e in log] == list(range(state["iteration"] + 1))  # written together


# ---- a damaged run to resume: the command's own error, naming the file; nothing written ------

@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run of one iteration: its checkpoint is at iteration 1, its log lists 0 and 1."""
    out = tmp_path_factory.mktemp("finished") / "run"
    train.run(out, iterations=1, **TINY)
    return out


@pytest.fixture
def copy(finished, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(finished, out)
    return out


def files_of(out):
    return {p.name: p.read_bytes() if p.is_file() else "not a file" for p in out.iterdir()}


def _edited_checkpoint(edit):
    def damage(path):
        state = torch.load(path, weights_only=False)
        edit(state)
        torch.save(state, path)
    return damage


def _drop_a_weight(state):
    del state["model"][next(iter(state["model"]))]


@pytest.mark.parametrize("damage, message", [
    (lambda path: path.write_bytes(path.read_bytes()[:1000]), "cannot be read (RuntimeError: "),  # cut short
    (lambda path: path.write_bytes(b""), "cannot be read (EOFError: "),
    (lambda path: path.write_bytes(b"not a checkpoint\n" * 64), "cannot be read ("),
    (lambda path: torch.save([1, 2], path), "is not a checkpoint of `blokus train`"),
    (_edited_checkpoint(lambda state: state.update(iteration=7)), "is at iteration 7, beyond the run's 1 iterations"),
    (_edited_checkpoint(lambda state: state.update(iteration="1")), "holds iteration '1' and steps 4, not counts"),
    (_edited_checkpoint(lambda state: state["config"].update(seed=4, channels=8)),
     "was written by a run with other settings than run.json's (channels, seed)"),
    (_edited_checkpoint(_drop_a_weight), "does not fit this run's network and buffer (RuntimeError: "),
])
def test_resume_refuses_a_damaged_checkpoint(copy, capsys, damage, message):
    damage(copy / "checkpoint.pt")
    before = files_of(copy)
    err = _error(["--out", str(copy), "--resume"], capsys)
    assert f"blokus train: error: --resume: {copy / 'checkpoint.pt'} {message}" in err, err
    assert "restore it from a copy, or delete it to start the run again from iteration 0" in err
    assert "Traceback" not in err
    assert files_of(copy) == before


@pytest.mark.parametrize("name", ["run.json", "log.jsonl", "checkpoint.pt", "model.pt"])
def test_resume_refuses_a_file_of_the_run_that_is_not_a_regular_file(copy, capsys, name):
    (copy / name).unlink()
    (copy / name).mkdir()
    before = files_of(copy)
    err = _error(["--out", str(copy), "--resume"], capsys)
    assert f"--resume: {copy / name} is not a regular file but a directory: remove it or put the run's " \
           "own file back, or choose a new directory" in err, err
    assert files_of(copy) == before


def test_resume_drops_a_log_line_cut_by_a_kill(copy):
    # killed while appending iteration 2's line, before its checkpoint: the line has no newline
    log = (copy / "log.jsonl").read_bytes()
    with open(copy / "log.jsonl", "ab") as f:
        f.write(b'{"iteration": 2, "steps": 8, "positi')
    summary = train.run(copy, resume=True)  # the run is complete: nothing is trained
    assert summary["iteration"] == 1 and [e["iteration"] for e in summary["log"]] == [0, 1]
    assert (copy / "log.jsonl").read_bytes() == log


@pytest.mark.parametrize("edit, message", [
    # a line cut short that is not the last is damage, not an append that never finished
    (lambda lines: [lines[0][:20], lines[1]], "log.jsonl, line 1: not a log entry of `blokus train`"),
    (lambda lines: [lines[0], "[1, 2]"], "log.jsonl, line 2: not a log entry of `blokus train`"),
    # the checkpoint is at iteration 1: the log must list 0 and 1
    (lambda lines: lines[:1], "does not list iterations 0 to 1 once each, in order"),
    (lambda lines: [lines[1], lines[0]], "does not list iterations 0 to 1 once each, in order"),
    (lambda lines: [lines[0], lines[0], lines[1]], "does not list iterations 0 to 1 once each, in order"),
    (lambda lines: [], "does not list iterations 0 to 1 once each, in order"),
])
def test_resume_refuses_a_log_that_is_damaged_or_does_not_agree_with_the_checkpoint(copy, capsys, edit, message):
    lines = (copy / "log.jsonl").read_text().splitlines()
    (copy / "log.jsonl").write_text("".join(line + "\n" for line in edit(lines)))
    before = files_of(copy)
    err = _error(["--out", str(copy), "--resume"], capsys)
    assert f"--resume: {copy / 'log.jsonl'}" in err and message in err, err
    assert "start again in a new directory" in err
    assert files_of(copy) == before


def test_missing_torch_exits_2_naming_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    for name in [m for m in sys.modules if m == "blokus.train" or m.startswith(("blokus.train.", "blokus.nn"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delattr(blokus, "train", raising=False)
    monkeypatch.delattr(blokus, "nn", raising=False)
    assert main(["train", "--out", str(tmp_path / "run")]) == 2
    assert 'pip install "blokus[torch]"' in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
