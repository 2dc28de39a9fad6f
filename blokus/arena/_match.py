"""``match``: agents against each other, seats rotating; per agent its win share, Wilson
interval, mean score and mean margin."""
from __future__ import annotations

import numpy as np

from blokus.arena._play import Agents, check_agents, check_backend, check_sendable, names, play, settings
from blokus.arena._table import Table, pct
from blokus.outcomes import wilson
from blokus.selfplay.games import GameResult
from blokus.selfplay.report import SHARED_SEATS_NOTE, seat_shares, seat_sides
from blokus.selfplay.settings import Config

NOTES = ("Wins: a game won alone counts 1, a k-way tie for the top score 1/k to each tied side (a split "
         "win);\nthe 95% interval is Wilson's. Margin: a seat's score minus the best score of another "
         "agent's seat\n(of another side), averaged like the score over the seats the agent held.")
TEAMS_NOTE = "classic_teams: a team's share is split between its two seats (an agent holding both gets all of it)."
ROTATION_NOTE = "Seats rotate: game g gives seat s the agent (s + g) mod the number of agents."


def match(agents: Agents, *, games: int = 100, variant: str = "duo", seed: int = 0, start: str = "fixed",
          workers: int | None = None, ray: str | None = None, progress: bool | None = None) -> "MatchResult":
    """Plays ``games`` games between ``agents`` in memory and returns each agent's results.

    The games are those of ``blokus selfplay`` with the same settings (``help(blokus.selfplay)``):
    with k agents, game g gives seat s (player s) the agent ``agents[(s + g) % k]``, so over k
    consecutive games every agent plays every seat (every colour, in Duo) equally often; with
    fewer agents than seats an agent holds several seats of a game. Game g depends only on
    (``seed``, g): the result is the same on any number of workers or on Ray (unless an agent
    has a time limit, such as ``mcts:seconds=1``).

    Parameters
    ----------
    agents : str or list/tuple of str or Agent
        Two or more agent strings (``"greedy"``, ``"mcts:sims=500"``, ``"level:3"``,
        ``"gtp:..."``, ``"sb3:..."``; see ``blokus.agents``), or one comma-separated str as on
        the command line; at most one per seat, each once. An agent object (a callable
        ``agent(game) -> placement id`` with a ``name``) may stand for a string: it plays as it
        is, not reseeded per game, so its games are reproducible only if it is deterministic;
        with workers or Ray it must pickle, and each chunk of games gets a fresh copy.
    games : int
        Games to play, >= 1 (default 100).
    variant : str
        One of ``blokus.variants.VARIANTS`` (default ``"duo"``, as the RL environments).
    seed : int
        In [0, 2**64) (default 0).
    start : {"fixed", "any"}
        The start rule (default ``"fixed"``, Pentobi's).
    workers : int, optional
        Processes on this machine, >= 1 (default: every core this process may use); 1 plays in
        this process. A script must call ``match`` under ``if __name__ == "__main__":`` to use
        more than one (worker processes import it).
    ray : str, optional
        Play on Ray instead: an address (``"auto"``) or ``"local"`` (``pip install "blokus[ray]"``).
    progress : bool, optional
        A progress bar on stderr; None (default) when stderr is a terminal.

    Returns
    -------
    MatchResult
        One row per agent, in ``agents`` order: ``rows()``, ``to_dict()``, ``to_pandas()``,
        ``result[agent]``; ``print(result)`` shows the table.

    Raises
    ------
    ArenaError (a ValueError)
        Bad settings (see ``ArenaError``); nothing is played.
    KeyboardInterrupt
        Ctrl-C: the workers are stopped and nothing is returned.
    """
    specs = check_agents(agents)
    config = settings(specs, variant=variant, games=games, seed=seed, start=start)
    workers = check_backend(workers, ray)
    check_sendable(specs, workers, ray)
    [results], seconds = play([config], workers=workers, ray=ray, progress=progress,
                              desc=f"{variant} match")
    return MatchResult(config, results, seconds)


class MatchResult(Table):
    """The results of ``match``: one row per agent, in the order given.

    Columns (``COLUMNS``; ``rows()``, ``to_dict()``, ``to_pandas()``)
        ``agent`` (str), ``games`` (int: games it played, every game of the match),
        ``wins`` (float: its share of the wins, a k-way tie for the top counting 1/k, summed
        over the seats it held), ``win_share`` (float in [0, 1]: wins / games),
        ``win_share_low``, ``win_share_high`` (Wilson's 95% interval of ``win_share``),
        ``mean_score`` (float: its player score per seat held; in classic_teams, its team's),
        ``mean_margin`` (float: per seat held, the seat's score minus the best score of the
        seats the other agents held, partners in classic_teams left out; > 0 when the seat
        beat every other agent).

    Attributes
    ----------
    agents : tuple of str
    variant, start : str
    seed, games : int
    results : tuple of blokus.selfplay.GameResult
        The games in order (index g is game g): the agent per seat, scores, winners and the
        game's record as one line of Blokus SGF.
    seconds : float or None
        Time the games took (wall clock); None for a pair of a tournament, whose games were
        played together with the other pairs'.
    """

    COLUMNS = ("agent", "games", "wins", "win_share", "win_share_low", "win_share_high", "mean_score",
               "mean_margin")

    def __init__(self, config: Config, results: list[GameResult], seconds: float | None):
        self.agents = tuple(names(config.agents))
        self.variant, self.start, self.seed, self.games = config.variant, config.start, config.seed, config.games
        self.results = tuple(results)
        self.seconds = seconds
        self._rows = _agent_rows(config.variant, self.agents, self.results)

    def rows(self) -> list[dict]:
        return [dict(row) for row in self._rows]

    def __getitem__(self, agent: str) -> dict:
        """The row of ``agent`` (KeyError if it did not play)."""
        for row in self._rows:
            if row["agent"] == agent:
                return dict(row)
        raise KeyError(f"{agent!r} did not play in this match (agents: {', '.join(self.agents)})")

    def __str__(self) -> str:
        games = "game" if self.games == 1 else "games"
        took = "" if self.seconds is None else f" in {self.seconds:.2f} s"
        lines = [f"{self.games} {self.variant} {games} (seed {self.seed}, start={self.start}){took}", ""]
        lines += _table_lines(self._rows) + ["", NOTES]
        sizes = seat_sides(self.variant)[1]
        if max(sizes) > 1:
            lines.append(TEAMS_NOTE)
        if len(self.agents) < len(sizes):
            lines.append(SHARED_SEATS_NOTE)
        lines.append(ROTATION_NOTE)
        return "\n".join(lines)


def _agent_rows(variant: str, agents: tuple[str, ...], results: tuple[GameResult, ...]) -> list[dict]:
    side, size = seat_sides(variant)
    games = {a: 0 for a in agents}
    wins = {a: 0.0 for a in agents}
    scores: dict[str, list] = {a: [] for a in agents}
    margins: dict[str, list] = {a: [] for a in agents}
    for r in results:
        own = seat_shares(r, side, size)[1]
        for a in set(r.agents):
            games[a] += 1
        for s, a in enumerate(r.agents):
            wins[a] += own[s]
            scores[a].append(r.player_scores[s])
            # the best opponent: another agent's seat, of another side (a partner's score is one's own)
            best = max(r.player_scores[t] for t, b in enumerate(r.agents) if b != a and side[t] != side[s])
            margins[a].append(r.player_scores[s] - best)
    rows = []
    for a in agents:
        low, high = wilson(wins[a], games[a])
        rows.append({"agent": a, "games": games[a], "wins": round(wins[a], 9),
                     "win_share": wins[a] / games[a], "win_share_low": low, "win_share_high": high,
                     "mean_score": float(np.mean(scores[a])), "mean_margin": float(np.mean(margins[a]))})
    return rows


def _table_lines(rows: list[dict]) -> list[str]:
    """The per-agent table of a match."""
    width = max([5] + [len(row["agent"]) for row in rows])
    lines = [f"{'agent':<{width}} {'games':>6} {'wins':>8} {'win share':>9} {'95% interval':>16} "
             f"{'mean score':>10} {'mean margin':>11}"]
    for row in rows:
        interval = f"[{pct(row['win_share_low'])}, {pct(row['win_share_high'])}]"
        lines.append(f"{row['agent']:<{width}} {row['games']:>6} {row['wins']:>8.6g} {pct(row['win_share']):>9} "
                     f"{interval:>16} {row['mean_score']:>10.2f} {row['mean_margin']:>+11.2f}")
    return lines
