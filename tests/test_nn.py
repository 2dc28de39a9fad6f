"""``blokus.nn``: the placement network as a plain module and as MaskablePPO's policy.

* one logit per placement id (13,729 on Duo, 30,433 on classic) and a value per position, float32;
  with a legal mask, illegal ids get probability 0 after a softmax and the legal ones share 1;
* the placement head's sums, checked by hand-set weights: with the features a single 1 at one cell
  and the orientations' score maps equal to them, a placement's logit is 1 exactly when it covers
  that cell (counted from the placement table's cells); with the edge or corner map instead, exactly
  when it touches that cell by a side, or by a corner only; with features of ones, the count of
  those cells (by hand for four placements); with only the piece term, the logit is 1 exactly for
  the placements of that piece;
* the size prior: an untrained head's piece term is ``size_prior`` logits per square over the
  mean (the X, 5 squares, 4 logits above the monomino at 1), and it survives SB3's initialisation:
  MaskablePPO's untrained policy puts a 5-square placement 4 size_prior above the monomino's in
  log-probability and its most likely move is of 5 squares (none above with ``size_prior=0``); a
  size prior that is not a finite number is refused;
* the trunk's added planes: the mover's cells by a corner only are the engine's attachment points;
* ``MaskablePPO(blokus.nn.MaskablePlacementPolicy, env)`` builds on ``blokus/Duo-v0``, its
  distribution gives masked ids probability 0, it saves and loads with the same choices, and it
  refuses an ``net_arch`` and a foreign action space; a saved model names its policy
  ``blokus.nn.MaskablePlacementPolicy`` in the very bytes a model saved before the class left
  ``blokus/nn.py`` holds, and those bytes load as the class;
* ``ppo_settings(num_envs)`` gives an update every 1,024 learner moves on any number of games
  (the documented recipe), and refuses a number of games that is not an int >= 1.
"""

import gymnasium
import numpy as np
import pytest

import blokus

torch = pytest.importorskip("torch", reason='blokus.nn needs PyTorch: pip install -e ".[torch]"')
import blokus._nn_parts  # noqa: E402
import blokus.nn  # noqa: E402

pytestmark = pytest.mark.slow  # the training networks, in torch
torch.set_num_threads(1)
SMALL = {"channels": 4, "blocks": 1}


def positions(variant, plies, seed=0):
    """Observations, hands and masks of the colour to move along one random game."""
    rng = np.random.default_rng(seed)
    game, obs, rem, masks = blokus.Game(variant, start="fixed"), [], [], []
    for _ in range(plies):
        obs.append(game.observation(game.to_move))
        rem.append(game.remaining_from(game.to_move))
        masks.append(game.legal_mask())
        moves = game.legal_moves()
        game.play(int(moves[rng.integers(len(moves))]))
    return np.stack(obs), np.stack(rem), np.stack(masks)


@pytest.mark.parametrize("variant, placements", [("duo", 13_729), ("classic", 30_433)])
def test_one_logit_per_placement_and_masked_ids_get_no_probability(variant, placements):
    obs, rem, masks = positions(variant, 3)
    net = blokus.nn.PlacementNet(variant, **SMALL, values=2)
    logits, value = net(obs, rem)
    assert logits.shape == (3, placements) and logits.dtype == torch.float32
    assert value.shape == (3, 2) and value.dtype == torch.float32
    masked, _ = net(torch.as_tensor(obs), torch.as_tensor(rem), torch.as_tensor(masks))
    probs = masked.softmax(dim=1).detach().numpy()
    assert (probs[~masks] == 0).all()
    assert (probs[masks] > 0).all()
    np.testing.assert_allclose(probs.sum(axis=1), 1, rtol=1e-5)
    # the legal ids keep their unmasked logits
    assert torch.equal(masked[torch.as_tensor(masks)], logits[torch.as_tensor(masks)])


def test_a_mask_with_no_legal_id_gives_no_nan():
    obs, rem, masks = positions("duo", 1)
    logits, _ = blokus.nn.PlacementNet("duo", **SMALL)(obs, rem, np.zeros_like(masks))
    assert not logits.softmax(dim=1).isnan().any()


COVERED, EDGE, CORNER = slice(0, 91), 91, 92  # the head's score maps: S per orientation, then E and Q


def hand_set_head(table, maps=COVERED):
    """A head on one feature channel whose only nonzero weights copy it into score maps ``maps``."""
    head = blokus.nn.PlacementHead(table, channels=1)
    with torch.no_grad():
        for p in head.parameters():
            p.zero_()
        head.cells.weight[maps] = 1
    return head


@pytest.mark.parametrize("variant, cell", [("duo", (4, 4)), ("duo", (0, 13)), ("classic", (19, 0)),
                                           ("classic", (7, 12))])
def test_head_scores_a_placement_from_the_cells_it_covers(variant, cell):
    table = blokus.placements(variant)
    side = 14 if variant == "duo" else 20
    head = hand_set_head(table)
    features = torch.zeros(1, 1, side, side)
    features[0, 0, cell[0], cell[1]] = 1
    logits = head(features)[0].detach().numpy()
    covers = (table.cells == np.array(cell)).all(axis=2).any(axis=1)
    assert covers.sum() > 0
    np.testing.assert_array_equal(logits, covers.astype(np.float32))


def touching(table, cell):
    """Per placement, whether ``cell`` is outside it and next to one of its cells by a side, and
    whether it is next to one by a corner only: counted from the table's cells."""
    d = np.abs(table.cells.astype(int) - np.array(cell))
    real = table.cells[:, :, 0] >= 0
    covered = ((d.sum(axis=2) == 0) & real).any(axis=1)
    side = ((d.sum(axis=2) == 1) & real).any(axis=1) & ~covered
    corner = (((d == 1).all(axis=2)) & real).any(axis=1) & ~covered & ~side
    return side, corner


@pytest.mark.parametrize("variant, cell", [("duo", (4, 4)), ("duo", (0, 13)), ("classic", (19, 0))])
def test_head_scores_a_placement_from_its_edge_and_corner_cells(variant, cell):
    table = blokus.placements(variant)
    side = 14 if variant == "duo" else 20
    features = torch.zeros(1, 1, side, side)
    features[0, 0, cell[0], cell[1]] = 1
    by_side, by_corner = touching(table, cell)
    assert by_side.sum() > 0 and by_corner.sum() > 0
    for maps, expected in ((EDGE, by_side), (CORNER, by_corner)):
        logits = hand_set_head(table, maps)(features)[0].detach().numpy()
        np.testing.assert_array_equal(logits, expected.astype(np.float32))


@pytest.mark.parametrize("move, edges, corners", [
    ("a14", 2, 1),  # the monomino in a corner of the board: two cells by a side, one by a corner
    ("e10", 4, 4),  # in the open
    ("f8,e9,f9,g9,f10", 8, 8),  # the X: four tips and four inner corners by a side, eight by a corner
    ("a1,b1,c1,d1,e1", 6, 1),  # the I5 along the bottom edge from the corner: only f2 by a corner
])
def test_head_counts_the_cells_a_placement_touches(move, edges, corners):
    table = blokus.placements("duo")
    placement = blokus.parse_move(move, "duo")
    ones = torch.ones(1, 1, 14, 14)
    for maps, count in ((EDGE, edges), (CORNER, corners)):
        logits = hand_set_head(table, maps)(ones)[0].detach().numpy()
        assert logits[placement] == count


@pytest.mark.parametrize("piece", [0, 11, 20])
def test_head_piece_term(piece):
    table = blokus.placements("duo")
    head = hand_set_head(table)
    with torch.no_grad():
        head.cells.weight.zero_()
        head.pieces.bias[piece] = 1
    logits = head(torch.zeros(1, 1, 14, 14))[0].detach().numpy()
    np.testing.assert_array_equal(logits, (table.piece == piece).astype(np.float32))


@pytest.mark.parametrize("size_prior", [1.0, 0.5, 0])
def test_head_starts_with_larger_pieces_first(size_prior):
    table = blokus.placements("duo")
    head = blokus.nn.PlacementHead(table, channels=1, size_prior=size_prior)
    with torch.no_grad():
        head.cells.weight.zero_()
        head.cells.bias.zero_()
        head.pieces.weight.zero_()
    logits = head(torch.zeros(1, 1, 14, 14))[0].detach().numpy()
    monomino, x = blokus.PIECE_NAMES.index("1"), blokus.PIECE_NAMES.index("X")
    by_piece = {p: np.unique(logits[table.piece == p]) for p in (monomino, x)}
    assert all(len(v) == 1 for v in by_piece.values())  # one value per piece
    assert by_piece[x][0] - by_piece[monomino][0] == pytest.approx(4 * size_prior)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "1", True, None])
def test_size_prior_must_be_a_finite_number(bad):
    with pytest.raises(ValueError, match="size_prior must be a finite real number"):
        blokus.nn.PlacementNet("duo", **SMALL, size_prior=bad)


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_trunk_finds_each_colours_attachment_points(variant):
    """The trunk's added planes: for the colour to move, the empty cells next to its cells by a
    corner only are its attachment points once it has a piece down (the engine's, in the
    observation's last plane); each colour's cells by a side are empty and touch it."""
    obs, _, _ = positions(variant, 12, seed=3)
    colours = obs.shape[1] - 1
    planes = blokus._nn_parts._contacts(torch.as_tensor(obs[:, :colours]).float()).numpy().astype(bool)
    for k in range(colours, len(obs)):  # every colour has a piece down
        np.testing.assert_array_equal(planes[k, colours], obs[k, colours].astype(bool))
        empty = obs[k, :colours].sum(axis=0) == 0
        for c in range(colours):
            own = np.pad(obs[k, c].astype(bool), 1)
            beside = own[:-2, 1:-1] | own[2:, 1:-1] | own[1:-1, :-2] | own[1:-1, 2:]
            np.testing.assert_array_equal(planes[k, c], beside & empty)


def test_placement_table_for_a_foreign_action_space():
    with pytest.raises(ValueError, match="no Blokus board has 100 placements"):
        blokus.nn.placement_table(100)


# ------------------------------------------------------------------ as MaskablePPO's policy
sb3_contrib = pytest.importorskip("sb3_contrib", reason='MaskablePPO needs sb3-contrib: pip install -e ".[train]"')


def make_model(env, **kwargs):
    return sb3_contrib.MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, n_steps=16, batch_size=16, n_epochs=1,
                                   device="cpu", seed=0, policy_kwargs=SMALL, **kwargs)


def test_policy_masks_and_saves(tmp_path):
    env = gymnasium.make("blokus/Duo-v0")
    model = make_model(env)
    assert isinstance(model.policy.action_net[1], blokus.nn.PlacementHead)
    obs, info = env.reset(seed=0)
    mask = info["action_mask"].view(bool)
    obs_tensor, _ = model.policy.obs_to_tensor(obs)
    probs = model.policy.get_distribution(obs_tensor, mask[None]).distribution.probs[0].detach().numpy()
    assert probs.shape == (13_729,) and (probs[~mask] == 0).all() and mask.sum() == 414
    np.testing.assert_allclose(probs.sum(), 1, rtol=1e-5)
    model.learn(32)
    model.save(tmp_path / "model.zip")
    loaded = sb3_contrib.MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    assert loaded.policy.action_net[1].cells.in_channels == SMALL["channels"]
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        mask = info["action_mask"].view(bool)
        ours = model.predict(obs, action_masks=mask, deterministic=True)[0]
        assert mask[ours] and ours == loaded.predict(obs, action_masks=mask, deterministic=True)[0]


# The policy class as a model saved before the class moved to blokus/_sb3_policy.py holds it
# (its data file's "policy_class" ":serialized:", base64 of the pickle of blokus.nn's name)
SAVED_POLICY_CLASS = "gAWVKQAAAAAAAACMCWJsb2t1cy5ubpSMF01hc2thYmxlUGxhY2VtZW50UG9saWN5lJOULg=="


def test_saved_models_name_the_policy_by_its_public_path(tmp_path):
    import base64
    import json
    import pickle
    import zipfile

    assert pickle.loads(base64.b64decode(SAVED_POLICY_CLASS)) is blokus.nn.MaskablePlacementPolicy
    make_model(gymnasium.make("blokus/Duo-v0")).save(tmp_path / "model.zip")
    with zipfile.ZipFile(tmp_path / "model.zip") as saved:
        data = json.loads(saved.read("data"))
    assert data["policy_class"][":serialized:"] == SAVED_POLICY_CLASS


@pytest.mark.parametrize("size_prior", [1.0, 0.0])
def test_untrained_policy_prefers_larger_pieces_by_the_size_prior(size_prior):
    """After SB3's initialisation (small weights, zero biases) the size prior is what sets the
    policy apart: on the opening position, a placement of 5 squares is about exp(4 size_prior)
    times as likely as the monomino's (in log-probability, within 0.25), and with a prior the
    most likely move is one of 5 squares."""
    env = gymnasium.make("blokus/Duo-v0")
    model = sb3_contrib.MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, device="cpu", seed=0,
                                    policy_kwargs={**SMALL, "size_prior": size_prior})
    sizes = np.array(blokus._core.PIECE_SIZES)[blokus.placements("duo").piece]
    obs, info = env.reset(seed=0)
    mask = info["action_mask"].view(bool)
    obs_tensor, _ = model.policy.obs_to_tensor(obs)
    logp = model.policy.get_distribution(obs_tensor, mask[None]).distribution.logits[0].detach().numpy()
    gap = logp[mask & (sizes == 5)].mean() - logp[mask & (sizes == 1)].mean()
    assert gap == pytest.approx(4 * size_prior, abs=0.25)
    if size_prior:
        assert sizes[model.predict(obs, action_masks=mask, deterministic=True)[0]] == 5
    with pytest.raises(ValueError, match="size_prior must be a finite real number"):
        sb3_contrib.MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, device="cpu",
                                policy_kwargs={"size_prior": float("nan")})


def test_policy_refuses_net_arch_and_foreign_spaces():
    env = gymnasium.make("blokus/Duo-v0")
    with pytest.raises(ValueError, match="net_arch"):
        sb3_contrib.MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, policy_kwargs={"net_arch": [64]}, device="cpu")
    env.unwrapped.action_space = gymnasium.spaces.Discrete(10)
    with pytest.raises(ValueError, match="no Blokus board has 10 placements"):
        sb3_contrib.MaskablePPO(blokus.nn.MaskablePlacementPolicy, env.unwrapped, device="cpu")


@pytest.mark.parametrize("num_envs", [1, 16, 64])
def test_ppo_settings_build_an_update_of_1024_moves(num_envs):
    import blokus.sb3

    env = blokus.sb3.VecEnv(num_envs, "duo", seed=0)
    model = sb3_contrib.MaskablePPO(blokus.nn.MaskablePlacementPolicy, env, device="cpu", policy_kwargs=SMALL,
                                    **blokus.nn.ppo_settings(env.num_envs))
    assert model.rollout_buffer.buffer_size * num_envs == 1024 and model.batch_size == 256 and model.gamma == 1
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError, match="num_envs must be an int >= 1"):
            blokus.nn.ppo_settings(bad)
