"""A whole-game review: the engine's judgement of every move of a game, as Pentobi's "Analyze
Game" shows it, in a table and a win-probability curve."""
from __future__ import annotations

import random
import secrets
from concurrent.futures import ThreadPoolExecutor, as_completed

import numpy as np

from blokus import _core
from blokus._optional import needs
from blokus.agents import Agent, MCTSAgent, Search, make_agent
from blokus.agents._mcts import available_cores
from blokus.analysis._engine import DEFAULT_SOLVE, _check_solve, _evaluation, _solution
from blokus.game import Game
from blokus.render._style import _hex, _palette
from blokus.variants import variant as variant_facts

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
# The least loss in win probability (the mover's, before the move minus after it) of each label
# for a move that is not the engine's best. A 2,000-simulation evaluation wobbles by a few
# hundredths from seed to seed, so "good" covers a loss below 0.05.
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
# Rows' keys, in order (the CSV's columns).
COLUMNS = ("ply", "colour", "colour_name", "player", "move", "id", "best_move", "best_id",
           "win_probability_before", "win_probability_after", "loss", "expected_score_before",
           "expected_score_after", "exact_before", "exact_after", "label")


def label(loss: float, best: bool) -> str:
    """The label of a move: ``"best"`` when it is the engine's choice (or, in a solved position,
    one of the moves that keep the best margin), else by its loss in win probability:
    ``"good"`` below 0.05, ``"inaccuracy"`` below 0.10, ``"mistake"`` below 0.20, ``"blunder"``
    from 0.20 on (``THRESHOLDS``)."""
    if best:
        return "best"
    if loss >= THRESHOLDS["blunder"]:
        return "blunder"
    if loss >= THRESHOLDS["mistake"]:
        return "mistake"
    return "inaccuracy" if loss >= THRESHOLDS["inaccuracy"] else "good"


class Review:
    """What ``review`` found: one row per move (``rows``, dicts with the keys of ``COLUMNS``)
    and the win probability of every player at every position (``curve``).

    Attributes
    ----------
    game : Game
        A copy of the reviewed game.
    rows : list of dict
        Per move, in play order: ``ply`` (1 for the first move), ``colour``, ``colour_name``,
        ``player`` (the mover's player, ``Game.player_to_move``), ``move`` and ``id`` (the
        move played, text and placement id), ``best_move`` and ``best_id`` (the engine's
        choice in the position before it), ``win_probability_before`` and
        ``win_probability_after`` (the mover's side's chance to win before and after the move,
        in [0, 1], as ``evaluate`` gives it; after the last move, the game's result),
        ``loss`` (before minus after; negative when the evaluation rose), ``expected_score_before``
        and ``expected_score_after`` (the mover's, ``Game.player_scores``' scale; after the
        last move its final score), ``exact_before`` and ``exact_after`` (the figure is the
        endgame solver's or the final result) and ``label`` (``blokus.analysis.review``).
    curve : ndarray, float64, shape (moves + 1, P)
        Win probability of each player in the position after ``k`` moves (row 0: the empty board).
    agent : str
        The agent's name.
    """

    def __init__(self, game: Game, rows: list[dict], curve: np.ndarray, agent: str):
        self.game, self.rows, self.curve, self.agent = game, rows, curve, agent

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __getitem__(self, index):
        return self.rows[index]

    def to_records(self) -> list[dict]:
        """The rows as a list of new dicts (``pandas.DataFrame(review.to_records())``)."""
        return [dict(row) for row in self.rows]

    def to_pandas(self):
        """The rows as a ``pandas.DataFrame`` (columns ``COLUMNS``), one row per move.

        Raises
        ------
        ModuleNotFoundError
            pandas is not installed.
        """
        import pandas

        return pandas.DataFrame(self.to_records(), columns=list(COLUMNS))

    def summary(self) -> dict:
        """Per player, the moves of each label and the mean loss in win probability:
        ``{player: {"moves": n, "best": n, ..., "blunder": n, "mean_loss": x}}``."""
        out: dict[int, dict] = {}
        for row in self.rows:
            entry = out.setdefault(row["player"], {"moves": 0, **{name: 0 for name in LABELS}, "mean_loss": 0.0})
            entry["moves"] += 1
            entry[row["label"]] += 1
            entry["mean_loss"] += max(row["loss"], 0.0)
        for entry in out.values():
            entry["mean_loss"] /= entry["moves"]
        return out

    def __str__(self) -> str:
        lines = [f"{'ply':>4} {'colour':<7} {'move':<24} {'best':<24} {'before':>6} {'after':>6} {'loss':>6}  label"]
        for r in self.rows:
            lines.append(f"{r['ply']:>4} {r['colour_name']:<7} {r['move']:<24} {r['best_move']:<24} "
                         f"{r['win_probability_before']:>6.3f} {r['win_probability_after']:>6.3f} "
                         f"{r['loss']:>6.3f}  {r['label']}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        marked = sum(r["label"] in ("mistake", "blunder") for r in self.rows)
        return (f"<blokus.analysis.Review {self.game.variant!r}: {len(self.rows)} moves, "
                f"{marked} mistakes or blunders, agent {self.agent!r}>")

    def plot(self, ax=None, player: int = 0):
        """The win-probability curve of ``player`` over the game (x: moves played), with the
        mistakes (triangles) and blunders (crosses) of every colour marked on it in the colour's
        colour; matplotlib (``pip install "blokus[plot]"``).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Drawn into; default a new figure's.
        player : int
            Whose chance the curve shows, in [0, P).

        Returns
        -------
        matplotlib Axes

        Raises
        ------
        ValueError
            ``player`` out of range.
        ModuleNotFoundError
            matplotlib is not installed.
        """
        with needs("plot", "Review.plot"):
            import matplotlib.pyplot as plt
        if not isinstance(player, (int, np.integer)) or not 0 <= player < self.curve.shape[1]:
            raise ValueError(f"player must be in [0, {self.curve.shape[1]}), not {player!r}")
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 3))
        plies = np.arange(len(self.curve))
        ax.plot(plies, self.curve[:, player], color="0.2", lw=1.5, label=f"player {player}")
        ax.axhline(0.5, color="0.7", lw=0.8)
        palette = _palette(self.game)
        for name, marker in (("mistake", "v"), ("blunder", "X")):
            marked = [r for r in self.rows if r["label"] == name]
            if marked:  # after the move: where the curve shows what it cost
                ax.scatter([r["ply"] for r in marked], [self.curve[r["ply"], player] for r in marked],
                           marker=marker, s=64, c=[_hex(palette[r["colour"]]) for r in marked],
                           edgecolors="black", zorder=3, label=name)
        ax.set(xlim=(0, max(len(self.curve) - 1, 1)), ylim=(-0.02, 1.02), xlabel="moves played",
               ylabel=f"player {player}'s win probability",
               title=f"{self.game.variant}: review by {self.agent}")
        ax.legend(loc="best", fontsize=8)
        return ax

    def sgf(self) -> str:
        """The game as Blokus SGF with the review in each move's comment (``C[]``, which Pentobi
        shows beside the board): the mover's win probability before and after, the loss, the
        label and, when not played, the engine's best move."""
        from blokus.sgf import dumps
        from blokus.sgf._syntax import _escape

        # dumps writes the root node then ";X[cells]" per move; no value of ours holds a ";"
        root, *moves = dumps(self.game, C=f"Reviewed by blokus, agent {self.agent}")[1:-1].split(";")[1:]
        nodes = [f";{node}C[{_escape(_comment(row))}]" for node, row in zip(moves, self.rows)]
        return "(;" + root + "".join(nodes) + ")"


def _comment(row: dict) -> str:
    text = (f"{row['colour_name']}: win probability {row['win_probability_before']:.0%} -> "
            f"{row['win_probability_after']:.0%} ({row['label']})")
    if row["best_id"] != row["id"]:
        text += f"; best {row['best_move']}"
    return text


def _options(agent: str | Agent) -> tuple[dict, str]:
    """The search options of the agent and its name."""
    if isinstance(agent, str) and agent.strip().split(":")[0] in ("mcts", "level"):  # level:N is an MCTS budget
        agent = make_agent(agent)
    if isinstance(agent, MCTSAgent):
        return dict(agent.options), agent.name
    raise ValueError(f"review needs an MCTS agent: an agent string 'mcts' or 'mcts:key=value...' "
                     f"(e.g. 'mcts:sims=2000') or an MCTSAgent, not {agent!r}")


def _position_seed(seed: int | None, ply: int) -> int:
    """The search seed of the position after ``ply`` moves: from the review's seed and the ply
    alone, so that the review does not depend on which worker searched what."""
    if seed is None:
        return secrets.randbits(64)
    return random.Random(f"review {seed} {ply}").getrandbits(64)


def _judge(position: Game, options: dict, seed: int, calibrated: bool,
           solve: int) -> tuple[list[dict], tuple[int, ...]]:
    """evaluate's records of a position and the engine's best moves there (the search's choice,
    or every move the solver proved best)."""
    found = Search(*_core.mcts(position, seed=seed, tree=None, **options))
    solution = _solution(position, solve, all_best=True)
    best = solution.best_moves if solution is not None else (int(found.ids[0]),)
    return _evaluation(position, found, calibrated, solution), best


def _final(game: Game) -> list[dict]:
    """The records of a finished game: each player's share of the win and its score, exact."""
    winners = set(game.winners())
    sides = variant_facts(game.variant).player_sides
    won = len({sides[p] for p in winners})
    return [{"win_probability": (1.0 / won if p in winners else 0.0), "expected_score": float(score), "exact": True}
            for p, score in enumerate(game.player_scores())]


def review(game: Game, agent: str | MCTSAgent = "mcts:sims=2000", *, seed: int | None = None,
           workers: int | None = None, solve: int = DEFAULT_SOLVE, calibrated: bool = True,
           progress: bool | None = None) -> Review:
    """Reviews every move of a game: the engine's evaluation of each position (as ``evaluate``
    gives it: calibrated, or exact where the endgame solver settles it), the move it would have
    played, and how much win probability the move played gave away, labelled.

    Every position of the game is searched once, by the agent's search threads (by default
    every core, as ``evaluate``'s, whose calibration map assumes them) and ``workers``
    positions at a time (the search runs in C without the GIL); a move's "after" is the next
    position's evaluation. At the default budget a 30-move Duo game takes about 3 seconds on
    two cores (``benchmarks/README.md``).

    Parameters
    ----------
    game : Game
        Any variant, finished or not; not changed. Its moves are replayed from the empty board.
    agent : str or MCTSAgent
        An MCTS agent string (``"mcts:sims=2000"``, the default, as ``evaluate``'s) or an
        ``MCTSAgent``, whose search options are used (its seed and kept tree are not).
    seed : int or None
        Makes the review reproducible for a given agent (each position's search is seeded from
        it and the ply); None: fresh entropy.
    workers : int or None
        Positions searched at once; default: the cores this process may use divided by the
        agent's threads (at least 1; so 1 for an agent string that does not name ``threads``,
        and 2 on two cores for ``"mcts:sims=2000:threads=1"``).
    solve : int
        The endgame solve's budget per position, as in ``evaluate`` (0: never).
    calibrated : bool
        Calibrated win probabilities (the default) or the search's raw figures, as in
        ``evaluate``.
    progress : bool or None
        A progress bar (tqdm) on stderr; None: when stderr is a terminal.

    Returns
    -------
    Review
        ``rows`` (one per move; ``to_pandas()``, ``to_records()``), ``curve``, ``plot()``,
        ``sgf()``, ``summary()``. Labels (``label``): ``"best"`` for the engine's own choice
        (or any move the solver proved to keep the best margin); otherwise by the loss in
        win probability: ``"good"`` < 0.05 <= ``"inaccuracy"`` < 0.10 <= ``"mistake"`` <
        0.20 <= ``"blunder"``.

    Raises
    ------
    TypeError
        ``game`` is not a ``blokus.Game``, ``seed`` not an int or None, or ``workers`` or
        ``solve`` not an int.
    ValueError
        ``agent`` is not an MCTS agent (or a bad agent string), ``workers`` < 1, or ``solve``
        negative.
    """
    if not isinstance(game, _core.Game):
        raise TypeError(f"review() needs a blokus.Game, not {type(game).__name__}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    options, name = _options(agent)
    _check_solve(solve)
    if workers is None:
        workers = max(1, available_cores() // options["threads"])
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise TypeError(f"workers must be an int, not {type(workers).__name__}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, not {workers}")
    game = game.copy()
    positions = _positions(game)
    judged = _search_all(positions, options, seed, calibrated, solve, workers, progress)
    curve = np.array([[r["win_probability"] for r in (j[0] if j else _final(p))]
                      for j, p in zip(judged, positions)], dtype=np.float64).reshape(len(positions), -1)
    return Review(game, _rows(game, positions, judged), curve, name)


def _rows(game: Game, positions: list[Game], judged: list) -> list[dict]:
    """Review's rows: each move judged by the evaluations of the positions before and after it."""
    rows = []
    for ply, ((colour, move), position) in enumerate(zip(game.history, positions[:-1])):
        mover = int(position.player_to_move)
        before, best = judged[ply]
        after = judged[ply + 1][0] if positions[ply + 1].to_move >= 0 else _final(positions[ply + 1])
        loss = before[mover]["win_probability"] - after[mover]["win_probability"]
        rows.append({
            "ply": ply + 1, "colour": int(colour), "colour_name": game.colour_name(int(colour)),
            "player": mover, "move": game.move_text(int(move)), "id": int(move),
            "best_move": game.move_text(best[0]), "best_id": int(best[0]),
            "win_probability_before": before[mover]["win_probability"],
            "win_probability_after": after[mover]["win_probability"], "loss": loss,
            "expected_score_before": before[mover]["expected_score"],
            "expected_score_after": after[mover]["expected_score"],
            "exact_before": before[mover]["exact"], "exact_after": after[mover]["exact"],
            "label": label(loss, int(move) in best),
        })
    return rows


def _positions(game: Game) -> list[Game]:
    """The position after each number of moves, 0 to all."""
    replay = Game(game.variant, start=game.start)
    out = [replay.copy()]
    for _, move in game.history:
        replay.play(int(move))
        out.append(replay.copy())
    return out


def _search_all(positions: list[Game], options: dict, seed: int | None, calibrated: bool, solve: int,
                workers: int, progress: bool | None) -> list:
    """_judge of every position where a colour is to move (None for a finished game's last)."""
    from tqdm import tqdm

    todo = [ply for ply, p in enumerate(positions) if p.to_move >= 0]
    judged: list = [None] * len(positions)
    with ThreadPoolExecutor(workers) as pool, tqdm(total=len(todo), unit=" positions", desc="review",
                                                   dynamic_ncols=True,
                                                   disable=None if progress is None else not progress) as bar:
        futures = {pool.submit(_judge, positions[ply], options, _position_seed(seed, ply), calibrated, solve): ply
                   for ply in todo}
        try:
            for future in as_completed(futures):
                judged[futures[future]] = future.result()
                bar.update(1)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return judged
