"""Self-play: many games between agents, recorded for analysis and training.

    blokus selfplay --variant duo --games 1000 --agents mcts:sims=500,greedy --seed 7 --out runs/duo

``run(out, ...)`` is what the command calls; it returns the summary (what ``summary.json`` holds)
and ``format_table(summary)`` is the table the command prints.

Seats
    A game has ``Game.num_players`` seats; seat s is player s (``Game.player_to_move``), who moves
    that player's colours (both in ``classic_2``; in ``classic_3`` the shared green is moved by
    whichever player's turn it is). With k agents (k <= seats), game g gives seat s the agent
    ``agents[(s + g) % k]``: over any k consecutive games every agent sits in every seat equally
    often. One agent plays every seat (self-play).

Determinism
    Game g's seed is ``SeedSequence([seed, g])`` (64 bits) and seat s's agent gets
    ``SeedSequence([game seed, s])``; agents are built fresh for every game with
    ``make_agent(spec, seed=...)``. A game's moves therefore depend only on (seed, g): the same
    run gives a byte-identical ``games.blksgf`` on any number of workers or on Ray, and
    ``play_game(variant, agents, game_seed)`` replays one game from its record's properties.
    (An agent with a time limit, such as ``mcts:seconds=1``, is not deterministic.)

Files in ``out``
    ``run.json``
        The run's settings (variant, start rule, agents, seed, games), written first; a
        ``resume`` with other settings is refused.
    ``games.blksgf``
        The source of truth: one Blokus SGF record a line (``blokus.sgf``; Pentobi reads it),
        appended and flushed as games finish and rewritten in game order at the end. Root
        properties besides the game's own: ``AP[blokus:VERSION]``, ``BKGAME`` (game index),
        ``BKSEED`` (game seed), ``BKAGENTS`` (one value per seat, the agent string) and, in Duo,
        ``PB``/``PW`` (the agents of purple and orange).
    ``moves.parquet``
        One row per placement: ``game``, ``ply`` (from 0), ``colour``, ``player`` (who moved),
        ``placement`` (id), ``piece`` (name), ``legal_moves`` (the mover's legal placements at
        that position, ``len(game.legal_moves())`` before the move).
    ``games.parquet``
        One row per game: ``game``, ``variant``, ``start``, ``seed`` (the game seed), ``agents``
        (per seat), ``colour_scores``, ``player_scores`` (per seat), ``winners`` (players),
        ``length`` (placements).
    ``summary.json``
        Settings, progress and the per-agent and per-seat tables.
    ``scores.png``
        With ``plot=True`` (needs matplotlib: ``pip install "blokus[plot]"``).

Wins
    A game won alone counts 1 win; a k-way tie for the top score counts 1/k to each tied side
    (a split win). In ``classic_teams`` a side is a team and each of its two seats carries half
    of the team's share; an agent's wins in a game add up the shares of the seats it holds.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple, Sequence, Union

import numpy as np

from blokus import __version__, _core
from blokus import sgf
from blokus.agents import make_agent, parse_agents
from blokus.game import VARIANTS, Game
from blokus.placements import placements

__all__ = ["run", "play_game", "game_seed", "seat_seed", "seat_agents", "format_table",
           "SelfPlayError", "Interrupted", "RUN_FILE", "RECORDS_FILE", "MOVES_FILE", "GAMES_FILE",
           "SUMMARY_FILE", "PLOT_FILE"]

RUN_FILE = "run.json"
RECORDS_FILE = "games.blksgf"
MOVES_FILE = "moves.parquet"
GAMES_FILE = "games.parquet"
SUMMARY_FILE = "summary.json"
PLOT_FILE = "scores.png"

DEFAULTS = {"variant": "classic", "agents": ["random"], "games": 100, "seed": 0, "start": "fixed"}

TIE_NOTE = ("Wins: a game won alone counts 1, a k-way tie for the top score 1/k to each tied side "
            "(a split win);\nthe 95% interval is Wilson's. Length: pieces placed in the game.")
TEAMS_NOTE = ("classic_teams: a team's share is split between its two seats; an agent holding "
              "both gets all of it.")
SHARED_SEATS_NOTE = ("With fewer agents than seats an agent holds several seats in a game; its "
                     "wins add up their shares\nand its mean score is over the seats it held.")


class SelfPlayError(ValueError):
    """A bad setting: unknown agent or variant, games < 1, an --out that cannot be used, a resume
    with other settings than the run's, a missing optional dependency. The command exits 2."""


class Interrupted(KeyboardInterrupt):
    """``run`` was interrupted (Ctrl-C); every finished game is kept and the output files are
    written for them. ``summary`` is what ``summary.json`` holds."""

    def __init__(self, summary: dict):
        super().__init__("self-play interrupted")
        self.summary = summary


# ---------------------------------------------------------------------------------------------
# One game

def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s seed in a run seeded ``seed``: 64 bits of ``SeedSequence([seed, index])``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0])


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at ``seat`` in the game seeded ``game_seed``."""
    return int(np.random.SeedSequence([game_seed, seat]).generate_state(1, np.uint64)[0])


def seat_agents(agents: Sequence[str], index: int, num_players: int) -> list[str]:
    """The agent per seat in game ``index``: seat s gets ``agents[(s + index) % len(agents)]``."""
    k = len(agents)
    return [agents[(s + index) % k] for s in range(num_players)]


def play_game(variant: str, agents: Sequence[str], game_seed: int, *, start: str = "fixed") -> Game:
    """Plays one game to its end: ``agents[s]`` (an agent string) moves for player s, each built
    with ``make_agent(spec, seed=seat_seed(game_seed, s))``.

    Raises
    ------
    ValueError
        Not one agent per player, an unknown agent, or an agent that returned an illegal move
        (``blokus.IllegalMoveError``).
    """
    game = Game(variant, start=start)
    if len(agents) != game.num_players:
        raise ValueError(f"{variant} has {game.num_players} players; {len(agents)} agents given")
    players = [make_agent(spec, seed=seat_seed(game_seed, s)) for s, spec in enumerate(agents)]
    while not game.is_over:
        game.play(players[game.player_to_move](game))
    return game


@dataclass
class GameResult:
    """A finished game as the run keeps it: its record line and its table rows."""

    index: int
    record: str             # one line of Blokus SGF, no newline
    seed: int
    agents: tuple           # agent string per seat
    colour_scores: tuple
    player_scores: tuple
    winners: tuple          # players
    colours: np.ndarray     # per ply: int8 colour, int8 player, int32 placement, int32 legal moves
    players: np.ndarray
    placements: np.ndarray
    legal: np.ndarray
    seconds: float = 0.0    # time to play it (scheduling only; recorded nowhere)

    @property
    def length(self) -> int:
        return len(self.placements)


def _properties(variant: str, index: int, seed: int, agents: Sequence[str]) -> dict:
    props = {"AP": f"blokus:{__version__}", "BKGAME": index, "BKSEED": seed, "BKAGENTS": list(agents)}
    if variant == "duo":
        props["PB"], props["PW"] = agents
    return props


def _result(game: Game, index: int, seed: int, agents: Sequence[str]) -> GameResult:
    """The record and rows of a finished game; the legal-move counts come from replaying it."""
    replay = Game(game.variant, start=game.start)
    colours, players, ids, legal = [], [], [], []
    for colour, move in game.history:
        assert replay.to_move == colour, (index, colour, replay.to_move)
        colours.append(colour)
        players.append(replay.player_to_move)
        ids.append(move)
        legal.append(len(replay.legal_moves()))
        replay.play(move)
    return GameResult(
        index=index, record=sgf.dumps(game, **_properties(game.variant, index, seed, agents)),
        seed=seed, agents=tuple(agents), colour_scores=tuple(game.scores()),
        player_scores=tuple(game.player_scores()), winners=tuple(game.winners()),
        colours=np.array(colours, np.int8), players=np.array(players, np.int8),
        placements=np.array(ids, np.int32), legal=np.array(legal, np.int32))


def play_chunk(task: tuple) -> list[GameResult]:
    """Plays games ``indices`` of a run; ``task = (variant, start, agents, seed, indices)``.
    The one function the in-process, process-pool and Ray paths all run."""
    variant, start, agents, seed, indices = task
    players = Game(variant).num_players
    out = []
    for index in indices:
        t0 = time.perf_counter()
        gseed = game_seed(seed, index)
        by_seat = seat_agents(agents, index, players)
        result = _result(play_game(variant, by_seat, gseed, start=start), index, gseed, by_seat)
        result.seconds = time.perf_counter() - t0
        out.append(result)
    return out


# ---------------------------------------------------------------------------------------------
# Settings and the output directory

@dataclass
class _Config:
    variant: str
    start: str
    agents: list
    seed: int
    games: int

    def as_json(self) -> dict:
        return {"variant": self.variant, "start": self.start, "agents": self.agents,
                "seed": self.seed, "games": self.games, "blokus": __version__}


_OPTION = {"variant": "--variant", "start": "--start", "agents": "--agents", "seed": "--seed"}


def _show(key: str, value) -> str:
    return ",".join(value) if key == "agents" else str(value)


def _agents(agents) -> list[str]:
    if isinstance(agents, str):
        text = agents
    else:
        agents = list(agents)
        if not agents or not all(isinstance(a, str) for a in agents):
            raise SelfPlayError("agents: give agent strings, e.g. ['greedy', 'mcts:sims=500']")
        text = ",".join(agents)
    try:
        specs = parse_agents(text)
    except ValueError as exc:
        raise SelfPlayError(f"--agents: {exc}") from None
    for spec in specs:
        if specs.count(spec) > 1:
            raise SelfPlayError(f"--agents: {spec!r} is given twice (one agent alone already "
                                "plays every seat)")
    return specs


def _settings(out: Path, resume: bool, given: dict) -> tuple[_Config, bool]:
    """The run's settings, checked, and whether there is a run in ``out`` to resume."""
    if out.exists() and not out.is_dir():
        raise SelfPlayError(f"--out {out} is a file, not a directory")
    saved = None
    run_file = out / RUN_FILE
    if resume and run_file.exists():
        try:
            saved = json.loads(run_file.read_text(encoding="utf-8"))
            saved = {key: saved[key] for key in ("variant", "start", "agents", "seed", "games")}
        except (ValueError, KeyError, TypeError) as exc:
            raise SelfPlayError(f"--resume: {run_file} is not a self-play run file ({exc})") from None
    elif resume and (out / RECORDS_FILE).exists():
        raise SelfPlayError(f"--resume: {out} has {RECORDS_FILE} but no {RUN_FILE}: "
                            "not a directory `blokus selfplay` wrote")
    elif not resume and out.is_dir() and any(out.iterdir()):
        raise SelfPlayError(f"--out {out} is not empty: add --resume to continue the run in it, "
                            "or choose a new directory")
    if given.get("agents") is not None:
        given["agents"] = _agents(given["agents"])
    values = {}
    for key, default in DEFAULTS.items():
        value = given.get(key)
        if saved is not None:
            if key != "games" and value is not None and value != saved[key]:
                raise SelfPlayError(
                    f"--resume: the run in {out} has {_OPTION[key]} {_show(key, saved[key])}, not "
                    f"{_show(key, value)}; leave the option out or choose a new directory")
            if value is None:
                value = saved[key]
        values[key] = default if value is None else value
    config = _Config(**values)
    if config.variant not in VARIANTS:
        raise SelfPlayError(f"--variant: unknown variant {config.variant!r} "
                            f"(expected one of: {', '.join(VARIANTS)})")
    if config.start not in ("fixed", "any"):
        raise SelfPlayError(f"--start: the start rule is 'fixed' or 'any', not {config.start!r}")
    if isinstance(config.games, bool) or not isinstance(config.games, int) or config.games < 1:
        raise SelfPlayError(f"--games: must be at least 1, not {config.games!r}")
    if isinstance(config.seed, bool) or not isinstance(config.seed, int) or not 0 <= config.seed < 2**64:
        raise SelfPlayError(f"--seed: must be an integer in [0, 2**64), not {config.seed!r}")
    if saved is None or given.get("agents") is None:
        config.agents = _agents(config.agents)
    players = Game(config.variant).num_players
    if len(config.agents) > players:
        raise SelfPlayError(f"--agents: {len(config.agents)} agents for {config.variant}, which has "
                            f"{players} seats; give at most {players}")
    return config, saved is not None


def _load_records(out: Path, config: _Config) -> dict[int, GameResult]:
    """The finished games in ``out/games.blksgf``, checked against the run's settings. A last
    line cut short (the process was killed while writing it) is dropped."""
    path = out / RECORDS_FILE
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    players = Game(config.variant).num_players
    results: dict[int, GameResult] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            [(game, props)] = sgf.records(line)
        except ValueError as exc:
            if number == len(lines):  # no newline after it: an append that never finished
                continue
            raise SelfPlayError(f"--resume: {where}: {exc}") from None
        try:
            index = int(props["BKGAME"][0])
            seed = int(props["BKSEED"][0])
            agents = props["BKAGENTS"]
        except (KeyError, ValueError):
            raise SelfPlayError(f"--resume: {where}: not a self-play record (no BKGAME, BKSEED, "
                                "BKAGENTS)") from None
        if (game.variant, game.start) != (config.variant, config.start):
            raise SelfPlayError(f"--resume: {where}: a {game.variant} game (start={game.start}), "
                                f"but the run is {config.variant} (start={config.start})")
        if not 0 <= index < config.games:
            raise SelfPlayError(f"--resume: {where}: game {index} is beyond --games {config.games}; "
                                f"give --games {index + 1} or more")
        if seed != game_seed(config.seed, index) or agents != seat_agents(config.agents, index, players):
            raise SelfPlayError(f"--resume: {where}: game {index}'s seed or agents do not match "
                                f"{RUN_FILE}")
        if not game.is_over:
            raise SelfPlayError(f"--resume: {where}: game {index} is not finished")
        if index in results:
            if results[index].record != line:
                raise SelfPlayError(f"--resume: {where}: game {index} is recorded twice, differently")
            continue
        result = _result(game, index, seed, agents)
        result.record = line
        results[index] = result
    return results


def _replace(path: Path, write) -> None:
    """Writes ``path`` through a temporary file, so that it is never seen half-written."""
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    os.replace(tmp, path)


def _write_text(path: Path, text: str) -> None:
    def write(tmp):
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    _replace(path, write)


def _write_records(out: Path, results: dict[int, GameResult]) -> None:
    _write_text(out / RECORDS_FILE, "".join(results[i].record + "\n" for i in sorted(results)))


class _Journal:
    """Appends records to games.blksgf in game order as games finish, holding back the ones that
    finish before a game with a smaller index; ``_write_records`` later rewrites the file whole."""

    def __init__(self, path: Path, order: list[int]):
        self._file = open(path, "a", encoding="utf-8", newline="")
        self._order = order
        self._next = 0
        self._waiting: dict[int, str] = {}

    def add(self, result: GameResult) -> None:
        self._waiting[result.index] = result.record
        while self._next < len(self._order) and self._order[self._next] in self._waiting:
            self._file.write(self._waiting.pop(self._order[self._next]) + "\n")
            self._next += 1
        self._file.flush()

    def close(self) -> None:
        # keep every finished game, in order or not; the final rewrite sorts them
        self._file.writelines(record + "\n" for record in self._waiting.values())
        self._waiting.clear()
        self._file.close()


# ---------------------------------------------------------------------------------------------
# Where games are played

def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Chunker:
    """Hands out the games still to play in chunks of about ``TARGET_SECONDS`` of play each
    (one game a chunk until a game's time is known), never more than a fair share of what is
    left: small enough that Ctrl-C loses little and the progress bar moves, large enough that
    handing out costs nothing."""

    TARGET_SECONDS = 0.2
    MAX_GAMES = 64

    def __init__(self, config: "_Config", remaining: list[int]):
        self._head = (config.variant, config.start, tuple(config.agents), config.seed)
        self._todo = list(reversed(remaining))
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
        chunk = [self._todo.pop() for _ in range(min(size, len(self._todo)))]
        return self._head + (chunk,)

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


class _Failed(NamedTuple):
    error: BaseException


@contextlib.contextmanager
def _process_pool(chunker: _Chunker, collected: list, workers: int) -> Iterator[Iterable[list[GameResult]]]:
    import multiprocessing
    import queue
    from concurrent.futures import ProcessPoolExecutor

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


def _import_ray():
    try:
        import ray
    except ImportError:
        raise SelfPlayError('--ray needs Ray: pip install "blokus[ray]"') from None
    return ray


@contextlib.contextmanager
def _ray_cluster(chunker: _Chunker, collected: list, address: str, workers: int) -> Iterator[Iterable[list[GameResult]]]:
    import logging

    ray = _import_ray()
    started = not ray.is_initialized()
    if started:
        options = {"num_cpus": workers} if address == "local" else {}
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING, **options)
        except Exception as exc:  # ConnectionError, ValueError, RuntimeError, ...
            raise SelfPlayError(f"--ray {address}: could not start or reach Ray: {exc}") from None
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


# ---------------------------------------------------------------------------------------------
# Results: tables, summary, plot

def _sides(variant: str) -> tuple[list[int], list[int]]:
    """Per seat, its side (seats whose score is always the same: classic_teams' teams), and per
    side its number of seats."""
    weights = _core.player_weights(variant).tolist()
    rows: list = []
    side = []
    for row in weights:
        if row not in rows:
            rows.append(row)
        side.append(rows.index(row))
    return side, [side.count(s) for s in range(len(rows))]


def _seat_shares(result: GameResult, side: list[int], size: list[int]) -> tuple[list[float], list[float]]:
    """Per seat: its side's share of the win, and the seat's own part of it."""
    winning = {side[p] for p in result.winners}
    side_share = [1 / len(winning) if side[s] in winning else 0.0 for s in range(len(side))]
    return side_share, [side_share[s] / size[side[s]] for s in range(len(side))]


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a win rate wins / n (95% for the default z)."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return (low, high)


def _summary(config: _Config, results: dict[int, GameResult], *, played: int, elapsed: float,
             interrupted: bool, workers: int, ray: str | None, out: Path, files: list[str]) -> dict:
    variant = config.variant
    game = Game(variant)
    side, size = _sides(variant)
    weights = _core.player_weights(variant)
    agents = config.agents
    stats = {a: {"games": 0, "wins": 0.0, "scores": [], "lengths": []} for a in agents}
    seat_scores = [[] for _ in side]
    seat_wins = [0.0 for _ in side]
    for i in sorted(results):
        r = results[i]
        side_share, own = _seat_shares(r, side, size)
        for a in set(r.agents):
            stats[a]["games"] += 1
            stats[a]["lengths"].append(r.length)
        for s, a in enumerate(r.agents):
            stats[a]["wins"] += own[s]
            stats[a]["scores"].append(r.player_scores[s])
            seat_scores[s].append(r.player_scores[s])
            seat_wins[s] += side_share[s]
    n = len(results)
    per_agent = []
    for a in agents:
        st = stats[a]
        low, high = wilson(st["wins"], st["games"])
        per_agent.append({
            "agent": a, "games": st["games"], "wins": round(st["wins"], 6),
            "win_rate": st["wins"] / st["games"] if st["games"] else None,
            "win_rate_low": low if st["games"] else None, "win_rate_high": high if st["games"] else None,
            "mean_score": float(np.mean(st["scores"])) if st["scores"] else None,
            "mean_length": float(np.mean(st["lengths"])) if st["lengths"] else None})
    per_seat = []
    for s in range(len(side)):
        if variant == "classic_teams":  # the seat moves its own colour and scores its team's
            colours = game.colour_name(s)
        else:
            colours = "+".join(game.colour_name(c) for c in range(game.num_colours) if weights[s, c])
        per_seat.append({"seat": s, "colours": colours,
                         "mean_score": float(np.mean(seat_scores[s])) if n else None,
                         "win_share": seat_wins[s] / n if n else None})
    return {
        "variant": variant, "start": config.start, "agents": agents, "seed": config.seed,
        "games": config.games, "finished": n, "complete": n == config.games,
        "interrupted": interrupted, "seats": len(side),
        "rotation": "game g: seat s plays agents[(s + g) % len(agents)]",
        "played": played, "elapsed_seconds": round(elapsed, 3),
        "games_per_second": round(played / elapsed, 3) if played and elapsed > 0 else None,
        "workers": workers, "ray": ray, "out": str(out), "files": files,
        "per_agent": per_agent, "per_seat": per_seat, "blokus": __version__,
    }


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x, digits=2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def format_table(summary: dict) -> str:
    """The per-agent and per-seat tables of a summary, with the notes that explain them."""
    width = max([5] + [len(row["agent"]) for row in summary["per_agent"]])
    lines = [f"{'agent':<{width}} {'games':>7} {'wins':>9} {'win rate':>9} {'95% interval':>16} "
             f"{'mean score':>11} {'mean length':>12}"]
    for row in summary["per_agent"]:
        wins = f"{row['wins']:.6g}" if row["games"] else "-"
        interval = (f"[{_pct(row['win_rate_low'])}, {_pct(row['win_rate_high'])}]"
                    if row["games"] else "-")
        lines.append(f"{row['agent']:<{width}} {row['games']:>7} {wins:>9} {_pct(row['win_rate']):>9} "
                     f"{interval:>16} {_num(row['mean_score']):>11} {_num(row['mean_length'], 1):>12}")
    lines.append("")
    lines.append(f"{'seat':<8} {'colours':<13} {'mean score':>11} {'win share':>10}")
    for row in summary["per_seat"]:
        lines.append(f"{'player ' + str(row['seat']):<8} {row['colours']:<13} "
                     f"{_num(row['mean_score']):>11} {_pct(row['win_share']):>10}")
    lines.append("")
    lines.append(TIE_NOTE)
    if summary["variant"] == "classic_teams":
        lines.append(TEAMS_NOTE)
    if len(summary["agents"]) < summary["seats"]:
        lines.append(SHARED_SEATS_NOTE)
    lines.append("Seats rotate: game g gives seat s the agent (s + g) mod the number of agents.")
    return "\n".join(lines)


def _write_tables(out: Path, config: _Config, results: dict[int, GameResult]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    ordered = [results[i] for i in sorted(results)]
    lengths = np.array([r.length for r in ordered], np.int64)

    def cat(name, dtype):
        parts = [getattr(r, name) for r in ordered]
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

    placement = cat("placements", np.int32)
    pieces = np.asarray(placements(config.variant).piece, np.int8)[placement]
    moves = pa.table({
        "game": pa.array(np.repeat(np.array([r.index for r in ordered], np.int64), lengths)),
        "ply": pa.array(np.concatenate([np.arange(n, dtype=np.int16) for n in lengths])
                        if len(lengths) else np.zeros(0, np.int16)),
        "colour": pa.array(cat("colours", np.int8)),
        "player": pa.array(cat("players", np.int8)),
        "placement": pa.array(placement),
        "piece": pa.DictionaryArray.from_arrays(pa.array(pieces), pa.array(list(_core.PIECE_NAMES))),
        "legal_moves": pa.array(cat("legal", np.int32)),
    })
    games = pa.table({
        "game": pa.array([r.index for r in ordered], pa.int64()),
        "variant": pa.array([config.variant] * len(ordered), pa.string()),
        "start": pa.array([config.start] * len(ordered), pa.string()),
        "seed": pa.array([r.seed for r in ordered], pa.uint64()),
        "agents": pa.array([list(r.agents) for r in ordered], pa.list_(pa.string())),
        "colour_scores": pa.array([list(r.colour_scores) for r in ordered], pa.list_(pa.int16())),
        "player_scores": pa.array([list(r.player_scores) for r in ordered], pa.list_(pa.int16())),
        "winners": pa.array([list(r.winners) for r in ordered], pa.list_(pa.int8())),
        "length": pa.array(lengths.astype(np.int16)),
    })
    _replace(out / MOVES_FILE, lambda tmp: pq.write_table(moves, tmp))
    _replace(out / GAMES_FILE, lambda tmp: pq.write_table(games, tmp))


def _import_matplotlib():
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise SelfPlayError('--plot needs matplotlib: pip install "blokus[plot]"') from None
    return Figure, FigureCanvasAgg


def _plot(path: Path, config: _Config, results: dict[int, GameResult]) -> None:
    """scores.png: per agent, the distribution of its seats' final scores (Agg, no pyplot state)."""
    Figure, FigureCanvasAgg = _import_matplotlib()
    scores = {a: [] for a in config.agents}
    for r in results.values():
        for s, a in enumerate(r.agents):
            scores[a].append(r.player_scores[s])
    fig = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    every = [x for xs in scores.values() for x in xs]
    if every:
        lo, hi = min(every), max(every)
        step = max(1, math.ceil((hi - lo + 1) / 60))
        bins = np.arange(lo - 0.5, hi + step + 0.5, step)
        for i, (agent, xs) in enumerate(scores.items()):
            if not xs:
                continue
            colour = f"C{i % 10}"
            ax.hist(xs, bins=bins, histtype="step", linewidth=1.5, color=colour,
                    label=f"{agent}: mean {np.mean(xs):.1f}, {len(xs)} seat-games")
            ax.axvline(float(np.mean(xs)), color=colour, linestyle="--", linewidth=1)
        ax.legend(loc="upper left", fontsize="small")
    ax.set_xlabel("final score of the seat (player score)")
    ax.set_ylabel("seat-games")
    ax.set_title(f"{config.variant}: {len(results)} games, score distribution per agent")
    fig.tight_layout()
    _replace(path, lambda tmp: fig.savefig(tmp, format="png"))


@contextlib.contextmanager
def _no_sigint():
    """While the output files are written, a second Ctrl-C waits."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# ---------------------------------------------------------------------------------------------
# The run

def run(out: Union[str, os.PathLike], *, variant: str | None = None,
        agents: Union[str, Sequence[str], None] = None, games: int | None = None,
        seed: int | None = None, start: str | None = None, workers: int | None = None,
        ray: str | None = None, resume: bool = False, plot: bool = False,
        progress: bool | None = None) -> dict:
    """Plays self-play games and writes them to ``out`` (see the module's doc for the files).

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
        process. With ``ray="local"``, the CPUs of the local Ray instance.
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
        mean_length) and ``per_seat`` (mean_score, win_share).

    Raises
    ------
    SelfPlayError
        A bad setting (see the class); nothing is played.
    Interrupted
        Ctrl-C (KeyboardInterrupt) while playing: the games finished so far are kept and every
        file is written for them; ``.summary`` holds the summary. Resume with ``resume=True``.
    """
    out = Path(out)
    config, resuming = _settings(out, resume, {"variant": variant, "agents": agents,
                                               "games": games, "seed": seed, "start": start})
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SelfPlayError(f"--workers: must be at least 1, not {workers!r}")
    if plot:
        _import_matplotlib()
    if ray is not None:
        _import_ray()
    results = _load_records(out, config) if resuming else {}
    remaining = [g for g in range(config.games) if g not in results]

    chunker, collected = _Chunker(config, remaining), []
    if ray is not None:
        source = _ray_cluster(chunker, collected, ray, workers)
    elif workers > 1 and len(remaining) > 1:
        source = _process_pool(chunker, collected, min(workers, len(remaining)))
    else:
        source = _in_process(chunker, collected)

    from tqdm import tqdm

    already, interrupted, started, elapsed = len(results), False, False, 0.0
    try:
        with contextlib.ExitStack() as stack:
            chunks = stack.enter_context(source) if remaining else iter(())
            out.mkdir(parents=True, exist_ok=True)
            _write_text(out / RUN_FILE, json.dumps(config.as_json(), indent=2) + "\n")
            if resuming:
                _write_records(out, results)  # in order, without a line cut short
            bar = stack.enter_context(tqdm(
                total=config.games, initial=len(results), unit=" games", dynamic_ncols=True,
                desc=f"{config.variant} self-play", smoothing=0.1,
                disable=None if progress is None else not progress))
            journal = _Journal(out / RECORDS_FILE, remaining)
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
        interrupted = True

    with _no_sigint():
        for chunk in collected:  # a chunk received but not yet handled when Ctrl-C came
            for result in chunk:
                results.setdefault(result.index, result)
        played = len(results) - already
        _write_records(out, results)
        _write_tables(out, config, results)
        files = [RUN_FILE, RECORDS_FILE, MOVES_FILE, GAMES_FILE, SUMMARY_FILE]
        if plot:
            _plot(out / PLOT_FILE, config, results)
            files.append(PLOT_FILE)
        summary = _summary(config, results, played=played, elapsed=elapsed, interrupted=interrupted,
                           workers=workers, ray=ray, out=out, files=files)
        _write_text(out / SUMMARY_FILE, json.dumps(summary, indent=2) + "\n")
    if interrupted:
        raise Interrupted(summary)
    return summary
