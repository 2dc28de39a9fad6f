"""The examples run: every ```python block of README.md, and the ``>>>`` lines of the package's
docstrings as doctests (their printed values checked).

A README block runs in a fresh namespace in an empty directory. A block that needs an extra which
is not installed is skipped, naming it. ``<!-- example: slow -->`` on the line before a block marks
it slow (pytest -m "not slow" leaves it out); ``<!-- example: not run: why -->`` leaves it out always."""

import contextlib
import doctest
import importlib
import io
import pathlib
import re

import pytest

import blokus

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = pathlib.Path(blokus.__file__).parent
BLOCK = re.compile(r"(?:<!-- example: (?P<mark>[a-z ]+)(?::[^>]*)? -->\n)?```python\n(?P<code>.*?)^```", re.S | re.M)


def readme_blocks():
    text = (ROOT / "README.md").read_text()
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start("code")) + 1
        mark = match["mark"]
        if mark == "not run":
            continue
        assert mark in (None, "slow"), f"README.md line {line}: unknown example mark {mark!r}"
        marks = [pytest.mark.slow] if mark == "slow" else []
        yield pytest.param(match["code"], id=f"README.md:{line}", marks=marks)


def missing_extra(exc: ImportError) -> str:
    """The module an example needs and that is not installed; the error itself if blokus is missing it."""
    if exc.name is None or exc.name.split(".")[0] == "blokus":
        raise exc
    return exc.name


@pytest.mark.parametrize("code", list(readme_blocks()))
def test_readme_example_runs(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})
    except ImportError as exc:
        pytest.skip(f"needs {missing_extra(exc)}")


def test_the_readme_has_examples():
    assert len(list(readme_blocks())) >= 3


def documented_modules():
    """The modules of blokus whose source holds a >>> line."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text():
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("name", list(documented_modules()))
def test_docstring_examples(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        pytest.skip(f"needs {missing_extra(exc)}")
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module, name) if t.examples]
    assert tests, f"{name}: no doctest found though its source has >>> lines"
    output = io.StringIO()
    for test in tests:
        runner.run(test, out=output.write)
    assert runner.failures == 0, output.getvalue()


def test_modules_with_examples_are_found():
    assert {"blokus", "blokus.sgf", "blokus.variants"} <= set(documented_modules())
