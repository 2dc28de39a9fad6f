"""Agent parameters: the numbers of an agent string (ASCII only), range checks, and error
messages that quote a value cut short."""
from __future__ import annotations

import re


def _short(value) -> str:
    """repr(value) for an error message, cut so that a huge value is not echoed whole."""
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def _check(ok: bool, name: str, value, expected: str) -> None:
    if not ok:  # NaN fails every comparison, so it lands here too
        raise ValueError(f"{name} must be {expected}, not {_short(value)}")


# Agent-string values: ASCII only, since int() and float() also read other scripts' digits ("٥").
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_REAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)


def _whole(text: str) -> int:
    """An agent string's integer value."""
    if not _WHOLE.fullmatch(text) or len(text) > 30:
        raise ValueError(text)
    return int(text)


def _real(text: str) -> float:
    """An agent string's real value (decimal, with an optional exponent)."""
    if not _REAL.fullmatch(text):
        raise ValueError(text)
    return float(text)
