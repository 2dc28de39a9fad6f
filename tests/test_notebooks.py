"""The notebooks in notebooks/ run from top to bottom and compute what they say.

Each notebook is executed with nbclient on a fresh ``python3`` kernel (ipykernel on the Python running
the tests) with ``BLOKUS_NOTEBOOK_SMALL=1`` (small sizes), its working directory and TMPDIR in a
temporary directory, so nothing is written into the repository. A cell appended to the executed copy prints a
few values of the kernel's namespace as JSON, which the tests check against the rules and the engine.

Skipped without nbclient, nbformat or ipykernel (and pandas and matplotlib, which the notebooks use);
the training notebook also without sb3-contrib and torch.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

_NEEDS = 'the notebooks need nbclient, ipykernel, pandas and matplotlib: pip install -e ".[test]" runs them'
nbformat = pytest.importorskip("nbformat", reason=_NEEDS)
nbclient = pytest.importorskip("nbclient", reason=_NEEDS)
pytest.importorskip("ipykernel", reason=_NEEDS)
pytest.importorskip("pandas", reason=_NEEDS)
pytest.importorskip("matplotlib", reason=_NEEDS)

import blokus  # noqa: E402
import blokus.sgf  # noqa: E402

pytestmark = pytest.mark.slow  # each test runs a notebook in a Jupyter kernel
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SAMPLE = Path(__file__).resolve().parent / "data" / "pentobi_duo.blksgf"
if not NOTEBOOKS.is_dir():  # e.g. CI's sanitizer stage, which copies tests/ without notebooks/
    pytest.skip(f"no notebooks at {NOTEBOOKS}", allow_module_level=True)
if "libasan" in os.environ.get("LD_PRELOAD", ""):  # matplotlib aborts there (tests/plotting.py)
    pytest.skip("the notebooks draw with matplotlib, which cannot load under a preloaded "
                "AddressSanitizer", allow_module_level=True)
CELL_TIMEOUT = 300  # seconds per cell: generous; the small sizes take seconds
MARK = "BLOKUS-NOTEBOOK-CHECK "
NAMES = ["01_quickstart", "02_analyse_a_game", "03_train_an_agent", "04_batch_self_play"]


def read(name):
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def kernel_spec(folder: Path) -> None:
    """A ``python3`` kernel spec running ipykernel on this interpreter, found first through
    JUPYTER_PATH: not another Python's spec from the user's or the system's Jupyter folders."""
    spec = folder / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)", "language": "python"}))


def execute(name, tmp_path, monkeypatch, checks: dict[str, str]):
    """Runs notebook ``name`` with small sizes in ``tmp_path / "work"``; returns the executed
    notebook and the values of ``checks`` (name -> Python expression, evaluated in the kernel
    after the last cell; each must give something JSON can encode)."""
    work = tmp_path / "work"
    work.mkdir()
    kernel_spec(tmp_path / "jupyter")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("BLOKUS_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    # tempfile in the kernel (notebook 4's run directory) and its workers: in there too.
    monkeypatch.setenv("TMPDIR", str(work))
    # The kernel imports the blokus these tests import, whatever the kernel's working directory.
    package_root = str(Path(blokus.__file__).resolve().parent.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [package_root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    nb = read(name)
    expressions = ", ".join(f"{key!r}: {expr}" for key, expr in checks.items())
    nb.cells.append(nbformat.v4.new_code_cell(
        f"import json as _json\nprint({MARK!r} + _json.dumps({{{expressions}}}))"))
    client = nbclient.NotebookClient(
        nb, timeout=CELL_TIMEOUT, kernel_name="python3",
        resources={"metadata": {"path": str(work)}})
    before = sorted(NOTEBOOKS.glob("**/*"))
    client.execute()  # raises CellExecutionError, naming the cell, if one fails
    assert sorted(NOTEBOOKS.glob("**/*")) == before, "the notebook wrote beside itself"
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error", (cell.source, output)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o["output_type"] == "stream")
    assert MARK in text, text
    values = json.loads(text.split(MARK, 1)[1].splitlines()[0])
    return nb, values


def mime_types(nb) -> set:
    return {kind for cell in nb.cells if cell.cell_type == "code"
            for output in cell.outputs for kind in output.get("data", {})}


# ------------------------------------------------------------------ the stored notebooks
@pytest.mark.parametrize("name", NAMES)
def test_stored_clean_with_small_switch(name):
    """Stored without outputs (small, clean diffs), with prose, and with the small-size switch in
    the first code cell."""
    nb = read(name)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    prose = [c for c in nb.cells if c.cell_type == "markdown"]
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")
    assert len(prose) >= len(code) / 2, "explain what the code does and why"
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None, f"stored with outputs: {cell.source[:60]!r}"
    assert 'SMALL = os.environ.get("BLOKUS_NOTEBOOK_SMALL") == "1"' in code[0].source


# ------------------------------------------------------------------ running them
def test_quickstart(tmp_path, monkeypatch):
    nb, v = execute("01_quickstart", tmp_path, monkeypatch, {
        "first": "first_move_count",
        "history": "[[int(c), int(m)] for c, m in game.history]",
        "after_undo": "moves_after_undo",
        "final_scores": "[int(s) for s in final_scores]",
        "over": "game.is_over",
        "illegal": "illegal_message",
        "playouts": "[int(n) for n in scores.shape]",
        "python": "__import__('sys').executable",
        "cwd": "os.getcwd()",
    })
    # The kernel is this interpreter, working in the temporary directory.
    assert Path(v["python"]).resolve() == Path(sys.executable).resolve()
    assert Path(v["cwd"]).resolve() == (tmp_path / "work").resolve()
    # Duo, fixed start: purple's first piece covers e10, which 414 placements do (README).
    assert v["first"] == 414 == len(blokus.Game("duo", start="fixed").legal_moves())
    # The first moves: by text, by cells, and by undo one fewer than were played before it.
    game = blokus.Game("duo", start="fixed")
    game.play("e10,e9,f9,f8,g8")
    game.play([(9, 9), (8, 9), (8, 10)])
    assert v["history"][:2] == [list(move) for move in game.history]
    assert v["after_undo"] == 2
    assert "a1" in v["illegal"]
    # The agents finished the game from the undone position: replayed, its moves end the game
    # with the scores the notebook printed.
    replay = blokus.Game("duo", start="fixed")
    for _, move in v["history"]:
        replay.play(move)
    assert v["over"] and replay.is_over and v["final_scores"] == replay.scores()
    assert v["playouts"] == [2000, 2]
    kinds = mime_types(nb)
    assert "image/svg+xml" in kinds and "image/png" in kinds  # Game._repr_svg_, render.plot


def test_analyse_a_game(tmp_path, monkeypatch):
    pytest.importorskip("anywidget", reason='notebook 02 ends on blokus.widgets.Board: '
                                            'pip install -e ".[test]" runs it')
    nb, v = execute("02_analyse_a_game", tmp_path, monkeypatch, {
        "record": "str(RECORD)",
        "index": "GAME_INDEX",
        "history": "[[int(c), int(m)] for c, m in game.history]",
        "timeline_rows": "len(timeline)",
        "turning_ply": "turning_ply",
        "swing": "float(swing[turning_ply])",
        "max_swing": "float(swing.abs().max())",
        "top_ids": "[int(i) for i in top_moves['id']]",
        "shares": "[float(s) for s in values['share']]",
        "heat_max": "float(np.nanmax(heat))",
        "reviewed": "len(review)",
        "review_moves": "[r['id'] for r in review]",
        "curve_last": "review.curve[-1].tolist()",
        "labels": "sorted(set(table['label']))",
        "worst_ply": "worst_ply",
        "worst_loss": "float(worst['loss'])",
        "max_loss": "float(table['loss'].max())",
        "board": "[board.reviewed, board.ply, len(board.moves), board.curve.count('bk-curve-point')]",
        "board_legend": "'bk-legend' in board.svg",
    })
    # The repository's Pentobi record, found from a working directory outside the repository.
    assert Path(v["record"]).resolve() == SAMPLE.resolve()
    games = blokus.sgf.read(SAMPLE)
    game = games[v["index"]]
    assert v["history"] == [list(move) for move in game.history]
    margins = [abs(g.scores()[0] - g.scores()[1]) for g in games]
    assert margins[v["index"]] == min(margins)  # the closest game
    n = len(game.history)
    assert v["timeline_rows"] == (n + 1) * game.num_colours
    # The turning point is a real ply, the largest swing; the engine's top moves are legal there.
    assert 1 <= v["turning_ply"] <= n and abs(v["swing"]) == v["max_swing"] > 0
    before = blokus.Game(game.variant, start=game.start)
    for _, move in game.history[:v["turning_ply"] - 1]:
        before.play(move)
    legal = set(before.legal_moves().tolist())
    assert v["top_ids"] and set(v["top_ids"]) <= legal and len(v["top_ids"]) <= 10
    assert abs(sum(v["shares"]) - 1) < 1e-9 and 0 < v["heat_max"] <= 1 + 1e-9
    # The review: every move of the game, the last position at the game's result (a rule: the
    # winner's side has it all), labels from the documented five, the costliest move found.
    assert v["reviewed"] == n and v["review_moves"] == [move for _, move in game.history]
    winners = game.winners()
    assert v["curve_last"] == [1.0 / len(winners) if p in winners else 0.0 for p in range(2)]
    assert set(v["labels"]) <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    assert 1 <= v["worst_ply"] <= n and v["worst_loss"] == v["max_loss"]
    # The board shows the whole review, one curve point per move, at the position before the
    # costliest move, with the search overlay's colour scale.
    assert v["board"] == [n, v["worst_ply"] - 1, n, n] and v["board_legend"]
    assert {"image/svg+xml", "image/png", "text/html",
            "application/vnd.jupyter.widget-view+json"} <= mime_types(nb)


def test_train_an_agent(tmp_path, monkeypatch):
    for module in ("torch", "sb3_contrib"):
        pytest.importorskip(module, reason='notebook 03 trains MaskablePPO: pip install -e ".[test,train]" runs it')
    nb, v = execute("03_train_an_agent", tmp_path, monkeypatch, {
        "steps": "int(model.num_timesteps)",
        "total": "TOTAL_STEPS",
        "eval_games": "EVAL_GAMES",
        "curve": "curve.to_dict(orient='records')",
        "illegal": "int(curve['illegal'].sum())",
        "saved": "str(Path(SAVED).resolve())",
    })
    assert v["steps"] >= v["total"] > 0
    curve = v["curve"]
    assert curve[0]["steps"] == 0 and curve[-1]["steps"] == v["steps"]
    assert {row["opponent"] for row in curve} == {"random", "greedy"}
    for row in curve:
        assert row["games"] == v["eval_games"] and 0 <= row["win_rate"] <= 1
        assert row["wins"] + row["draws"] + row["losses"] == row["games"]
    assert v["illegal"] == 0  # evaluated with the action masks: never an illegal move
    saved = Path(v["saved"])
    assert saved.is_file() and saved.parent == (tmp_path / "work").resolve()
    assert "image/png" in mime_types(nb)


def test_batch_self_play(tmp_path, monkeypatch):
    nb, v = execute("04_batch_self_play", tmp_path, monkeypatch, {
        "games_asked": "GAMES",
        "games_rows": "len(games)",
        "moves_rows": "len(moves)",
        "lengths": "int(games['length'].sum())",
        "finished": "summary['finished']",
        "agents": "sorted(seats['agent'].unique().tolist())",
        "seat_rows": "len(seats)",
        "out": "str(OUT)",
        "records": "len(records)",
        "mean_scores": "seats.groupby('agent')['score'].mean().to_dict()",
    })
    assert v["games_rows"] == v["games_asked"] == v["finished"] == v["records"] == 20
    assert v["moves_rows"] == v["lengths"] > 0
    assert v["agents"] == ["greedy", "random"] and v["seat_rows"] == 2 * v["games_asked"]
    assert v["mean_scores"]["greedy"] > v["mean_scores"]["random"]  # seeded: the same 20 games
    out = Path(v["out"])
    assert out.resolve().parent == (tmp_path / "work").resolve()  # a temporary directory, not the repository
    assert {p.name for p in out.iterdir()} >= {"games.blksgf", "games.parquet", "moves.parquet",
                                                "summary.json", "run.json"}
    assert {"image/png", "image/svg+xml"} <= mime_types(nb)
