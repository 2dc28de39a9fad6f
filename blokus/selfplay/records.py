"""``games.blksgf``, the source of truth of a run: read back to resume, appended to as games
finish, rewritten in game order at the end."""
from __future__ import annotations

from pathlib import Path

from blokus import sgf
from blokus._files import read_regular
from blokus._rundir import RUN_FILE, write_text
from blokus.game import Game
from blokus.selfplay.errors import SelfPlayError
from blokus.selfplay.files import RECORDS_FILE
from blokus.selfplay.games import GameResult, game_result, game_seed, seat_agents
from blokus.selfplay.settings import Config


def load_records(out: Path, config: Config) -> dict[int, GameResult]:
    """The finished games in ``out/games.blksgf``, checked against the run's settings. A last
    line cut short (the process was killed while writing it) is dropped."""
    path = out / RECORDS_FILE
    if not path.exists():
        return {}
    try:
        lines = read_regular(path).decode("utf-8").split("\n")
    except (OSError, ValueError) as exc:  # unreadable, not UTF-8
        raise SelfPlayError(f"--resume: cannot read {path} ({exc}): restore it from a copy, or choose a new "
                            "directory") from None
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
        index, seed, agents = _identity(props, where)
        _check(game, index, seed, agents, config, players, where)
        if index in results:
            if results[index].record != line:
                raise SelfPlayError(f"--resume: {where}: game {index} is recorded twice, differently")
            continue
        result = game_result(game, index, seed, agents)
        result.record = line
        results[index] = result
    return results


def _identity(props: dict, where: str) -> tuple[int, int, list[str]]:
    """A record's game index, game seed and agent per seat."""
    try:
        return int(props["BKGAME"][0]), int(props["BKSEED"][0]), props["BKAGENTS"]
    except (KeyError, ValueError):
        raise SelfPlayError(f"--resume: {where}: not a self-play record (no BKGAME, BKSEED, "
                            "BKAGENTS)") from None


def _check(game: Game, index: int, seed: int, agents: list[str], config: Config, players: int,
           where: str) -> None:
    """Refuses a record that is not a finished game of this run."""
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


def write_records(out: Path, results: dict[int, GameResult]) -> None:
    write_text(out / RECORDS_FILE, "".join(results[i].record + "\n" for i in sorted(results)))


class Journal:
    """Appends records to games.blksgf in game order as games finish, holding back the ones that
    finish before a game with a smaller index; ``write_records`` later rewrites the file whole."""

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
