"""The opponent ladder: ``level:N``, our search at a budget meant to play as Pentobi's level N."""
from __future__ import annotations

from blokus.agents._mcts import MCTSAgent
from blokus.agents._params import _check

# Simulations per move of ``level:N`` (index N - 1), each search with early_stop=1 on one thread
# and without the static evaluation (evaluation=0), as the levels were measured.
# Levels 1-7 measured in Duo against `pentobi-gtp --nobook --noresign -l N` (benchmarks/README.md,
# "Ladder": each scored 40-60% over at least 40 games); 8 and 9 extrapolated: Pentobi's own
# counts (1,109,339 and 5,546,695) scaled as level 7's is (200,000 / 221,867), rounded. The same
# counts serve every variant; only Duo's were compared with Pentobi.
LEVEL_SIMULATIONS = (2, 21, 100, 320, 1_000, 9_000, 200_000, 1_000_000, 5_000_000)
MEASURED_LEVELS = (1, 2, 3, 4, 5, 6, 7)


class LevelAgent(MCTSAgent):
    """``level:N``: ``MCTSAgent`` at the budget of rung N of the ladder, N in 1..9, meant to play
    as Pentobi's level N in Duo (``LEVEL_SIMULATIONS[N - 1]`` simulations per move,
    ``early_stop=1``, one thread, so that a seed gives the same moves on any machine, and
    ``evaluation=0``: the playouts alone, as the ladder was measured before the search mixed in its
    static evaluation, which makes a small budget stronger).

    Measured against Pentobi: levels 1-7 (``MEASURED_LEVELS``: each scored 40-60% against the
    same Pentobi level in Duo over at least 40 games; ``benchmarks/README.md``, "Ladder");
    levels 8 and 9 are extrapolated from Pentobi's own simulation counts, not measured. Other
    variants use the same budgets, not compared with Pentobi. A move costs about as much CPU as Pentobi's at that level:
    milliseconds up to level 5, about 0.1 s at 6, 1-2 s at 7, and far more at 8 and 9.

    Raises
    ------
    ValueError
        ``level`` not an integer in 1..9.
    """

    def __init__(self, level: int, *, seed: int | None = None):
        _check(isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= len(LEVEL_SIMULATIONS),
               "level", level, f"an integer in 1..{len(LEVEL_SIMULATIONS)} (Pentobi's levels)")
        super().__init__(LEVEL_SIMULATIONS[level - 1], early_stop=1.0, evaluation=0.0, threads=1, seed=seed)
        self.level = level
        self.name = f"level:{level}"
