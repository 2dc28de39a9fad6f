"""``BatchedSearch``: AlphaZero-style search with your network, for many games at once.

The tree walk runs in C with the GIL released; the network runs in Python, in any framework.
The search stops every game at the leaf it needs evaluated, hands all of them over in one
batch, takes back priors and values, and goes on::

    search = blokus.search.BatchedSearch(games, simulations=100, seed=0)
    while not search.done:
        request = search.pending()  # observations (K, C + 1, H, W), remaining (K, C, 21) int8,
                                    # masks (K, A) bool
        priors, values = net(request.observations, request.remaining, request.masks)
        # priors (K, A), values (K, players) or (K,)
        search.evaluate(priors, values)
    targets = search.policy(temperature=1.0)   # (B, A) float32 visit-count policy targets

or ``search.run(evaluate_fn)`` for the same loop. It is the search of AlphaZero as DeepMind's
mctx (``muzero_policy``) and OpenSpiel's ``alpha_zero`` run it, over Blokus in C:

* selection by PUCT: at a node with N visits (its own evaluation included), the legal move a
  with the largest ``Q(a) + c_puct * P(a) * sqrt(N) / (1 + N(a))``, ties to the lowest
  placement id; ``Q(a)`` is the child's mean value for the player to move at the node, and an
  unvisited child's is ``fpu`` (the first-play urgency; by default the node's own mean value
  for that player, as Leela Chess Zero starts from; OpenSpiel scores unvisited children 0 on
  its [-1, 1] scale, ``fpu=0.5`` here, and mctx's default Q transform puts them at the lowest
  value seen, about ``fpu=0``);
* values are per player, in [0, 1] (a share of the win), so 2, 3 and 4 players and the team
  variants all work; a finished game is valued by the rules (docs/rules.md, "Scoring": the
  highest player score wins, equal highest scores share the win; both members of a winning
  team get the team's share) without asking the network;
* the root is evaluated first, on its own; then each of ``simulations`` simulations descends
  to a leaf the network evaluates, or to a finished game, and adds one visit to one of the
  root's children, so the root's visit counts sum to ``simulations``;
* Dirichlet noise at the root, as AlphaZero: ``(1 - fraction) * P + fraction * Dir(alpha)``
  over the legal moves, drawn from game i's own random stream (seed, i), so each game's search
  is reproducible whatever the batch.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from blokus import _core
from blokus.game import Game

__all__ = ["BatchedSearch", "Request"]


class Request(NamedTuple):
    """The leaves waiting for an evaluation, one row per game still searching (K <= B rows).

    Every array is a fresh, writeable NumPy array (``torch.from_numpy`` takes it as it is).
    """

    games: np.ndarray
    """int64 (K,): the game (index into the search's games) of each leaf."""
    observations: np.ndarray
    """int8 (K, C + 1, H, W): ``Game.observation()`` of the colour to move at each leaf."""
    remaining: np.ndarray
    """int8 (K, C, 21): ``Game.remaining_from()`` of the colour to move at each leaf (1 for a
    piece in hand; its own pieces first, then the other colours' in turn order), as the
    environments' ``remaining``."""
    masks: np.ndarray
    """bool (K, A): the legal placements at each leaf (``Game.legal_mask()`` there)."""
    colours: np.ndarray
    """int8 (K,): the colour to move at each leaf."""
    players: np.ndarray
    """int8 (K,): the player to move at each leaf (in classic_3, who moves the shared colour)."""


class BatchedSearch(_core.BatchedSearch):
    """A PUCT search with an outside evaluator over B games at once (see the module's text).

    Parameters
    ----------
    games : sequence of blokus.Game
        B >= 1 games of one variant, none over; the search works on copies.
    simulations : int
        Simulations per game, in [1, 2**24], each ending at one leaf to evaluate or one
        finished game.
    c_puct : float
        Exploration constant (>= 0 and finite); 1.25 is mctx's ``pb_c_init``. 0 ranks the
        children by value alone; a huge one (up to the largest float) by prior / (1 + visits).
    fpu : float, optional
        First-play urgency, in [0, 1]: the value of a child never visited. None (default): the
        parent node's own mean value for the player to move there. Lower values keep the
        search on the moves it has tried (high-prior ones), higher values widen it.
    dirichlet_alpha : float
        Concentration of the root noise (> 0 and finite); AlphaZero scales it as about
        10 / (legal moves). Any such value works: a tiny one (down to the smallest denormal)
        puts all the noise on one legal move drawn uniformly, a huge one spreads it evenly.
    dirichlet_fraction : float
        Weight of the noise in the root's priors, in [0, 1]; 0 for no noise (evaluation play).
        Self-play for training keeps the default 0.25.
    seed : int
        Seeds the noise: game i draws from stream (seed, i).

    Raises
    ------
    TypeError
        A game that is not a ``blokus.Game``, a parameter of the wrong type.
    ValueError
        No games, games of different variants, a game that is over, a parameter out of range
        (the message gives the range and the value).
    MemoryError
        What the search reserves (below) is more than this machine's memory (raised before
        reserving anything), or the system refuses it.

    Notes
    -----
    ``priors`` and ``values`` may be any array-like (NumPy arrays, PyTorch CPU tensors, lists).
    Memory: when made, the search reserves 5.4 KB per game and 48 bytes per game and
    simulation (and one more for the root), as address space that becomes memory as the
    simulations use it; it then takes 12 bytes per legal move of each position it expands
    (every root when made, one more position per simulation). Measured (resident memory, 1024
    games of 64 simulations, a uniform evaluator): 18 KB per game once made on Duo's empty
    board (828 legal moves), 11 KB on the classic one (232); after the search, 345 KB per game
    from Duo's empty board, 195 KB from a Duo position with 253 legal moves, 430 KB from a
    classic one with 508. So 2**20 games of 64 simulations reserve 9 GB, and hold 19 GB once
    made on Duo's empty board. A dropped search gives its memory back; blocks above 32 MB (the
    games' and nodes' of a large search, and the 48 MB blocks of legal moves after the first
    48 KB) go back to the system at once.

    Not thread-safe in use: a call made while another thread's call runs on the same search
    raises RuntimeError. Ctrl-C stops a long walk between parts of the batch; the search stays
    usable, and the next ``pending()`` goes on where it stopped.
    """

    __slots__ = ()

    def __new__(cls, games: Sequence[Game], *, simulations: int = 64, c_puct: float = 1.25,
                fpu: float | None = None, dirichlet_alpha: float = 0.3,
                dirichlet_fraction: float = 0.25, seed: int = 0):
        return super().__new__(cls, games, simulations=simulations, c_puct=c_puct, fpu=fpu,
                               dirichlet_alpha=dirichlet_alpha,
                               dirichlet_fraction=dirichlet_fraction, seed=seed)

    def pending(self) -> Request:
        """The leaves to evaluate now, one per game still searching.

        Returns
        -------
        Request
            K rows (K = 0 once ``done``). Evaluate them all and pass the results to
            ``evaluate``; calling ``pending()`` again before that returns the same leaves.
        """
        return Request(*self._pending())

    def evaluate(self, priors, values) -> None:
        """Expands and backs up the leaves of the last ``pending()``, then runs the games on
        to their next leaves (or to the end of their simulations).

        Parameters
        ----------
        priors : array_like of real numbers, shape (K, A)
            Prior probabilities per placement id, finite and >= 0 (for instance a softmax
            over the placement logits). Only the leaf's legal placements are read; they are
            renormalised to sum to 1 there (uniform when they all are 0). Cast to float32.
        values : array_like of real numbers, shape (K, num_players), or (K,) with 2 players
            Each player's expected share of the win at the leaf, in [0, 1]. In a two-player
            variant (duo, classic_2), shape (K,) gives the value of the player to move
            (``Request.players``), the other player's being ``1 - v``: what a network that
            values the position for the side to move returns. Cast to float32.

        Raises
        ------
        TypeError
            Not real numbers (bool, complex, object or str dtypes).
        ValueError
            Wrong shape, NaN or infinite numbers, negative priors, values outside [0, 1]; the
            message names the row and game. The search is unchanged then.
        RuntimeError
            Nothing handed out to evaluate: ``pending()`` was not called since the last
            ``evaluate``, or the search is done. The search is unchanged then.
        """
        super().evaluate(priors, values)

    def run(self, evaluate_fn: Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
            ) -> BatchedSearch:
        """Runs the search to its end: ``evaluate_fn(observations, remaining, masks) -> (priors,
        values)`` on each ``pending()`` batch (see ``Request`` and ``evaluate`` for shapes; the
        arguments in the order ``blokus.nn.PlacementNet`` takes them). Returns self."""
        while not self.done:
            request = self.pending()
            priors, values = evaluate_fn(request.observations, request.remaining, request.masks)
            self.evaluate(priors, values)
        return self

    def visit_counts(self) -> np.ndarray:
        """int32 (B, A): the visits of each root move; 0 for moves not legal or never visited.
        Each row sums to ``simulations`` once the search is done."""
        return super().visit_counts()

    def policy(self, temperature: float = 1.0) -> np.ndarray:
        """float32 (B, A): the visit-count policy targets, ``N(a) ** (1 / temperature)``
        normalised per game; temperature 0 puts all the weight on ``best_moves()``.

        Raises
        ------
        ValueError
            Temperature negative or not finite.
        RuntimeError
            A game whose root has no visited move yet (the search has not run).
        """
        if not (np.isfinite(temperature) and temperature >= 0):
            raise ValueError(f"temperature must be finite and >= 0, not {temperature!r}")
        counts = self.visit_counts().astype(np.float64)
        best = counts.max(axis=1, keepdims=True)
        if (best == 0).any():
            raise RuntimeError("a game has no visited root move yet: run the search first")
        if temperature == 0:
            policy = np.zeros_like(counts, dtype=np.float32)
            policy[np.arange(len(policy)), self.best_moves()] = 1.0
            return policy
        weights = (counts / best) ** (1.0 / temperature)  # scaled by the largest: no overflow
        return (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)

    def best_moves(self) -> np.ndarray:
        """int32 (B,): each game's most visited root move (ties: the higher mean value for the
        player to move, then the lower id); -1 where no root move has a visit yet."""
        return super().best_moves()

    def root_values(self) -> np.ndarray:
        """float32 (B, num_players): the mean value per player over the root's visits (its
        evaluation and every simulation), a value target; NaN before the root's evaluation."""
        return super().root_values()

    def children(self, game: int, moves: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The children of a node of game ``game``'s tree: the node reached from the root by
        ``moves`` (placement ids).

        Returns
        -------
        (ids, priors, visits, values)
            int32, float32, int32, float32 arrays, one entry per legal move there in ascending
            id order: the prior the search uses (noise included at the root), the visits, and
            the mean value for the player to move at the node (NaN for unvisited moves).
            Empty while the node is not expanded or where the game is over.

        Raises
        ------
        ValueError
            Game or placement id out of range.
        KeyError
            The path leaves the tree (a move never visited there).
        """
        return super().children(game, moves)

    def __repr__(self) -> str:
        state = "done" if self.done else "searching"
        return (f"<blokus.search.BatchedSearch {self.variant!r}: {self.num_games} games, "
                f"{self.params['simulations']} simulations, {state}>")
