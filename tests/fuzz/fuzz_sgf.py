"""Fuzz target: SGF text and bytes, read by ``blokus.sgf.records``.

Every record either replays to games whose own SGF reads back to the same games, or raises
``ValueError`` with a message of bounded length."""
import atheris

with atheris.instrument_imports():
    from blokus import sgf

from hostile import expect, fuzz


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    text = fdp.ConsumeBytes(fdp.remaining_bytes()) if fdp.ConsumeBool() else fdp.ConsumeUnicodeNoSurrogates(4096)
    ok, result = expect(lambda: sgf.records(text), ValueError)
    if not ok:
        assert len(str(result)) < 1000, "an error message echoes too much of its input"
        return
    for game, _ in result:
        again = sgf.loads(sgf.dumps(game))
        assert again == game and again.history == game.history


if __name__ == "__main__":
    fuzz(test_one_input)
