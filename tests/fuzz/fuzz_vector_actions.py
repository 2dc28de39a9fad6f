"""Fuzz target: actions given to ``VectorGame.step`` and ``step_with_opponents``: any dtype,
shape and values, masked arrays and lists of hostile ints.

A call either steps every live game once or raises ``TypeError``/``ValueError`` with the batch
unchanged."""
import atheris
import numpy as np

with atheris.instrument_imports():
    import blokus

from hostile import expect, fuzz, hostile_integer

DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64, np.float64, np.bool_, object)


def actions(fdp: atheris.FuzzedDataProvider, games: blokus.VectorGame):
    n = games.num_envs + fdp.ConsumeIntInRange(-1, 1)
    if fdp.ConsumeIntInRange(0, 3) == 0:
        items: list = []
        items.extend(hostile_integer(fdp, [items]) for _ in range(max(n, 0)))
        return items
    legal = games.legal_ids()
    values = [int(legal[i % games.num_envs, 0]) if fdp.ConsumeBool() else fdp.ConsumeIntInRange(-3, 2**16)
              for i in range(max(n, 0))]
    array = np.array(values).astype(DTYPES[fdp.ConsumeIntInRange(0, len(DTYPES) - 1)])
    if fdp.ConsumeBool():
        array = array.reshape(1, -1)
    if fdp.ConsumeBool():
        array = np.ma.masked_array(array, mask=np.zeros(array.shape, bool))
    return array


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    games = blokus.VectorGame(fdp.ConsumeIntInRange(1, 3), "duo" if fdp.ConsumeBool() else "classic_2",
                              seed=fdp.ConsumeIntInRange(0, 9), num_threads=1)
    for _ in range(fdp.ConsumeIntInRange(0, 2)):
        games.step_policy("random")
    board, ply = games.board.copy(), games.ply.copy()
    given = actions(fdp, games)
    with_opponents = fdp.ConsumeBool()
    call = (lambda: games.step_with_opponents(given, "random", seat=0)) if with_opponents else (
        lambda: games.step(given))
    ok, _ = expect(call, TypeError, ValueError)
    if not ok:
        assert (games.board == board).all() and (games.ply == ply).all()
    elif not with_opponents:
        assert ((games.ply == ply + 1) | (games.ply == 0)).all()


if __name__ == "__main__":
    fuzz(test_one_input)
