"""Fuzz target: the packing puzzle's arguments (rectangle, kinds of pieces, counts), with
hostile ints and containers that change while they are read.

``pack_solve`` either returns None or a tiling of the rectangle, or raises
``ValueError``/``TypeError``."""
import atheris

with atheris.instrument_imports():
    from blokus import _core

from hostile import containers, expect, fuzz

# a short search, none at all, and bad limits
TIME_LIMITS = (0.002, 0.0005, 0, -1.0, float("nan"), float("inf"), 2**2000, "1")


def kinds(fdp: atheris.FuzzedDataProvider):
    outer = containers(fdp, 6, (2, 4))
    return outer if fdp.ConsumeBool() else iter(outer)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    height, width = (fdp.ConsumeIntInRange(-1, 12) for _ in range(2))
    given = kinds(fdp)
    limit = TIME_LIMITS[fdp.ConsumeIntInRange(0, len(TIME_LIMITS) - 1)]
    ok, found = expect(lambda: _core.pack_solve(height, width, given, same_colour_edges=fdp.ConsumeBool(), seed=0,
                                                time_limit=limit), ValueError, TypeError)
    if ok and found is not None:
        labels, colours, pieces = found
        assert labels.shape == (height, width) and labels.min() >= 0 and labels.max() == len(pieces) - 1


if __name__ == "__main__":
    fuzz(test_one_input)
