"""Self-play: many games between agents, recorded for analysis and training::

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
# The modules: games (seeds, seats, one game, play_chunk that every backend runs), settings
# (run.json and its checks), records (games.blksgf: resume, journal, rewrite), tables (Parquet),
# backends (in-process, process pool, Ray), report (summary, Wilson, the table), plot
# (scores.png), files (file names, atomic writes), errors, runner (run itself).
from blokus._rundir import RUN_FILE
from blokus.selfplay.errors import Interrupted, SelfPlayError
from blokus.selfplay.files import GAMES_FILE, MOVES_FILE, PLOT_FILE, RECORDS_FILE, SUMMARY_FILE
from blokus.selfplay.games import GameResult, game_seed, play_game, seat_agents, seat_seed
from blokus.selfplay.report import format_table, wilson
from blokus.selfplay.runner import run

__all__ = ["run", "play_game", "game_seed", "seat_seed", "seat_agents", "format_table", "wilson",
           "GameResult", "SelfPlayError", "Interrupted", "RUN_FILE", "RECORDS_FILE", "MOVES_FILE", "GAMES_FILE",
           "SUMMARY_FILE", "PLOT_FILE"]
