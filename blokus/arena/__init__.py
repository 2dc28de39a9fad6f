"""Evaluating agents: matches and rated tournaments, played in memory on every core.

>>> from blokus import arena
>>> result = arena.match(["greedy", "random"], games=20, variant="duo", seed=1, workers=1)
>>> result["greedy"]["win_share"] > 0.8
True
>>> ratings = arena.tournament("greedy,random,mcts:sims=50", games=10, workers=1)
>>> print(ratings)                                                    # doctest: +SKIP

``match(agents, ...)``
    Agents (the agent strings of ``blokus.agents``, as ``blokus selfplay --agents`` takes)
    play ``games`` games, seats rotating; a ``MatchResult`` holds per agent its games, wins (a
    k-way tie for the top counting 1/k), win share with Wilson's 95% interval, mean score and
    mean margin, as a table (``rows()``, ``to_dict()``, ``to_pandas()``, ``print``).
``tournament(agents, ...)``
    Every pair of agents plays ``games`` games; Elo ratings are fitted to the results by
    maximum likelihood of the Bradley-Terry model, 0 for the anchor (``random`` by default),
    with 95% intervals. In 3- and 4-seat variants a pair's agents hold alternate seats.
``fit_ratings(agents, wins, games, ...)``
    The fit alone, for a table of pairwise results from anywhere.

The games are ``blokus selfplay``'s: the same seeds, seat rotation and workers (``help(
blokus.selfplay)``), so a result is the same on one worker or many, and ``match(agents,
games=n, variant=v, seed=s)`` plays the games of ``blokus selfplay --agents ... --games n
--variant v --seed s``. Bad settings raise ``ArenaError`` (a ValueError) before any game.
On the command line: ``blokus tournament --agents greedy,random,mcts:sims=200 --games 40``.
"""
from blokus.arena._match import MatchResult, match
from blokus.arena._play import ArenaError
from blokus.arena._ratings import ELO, Ratings, fit_ratings
from blokus.arena._tournament import TournamentResult, tournament

__all__ = ["match", "MatchResult", "tournament", "TournamentResult", "fit_ratings", "Ratings", "ELO",
           "ArenaError"]
