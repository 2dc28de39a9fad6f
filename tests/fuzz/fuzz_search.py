"""Fuzz target: evaluations given to ``BatchedSearch.evaluate`` (any dtype, shape and numbers:
NaN, infinities, negatives, values outside [0, 1], the two-player (K,) form) and the paths given
to ``children`` (lists of hostile ints), in searches whose real parameters are at the ends of
their ranges or beyond (denormal, tiny, huge).

An evaluation either is taken (the search moves on) or raises ``TypeError``/``ValueError`` with
the search unchanged: the same visit counts, the same leaves still pending."""
import atheris
import numpy as np

with atheris.instrument_imports():
    import blokus
    from blokus.search import BatchedSearch

from hostile import expect, fuzz, hostile_integer

DTYPES = (np.float32, np.float64, np.float16, np.int8, np.int64, np.uint8, np.bool_, np.complex64, object)
SPECIALS = (0.0, 1.0, 0.5, -0.0, -1.0, 2.0, np.nan, np.inf, -np.inf, 1e-40, 3e38)
# c_puct, dirichlet_alpha and dirichlet_fraction: allowed (in part) and not
PARAMETERS = (5e-324, 1e-300, 0.3, 1.0, 1e300, 1.7976931348623157e308, 0.0, -5e-324, np.inf, np.nan)


def numbers(fdp: atheris.FuzzedDataProvider, shape, good: np.ndarray):
    """`good` (the right shape), changed in one of many ways the fuzzer picks."""
    array = good.copy()
    if array.size and fdp.ConsumeBool():
        flat = array.reshape(-1)
        for _ in range(fdp.ConsumeIntInRange(1, 3)):
            flat[fdp.ConsumeIntInRange(0, flat.size - 1)] = SPECIALS[fdp.ConsumeIntInRange(0, len(SPECIALS) - 1)]
    kind = fdp.ConsumeIntInRange(0, 5)
    if kind == 1:
        array = array.reshape(-1)
    elif kind == 2:
        array = array[: max(0, len(array) - 1)]
    elif kind == 3:
        array = np.concatenate([array, array[:1]])
    elif kind == 4:
        array = array[..., :-1] if array.ndim > 1 else array[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        return array.astype(DTYPES[fdp.ConsumeIntInRange(0, len(DTYPES) - 1)])


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    variant = ("duo", "classic_3", "classic_2")[fdp.ConsumeIntInRange(0, 2)]
    games = [blokus.Game(variant, start="fixed") for _ in range(fdp.ConsumeIntInRange(1, 3))]
    real = [PARAMETERS[fdp.ConsumeIntInRange(0, len(PARAMETERS) - 1)] for _ in range(3)]
    ok, search = expect(lambda: BatchedSearch(games, simulations=fdp.ConsumeIntInRange(1, 4),
                                              seed=fdp.ConsumeIntInRange(0, 9), fpu=None if fdp.ConsumeBool() else 0.5,
                                              c_puct=real[0], dirichlet_alpha=real[1], dirichlet_fraction=real[2]),
                        ValueError)
    if not ok:
        assert not (0 <= real[0] < np.inf and 0 < real[1] < np.inf and 0 <= real[2] <= 1)
        return
    players = games[0].num_players
    for _ in range(fdp.ConsumeIntInRange(1, 6)):
        if search.done:
            break
        request = search.pending()
        k = len(request.games)
        good_priors = request.masks.astype(np.float32)
        mover_values = players == 2 and fdp.ConsumeBool()
        good_values = np.full(k if mover_values else (k, players), 0.5, np.float32)
        priors, values = numbers(fdp, None, good_priors), numbers(fdp, None, good_values)
        counts = search.visit_counts()
        ok, _ = expect(lambda: search.evaluate(priors, values), TypeError, ValueError)
        if not ok:
            assert (search.visit_counts() == counts).all()
            assert (search.pending().masks == request.masks).all()
        path: list = []
        path.extend(hostile_integer(fdp, [path]) for _ in range(fdp.ConsumeIntInRange(0, 3)))
        expect(lambda: search.children(fdp.ConsumeIntInRange(-1, 3), path), TypeError, ValueError, KeyError)


if __name__ == "__main__":
    fuzz(test_one_input)
