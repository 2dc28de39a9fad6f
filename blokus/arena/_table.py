"""What the results of ``match`` and ``tournament`` share: a table of rows, as dicts, columns or a
pandas DataFrame, and a readable repr."""
from __future__ import annotations

import abc

from blokus._optional import needs


class Table(abc.ABC):
    """A table with one row per agent: ``rows()`` (list of dict), ``to_dict()`` (dict of
    columns, what ``pandas.DataFrame`` takes), ``to_pandas()``; ``str()`` and ``repr()`` print it
    with its notes. Subclasses set ``COLUMNS`` and ``rows()``."""

    COLUMNS: tuple[str, ...] = ()

    @abc.abstractmethod
    def rows(self) -> list[dict]:
        """The table: one dict per row, with the keys ``COLUMNS``."""

    def to_dict(self) -> dict[str, list]:
        """The table by column: ``{column: [value per row]}`` in ``COLUMNS`` order."""
        rows = self.rows()
        return {column: [row[column] for row in rows] for column in self.COLUMNS}

    def to_pandas(self):
        """The table as a ``pandas.DataFrame`` (one row per agent, ``COLUMNS`` as columns).

        Raises
        ------
        ModuleNotFoundError
            pandas is not installed (``pip install "blokus[pandas]"``).
        """
        with needs("pandas", f"{type(self).__name__}.to_pandas"):
            import pandas
        return pandas.DataFrame(self.rows(), columns=list(self.COLUMNS))

    def __repr__(self) -> str:
        return str(self)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"
