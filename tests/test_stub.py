"""blokus/_core.pyi, the types of the C module: it names exactly what the module has (at the top
level and in each class), and the dtypes it gives the arrays that need no arguments are the ones
the module returns."""

import ast
import pathlib

import numpy as np
import pytest

import blokus
from blokus import _core

STUB = pathlib.Path(blokus.__file__).with_name("_core.pyi")
TREE = ast.parse(STUB.read_text())


def stub_names(body) -> set[str]:
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
    return names


def stub_class(name: str) -> ast.ClassDef:
    return next(n for n in TREE.body if isinstance(n, ast.ClassDef) and n.name == name)


CLASSES = sorted(name for name in dir(_core) if isinstance(getattr(_core, name), type))


def test_the_stub_names_every_public_name_of_the_module_and_no_other():
    runtime = {name for name in dir(_core) if not name.startswith("_")}
    # names of the stub's own (type aliases) start with _ and are not the module's
    assert {name for name in stub_names(TREE.body) if not name.startswith("_")} == runtime


@pytest.mark.parametrize("name", [c for c in CLASSES if not issubclass(getattr(_core, c), Exception)])
def test_the_stub_names_every_method_and_attribute_of_a_class(name):
    # vars(): what the class itself defines; dunders only where the C type defines them as methods
    defined = {m for m, v in vars(getattr(_core, name)).items()
               if not m.startswith("__") or (callable(v) and m in ("__new__", "__eq__", "__copy__", "__deepcopy__"))}
    assert stub_names(stub_class(name).body) - {"__hash__"} == defined


def array_dtypes(cls: str) -> dict[str, type]:
    """Members of a stub class that need no argument and are typed NDArray[np.X]: name -> np.X."""
    found = {}
    for node in stub_class(cls).body:
        needs_arguments = isinstance(node, ast.FunctionDef) and len(node.args.args) - len(node.args.defaults) > 1
        if isinstance(node, ast.FunctionDef) and not needs_arguments and isinstance(node.returns, ast.Subscript):
            if ast.unparse(node.returns.value) == "NDArray":
                found[node.name] = getattr(np, ast.unparse(node.returns.slice).removeprefix("np."))
    return found


def test_the_stub_gives_the_dtypes_the_game_returns():
    game = blokus.Game("duo")
    game.play("e10")
    dtypes = array_dtypes("Game")
    assert {"board", "remaining", "legal_moves", "legal_mask", "observation"} <= set(dtypes)
    for name, dtype in dtypes.items():
        value = getattr(game, name)
        array = value() if callable(value) else value
        assert array.dtype == dtype, name


def test_the_stub_gives_the_dtypes_the_vector_game_returns():
    # the C type the stub describes (blokus.VectorGame shows its int8 remaining as bool)
    vg = blokus._core.VectorGame(2, "duo", num_threads=1, seed=0)
    vg.step_policy("greedy")
    dtypes = array_dtypes("VectorGame")
    assert {"board", "scores", "done", "episodes", "legal_ids", "legal_bits"} <= set(dtypes)
    for name, dtype in dtypes.items():
        value = getattr(vg, name)
        array = value() if callable(value) else value
        assert array.dtype == dtype, name


def test_the_package_says_it_is_typed():
    assert STUB.with_name("py.typed").is_file()
