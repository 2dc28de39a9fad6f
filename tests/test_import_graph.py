"""blokus/'s imports form no circle: no module reaches itself through the modules it imports.

Every ``import`` and ``from ... import`` of the package counts, at the top of a module or inside a
function (an import put in a function to dodge a circle is still one), and importing
``blokus.x.y`` counts as importing the subpackage ``blokus.x`` too, since Python runs its
``__init__`` first. The package itself (``blokus/__init__.py``) is left out: every module's
import passes through it, and it imports only the core (``Game``, ``VectorGame``, the tables).
"""
import ast
import importlib.util
import pathlib

import blokus

PACKAGE = pathlib.Path(blokus.__file__).parent
# One circle finder for csrc/'s files and blokus/'s modules: the one of CI's layer check.
_spec = importlib.util.spec_from_file_location("check_layers", pathlib.Path(__file__).parent.parent / ".ci" /
                                               "check_layers.py")
assert _spec is not None and _spec.loader is not None
_check_layers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_check_layers)
circles = _check_layers.circles


def module_files() -> dict[str, pathlib.Path]:
    files = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def imported_names(path: pathlib.Path) -> set[str]:
    """The dotted names ``path`` imports anywhere: ``from a import b`` gives ``a`` and ``a.b``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (the root package left out, see above)."""
    files = module_files()
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        for imported in imported_names(path):
            parts = imported.split(".")
            for k in range(2, len(parts) + 1):  # blokus.x, blokus.x.y, ...: each runs on the import
                target = ".".join(parts[:k])
                if target in files and target != name and not name.startswith(target + "."):
                    graph[name].add(target)
    return graph


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_package_imports_itself_round_a_circle():
    assert circles(import_graph()) == []


def test_a_run_of_training_and_the_agents_stand_on_their_own():
    # what they share lives below them: blokus._network (the net: agent's network) and
    # blokus._rundir (run.json and the run's files)
    graph = import_graph()
    assert not any(t.startswith("blokus.train") for t in graph["blokus.agents._models"])
    assert not any(t.startswith("blokus.selfplay") for m in graph if m.startswith("blokus.train")
                   for t in graph[m])
