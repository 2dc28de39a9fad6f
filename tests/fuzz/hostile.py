"""What the fuzz targets share: values built from the fuzzer's bytes, including the hostile ones
(ints whose ``__index__`` changes the container being read, or raises), and the one check every
target makes: a call either succeeds or raises one of the exceptions its API documents."""
import atheris


class MutatingIndex:
    """An int whose ``__index__`` first does something to a container (once)."""

    def __init__(self, value, action):
        self.value, self.action = value, action

    def __index__(self):
        action, self.action = self.action, None
        if action:
            action()
        return self.value


class RaisingIndex:
    def __index__(self):
        raise ArithmeticError("from __index__")


def integer(fdp: atheris.FuzzedDataProvider):
    """A small int, a huge one, a negative one or a bool, as the next byte picks."""
    kind = fdp.ConsumeIntInRange(0, 7)
    if kind == 0:
        return fdp.ConsumeIntInRange(-(2**70), 2**70)
    if kind == 1:
        return fdp.ConsumeBool()
    return fdp.ConsumeIntInRange(-2, 22)


def hostile_integer(fdp: atheris.FuzzedDataProvider, containers: list):
    """An int, or an object that changes one of `containers` (lists) or raises when read."""
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind == 0 and containers:
        target = containers[fdp.ConsumeIntInRange(0, len(containers) - 1)]
        change = fdp.ConsumeIntInRange(0, 2)
        action = (target.clear if change == 0 else (lambda: target.pop() if target else None) if change == 1
                  else (lambda: target.extend([(0, 0)] * 3)))
        return MutatingIndex(fdp.ConsumeIntInRange(-1, 20), action)
    if kind == 1:
        return RaisingIndex()
    return integer(fdp)


def containers(fdp: atheris.FuzzedDataProvider, most: int, inner: tuple[int, int]) -> list:
    """A list of up to ``most`` lists or tuples, each of ``inner`` (a range) hostile integers
    that may change the outer list or their own while they are read."""
    outer: list = []
    for _ in range(fdp.ConsumeIntInRange(0, most)):
        items: list = []
        for _ in range(fdp.ConsumeIntInRange(*inner)):
            items.append(hostile_integer(fdp, [outer, items]))
        outer.append(tuple(items) if fdp.ConsumeBool() else items)
    return outer


def expect(call, *allowed):
    """call() -> (True, result), or (False, exception) for an exception of the `allowed` types
    (plus the ArithmeticError a RaisingIndex raises); anything else propagates: a finding."""
    try:
        return True, call()
    except (*allowed, ArithmeticError) as exc:
        return False, exc


def fuzz(test_one_input):
    """The command-line entry of a target: ``python fuzz_x.py CORPUS_DIR... -runs=N``.

    The C core is built by gcc, without libFuzzer's coverage counters, so the coverage that guides
    the fuzzer is that of the Python code loaded so far (the package and these targets)."""
    import sys

    atheris.instrument_all()
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
