"""blokus/'s imports form no circle: no module reaches itself through the modules it imports.

Every ``import`` and ``from ... import`` of the package counts, at the top of a module or inside a
function (an import put in a function to dodge a circle is still one), and importing
``blokus.x.y`` counts as importing the subpackage ``blokus.x`` too, since Python runs its
``__init__`` first. The package itself (``blokus/__init__.py``) is left out: every module's
import passes through it, and it imports only the core (``Game``, ``VectorGame``, the tables).
"""
import ast
import pathlib

import blokus

PACKAGE = pathlib.Path(blokus.__file__).parent


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


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


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
