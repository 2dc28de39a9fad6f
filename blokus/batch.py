"""Batched games in C: ``VectorGame`` (``blokus.VectorGame``), N games stepped together with the
GIL released, their arrays NumPy views updated in place."""
from __future__ import annotations

import os
import secrets
import warnings

import numpy as np

from blokus import _core


class VectorGame(_core.VectorGame):
    """``num_envs`` independent games stepped together in C, split across threads.

    Parameters
    ----------
    num_envs : int
        Number of games (>= 1).
    variant, start : str
        As ``blokus.Game``; the start rule defaults to "fixed", as in the RL environments.
        Without a variant the games are Duo, with a ``FutureWarning``: a later release makes
        the default "classic", as ``blokus.Game``'s; pass ``variant="duo"`` to keep Duo.
    num_threads : int, optional
        Threads a step is split across; the machine's cores by default. Results do not
        depend on it: game i draws from its own random stream (seed, i).
    seed : int, optional
        Seeds the built-in policies; a random seed by default.

    Notes
    -----
    Every attribute below is a read-only NumPy view of C memory with the games as its first
    axis, updated in place by each step (keep a reference, and it stays current): ``board``
    (N, H, W) int8, ``to_move`` (N,) int8, ``legal_mask`` (N, A) bool, ``num_legal`` (N,)
    int32, ``observation`` (N, C + 1, H, W) int8, ``remaining`` (N, C, 21) bool (each game's
    ``Game.remaining_from`` its colour to move, as ``Game.remaining``'s dtype), ``scores``
    (N, C) int16, ``done`` (N,) bool, ``ply`` (N,) int32, and the last finished episode's
    ``episode_length`` (N,) int32, ``episode_scores`` (N, C) int16, ``episode_winners``
    (N, players) bool, ``episodes`` (N,) int64. A game that ends has ``done`` set; its next
    step resets it instead of moving (Gymnasium's next-step autoreset).

    Raises
    ------
    ValueError
        num_envs or num_threads below 1, unknown variant or start rule.
    """

    __slots__ = ()

    def __new__(cls, num_envs: int, variant: str | None = None, *, start: str = "fixed",
                num_threads: int | None = None, seed: int | None = None):
        if variant is None:
            warnings.warn('VectorGame without a variant plays Duo, but a later release will play "classic" '
                          '(as blokus.Game does): pass variant="duo" to keep Duo', FutureWarning, stacklevel=2)
            variant = "duo"
        threads = (os.cpu_count() or 1) if num_threads is None else num_threads
        seed = secrets.randbits(64) if seed is None else seed
        return super().__new__(cls, num_envs, variant, start=start, num_threads=threads, seed=seed)

    @property
    def remaining(self) -> np.ndarray:
        # the C array holds 0/1 int8, the RL observation's dtype; seen here as Game.remaining's bool
        return super().remaining.view(np.bool_)

    def __repr__(self) -> str:
        return (f"<blokus.VectorGame {self.variant!r} start={self.start!r}: {self.num_envs} games, "
                f"{self.num_threads} threads>")


__all__ = ["VectorGame"]
