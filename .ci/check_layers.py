"""Fails when a file of csrc/ includes a header of a layer above its own, includes Python.h outside
the binding, or is on a circle.

The layers, lowest first: core (the rules), engine (playouts, policies, search, the batch engine)
and puzzles (the solo puzzles' searches), python (the CPython binding). Every C file lives in one
of their folders.

A circle: files that use each other in a loop. A file uses the headers it includes and, for a .c
file, the .c files that define the functions and variables it names (every external name of csrc/
starts with bk_ or bkpy_). Within a layer too, every file uses only files below it, so that it can
be read, and changed, knowing those alone."""
import pathlib
import re
import sys
from collections.abc import Iterable, Mapping

MAY_INCLUDE = {
    "core": {"core"},
    "engine": {"core", "engine"},
    "puzzles": {"core", "engine", "puzzles"},
    "python": {"core", "engine", "puzzles", "python"},
}
PYTHON_ONLY = re.compile(r"#\s*include\s*<(Python\.h|numpy/[^>]*)>")
LOCAL = re.compile(r'#\s*include\s*"([^"]+)"')
# Comments and string literals name no code.
NOT_CODE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)
NAME = re.compile(r"\b(?:bk|bkpy)_\w+\b")
# An external definition starts a line, is not static, and is no declaration: a function's head (no
# ";" after its "("), or a variable, given a value or not.
DEFINED = re.compile(r"^(?!static\b|extern\b|typedef\b)[A-Za-z_][^;(=]*?\b((?:bk|bkpy)_\w+)\s*"
                     r"(?:\([^;]*$|(?:\[[^]]*\]\s*)*[=;])", re.M)

root = pathlib.Path(__file__).resolve().parent.parent / "csrc"
files = sorted(root.rglob("*.[ch]"))


def rel(path: pathlib.Path) -> str:
    return path.relative_to(root).as_posix()


def layer_problems() -> list[str]:
    problems = []
    for path in files:
        name = rel(path)
        layer = name.split("/")[0] if "/" in name else None
        if layer not in MAY_INCLUDE:
            problems.append(f"csrc/{name}: not in a layer's folder ({', '.join(MAY_INCLUDE)})")
            continue
        text = path.read_text(encoding="utf-8")
        if layer != "python" and PYTHON_ONLY.search(text):
            problems.append(f"csrc/{name}: includes Python or NumPy headers outside csrc/python/")
        for header in LOCAL.findall(text):
            used = header.split("/")[0] if "/" in header else None
            if used not in MAY_INCLUDE[layer] or not (root / header).exists():
                problems.append(f'csrc/{name}: includes "{header}", not a header of '
                                f"{', '.join(sorted(MAY_INCLUDE[layer]))}")
    return problems


def uses() -> dict[str, dict[str, set[str]]]:
    """Per file, the files it uses, each with what it takes from it (the header, or names)."""
    code = {path: NOT_CODE.sub("", path.read_text(encoding="utf-8")) for path in files}
    owner = {name: rel(path) for path in files if path.suffix == ".c" for name in DEFINED.findall(code[path])}
    graph: dict[str, dict[str, set[str]]] = {rel(path): {} for path in files}
    for path in files:
        a = rel(path)
        taken = [(h, "#include") for h in LOCAL.findall(path.read_text(encoding="utf-8"))]
        if path.suffix == ".c":  # a header's declarations are used by the files that include it
            taken += [(owner[n], n) for n in NAME.findall(code[path]) if n in owner]
        for b, what in taken:
            if b != a and b in graph:  # a header that is not there: layer_problems says so
                graph[a].setdefault(b, set()).add(what)
    return graph


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one node of `graph` (node -> the nodes it uses;
    Tarjan's algorithm): csrc/'s files here, blokus/'s modules in tests/test_import_graph.py."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(a: str) -> None:
        index[a] = low[a] = len(index)
        stack.append(a)
        for b in graph[a]:
            if b not in index:
                visit(b)
                low[a] = min(low[a], low[b])
            elif b in stack:
                low[a] = min(low[a], index[b])
        if low[a] == index[a]:
            members: list[str] = []
            while not members or members[-1] != a:
                members.append(stack.pop())
            if len(members) > 1:
                found.append(sorted(members))

    for a in sorted(graph):
        if a not in index:
            visit(a)
    return found


def circle_problems() -> list[str]:
    graph = uses()
    problems = []
    for members in circles(graph):
        ties = [f"  {a} -> {b}: {', '.join(sorted(graph[a][b]))}"
                for a in members for b in sorted(graph[a]) if b in members]
        problems.append(f"a circle in csrc/ ({', '.join(members)}): each uses another, none comes first\n" +
                        "\n".join(ties))
    return problems


def main() -> int:
    problems = layer_problems() + circle_problems()
    print("\n".join(problems) or f"layers of csrc/: {len(files)} files, every include allowed, no circle")
    return 1 if problems else 0


if __name__ == "__main__":  # tests/test_import_graph.py imports circles() from here
    sys.exit(main())
