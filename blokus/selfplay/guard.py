"""The script guard: worker processes of a pool start by importing the ``__main__`` script
(multiprocessing's spawn), so a ``run`` at its top level, outside ``if __name__ ==
"__main__":``, would run again in every worker. ``check_main_guard`` finds that case before
anything is started."""
from __future__ import annotations

import ast
import sys
from types import FrameType

from blokus.selfplay.errors import SelfPlayError


def check_main_guard() -> None:
    """Raises ``SelfPlayError`` if this call comes from a top-level statement of the ``__main__``
    script that is not under ``if __name__ == "__main__":`` (directly or through functions).
    Silent when spawn does not run the ``__main__`` module again (an interactive session, a
    notebook, ``-c``, a package's ``__main__.py`` run by ``python -m``) or its source is
    unreadable."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name.split(".")[-1] == "__main__":
        return  # python -m package: spawn does not run a package's __main__ again
    frame: FrameType | None
    frame, called = sys._getframe(1), None
    while frame is not None and not (frame.f_code.co_name == "<module>" and frame.f_globals is vars(main)):
        frame, called = frame.f_back, frame
    if frame is None or not path:
        return
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return
    line = frame.f_lineno
    if not _guarded(tree.body, line):
        raise SelfPlayError(
            f"{_name(called)} is called at the top level of {path} (line {line}), outside "
            "`if __name__ == \"__main__\":`. Its worker processes start by importing that script, "
            "which would start the games again in each of them. Put the call under "
            "`if __name__ == \"__main__\":` (or pass workers=1 to play in this process); "
            "nothing was played or written.")


def _name(frame) -> str:
    """The public name of the function the script called (``blokus.selfplay.run``,
    ``blokus.arena.match``): its module's package and its own name."""
    package = frame.f_globals.get("__name__", "").rpartition(".")[0]
    return f"{package}.{frame.f_code.co_name}" if package else frame.f_code.co_name


def _is_main_test(test: ast.expr) -> bool:
    """Whether ``test`` is ``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    texts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(texts) == 1


def _guarded(body: list[ast.stmt], line: int) -> bool:
    """Whether ``line`` lies in the body of an ``if __name__ == "__main__":`` among ``body``
    (a module's statements, or nested blocks of them)."""
    for node in body:
        if not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        if isinstance(node, ast.If):
            if _is_main_test(node.test) and any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in node.body):
                return True
            return _guarded(node.body, line) or _guarded(node.orelse, line)
        for block in ("body", "orelse", "finalbody", "handlers"):  # with, try, for, while
            if _guarded(getattr(node, block, []), line):
                return True
        return False
    return False
