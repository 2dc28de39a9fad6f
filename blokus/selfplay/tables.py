"""``moves.parquet`` (a row per placement) and ``games.parquet`` (a row per game), for training
pipelines."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from blokus import _core
from blokus._rundir import replace_file
from blokus.placements import placements
from blokus.selfplay.files import GAMES_FILE, MOVES_FILE
from blokus.selfplay.games import GameResult
from blokus.selfplay.settings import Config


def write_tables(out: Path, config: Config, results: dict[int, GameResult]) -> None:
    import pyarrow.parquet as pq

    ordered = [results[i] for i in sorted(results)]
    moves, games = _moves(config, ordered), _games(config, ordered)
    replace_file(out / MOVES_FILE, lambda tmp: pq.write_table(moves, tmp))
    replace_file(out / GAMES_FILE, lambda tmp: pq.write_table(games, tmp))


def _moves(config: Config, ordered: list[GameResult]):
    import pyarrow as pa

    lengths = np.array([r.length for r in ordered], np.int64)

    def cat(name, dtype):
        parts = [getattr(r, name) for r in ordered]
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

    placement = cat("placements", np.int32)
    pieces = np.asarray(placements(config.variant).piece, np.int8)[placement]
    return pa.table({
        "game": pa.array(np.repeat(np.array([r.index for r in ordered], np.int64), lengths)),
        "ply": pa.array(np.concatenate([np.arange(n, dtype=np.int16) for n in lengths])
                        if len(lengths) else np.zeros(0, np.int16)),
        "colour": pa.array(cat("colours", np.int8)),
        "player": pa.array(cat("players", np.int8)),
        "placement": pa.array(placement),
        "piece": pa.DictionaryArray.from_arrays(pa.array(pieces), pa.array(list(_core.PIECE_NAMES))),
        "legal_moves": pa.array(cat("legal", np.int32)),
    })


def _games(config: Config, ordered: list[GameResult]):
    import pyarrow as pa

    return pa.table({
        "game": pa.array([r.index for r in ordered], pa.int64()),
        "variant": pa.array([config.variant] * len(ordered), pa.string()),
        "start": pa.array([config.start] * len(ordered), pa.string()),
        "seed": pa.array([r.seed for r in ordered], pa.uint64()),
        "agents": pa.array([list(r.agents) for r in ordered], pa.list_(pa.string())),
        "colour_scores": pa.array([list(r.colour_scores) for r in ordered], pa.list_(pa.int16())),
        "player_scores": pa.array([list(r.player_scores) for r in ordered], pa.list_(pa.int16())),
        "winners": pa.array([list(r.winners) for r in ordered], pa.list_(pa.int8())),
        "length": pa.array(np.array([r.length for r in ordered], np.int16)),
    })
