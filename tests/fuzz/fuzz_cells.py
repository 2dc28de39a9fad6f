"""Fuzz target: moves given as cells, in any container, with items that change the containers
while they are read, raise, or are huge.

``Game.play`` either plays one legal placement or raises ``ValueError``/``TypeError`` and leaves
the game unchanged; it never reads freed memory (the ASan build would abort)."""
import atheris

with atheris.instrument_imports():
    import blokus

from hostile import containers, expect, fuzz


def cells(fdp: atheris.FuzzedDataProvider):
    outer = containers(fdp, 8, (0, 3))
    form = fdp.ConsumeIntInRange(0, 2)
    return outer if form == 0 else tuple(outer) if form == 1 else iter(outer)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    game = blokus.Game("duo" if fdp.ConsumeBool() else "classic", start="fixed")
    for _ in range(fdp.ConsumeIntInRange(0, 3)):  # a few moves first, so later rules apply too
        game.play(int(game.legal_moves()[0]))
    before, legal = game.copy(), set(game.legal_moves().tolist())
    ok, _ = expect(lambda: game.play(cells(fdp)), ValueError, TypeError)
    if ok:
        assert len(game.history) == len(before.history) + 1 and game.history[-1][1] in legal
    else:
        assert game == before


if __name__ == "__main__":
    fuzz(test_one_input)
