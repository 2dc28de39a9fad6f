"""The timing every benchmark script shares: a rate over a few seconds, one timed call, and a
stopwatch for the timed parts of a loop. This machine's speed drifts from second to second, so a
figure is the best of several short rounds, and loops compared with each other run their rounds
alternately."""
import time


def rate(run, seconds: float) -> float:
    """Units per second of calling ``run()`` (which does some work and returns how many units)
    again and again for about ``seconds``."""
    done, t0 = 0, time.perf_counter()
    while True:
        done += run()
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return done / elapsed


def best_rate(run, rounds: int, seconds: float) -> float:
    """The best :func:`rate` of ``rounds`` rounds."""
    return max(rate(run, seconds) for _ in range(rounds))


def timed(run):
    """``(run(), seconds)``: one call and its wall-clock time."""
    with Stopwatch() as clock:
        result = run()
    return result, clock.seconds


class Stopwatch:
    """Seconds added up over the ``with stopwatch:`` blocks, so that a loop can time some of its
    parts and not others: wall-clock seconds, or those of another clock (``time.process_time``:
    the process's CPU seconds, all its threads')."""

    def __init__(self, clock=time.perf_counter):
        self._clock, self._done, self._start = clock, 0.0, None

    def start(self) -> "Stopwatch":
        """Starts a block that ends with ``__exit__`` (what ``with`` does); returns the stopwatch."""
        self._start = self._clock()
        return self

    __enter__ = start

    def __exit__(self, *exc):
        self._done += self._clock() - self._start
        self._start = None

    @property
    def seconds(self) -> float:
        """The seconds so far, the block running now included."""
        running = 0.0 if self._start is None else self._clock() - self._start
        return self._done + running
