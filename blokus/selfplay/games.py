"""One game of a run: its seeds, the agent per seat, playing it, and what the run keeps of it."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from blokus import __version__, sgf
from blokus.agents import agent_name, make_agent
from blokus.game import Game
from blokus.variants import variant as variant_facts


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


def play_game(variant: str, agents: Sequence, game_seed: int, *, start: str = "fixed") -> Game:
    """Plays one game to its end: ``agents[s]`` (an agent string) moves for player s, each built
    with ``make_agent(spec, seed=seat_seed(game_seed, s))`` (an agent object plays as it is).

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
    if variant_facts(variant).num_colours == len(agents) == 2:  # B/W records: each player's own colour
        props["PB"], props["PW"] = agents
    return props


def game_result(game: Game, index: int, seed: int, agents: Sequence) -> GameResult:
    """The record and rows of a finished game; the legal-move counts come from replaying it.
    Agents are recorded by name (``blokus.agents.agent_name``)."""
    agents = [agent_name(a) for a in agents]
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
    The one function the in-process, process-pool and Ray paths all run (so it stays at the top
    level of this module: workers import it by name)."""
    variant, start, agents, seed, indices = task
    players = Game(variant).num_players
    out = []
    for index in indices:
        t0 = time.perf_counter()
        gseed = game_seed(seed, index)
        by_seat = seat_agents(agents, index, players)
        result = game_result(play_game(variant, by_seat, gseed, start=start), index, gseed, by_seat)
        result.seconds = time.perf_counter() - t0
        out.append(result)
    return out
