"""Optional dependencies: a missing one fails with the extra that installs it."""
from __future__ import annotations

import contextlib


@contextlib.contextmanager
def needs(extra: str, user: str):
    """Imports inside this block that fail raise ``ModuleNotFoundError`` naming ``user`` (the
    module or feature that needs them) and ``pip install "blokus[extra]"``."""
    try:
        yield
    except ModuleNotFoundError as err:
        package = (err.name or "a module").split(".")[0]
        raise ModuleNotFoundError(f'{user} needs {package}: pip install "blokus[{extra}]"', name=err.name) from err
