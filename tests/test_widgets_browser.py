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
