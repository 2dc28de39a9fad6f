"""``tournament``: every pair of agents plays a match; Elo ratings fitted to the results."""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from blokus.arena._match import MatchResult
from blokus.arena._play import Agents, check_agents, check_backend, check_sendable, names, play, settings
from blokus.arena._ratings import Ratings, check_prior, default_anchor, fit_ratings
from blokus.arena._table import Table, pct
from blokus.selfplay.games import game_seed


def tournament(agents: Agents, *, games: int = 100, variant: str = "duo", seed: int = 0, start: str = "fixed",
               anchor: str | None = None, prior: float = 1.0, workers: int | None = None,
               ray: str | None = None, progress: bool | None = None) -> "TournamentResult":
    """Plays a round robin: every pair of ``agents`` plays ``games`` games, and Elo ratings are
    fitted to the results (``fit_ratings``: Bradley-Terry by maximum likelihood, a split win
    counting its share as a draw counts half), anchored so that ``anchor`` rates 0.

    Pairs, in every variant: pair p, in the order (0, 1), (0, 2), ..., (1, 2), ... of
    ``agents``, plays exactly ``match([a, b], games=games, variant=variant,
    seed=blokus.selfplay.game_seed(seed, p), start=start)``: seats rotate, so in Duo and
    classic_2 each agent plays each colour (seat) equally often, and in the 3- and 4-seat
    variants each agent of the pair holds every other seat (a, b, a, b; then b, a, b, a) and
    scores the win shares of its seats. Every pair's games share the workers; the result is
    the same on any number of them.

    Parameters
    ----------
    agents : str or list/tuple of str or Agent
        Two or more agent strings, or one comma-separated str; each once. Agent objects as for
        ``match``.
    games : int
        Games per pair, >= 1 (default 100); an even number gives each agent each seat equally.
    variant, seed, start, workers, ray, progress
        As for ``match``.
    anchor : str, optional
        The agent rated 0: default ``"random"`` when it plays, else the first agent.
    prior : float
        Virtual draws added to every pair, >= 0 (default 1; see ``fit_ratings``): they keep
        the ratings finite when an agent wins or loses every game. 0: the plain maximum-
        likelihood fit, which is refused (ArenaError) when it has no finite solution.

    Returns
    -------
    TournamentResult
        The ratings table (``rows()``, ``to_dict()``, ``to_pandas()``, ``print``), each pair's
        ``MatchResult`` (``matches``) and the fit (``ratings``).

    Raises
    ------
    ArenaError (a ValueError)
        Bad settings (see ``ArenaError``), raised before any game; or, with prior 0, no finite
        ratings (raised after the games).
    KeyboardInterrupt
        Ctrl-C: the workers are stopped and nothing is returned.
    """
    specs = check_agents(agents)
    first = settings(specs[:2], variant=variant, games=games, seed=seed, start=start)  # checks all but agents
    anchor = default_anchor(tuple(names(specs)), anchor)
    prior = check_prior(prior)
    workers = check_backend(workers, ray)
    check_sendable(specs, workers, ray)
    pairs = list(itertools.combinations(range(len(specs)), 2))
    jobs = [dataclasses.replace(first, agents=[specs[i], specs[j]], seed=game_seed(seed, p))
            for p, (i, j) in enumerate(pairs)]
    results, seconds = play(jobs, workers=workers, ray=ray, progress=progress, desc=f"{variant} tournament")
    called = names(specs)
    matches = {(called[i], called[j]): MatchResult(job, games_of_pair, None)
               for (i, j), job, games_of_pair in zip(pairs, jobs, results)}
    return TournamentResult(called, matches, anchor=anchor, prior=prior, seed=seed, seconds=seconds)


class TournamentResult(Table):
    """The results of ``tournament``: the ratings table, one row per agent, best first.

    Columns (``COLUMNS``; ``rows()``, ``to_dict()``, ``to_pandas()``)
        ``agent`` (str), ``rating`` (float, Elo; the anchor's 0), ``rating_low``,
        ``rating_high`` (float: the 95% interval, relative to the anchor), ``games`` (int: all
        its games), ``wins`` (float: its share of the wins, a k-way tie for the top counting
        1/k), ``win_share`` (float: wins / games).

    Attributes
    ----------
    agents : tuple of str
        In the order given.
    anchor : str
    variant, start : str
    seed : int
    games : int
        Games per pair.
    matches : dict of (str, str) -> MatchResult
        Each pair's match, keyed by its agents in the order given.
    ratings : Ratings
        The fit (arrays in ``agents`` order, standard errors, prior).
    seconds : float
        Time all the games took.
    """

    COLUMNS = ("agent", "rating", "rating_low", "rating_high", "games", "wins", "win_share")

    def __init__(self, agents: list[str], matches: dict[tuple[str, str], MatchResult], *, anchor: str,
                 prior: float, seed: int, seconds: float):
        some = next(iter(matches.values()))
        self.agents = tuple(agents)
        self.anchor, self.seed, self.seconds = anchor, seed, seconds
        self.variant, self.start, self.games = some.variant, some.start, some.games
        self.matches = matches
        self._wins, self._games = _pair_tables(self.agents, matches)
        self.ratings: Ratings = fit_ratings(self.agents, self._wins, self._games, anchor=anchor, prior=prior)

    def rows(self) -> list[dict]:
        r = self.ratings
        rows = [{"agent": a, "rating": float(r.rating[i]), "rating_low": float(r.low[i]),
                 "rating_high": float(r.high[i]), "games": int(self._games[i].sum()),
                 "wins": round(float(self._wins[i].sum()), 9),
                 "win_share": float(self._wins[i].sum() / self._games[i].sum())}
                for i, a in enumerate(self.agents)]
        return sorted(rows, key=lambda row: -row["rating"])

    def pairs(self) -> list[dict]:
        """Each pair's result from its first agent's side: ``agent``, ``opponent`` and the
        first agent's row of the pair's ``MatchResult`` (games, wins, win_share with its
        Wilson interval, mean_score, mean_margin); ``pandas.DataFrame(result.pairs())``."""
        return [{"agent": a, "opponent": b, **{k: v for k, v in m[a].items() if k != "agent"}}
                for (a, b), m in self.matches.items()]

    def __str__(self) -> str:
        pairs = len(self.matches)
        lines = [f"{self.variant} tournament: {len(self.agents)} agents, {self.games} games a pair, "
                 f"{pairs * self.games} games (seed {self.seed}, start={self.start}) in {self.seconds:.2f} s",
                 ""]
        lines += self._rating_lines() + ["", "Win share of the row's agent against the column's:"]
        lines += self._matrix_lines()
        draws = f"{self.ratings.prior:g} virtual draw{'' if self.ratings.prior == 1 else 's'} per pair"
        lines += ["", f"Ratings: Elo (400 more: odds of 10 to 1), {self.anchor} = 0, from a Bradley-Terry "
                      f"maximum-likelihood fit\nwith {draws}; the 95% interval (Fisher information) "
                      f"is relative to {self.anchor}.\nWins: a game won alone counts 1, a k-way tie for "
                      "the top score 1/k to each tied side."]
        return "\n".join(lines)

    def _rating_lines(self) -> list[str]:
        width = max([5] + [len(a) for a in self.agents])
        lines = [f"{'agent':<{width}} {'rating':>8} {'95% interval':>18} {'games':>6} {'wins':>8} {'win share':>9}"]
        for row in self.rows():
            interval = ("anchor" if row["agent"] == self.anchor
                        else f"[{row['rating_low']:.0f}, {row['rating_high']:.0f}]")
            lines.append(f"{row['agent']:<{width}} {row['rating']:>8.1f} {interval:>18} {row['games']:>6} "
                         f"{row['wins']:>8.6g} {pct(row['win_share']):>9}")
        return lines

    def _matrix_lines(self) -> list[str]:
        width = max([5] + [len(a) for a in self.agents])
        cell = max(7, *(len(a) for a in self.agents))
        lines = [" " * width + "".join(f" {a:>{cell}}" for a in self.agents)]
        for i, a in enumerate(self.agents):
            cells = [pct(self._wins[i, j] / self._games[i, j]) if i != j else "-" for j in range(len(self.agents))]
            lines.append(f"{a:<{width}}" + "".join(f" {c:>{cell}}" for c in cells))
        return lines


def _pair_tables(agents: tuple, matches: dict) -> tuple[np.ndarray, np.ndarray]:
    """``wins[i, j]``: i's wins against j; ``games[i, j]``: games between them."""
    k = len(agents)
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for (a, b), m in matches.items():
        i, j = agents.index(a), agents.index(b)
        wins[i, j] = m[a]["wins"]
        wins[j, i] = m.games - wins[i, j]  # exactly what is left of the games' points
        games[i, j] = games[j, i] = m.games
    return wins, games

