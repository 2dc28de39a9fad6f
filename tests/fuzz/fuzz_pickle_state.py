"""Fuzz target: the state a pickled ``Game`` is rebuilt from (variant, start rule, moves).

A state either rebuilds a game that pickles back to an equal one, or raises
``ValueError``/``TypeError``. (Unpickling arbitrary bytes runs arbitrary code by design; what is
ours to check is the state our ``__reduce__`` hands back.)"""
import pickle

import atheris

with atheris.instrument_imports():
    import blokus
    from blokus.game import _restore

from hostile import expect, fuzz, hostile_integer

NAMES = ("classic", "classic_2", "classic_3", "classic_teams", "duo", "any", "fixed", "", "Duo")


def move(fdp: atheris.FuzzedDataProvider, moves: list):
    kind = fdp.ConsumeIntInRange(0, 3)
    if kind == 0:
        return fdp.ConsumeIntInRange(-5, 31000)
    if kind == 1:
        return fdp.ConsumeUnicodeNoSurrogates(12)
    if kind == 2:
        return [(hostile_integer(fdp, [moves]), hostile_integer(fdp, [moves]))]
    return hostile_integer(fdp, [moves])


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    variant, start = (NAMES[fdp.ConsumeIntInRange(0, len(NAMES) - 1)] for _ in range(2))
    moves: list = []
    for _ in range(fdp.ConsumeIntInRange(0, 12)):
        moves.append(move(fdp, moves))
    ok, game = expect(lambda: _restore(blokus.Game, variant, start, moves), ValueError, TypeError)
    if ok:
        again = pickle.loads(pickle.dumps(game))
        assert again == game and again.history == game.history


if __name__ == "__main__":
    fuzz(test_one_input)
