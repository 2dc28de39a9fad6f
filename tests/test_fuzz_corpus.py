"""Every input of the fuzz targets' committed corpora (tests/fuzz/corpus/) still passes its target:
the inputs that once reached new code, replayed in the ordinary test run (on the sanitizer build
too). The targets themselves run in CI through tests/fuzz/run.py."""
import importlib
import sys
from pathlib import Path

import pytest

pytest.importorskip("atheris", reason='the fuzz targets need atheris: pip install -e ".[fuzz]" (x86-64 Linux)')

FUZZ = Path(__file__).parent / "fuzz"
CASES = sorted((path.parent.name, path) for path in (FUZZ / "corpus").glob("*/*"))


def target(name: str):
    if str(FUZZ) not in sys.path:
        sys.path.insert(0, str(FUZZ))
    return importlib.import_module(f"fuzz_{name}").test_one_input


def test_every_target_has_a_corpus():
    targets = {path.stem.removeprefix("fuzz_") for path in FUZZ.glob("fuzz_*.py")}
    assert targets == {name for name, _ in CASES}


@pytest.mark.parametrize("name, path", CASES, ids=[f"{n}/{p.name[:12]}" for n, p in CASES])
def test_corpus_input(name, path):
    target(name)(path.read_bytes())
