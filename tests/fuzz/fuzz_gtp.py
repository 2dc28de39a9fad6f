"""Fuzz target: GTP command lines (bytes), answered by ``blokus.gtp``.

Every line gets nothing (empty or a comment) or one answer, ``=`` or ``?`` then a blank line;
no input ends the session. (Its file commands are left out: they would read and write
wherever the input points.)"""
import io

import atheris

with atheris.instrument_imports():
    from blokus.gtp import Engine, serve

from hostile import fuzz

# The commands that read or write files take paths: fuzzing them would touch the file system.
FILE_COMMANDS = ("loadsgf", "savesgf")


def test_one_input(data: bytes) -> None:
    engine = Engine("duo", "random", seed=1)
    for name in FILE_COMMANDS:
        del engine.commands[name]
    out = io.StringIO()
    serve(engine, io.BytesIO(data), out)
    for answer in filter(None, out.getvalue().split("\n\n")):
        assert answer[0] in "=?", answer


if __name__ == "__main__":
    fuzz(test_one_input)
