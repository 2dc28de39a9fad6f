"""Every variant through every layer: placements, the rules, rendering, SGF, GTP, the batch, the
environments, the prior's weights and a search, each checked against the rules and the variant's
own facts (blokus.variants, read from the C table). And the proof that the C table is the only
place a variant is defined: a build with one more row there (-DBK_TEST_VARIANT: test_trio, three
colours on Duo's board) passes the same walk without a line of Python knowing it.
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

import numpy as np
import pytest

import blokus
from blokus import PIECE_NAMES, _core, placements, render, sgf
from blokus.agents import make_agent
from blokus.gtp import Engine
from blokus.placements import parse_move
from blokus.search import BatchedSearch
from blokus.variants import VARIANTS, variant

from reference import PIECE_CELLS, PLACEMENT_COUNTS, TOTAL_SQUARES  # rules.md

ALL_PIECES_BONUS, MONOMINO_LAST_BONUS = 15, 20  # docs/rules.md, "Scoring"
# The colours as blokus.render.image's docstring gives them, by name.
DOCUMENTED_RGB = {"blue": (30, 90, 200), "yellow": (235, 190, 20), "red": (210, 40, 40), "green": (40, 150, 60),
                  "purple": (120, 60, 170), "orange": (240, 130, 20)}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# compiles a test build of the C library, and walks every variant through every part
pytestmark = pytest.mark.slow


def random_game(name, plies=None, seed=0):
    """A game of `name` (start "fixed") with uniformly random moves: `plies` of them, or to its end."""
    rng = np.random.default_rng(seed)
    game = blokus.Game(name, start="fixed")
    while not game.is_over and (plies is None or len(game.history) < plies):
        game.play(int(rng.choice(game.legal_moves())))
    return game


def cells_of(name, move):
    table = placements(name)
    return {(int(r), int(c)) for r, c in table.cells[move][: int(table.size[move])]}


def walk_placements(name):
    facts, table = variant(name), placements(name)
    assert len(table.piece) == PLACEMENT_COUNTS[facts.side]
    assert table.cells.max() < facts.side and (table.cells[..., 0] >= 0).sum() == table.size.sum()
    twins = [v for v in VARIANTS if variant(v).side == facts.side]
    assert all(placements(v) is table for v in twins)  # one shared table per board side
    game = blokus.Game(name)
    for move in (0, len(table.piece) // 2, len(table.piece) - 1):
        text = game.move_text(move)
        # the text names the cells by column letter and row number from the bottom
        named = {(facts.side - int(cell[1:]), ord(cell[0]) - ord("a")) for cell in text.split(",")}
        assert named == cells_of(name, move)
        assert parse_move(text, name) == move


def walk_rules(name):
    """A whole random game: each colour's first piece on its own starting square, the colours in
    turn order, scores by the rule sheet."""
    facts, game = variant(name), random_game(name)
    first = {}
    for colour, move in game.history:
        first.setdefault(colour, move)
    assert [colour for colour, _ in game.history[: facts.num_colours]] == list(range(facts.num_colours))
    for colour, move in first.items():
        assert facts.starting_squares[colour] in cells_of(name, move)
    assert game.is_over
    for colour in range(facts.num_colours):
        placed = [PIECE_NAMES[placements(name).piece[m]] for c, m in game.history if c == colour]
        left = TOTAL_SQUARES - sum(len(PIECE_CELLS[piece]) for piece in placed)
        if left:
            expected = -left
        else:
            expected = MONOMINO_LAST_BONUS if placed[-1] == "1" else ALL_PIECES_BONUS
        assert game.scores()[colour] == expected
    for player, colours in enumerate(facts.player_colours):
        assert game.player_scores()[player] == sum(game.scores()[c] for c in colours)


def walk_render(name):
    facts, game = variant(name), random_game(name, plies=2 * variant(name).num_colours)
    picture = render.svg(game)
    fills = {}
    for colour, fill in re.findall(r'<rect class="bk-cell bk-c(\d+)"[^>]* fill="(#[0-9a-f]{6})"', picture):
        fills.setdefault(int(colour), set()).add(fill)
    board = np.asarray(game.board)
    for colour in range(facts.num_colours):
        assert picture.count(f'class="bk-cell bk-c{colour}"') == (board == colour).sum()
    assert fills == {c: {"#%02x%02x%02x" % DOCUMENTED_RGB[name]} for c, name in enumerate(facts.colours)}
    letters = re.findall(r'class="bk-coord bk-col"[^>]*>([a-z])<', picture)
    numbers = re.findall(r'class="bk-coord bk-row"[^>]*>(\d+)<', picture)
    assert letters == [chr(ord("a") + c) for c in range(facts.side)]
    assert sorted(map(int, numbers)) == list(range(1, facts.side + 1))
    lines = render.text(game).splitlines()
    assert len(lines) == facts.side + 1 and lines[0].split()[0] == str(facts.side)
    image = render.image(game, cell=3)
    assert image.shape == (3 * facts.side, 3 * facts.side, 3)
    for colour, name in enumerate(facts.colours):
        r, c = np.argwhere(board == colour)[0]
        assert tuple(image[3 * r + 1, 3 * c + 1]) == DOCUMENTED_RGB[name]


def walk_sgf(name):
    facts, game = variant(name), random_game(name, plies=3 * variant(name).num_colours)
    record = sgf.dumps(game)
    assert record.startswith(f"(;GM[{facts.sgf_game}]")
    # Pentobi's move properties: B and W with two colours, else the colour's number from 1
    letters = ["B", "W"] if facts.num_colours == 2 else [str(c + 1) for c in range(facts.num_colours)]
    assert re.findall(r";([A-Z0-9]+)\[", record)[1:] == [letters[c] for c, _ in game.history]  # [0]: GM
    again = sgf.loads(record)
    assert (again.variant, again.start, again.history) == (name, "fixed", game.history)


def walk_gtp(name):
    facts = variant(name)
    if sgf.VARIANT_OF_GAME_NAME[facts.sgf_game] == name:  # set_game reaches it by its GM
        engine = Engine("duo" if name != "duo" else "classic", "random", seed=1)
        assert engine.handle(f"set_game {facts.sgf_game}") == "= \n\n"
    else:  # classic_teams, whose GM is classic's
        engine = Engine(name, "random", seed=1)
    assert engine.game.variant == name
    opening = blokus.Game(name, start="fixed")
    move = opening.move_text(int(opening.legal_moves()[0]))
    assert engine.handle(f"play {facts.colours[0]} {move}") == "= \n\n"
    assert engine.game.history == [(0, parse_move(move, name))]
    answer = engine.handle(f"genmove {facts.colours[1 % facts.num_colours]}")
    assert answer.startswith("= ") and engine.game.history[1][1] == parse_move(answer[2:].strip(), name)
    assert engine.handle("showboard").count("\n") >= facts.side
    assert engine.handle("undo") == "= \n\n" and len(engine.game.history) == 1


def walk_batch(name):
    """A VectorGame of two games, each stepped by its first legal move, as one Game would be."""
    facts, games = variant(name), blokus.VectorGame(2, name)
    single = blokus.Game(name, start="fixed")
    for _ in range(facts.num_colours + 1):
        assert games.observation.shape == (2, facts.num_colours + 1, facts.side, facts.side)
        assert (np.flatnonzero(games.legal_mask[0]) == single.legal_moves()).all()
        action = int(single.legal_moves()[0])
        games.step(np.array([action, action]))
        single.play(action)
    assert (games.board == np.asarray(single.board)).all()


def walk_envs(name):
    pytest.importorskip("pettingzoo")
    import gymnasium

    from blokus.env import env
    from blokus.gym_env import ENV_IDS

    facts, planes = variant(name), (variant(name).num_colours + 1, variant(name).side, variant(name).side)
    aec = env(name)
    aec.reset(seed=0)
    assert aec.agents == [f"player_{p}" for p in range(facts.num_players)]
    for _ in range(facts.num_colours + 1):
        obs = aec.observe(aec.agent_selection)
        assert obs["observation"].shape == planes and obs["remaining"].shape == (facts.num_colours, 21)
        assert len(obs["action_mask"]) == PLACEMENT_COUNTS[facts.side]
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    (env_id,) = [i for i, v in ENV_IDS.items() if v == name]
    gym = gymnasium.make(env_id)
    obs, info = gym.reset(seed=0)
    for _ in range(2):
        assert obs["observation"].shape == planes
        obs, reward, terminated, truncated, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    gym.close()


def prior_rows(name, plies):
    """Features and log priors of the moves the prior considers after `plies` random moves."""
    _, features, phase, log_priors = _core.prior_features(random_game(name, plies, seed=1))
    keep = np.isfinite(log_priors)
    return phase, features[keep].astype(np.float64), log_priors[keep].astype(np.float64)


def misfit(*rows):
    """The largest error of one linear fit of the log priors to the features over all the rows."""
    x, y = np.concatenate([r[1] for r in rows]), np.concatenate([r[2] for r in rows])
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    return np.abs(x @ w - y).max()


def walk_prior(name):
    """The prior weighs moves by the weight set the table names: one set of weights explains its
    log priors together with those of the set's first variant, not with another set's."""
    facts = variant(name)
    same = next(v for v in VARIANTS if variant(v).weight_set == facts.weight_set)
    other = next(v for v in VARIANTS if variant(v).weight_set != facts.weight_set)
    for plies in (4, 12):  # phases 0 and 1: fewer than 8 pieces on the board, then fewer than 20
        mine = prior_rows(name, plies)
        assert mine[0] == (plies >= 8)  # bk_prior_phase (prior.h)
        assert misfit(mine, prior_rows(same, plies)) < 1e-3
        assert misfit(mine, prior_rows(other, plies)) > 0.1


def walk_search(name):
    game = random_game(name, plies=variant(name).num_colours)
    move = make_agent("mcts:sims=40", seed=0)(game)
    assert game.is_legal(move)

    def uniform(observations, remaining, masks):
        return masks.astype(np.float32), np.full((len(masks), game.num_players), 0.5, np.float32)

    search = BatchedSearch([game], simulations=8, seed=0).run(uniform)
    visits = search.visit_counts()[0]
    assert visits.sum() == 8 and set(np.flatnonzero(visits)) <= set(game.legal_moves().tolist())


WALK = [walk_placements, walk_rules, walk_render, walk_sgf, walk_gtp, walk_batch, walk_envs, walk_prior, walk_search]


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("step", WALK, ids=lambda f: f.__name__[5:])
def test_walk(step, name):
    step(name)


def _compiler():
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


@pytest.mark.skipif(os.environ.get("BLOKUS_TEST_VARIANT_BUILD") == "1", reason="inside the test build itself")
def test_a_variant_defined_only_in_the_c_table_walks(tmp_path):
    if not _compiler():
        pytest.skip("no C compiler: the test build of the extra variant cannot be made")
    for part in ("csrc", "blokus"):
        shutil.copytree(os.path.join(ROOT, part), tmp_path / part,
                        ignore=shutil.ignore_patterns("_core*.so", "_core*.pyd", "__pycache__"))
    for part in ("setup.py", "pyproject.toml", "tests/conftest.py", "tests/reference.py", "tests/test_variant_walk.py"):
        os.makedirs(os.path.dirname(tmp_path / part), exist_ok=True)
        shutil.copy(os.path.join(ROOT, part), tmp_path / part)
    # -O1: built quicker; -Werror: the variant's row must build as cleanly as the others
    env = dict(os.environ, BLOKUS_TEST_VARIANT_BUILD="1", PYTHONPATH=str(tmp_path),
               BLOKUS_CFLAGS=os.environ.get("BLOKUS_CFLAGS", "") + " -DBK_TEST_VARIANT -O1 -Werror")
    if "libasan" in env.get("LD_PRELOAD", ""):  # the CI's sanitizer run: this build sanitized too
        env["BLOKUS_SANITIZE"] = "1"
    build_env = {k: v for k, v in env.items() if k != "LD_PRELOAD"}  # the compiler itself runs unsanitized
    build = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp_path,
                           env=build_env, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    check = subprocess.run([sys.executable, "-c", "import blokus; print(blokus.__file__, blokus.variants.VARIANTS)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True)
    assert check.stdout.startswith(str(tmp_path)) and "'test_trio'" in check.stdout, check.stdout + check.stderr
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "test_trio",
                          str(tmp_path / "tests" / "test_variant_walk.py")],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]
    assert f"{len(WALK)} passed" in run.stdout, run.stdout[-2000:]


# A program that prints what bk_init finds wrong with the core's tables, or "ok".
INIT_CHECK = '#include <stdio.h>\n#include "core/init.h"\n' \
             'int main(void) { const char *p = bk_init(); puts(p ? p : "ok"); return 0; }\n'
# One edit each to a size typed in, or to the table, that bk_init must catch: (file, old, new, its message).
BROKEN_TABLES = [
    ("core/types.h", "#define BK_MAX_PLACEMENTS 30433", "#define BK_MAX_PLACEMENTS 30432", "more placements"),
    ("core/types.h", "#define BK_MAX_PLACEMENTS 30433", "#define BK_MAX_PLACEMENTS 30434", "largest board's"),
    ("core/types.h", "#define BK_NUM_ORIENTS 91 ", "#define BK_NUM_ORIENTS 90 ", "more orientations"),
    ("core/types.h", "#define BK_TOTAL_SQUARES 89 ", "#define BK_TOTAL_SQUARES 88 ", "BK_TOTAL_SQUARES"),
    ("core/movegen.h", "#define BK_NUM_CANDIDATES 414", "#define BK_NUM_CANDIDATES 415", "fewer cells"),
    ("core/pieces.h", "#define BK_NUM_GEOMETRIES 2", "#define BK_NUM_GEOMETRIES 1", "more board sides"),
    ("core/variants.c", "{{4, 4}, {9, 9}}", "{{4, 4}, {9, 14}}", "variant 4: a starting square off its board"),
    ("core/pieces.c", '"##/##/#."', '"##/##/##"', "a base shape is not 1 to 5 squares"),
]


def test_the_tables_are_checked_against_the_sizes_typed_in(tmp_path):
    cc = _compiler()
    if not cc:
        pytest.skip("no C compiler: the core cannot be built with an edited table")
    src = tmp_path / "csrc"

    def init_says(edit=None):
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "csrc"), src)
        if edit:
            path, old, new = src / edit[0], edit[1], edit[2]
            text = path.read_text()
            assert old in text, edit
            path.write_text(text.replace(old, new))
        (tmp_path / "main.c").write_text(INIT_CHECK)
        sources = [str(p) for p in sorted((src / "core").glob("*.c"))]
        exe = str(tmp_path / "init_check")
        subprocess.run([cc, "-std=c11", "-O0", f"-I{src}", str(tmp_path / "main.c"), *sources, "-o", exe],
                       check=True, env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})
        return subprocess.run([exe], capture_output=True, text=True, check=True).stdout.strip()

    assert init_says() == "ok"
    for edit in BROKEN_TABLES:
        assert edit[3] in init_says(edit), edit
