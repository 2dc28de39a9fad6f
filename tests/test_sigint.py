"""blokus._sigint: Ctrl-C held off while a block writes files (train's checkpoint, selfplay's tables)."""
import signal
import threading

import pytest

from blokus._sigint import sigint_deferred, sigint_ignored


def test_deferred_ctrl_c_lets_the_block_finish_then_interrupts():
    finished = []
    with pytest.raises(KeyboardInterrupt):
        with sigint_deferred():
            signal.raise_signal(signal.SIGINT)
            finished.append(True)
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ignored_ctrl_c_is_dropped():
    with sigint_ignored():
        signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_without_ctrl_c_nothing_is_raised_and_outside_the_main_thread_nothing_changes():
    with sigint_deferred():
        pass
    seen = []
    def other_thread():
        with sigint_deferred(), sigint_ignored():
            seen.append(signal.getsignal(signal.SIGINT))
    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]
