"""The environments' option checks: the learner's seat, the variant, reward and render mode."""
from __future__ import annotations

import numpy as np

from blokus.game import VARIANTS
from blokus.rl._rewards import REWARDS


def check_seat(num_players: int, seat) -> int:
    """The learner's seat as an int; ValueError unless it is an int in range(num_players)."""
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_players:
        raise ValueError(f"seat must be in range({num_players}), not {seat!r}")
    return int(seat)


ILLEGAL = ("raise", "end")


def check_illegal(illegal: str) -> str:
    """What an illegal action does (``ILLEGAL``); ValueError for anything else."""
    if illegal not in ILLEGAL:
        raise ValueError(f"unknown illegal {illegal!r} (expected one of {', '.join(ILLEGAL)})")
    return illegal


def check_options(variant: str, reward: str, render_mode: str | None, modes) -> None:
    """ValueError naming the bad option, if any."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r} (expected one of {', '.join(REWARDS)})")
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"unknown render_mode {render_mode!r} (expected one of {', '.join(modes)})")
