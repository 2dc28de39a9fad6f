"""Fuzz target: move texts, read by ``parse_move`` and ``Game.play``.

A text either names a placement, whose own text reads back to it, or raises ``ValueError``;
a game that refuses it is unchanged."""
import atheris

with atheris.instrument_imports():
    import blokus

from hostile import expect, fuzz

VARIANTS = ("classic", "classic_2", "classic_3", "classic_teams", "duo")


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    variant = VARIANTS[fdp.ConsumeIntInRange(0, len(VARIANTS) - 1)]
    text = fdp.ConsumeUnicodeNoSurrogates(64)
    ok, id_ = expect(lambda: blokus.parse_move(text, variant), ValueError)
    if ok:
        game = blokus.Game(variant)
        assert blokus.parse_move(game.move_text(id_), variant) == id_
    game = blokus.Game(variant, start="any" if fdp.ConsumeBool() else "fixed")
    before = game.copy()
    ok, _ = expect(lambda: game.play(text), ValueError)
    assert (len(game.history) == 1) if ok else game == before


if __name__ == "__main__":
    fuzz(test_one_input)
