"""Position analysis for notebooks: per-colour metrics, their timeline over a game, what the
engine would play and how the position stands (``move_values``, ``evaluate``: calibrated win
probabilities), the exact value of an endgame (``solve``, which returns a ``Solution``) and the
review of a whole game (``review``, which returns a ``Review``).

The other functions return plain Python lists of dicts (one record per row), so
``pandas.DataFrame(records)`` works directly without pandas being a dependency:

>>> import blokus, blokus.analysis as an
>>> game = blokus.Game("duo", start="fixed")
>>> game.play("e10")
>>> [row["mobility"] for row in an.metrics(game)]
[496, 414]
>>> rows = an.timeline(game)          # long format: one row per (ply, colour)
>>> # pandas.DataFrame(rows).pivot(index="ply", columns="colour_name", values="reachable")

Definitions (docs/rules.md, "Placing a piece", for attachment points and the edge rule):

- **forbidden cells** of a colour: empty cells sharing an edge with one of its own cells (rule 3:
  it can never cover them). Its **open cells** are the empty cells that are not forbidden.
- **reachable** cells of a colour: open cells connected to one of its attachment points by a
  chain of 8-neighbour steps (edge or corner) through its open cells. Before its first piece the
  attachment points are the free starting squares open to it ("Starting squares"). The corner
  step is what lets a chain of pieces link corner to corner. This is an *upper bound* on the
  cells the colour can still cover, and nothing else is capped: it ignores which pieces are left,
  how many squares they hold, whether a piece fits, and cells the other colours take later. A
  colour that is out (mobility 0) never covers anything again, even where reachable > 0.
- **distance** of a reachable cell: the least number of 8-neighbour steps from an attachment
  point through the colour's open cells (0 on an attachment point).
- **territory** of a colour: its reachable cells that it reaches at a strictly smaller distance
  than every other colour (a cell another colour cannot reach counts as infinitely far for it);
  ties count for nobody. Territories of different colours are disjoint and each lies within the
  colour's reachable cells.
"""
from blokus.analysis._engine import evaluate, move_values
from blokus.analysis._metrics import metrics, timeline
from blokus.analysis._reach import distances, reachable, territory
from blokus.analysis._review import Review, review
from blokus.analysis._solver import Solution, solve

__all__ = ["Review", "Solution", "distances", "evaluate", "metrics", "move_values", "reachable", "review", "solve",
           "territory", "timeline"]
