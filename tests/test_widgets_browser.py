"""blokus.widgets.Board in a real browser: a notebook opened in JupyterLab, Notebook 7 and the
classic Notebook (nbclassic), served by a headless Jupyter server on 127.0.0.1 and driven in
headless chromium by Selenium.
A mouse click on the board, a click on a listed placement and a key press go through the widget
to the kernel, which writes the game that results; the test checks it against the rules."""
import pathlib

import pytest

import jupyter_browser as jb

pytestmark = [pytest.mark.slow,  # starts a Jupyter server and a browser
              pytest.mark.skipif(jb.missing() is not None, reason=f"the browser test of blokus.widgets {jb.missing()}")]

E10 = (4, 4)  # purple's starting square in Duo under the fixed start rule


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("jupyter")
    with jb.jupyter_server(root) as base, jb.chromium() as driver:
        yield root, base, driver


@pytest.mark.parametrize("ui", sorted(jb.URLS))
def test_a_click_on_the_board_and_on_a_placement_plays_it_in_the_kernel(served, ui):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    import blokus
    from blokus import sgf

    root, base, driver = served
    record = root / f"{ui}.blksgf"
    jb.write_notebook(root / f"{ui}.ipynb", (
        "import blokus.sgf\n"
        "from blokus.widgets import Board\n"
        "board = Board(variant='duo')\n"
        f"board.observe(lambda change: open({str(record)!r}, 'w').write(blokus.sgf.dumps(board.game)), 'length')\n"
        "board"))
    widget = jb.run_notebook(driver, base, ui, f"{ui}.ipynb")
    wait = WebDriverWait(driver, 30)

    jb.click_cell(driver, widget, *E10)
    # Every first placement of purple covers e10 (fixed start): all 414 of them are listed.
    wait.until(lambda d: len(widget.find_elements(By.CSS_SELECTOR, ".bk-w-candidate")) == 414)
    widget.find_element(By.XPATH, ".//button[@class='bk-w-candidate' and text()='1 e10']").click()
    wait.until(lambda d: record.exists()
               and "orange to move" in widget.find_element(By.CSS_SELECTOR, ".bk-w-status").text)
    game = sgf.loads(record.read_text())
    assert game.history == [(0, blokus.parse_move("e10", "duo"))]
    assert game.board[E10] == 0 and (game.board >= 0).sum() == 1

    widget.send_keys(Keys.ARROW_LEFT)  # back to the empty board: the kernel redraws it
    wait.until(lambda d: "move 0 of 1" in widget.find_element(By.CSS_SELECTOR, ".bk-w-status").text)
    assert not widget.find_elements(By.CSS_SELECTOR, ".bk-cell")
    widget.send_keys(Keys.END)
    wait.until(lambda d: "move 1 of 1" in widget.find_element(By.CSS_SELECTOR, ".bk-w-status").text)
    assert len(widget.find_elements(By.CSS_SELECTOR, ".bk-cell")) == 1
    assert pathlib.Path(record).exists()


def test_the_review_curve_move_list_hands_and_legend_appear_and_a_curve_point_moves_the_board(served):
    # One front end: the parts below are the widget's own (widgets.js), the same in all three.
    # Notebook 7 shows one notebook per page (JupyterLab would reopen the boards of the test above).
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from blokus import sgf

    root, base, driver = served
    shown = root / "review-ply.txt"
    record = pathlib.Path(jb.ROOT, "tests", "data", "pentobi_duo.blksgf")
    jb.write_notebook(root / "review.ipynb", (
        "import blokus.analysis, blokus.sgf\n"
        "from blokus.widgets import Board\n"
        f"game = blokus.sgf.read({str(record)!r})[0]\n"
        "for _ in range(len(game.history) - 8):\n"
        "    game.undo()\n"
        "review = blokus.analysis.review(game, 'mcts:sims=100', seed=1, solve=0, workers=1)\n"
        "board = Board(game, review=review)\n"
        "board.overlay = 'placements'\n"
        f"board.observe(lambda change: open({str(shown)!r}, 'w').write(str(change['new'])), 'ply')\n"
        "board"))
    widget = jb.run_notebook(driver, base, "notebook", "review.ipynb")
    wait = WebDriverWait(driver, 30)

    def status():
        return widget.find_element(By.CSS_SELECTOR, ".bk-w-status").text

    # The curve: one point per reviewed move; the move list: the 8 moves, each labelled.
    wait.until(lambda d: len(widget.find_elements(By.CSS_SELECTOR, ".bk-w-curve .bk-curve-point")) == 8)
    moves = widget.find_elements(By.CSS_SELECTOR, ".bk-w-move")
    assert [m.get_attribute("data-ply") for m in moves] == [str(k) for k in range(1, 9)]
    assert len(widget.find_elements(By.CSS_SELECTOR, ".bk-w-move .bk-w-label")) == 8
    # The hands: after 4 moves each, 17 pieces per colour, drawn in its colour.
    game = sgf.read(record)[0]
    for _ in range(len(game.history) - 8):
        game.undo()
    hands = widget.find_elements(By.CSS_SELECTOR, ".bk-w-hand")
    assert [len(h.find_elements(By.CSS_SELECTOR, ".bk-w-piece-in-hand")) for h in hands] == [
        int(game.remaining[c].sum()) for c in range(2)] == [17, 17]
    assert widget.find_elements(By.CSS_SELECTOR, ".bk-w-board .bk-legend .bk-legend-step")
    assert "move 8 of 8" in status()

    point = widget.find_element(By.CSS_SELECTOR, ".bk-w-curve .bk-curve-point[data-ply='3']")
    ActionChains(driver).move_to_element(point).click().perform()
    wait.until(lambda d: shown.exists() and shown.read_text() == "3" and "move 3 of 8" in status())
    assert widget.find_element(By.CSS_SELECTOR, ".bk-w-current").get_attribute("data-ply") == "3"
    assert len(widget.find_elements(By.CSS_SELECTOR, ".bk-w-board .bk-cell")) == 15  # the record's 3 pentominoes
    widget.find_element(By.CSS_SELECTOR, ".bk-w-move[data-ply='5']").click()
    wait.until(lambda d: shown.read_text() == "5" and "move 5 of 8" in status())
