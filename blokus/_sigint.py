"""Ctrl-C held off while a block writes files or starts processes: deferred (raised when the block
ends) or ignored."""
from __future__ import annotations

import contextlib
import signal


@contextlib.contextmanager
def _sigint_handled(handler):
    """SIGINT goes to ``handler`` inside the block; the previous handler is restored after it.
    Outside the main thread nothing changes: signals are not ours to handle there."""
    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def sigint_deferred():
    """A Ctrl-C inside the block waits for its end, then raises ``KeyboardInterrupt``."""
    caught = []
    with _sigint_handled(lambda *_: caught.append(True)):
        yield
    if caught:
        raise KeyboardInterrupt


def sigint_ignored():
    """A Ctrl-C inside the block is dropped."""
    return _sigint_handled(signal.SIG_IGN)
