"""Where games are played: in this process, on a pool of processes, or on Ray. Every backend
runs ``games.play_chunk`` on chunks of game indices that a chunker hands out."""
from __future__ import annotations

import contextlib
import signal
from typing import ContextManager, Iterable, Iterator, NamedTuple

from blokus._optional import needs
from blokus._sigint import sigint_deferred
from blokus.selfplay.errors import SelfPlayError
from blokus.selfplay.games import GameResult, play_chunk
from blokus.selfplay.guard import check_main_guard
from blokus.selfplay.settings import Config

Source = ContextManager[Iterable[list[GameResult]]]
# games to play: a run's settings and the indices of its games still to play
Job = tuple[Config, list[int]]


def game_source(jobs: list[Job], collected: list, *, workers: int, ray: str | None) -> Source:
    """The backend that plays the games of ``jobs`` (a self-play run is one job; a tournament
    one per pair of agents, sharing the workers): entered, it yields the finished chunks, each
    from one job."""
    chunker = _Chunker(jobs)
    if ray is not None:
        return _ray_cluster(chunker, collected, ray, workers)
    if workers > 1 and chunker.games > 1:
        return _process_pool(chunker, collected, min(workers, chunker.games))
    return _in_process(chunker, collected)


class _Chunker:
    """Hands out the games still to play in chunks of about ``TARGET_SECONDS`` of play each
    (one game a chunk until a game's time is known), never more than a fair share of what is
    left: small enough that Ctrl-C loses little and the progress bar moves, large enough that
    handing out costs nothing. A chunk holds games of one job, in the jobs' order."""

    TARGET_SECONDS = 0.2
    MAX_GAMES = 64

    def __init__(self, jobs: list[Job]):
        self._todo = [((config.variant, config.start, tuple(config.agents), config.seed), index)
                      for config, remaining in jobs for index in remaining]
        self._todo.reverse()  # popped from the end
        self.games = len(self._todo)
        self.workers = 1  # set by the source: the processes that share the games
        self.target_seconds = self.TARGET_SECONDS
        self._seconds: float | None = None   # per game, a moving average

    def next_task(self) -> tuple | None:
        if not self._todo:
            return None
        size = 1
        if self._seconds is not None:
            size = int(self.target_seconds / max(self._seconds, 1e-6))
            size = max(1, min(size, self.MAX_GAMES, len(self._todo) // (2 * self.workers)))
        head = self._todo[-1][0]
        chunk: list = []
        while self._todo and len(chunk) < size and self._todo[-1][0] == head:
            chunk.append(self._todo.pop()[1])
        return head + (chunk,)

    def record(self, results: list[GameResult]) -> None:
        for r in results:
            self._seconds = r.seconds if self._seconds is None else 0.8 * self._seconds + 0.2 * r.seconds


def _drive(chunker: _Chunker, slots: int, submit, next_done) -> Iterator[list[GameResult]]:
    """Keeps ``slots`` chunks in flight (``submit(task)``) and yields each finished chunk
    (``next_done()``) as it comes, handing out the next one first."""
    in_flight = 0
    for _ in range(slots):
        task = chunker.next_task()
        if task is None:
            break
        submit(task)
        in_flight += 1
    while in_flight:
        results = next_done()
        in_flight -= 1
        chunker.record(results)
        task = chunker.next_task()
        if task is not None:
            submit(task)
            in_flight += 1
        yield results


# Each source below also appends every chunk it receives to ``collected`` at once (for a pool,
# in the thread that receives results, which Ctrl-C never interrupts): after Ctrl-C, run() keeps
# all of it, including a chunk that arrived while the main thread was busy elsewhere.

@contextlib.contextmanager
def _in_process(chunker: _Chunker, collected: list) -> Iterator[Iterable[list[GameResult]]]:
    def results():
        while (task := chunker.next_task()) is not None:
            collected.append(play_chunk(task))
            yield collected[-1]
    chunker.target_seconds = 0.0  # one game at a time: Ctrl-C loses only the game in progress
    yield results()


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Failed(NamedTuple):
    error: BaseException


@contextlib.contextmanager
def _process_pool(chunker: _Chunker, collected: list, workers: int) -> Iterator[Iterable[list[GameResult]]]:
    import multiprocessing
    import queue
    from concurrent.futures import ProcessPoolExecutor

    check_main_guard()  # before any process starts: an unguarded script would run in each
    # spawn: no threads or other state of the parent (a notebook's, tqdm's) carried into workers.
    # A worker that dies (a crash in C) fails its chunk with BrokenProcessPool instead of hanging.
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_ignore_sigint)
    done: queue.Queue = queue.Queue()
    chunker.workers = workers

    def received(future):  # in the pool's own thread
        try:
            results = future.result()
        except BaseException as exc:  # noqa: BLE001 (handed to the main thread)
            done.put(_Failed(exc))
            return
        collected.append(results)
        done.put(results)

    def submit(task):
        # a submit may start a worker: a Ctrl-C between starting it and handing it its data
        # would leave it to die on its own, printing a traceback
        with sigint_deferred():
            pool.submit(play_chunk, task).add_done_callback(received)

    def next_done():
        item = done.get()  # a KeyboardInterrupt interrupts the wait
        if isinstance(item, _Failed):
            raise item.error
        return item

    try:
        yield _drive(chunker, 2 * workers, submit, next_done)
    except BaseException:
        # Ctrl-C or an error: stop the games in progress now rather than wait for them
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    else:
        pool.shutdown(wait=True)


def require_ray():
    with needs("ray", "--ray", SelfPlayError):
        import ray
    return ray


def _init_ray(ray, address: str, workers: int) -> bool:
    """Starts or connects to Ray unless this process already has; whether it did."""
    import logging

    if ray.is_initialized():
        return False
    options = {"num_cpus": workers} if address == "local" else {}
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING, **options)
    except Exception as exc:  # ConnectionError, ValueError, RuntimeError, ...
        raise SelfPlayError(f"--ray {address}: could not start or reach Ray: {exc}") from None
    return True


@contextlib.contextmanager
def _ray_cluster(chunker: _Chunker, collected: list, address: str,
                 workers: int) -> Iterator[Iterable[list[GameResult]]]:
    ray = require_ray()
    started = _init_ray(ray, address, workers)
    remote = ray.remote(play_chunk)
    pending: list = []

    def submit(task):
        pending.append(remote.remote(task))

    def next_done():
        [ref], rest = ray.wait(pending, num_returns=1)
        pending[:] = rest
        collected.append(ray.get(ref))
        return collected[-1]

    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunker.workers = cpus
        yield _drive(chunker, 2 * cpus, submit, next_done)
    finally:
        for ref in pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
