"""The timing loop every benchmark script shares. This machine's speed drifts from second to
second, so a figure is the best of several short rounds, and loops compared with each other run
their rounds alternately."""
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
