"""Elo ratings from pairwise results: the Bradley-Terry model fitted by maximum likelihood
(Newton's method on its concave log-likelihood), with 95% intervals from the Fisher information.

Agent i of strength t_i (log-odds units) scores against j with probability
p_ij = 1 / (1 + exp(t_j - t_i)); ``wins[i, j]`` points of ``games[i, j]`` (a split win counting its
share, a draw half) have log-likelihood sum_ij wins[i, j] log p_ij. Ratings are Elo,
``ELO * t`` with ``ELO = 400 / ln 10``, so that 400 points more are odds of 10 to 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from blokus.arena._play import ArenaError

#: Elo points per unit of log-odds: a difference of 400 is odds of 10 to 1.
ELO = 400 / math.log(10)
_Z95 = 1.959963984540054  # the standard normal's 97.5% quantile, as blokus.outcomes.wilson's
_MAX_STEPS = 100


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings, in Elo, one per agent in the order given.

    Attributes
    ----------
    agents : tuple of str
    anchor : str
        The agent whose rating is 0 by definition; every other rating and interval is relative
        to it (its own standard error and interval width are 0).
    rating : ndarray float64 (k,)
    stderr : ndarray float64 (k,)
        Standard errors: sqrt of the diagonal of the inverse Fisher information of the other
        agents' ratings, the anchor's held at 0.
    low, high : ndarray float64 (k,)
        The 95% interval, rating -/+ 1.96 stderr.
    prior : float
        Virtual draws added to each pair that played.
    """

    agents: tuple
    anchor: str
    rating: np.ndarray
    stderr: np.ndarray
    low: np.ndarray
    high: np.ndarray
    prior: float


def fit_ratings(agents: Sequence[str], wins, games, *, anchor: str | None = None,
                prior: float = 1.0) -> Ratings:
    """Elo ratings of ``agents`` from their pairwise results, by maximum likelihood of the
    Bradley-Terry model, anchored so that ``anchor`` rates 0.

    Parameters
    ----------
    agents : sequence of str
        k >= 2 distinct names.
    wins : array_like float, shape (k, k)
        ``wins[i, j]``: the points agent i scored against agent j (1 a win, 1/2 a draw, 1/n a
        share of an n-way tie); ``wins[i, j] + wins[j, i] == games[i, j]``; zero diagonal.
    games : array_like int or float, shape (k, k)
        Games between i and j: symmetric, >= 0, zero diagonal.
    anchor : str, optional
        The agent rated 0: default ``"random"`` when it is among ``agents``, else ``agents[0]``.
    prior : float
        Virtual draws added to every pair that played, >= 0 (default 1): they keep every
        rating finite when an agent won or lost every game (as BayesElo's prior does) and
        change little once pairs have played many games. 0 gives the plain maximum-likelihood
        estimate: A beating B in 3 of 4 games rates A 400 log10(3) = 190.8 above B.

    Returns
    -------
    Ratings

    Raises
    ------
    ArenaError (a ValueError)
        Fewer than two or repeated agents; ``wins`` or ``games`` of another shape, negative,
        not finite, or inconsistent (see above); an unknown anchor; prior < 0; or no finite
        estimate (with prior 0: a group of agents won every game against the rest, or some
        agents are linked to the others by no game), naming the agents.
    """
    agents = _check_names(agents)
    wins, games = _check_table(len(agents), wins, games)
    anchor = default_anchor(agents, anchor)
    prior = check_prior(prior)
    played = games > 0
    scored = wins + prior / 2 * played   # a virtual draw: half a point to each side of a pair
    _check_linked(agents, scored)
    theta, information = _newton(scored, agents.index(anchor))
    free = [i for i in range(len(agents)) if agents[i] != anchor]
    stderr = np.zeros(len(agents))
    stderr[free] = np.sqrt(np.diag(np.linalg.inv(information)))
    rating, stderr = ELO * theta, ELO * stderr
    return Ratings(agents=agents, anchor=anchor, rating=rating, stderr=stderr, low=rating - _Z95 * stderr,
                   high=rating + _Z95 * stderr, prior=prior)


def default_anchor(agents: tuple, anchor: str | None) -> str:
    """``anchor`` checked to be one of ``agents``; None: ``random`` if it plays, else the first."""
    if anchor is None:
        return "random" if "random" in agents else agents[0]
    if anchor not in agents:
        raise ArenaError(f"anchor: {anchor!r} is not one of the agents ({', '.join(agents)})")
    return anchor


def check_prior(prior) -> float:
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0 <= prior < math.inf:
        raise ArenaError(f"prior: the virtual draws per pair must be a number >= 0, not {prior!r}")
    return float(prior)


def _check_names(agents) -> tuple:
    if isinstance(agents, str) or not all(isinstance(a, str) for a in agents):
        raise ArenaError("agents: give a sequence of names (str)")
    agents = tuple(agents)
    if len(agents) < 2 or len(set(agents)) < len(agents):
        raise ArenaError(f"agents: two or more distinct names are needed, not {list(agents)}")
    return agents


def _check_table(k: int, wins, games) -> tuple[np.ndarray, np.ndarray]:
    try:
        wins, games = np.asarray(wins, np.float64), np.asarray(games, np.float64)
    except (TypeError, ValueError) as exc:
        raise ArenaError(f"wins and games must be numbers: {exc}") from None
    for name, table in (("wins", wins), ("games", games)):
        if table.shape != (k, k):
            raise ArenaError(f"{name} must have shape ({k}, {k}) for {k} agents, not {table.shape}")
        if not np.all(np.isfinite(table)) or np.any(table < 0) or np.any(np.diag(table) != 0):
            raise ArenaError(f"{name} must be finite, >= 0, with a zero diagonal")
    if not np.array_equal(games, games.T):
        raise ArenaError("games must be symmetric: games[i, j] is the games between i and j")
    if not np.allclose(wins + wins.T, games, rtol=0, atol=1e-9 * max(1.0, games.max())):
        raise ArenaError("wins[i, j] + wins[j, i] must equal games[i, j] (a game gives out one point)")
    return wins, games


def _check_linked(agents: tuple, scored: np.ndarray) -> None:
    """Refuses results whose likelihood has no maximum (Ford's condition): some group of agents
    won every game against the rest, or was linked to it by no game, so its distance to the
    rest would grow without end."""
    beat = scored > 0  # beat[i, j]: i scored against j
    for edges in (beat, beat.T):
        reached = _reach(edges)  # forward: agent 0 and those it scored against, transitively
        if not reached.all():
            inside = [a for a, r in zip(agents, reached) if r]
            outside = [a for a, r in zip(agents, reached) if not r]
            winners, losers = (outside, inside) if edges is beat else (inside, outside)
            raise ArenaError(
                f"no finite ratings: {', '.join(winners)} won every game against {', '.join(losers)} "
                "or never played them, so the likelihood grows without end as they move apart; "
                "play more games or give a prior > 0 (virtual draws)")


def _reach(edges: np.ndarray) -> np.ndarray:
    """The nodes reached from node 0 along ``edges[i, j]`` (i -> j)."""
    reached = np.zeros(len(edges), bool)
    reached[0] = True
    frontier = [0]
    while frontier:
        new = edges[frontier].any(axis=0) & ~reached
        reached |= new
        frontier = list(np.flatnonzero(new))
    return reached


def _newton(scored: np.ndarray, anchor: int) -> tuple[np.ndarray, np.ndarray]:
    """The maximum-likelihood strengths (log-odds, the anchor's 0) and the Fisher information of
    the others at it. Newton's method with step halving: the log-likelihood is concave, and
    strictly so once the anchor is fixed and the results are linked."""
    k = len(scored)
    n = scored + scored.T
    free = np.array([i for i in range(k) if i != anchor])
    theta = np.zeros(k)
    for _ in range(_MAX_STEPS):
        gradient, information = _derivatives(theta, scored, n)
        step = np.linalg.solve(information[np.ix_(free, free)], gradient[free])
        slope = gradient[free] @ step  # Newton's decrement: twice the likelihood still to gain
        if slope < 1e-16 or np.max(np.abs(step)) < 1e-10:  # converged: this last, tiny step
            # takes the error to rounding (Newton's convergence is quadratic)
            theta[free] += step
            return theta, information[np.ix_(free, free)]
        theta = _line_search(theta, free, step, slope, scored)
    raise RuntimeError(f"the rating fit did not converge in {_MAX_STEPS} Newton steps")


def _derivatives(theta: np.ndarray, scored: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradient of the log-likelihood, and the Fisher information (minus its Hessian)."""
    p = _win_probability(theta)
    gradient = (scored - n * p).sum(axis=1)
    weight = n * p * (1 - p)
    information = np.diag(weight.sum(axis=1)) - weight
    return gradient, information


def _win_probability(theta: np.ndarray) -> np.ndarray:
    """p[i, j] = 1 / (1 + exp(theta_j - theta_i)), as tanh (no overflow)."""
    return 0.5 * (1 + np.tanh((theta[:, None] - theta[None, :]) / 2))


def _log_likelihood(theta: np.ndarray, scored: np.ndarray) -> float:
    return float(-(scored * np.logaddexp(0, theta[None, :] - theta[:, None])).sum())


def _line_search(theta, free, step, slope, scored) -> np.ndarray:
    """Theta moved along ``step`` by the largest of 1, 1/2, 1/4, ... that raises the likelihood
    enough (Armijo's rule): a full Newton step can overshoot when strengths are far apart. Near
    the maximum, where the gain is below the likelihood's rounding, the full step is taken."""
    base = _log_likelihood(theta, scored)
    rounding = 1e-12 * abs(base)  # a few units in the last place of a sum of many terms
    t = 1.0
    while True:  # ends: as t shrinks the trial tends to theta, within rounding of base
        trial = theta.copy()
        trial[free] += t * step
        if _log_likelihood(trial, scored) >= base + 1e-4 * t * slope - rounding:
            return trial
        t /= 2
