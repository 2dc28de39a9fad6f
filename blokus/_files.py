"""Files opened by a name a user or a peer gave: regular files only, never waited on, read up to
a cap. A FIFO blocks open() or read() until a writer comes, a device such as /dev/zero never
ends, and opening some devices acts on them: each is refused with a ValueError saying what the
name is, before anything is read or written."""
from __future__ import annotations

import os
import stat

# What a name can be besides a regular file, as the refusals say it.
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _not_regular(mode: int) -> str | None:
    """What a file of ``mode`` (``st_mode``) is if it is not a regular file, as a refusal says it."""
    if stat.S_ISREG(mode):
        return None
    return "not a regular file but " + next((name for is_kind, name in _KINDS if is_kind(mode)), "of an unknown kind")


def not_regular(path: str | os.PathLike) -> str | None:
    """What is wrong with ``path`` as a file to read or replace ("not a regular file but a
    directory", ...), or None when it is a regular file or missing."""
    try:
        return _not_regular(os.stat(path).st_mode)
    except FileNotFoundError:
        return None


def open_regular(path: str | os.PathLike, flags: int) -> int:
    """A blocking descriptor of the regular file ``path`` opened with ``flags`` (``os.O_*``;
    with ``os.O_CREAT`` a missing file is made, mode 0o666 less the umask). A name that is
    something else is refused by its ``os.stat`` before any open, and by the opened file's
    ``fstat`` in case the name changed in between (that open does not wait: ``O_NONBLOCK``).

    Raises
    ------
    OSError
        The file cannot be opened (missing, no permission, ...).
    ValueError
        Not a regular file: "not a regular file but a FIFO (named pipe)", ...
    """
    problem = not_regular(path)  # None for a missing file: os.open creates it, or says it is missing
    if problem:
        raise ValueError(problem)
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    problem = _not_regular(os.fstat(fd).st_mode)
    if problem:
        os.close(fd)
        raise ValueError(problem)
    os.set_blocking(fd, True)
    return fd


def read_regular(path: str | os.PathLike, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, refused beyond ``limit`` bytes (None: no cap).

    Raises
    ------
    OSError
        The file cannot be opened or read.
    ValueError
        Not a regular file, or larger than ``limit`` (read no further than ``limit + 1``).
    """
    with os.fdopen(open_regular(path, os.O_RDONLY), "rb") as f:
        data = f.read() if limit is None else f.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise ValueError(f"larger than {limit} bytes")
    return data


def write_regular(path: str | os.PathLike, data: bytes) -> None:
    """Replaces the contents of the regular file ``path`` (created if missing) by ``data``.

    Raises
    ------
    OSError
        The file cannot be opened or written.
    ValueError
        ``path`` names something else than a regular file; it is left as it was.
    """
    with os.fdopen(open_regular(path, os.O_WRONLY | os.O_CREAT), "wb") as f:
        f.truncate()  # only now: O_TRUNC at open would act before the file was checked
        f.write(data)
