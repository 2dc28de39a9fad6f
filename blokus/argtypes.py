"""Value types for the command line's options (argparse ``type=``): each turns the text into a
value or raises ``argparse.ArgumentTypeError``, which argparse reports with exit code 2."""
import argparse


def count(text: str) -> int:
    """An int >= 1 (games, workers, limits)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def natural(text: str) -> int:
    """An int >= 0 (sizes that may be none)."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return value


def seed(text: str) -> int:
    """A seed: an int in [0, 2**64), the range the engine's random streams take."""
    value = int(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be in [0, 2**64), not {value}")
    return value


def seconds(text: str) -> float:
    """A duration: a float > 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0 seconds, not {text}")
    return value
