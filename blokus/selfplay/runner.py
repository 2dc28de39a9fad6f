"""``run``: a run from its settings to its files, through Ctrl-C."""
from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Sequence, Union

from blokus._rundir import RUN_FILE, write_text
from blokus._sigint import sigint_ignored
from blokus.selfplay.backends import Source, game_source, require_ray
from blokus.selfplay.errors import Interrupted
from blokus.selfplay.files import GAMES_FILE, MOVES_FILE, PLOT_FILE, RECORDS_FILE, SUMMARY_FILE
from blokus.selfplay.games import GameResult
from blokus.selfplay.plot import plot_scores, require_matplotlib
from blokus.selfplay.records import Journal, load_records, write_records
from blokus.selfplay.report import summarize
from blokus.selfplay.settings import Config, resolve_settings, resolve_workers
from blokus.selfplay.tables import write_tables


def run(out: Union[str, os.PathLike], *, variant: str | None = None,
        agents: Union[str, Sequence[str], None] = None, games: int | None = None,
        seed: int | None = None, start: str | None = None, workers: int | None = None,
        ray: str | None = None, resume: bool = False, plot: bool = False,
        progress: bool | None = None) -> dict:
    """Plays self-play games and writes them to ``out`` (see ``help(blokus.selfplay)`` for the
    files).

    Parameters
    ----------
    out : path
        The run's directory; created if missing. Without ``resume`` it must be empty or absent.
    variant : str
        Default ``"classic"``.
    agents : str or sequence of str
        Agent strings (``"greedy"``, ``"mcts:sims=500"``), or one comma-separated string as on
        the command line. At most one per seat. Default ``"random"``.
    games : int
        Games in the run, default 100.
    seed : int
        In [0, 2**64), default 0.
    start : {"fixed", "any"}
        The start rule, default ``"fixed"`` (Pentobi's).
    workers : int
        Processes on this machine (default: the cores this process may use); 1 plays in this
        process. With ``ray="local"``, the CPUs of the local Ray instance. Worker processes
        start by importing the ``__main__`` script, so a script must call ``run`` under
        ``if __name__ == "__main__":``, as always with ``multiprocessing``; a call outside it
        raises ``SelfPlayError`` before any process or file is made.
    ray : str, optional
        A Ray address (``"auto"``, ``"ray://host:10001"``) to play on that cluster, or
        ``"local"`` to start a local Ray instance. Needs ``pip install "blokus[ray]"``; the
        cluster's nodes need blokus installed.
    resume : bool
        Continue the run in ``out``: games already in ``games.blksgf`` are kept and skipped.
        Settings left as None are the run's; settings given must equal them, except ``games``,
        which may grow. Starts a new run when ``out`` holds none.
    plot : bool
        Also write ``scores.png`` (needs matplotlib: ``pip install "blokus[plot]"``).
    progress : bool, optional
        Show a progress bar on stderr; None (default) shows it when stderr is a terminal.

    Returns
    -------
    dict
        The summary written to ``summary.json``: settings, ``finished``, ``complete``,
        ``played`` (games played by this call), ``elapsed_seconds``, ``games_per_second``,
        ``per_agent`` (games, wins, win_rate with Wilson's 95% interval, mean_score,
        mean_length) and ``per_seat`` (mean_score, win_share). A resume of a run that is
        already complete plays and writes nothing: it returns its ``summary.json`` as it is (the
        figures of the calls that played), with ``"unchanged": True`` added.

    Raises
    ------
    SelfPlayError
        A bad setting (see the class); nothing is played.
    Interrupted
        Ctrl-C (KeyboardInterrupt) while playing: the games finished so far are kept and every
        file is written for them; ``.summary`` holds the summary. Resume with ``resume=True``.
    """
    out = Path(out)
    config, resuming = resolve_settings(out, resume, {"variant": variant, "agents": agents,
                                                      "games": games, "seed": seed, "start": start})
    workers = resolve_workers(workers)
    if plot:
        require_matplotlib()
    if ray is not None:
        require_ray()
    results = load_records(out, config) if resuming else {}
    remaining = [g for g in range(config.games) if g not in results]
    if resuming and not remaining:
        saved = _complete_summary(out, config, len(results))
        if saved is not None and (not plot or (out / PLOT_FILE).exists()):
            return dict(saved, unchanged=True)  # its figures are those of the run that played
    collected: list = []
    source = game_source([(config, remaining)], collected, workers=workers, ray=ray)
    already = len(results)
    elapsed, interrupted = _play(out, config, resuming, source, remaining, results, progress)
    with sigint_ignored():  # while the output files are written, a second Ctrl-C waits
        for chunk in collected:  # a chunk received but not yet handled when Ctrl-C came
            for result in chunk:
                results.setdefault(result.index, result)
        summary = _write_files(out, config, results, plot, played=len(results) - already,
                               elapsed=elapsed, interrupted=interrupted, workers=workers, ray=ray)
    if interrupted:
        raise Interrupted(summary)
    return summary


def _complete_summary(out: Path, config: Config, finished: int) -> dict | None:
    """The summary.json of the complete run in ``out`` when it describes these games, else None
    (missing, unreadable, or written for fewer games: the files are written again)."""
    try:
        saved = json.loads((out / SUMMARY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("games") != config.games or saved.get("finished") != finished:
        return None
    return saved


def _play(out: Path, config: Config, resuming: bool, source: Source, remaining: list[int],
          results: dict[int, GameResult], progress: bool | None) -> tuple[float, bool]:
    """Plays games ``remaining`` into ``results``, each appended to games.blksgf as it comes;
    the seconds of play, and whether Ctrl-C stopped it. Ctrl-C before the first file is
    written propagates."""
    from tqdm import tqdm

    started, elapsed = False, 0.0
    existed = out.exists()
    try:
        with contextlib.ExitStack() as stack:
            chunks = stack.enter_context(source) if remaining else iter(())
            out.mkdir(parents=True, exist_ok=True)
            write_text(out / RUN_FILE, json.dumps(config.as_json(), indent=2) + "\n")
            if resuming:
                write_records(out, results)  # in order, without a line cut short
            bar = stack.enter_context(tqdm(
                total=config.games, initial=len(results), unit=" games", dynamic_ncols=True,
                desc=f"{config.variant} self-play", smoothing=0.1,
                disable=None if progress is None else not progress))
            journal = Journal(out / RECORDS_FILE, remaining)
            stack.callback(journal.close)
            started = True
            t0 = time.perf_counter()
            try:
                for chunk in chunks:
                    for result in chunk:
                        results[result.index] = result
                        journal.add(result)
                    bar.update(len(chunk))
            finally:
                elapsed = time.perf_counter() - t0
    except KeyboardInterrupt:  # the source has stopped its workers on the way out
        if not started:
            raise
        return elapsed, True
    except BaseException:
        if not resuming and not results:  # a new run that never played: leave nothing behind
            _remove_new_run(out, existed)
        raise
    return elapsed, False


def _remove_new_run(out: Path, existed: bool) -> None:
    """Removes what a new run wrote before it failed (its --out was absent or empty), so that
    the same command can start again."""
    for name in (RUN_FILE, RECORDS_FILE):
        with contextlib.suppress(FileNotFoundError):
            (out / name).unlink()
    if not existed:
        with contextlib.suppress(OSError):
            out.rmdir()


def _write_files(out: Path, config: Config, results: dict[int, GameResult], plot: bool,
                 **progress) -> dict:
    """Writes every file for the games in ``results``; the summary."""
    write_records(out, results)
    write_tables(out, config, results)
    files = [RUN_FILE, RECORDS_FILE, MOVES_FILE, GAMES_FILE, SUMMARY_FILE]
    if plot:
        plot_scores(out / PLOT_FILE, config, results)
        files.append(PLOT_FILE)
    summary = summarize(config, results, out=out, files=files, **progress)
    write_text(out / SUMMARY_FILE, json.dumps(summary, indent=2) + "\n")
    return summary
