"""Optional dependencies: a missing one fails with the extra that installs it, always in the
words ``USER needs PACKAGE: pip install "blokus[EXTRA]"``."""
from __future__ import annotations

import contextlib
import importlib.util


@contextlib.contextmanager
def needs(extra: str, user: str, error: type[Exception] | None = None):
    """Imports inside this block that fail raise ``ModuleNotFoundError`` naming ``user`` (the
    module, feature or option that needs them) and ``pip install "blokus[extra]"``; or, given
    ``error`` (a program's own error for a bad setting, such as ``SelfPlayError``), that error
    with the same message."""
    try:
        yield
    except ModuleNotFoundError as err:
        package = (err.name or "a module").split(".")[0]
        message = f'{user} needs {package}: pip install "blokus[{extra}]"'
        if error is None:
            raise ModuleNotFoundError(message, name=err.name) from err
        raise error(message) from None


def installed(package: str) -> bool:
    """Whether ``package`` can be imported, without importing it: for a feature that is skipped
    rather than refused without its extra."""
    return importlib.util.find_spec(package) is not None
