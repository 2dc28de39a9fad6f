"""A headless Jupyter server on 127.0.0.1 and Debian's chromium driven by Selenium: what the
browser test of blokus.widgets runs in, and what made the docs' screenshot of it.

    python tests/jupyter_browser.py docs/_static/widget.png     # the screenshot in docs/widgets.md

Needs ``apt-get install chromium chromium-driver`` and the test extra (``pip install -e
".[test]"``: selenium, jupyterlab, notebook, nbclassic, anywidget). Nothing is downloaded: the page, the
widget manager and anywidget's front end all come from the installed Python packages.
"""
from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time

import nbformat

ROOT = pathlib.Path(__file__).resolve().parent.parent  # the checkout: the kernel imports blokus from it
TOKEN = "blokus-test"
# JupyterLab, Notebook 7 and the classic Notebook (nbclassic); per interface, a script telling
# that the notebook's kernel is ready, and one running every cell.
URLS = {"lab": "/lab/tree/{name}", "notebook": "/notebooks/{name}", "classic": "/nbclassic/notebooks/{name}"}
_LUMINO_READY = ("const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                 "const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;"
                 "return !!k && k.status === 'idle';")
_LUMINO_RUN = "window.jupyterapp.commands.execute('notebook:run-all-cells')"
_CLASSIC_READY = ("return !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel"
                  " && Jupyter.notebook.kernel.is_connected() && Jupyter.notebook.kernel_selector);")
_CLASSIC_RUN = "Jupyter.notebook.execute_all_cells()"
SCRIPTS = {"lab": (_LUMINO_READY, _LUMINO_RUN), "notebook": (_LUMINO_READY, _LUMINO_RUN),
           "classic": (_CLASSIC_READY, _CLASSIC_RUN)}


def missing() -> str | None:
    """Why the browser test cannot run here (what to install), or None."""
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        return ("cannot run under a preloaded AddressSanitizer (chromium and the Jupyter server "
                "would load it too): the plain test run covers it")
    needs = []
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        needs.append("Debian's chromium and its driver (apt-get install chromium chromium-driver)")
    modules = ("selenium", "jupyterlab", "notebook", "nbclassic", "anywidget")
    absent = [m for m in modules if importlib.util.find_spec(m) is None]
    if absent:
        needs.append(f"{', '.join(absent)} (pip install -e \".[test]\")")
    return "needs " + " and ".join(needs) if needs else None


def write_notebook(path: pathlib.Path, source: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells.append(nbformat.v4.new_code_cell(source))
    nbformat.write(nb, path)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def jupyter_server(root: pathlib.Path):
    """A Jupyter server serving ``root``, on a free port of 127.0.0.1; yields its base URL."""
    port = _free_port()
    home = root / ".jupyter-home"  # config, runtime files and settings of this server alone
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "run"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(home / "ws"),
               PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    log = open(root / "server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
         f"--port={port}", f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={TOKEN}",
         "--LabApp.expose_app_in_browser=True", "--JupyterNotebookApp.expose_app_in_browser=True"],
        env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"the Jupyter server stopped: {(root / 'server.log').read_text()[-2000:]}")
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            if time.monotonic() > deadline:
                raise RuntimeError("the Jupyter server did not listen within 60 s")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@contextlib.contextmanager
def chromium(width: int = 1200, height: int = 900):
    """Headless Debian chromium under Selenium's Chrome driver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def run_notebook(driver, base: str, ui: str, name: str, timeout: float = 180):
    """Open notebook ``name`` in ``ui`` (a key of ``URLS``), run all its cells once the kernel
    is ready, and return the widget's root element (``.bk-w``) once it is drawn. ``timeout``
    bounds each wait: a kernel's cold start took over 60 s on a busy 2-core machine."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(base + URLS[ui].format(name=name) + f"?token={TOKEN}")
    wait = WebDriverWait(driver, timeout)
    ready, run_all = SCRIPTS[ui]
    wait.until(lambda d: d.execute_script(ready))
    driver.execute_script(run_all)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".bk-w .bk-w-board svg"))
    return driver.find_element(By.CSS_SELECTOR, ".bk-w")


def click_cell(driver, widget, row: int, col: int) -> None:
    """A real mouse click on the centre of board cell (row, col)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    board = widget.find_element(By.CSS_SELECTOR, ".bk-board")
    box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", board)
    rows, cols = (int(board.get_attribute(k)) // 24 for k in ("height", "width"))
    dx = (col + 0.5) * box[0] / cols - box[0] / 2  # offsets from the element's centre
    dy = (row + 0.5) * box[1] / rows - box[1] / 2
    ActionChains(driver).move_to_element_with_offset(board, round(dx), round(dy)).click().perform()


def screenshot(out: pathlib.Path, ply: int = 10) -> None:
    """The docs' picture: a Pentobi Duo game with its review (seed 1) at move ``ply``, the
    placements overlay, and the cell covered by about a dozen legal placements selected, the
    first of them outlined."""
    import tempfile

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from blokus.widgets import Board

    record = ROOT / "tests" / "data" / "pentobi_duo.blksgf"
    board = Board.load(record)
    board.ply = ply
    height, width = board.game.shape

    def listed(cell):
        board.cell = list(cell)
        return len(board.candidates)

    cell = min(((r, c) for r in range(height) for c in range(width)), key=lambda rc: abs(listed(rc) - 12))
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        write_notebook(root / "shot.ipynb", (
            "import blokus.analysis\n"
            "from blokus.widgets import Board\n"
            f"board = Board.load({str(record)!r})\n"
            "board.show_review(blokus.analysis.review(board.game, seed=1))\n"
            f"board.ply = {ply}\n"
            "board.overlay = 'placements'\n"
            f"board.cell = {list(cell)}\n"
            "board.preview = board.candidates[0]['id']\n"
            "board"))
        with jupyter_server(root) as base, chromium(height=1200) as driver:  # room for the whole widget
            widget = run_notebook(driver, base, "lab", "shot.ipynb")
            WebDriverWait(driver, 30).until(lambda d: widget.find_elements(By.CSS_SELECTOR, ".bk-w-candidate"))
            driver.execute_script("arguments[0].scrollIntoView()", widget)
            widget.screenshot(str(out))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/jupyter_browser.py OUT.png")
    reason = missing()
    if reason:
        sys.exit(reason)
    screenshot(pathlib.Path(sys.argv[1]).resolve())
