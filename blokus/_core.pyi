"""Types of the C extension blokus._core (csrc/python/); the documented API is the package blokus.

NumPy typing carries dtypes, not shapes: each array's shape is in its comment. Letters: A placement ids
of the variant, H x W the board, C colours, P players, N games of a VectorGame, B games of a
BatchedSearch, K leaves pending, n rows. tests/test_stub.py checks that this file and the module name
the same things.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray
from typing_extensions import CapsuleType, Self

# A move: a placement id, its text ("a20,b20,c20") or its cells as (row, col) pairs.
_Move: TypeAlias = int | str | Iterable[tuple[int, int]]
# A built-in policy: "random" or "greedy".
_Policy: TypeAlias = str
# A piece kind to pack: (piece index, colour, count).
_PackKind: TypeAlias = tuple[int, int, int]

MCTS_DEFAULTS: Final[Mapping[str, Any]]  # float, bool or int by parameter
NUM_ORIENTATIONS: Final[int]  # 91 distinct orientations of the 21 pieces
PACK_LIMITS: Final[dict[str, int]]
PIECE_NAMES: Final[tuple[str, ...]]  # 21 names, in piece index order
PIECE_SIZES: Final[tuple[int, ...]]  # 21 sizes in squares, in PIECE_NAMES order
PRIOR_FEATURES: Final[tuple[str, ...]]  # names of prior_features' columns
START_RULES: Final[tuple[str, ...]]  # ("any", "fixed")
TOTAL_SQUARES: Final[int]  # 89, the squares of the 21 pieces
VARIANTS: Final[tuple[str, ...]]

class IllegalMoveError(ValueError):
    """A move that breaks a rule of Blokus; the message names the rule."""

class InvalidMoveError(ValueError):
    """A move that names no placement at all: unreadable text, or cells that are not a piece."""

class Game:
    def __new__(cls, variant: str = "classic", *, start: str = "any") -> Self: ...
    def __eq__(self, value: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    def legal_moves(self, colour: int | None = None) -> NDArray[np.int32]: ...  # (n,) ascending
    def legal_mask(self, colour: int | None = None) -> NDArray[np.bool_]: ...  # (A,)
    def play(self, move: _Move) -> None: ...
    def attachment_points(self, colour: int | None = None) -> NDArray[np.bool_]: ...  # (H, W)
    def observation(self, colour: int | None = None) -> NDArray[np.int8]: ...  # (C + 1, H, W)
    def remaining_from(self, colour: int | None = None) -> NDArray[np.int8]: ...  # (C, 21)
    def is_legal(self, move: _Move) -> bool: ...
    def open_starting_squares(self, colour: int | None = None) -> list[tuple[int, int]]: ...
    def undo(self) -> None: ...
    def is_out(self, colour: int, /) -> bool: ...
    def copy(self) -> Self: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: object, /) -> Self: ...
    def scores(self) -> list[int]: ...  # one per colour
    def player_scores(self) -> list[int]: ...  # one per player
    def winners(self) -> list[int]: ...  # player indices, ascending
    def move_text(self, id: int, /) -> str: ...
    @property
    def board(self) -> NDArray[np.int8]: ...  # (H, W) live view: -1 empty, else the colour
    @property
    def remaining(self) -> NDArray[np.bool_]: ...  # (C, 21) live view
    @property
    def to_move(self) -> int: ...  # -1 once over
    @property
    def player_to_move(self) -> int: ...  # -1 once over
    @property
    def is_over(self) -> bool: ...
    @property
    def num_colours(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_placements(self) -> int: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    @property
    def variant(self) -> str: ...
    @property
    def start(self) -> str: ...
    @property
    def key(self) -> int: ...  # Zobrist hash
    @property
    def history(self) -> list[tuple[int, int]]: ...  # (colour, placement id) in order

class VectorGame:
    def __new__(cls, num_envs: int, variant: str = "duo", *, start: str = "fixed", num_threads: int = 1,
                seed: int = 0) -> Self: ...
    def step(self, actions: ArrayLike, /) -> None: ...  # (N,) placement ids
    def step_policy(self, policy: _Policy, /) -> None: ...
    def step_with_opponents(self, actions: ArrayLike, opponent: _Policy = "greedy", seat: int = 0,
                            forfeit: ArrayLike | None = None) -> None: ...  # actions, forfeit: (N,)
    def restart_done(self, opponent: _Policy = "greedy", seat: int = 0) -> None: ...
    def play_opponents(self, opponent: _Policy = "greedy", seat: int = 0) -> None: ...
    def reset(self, seed: int = 0) -> None: ...
    def legal_ids(self) -> NDArray[np.int32]: ...  # (N, max num_legal), padded with -1
    def legal_bits(self) -> NDArray[np.uint8]: ...  # (N, ceil(A / 8)), numpy.packbits order
    @property
    def board(self) -> NDArray[np.int8]: ...  # (N, H, W)
    @property
    def to_move(self) -> NDArray[np.int8]: ...  # (N,)
    @property
    def legal_mask(self) -> NDArray[np.bool_]: ...  # (N, A)
    @property
    def num_legal(self) -> NDArray[np.int32]: ...  # (N,)
    @property
    def observation(self) -> NDArray[np.int8]: ...  # (N, C + 1, H, W)
    @property
    def remaining(self) -> NDArray[np.int8]: ...  # (N, C, 21)
    @property
    def scores(self) -> NDArray[np.int16]: ...  # (N, C)
    @property
    def done(self) -> NDArray[np.bool_]: ...  # (N,)
    @property
    def ply(self) -> NDArray[np.int32]: ...  # (N,)
    @property
    def episode_length(self) -> NDArray[np.int32]: ...  # (N,)
    @property
    def episode_scores(self) -> NDArray[np.int16]: ...  # (N, C)
    @property
    def episode_winners(self) -> NDArray[np.bool_]: ...  # (N, P)
    @property
    def episodes(self) -> NDArray[np.int64]: ...  # (N,)
    @property
    def num_envs(self) -> int: ...
    @property
    def num_threads(self) -> int: ...
    @property
    def variant(self) -> str: ...
    @property
    def start(self) -> str: ...

class BatchedSearch:
    def __new__(cls, games: Sequence[Game], *, simulations: int = 64, c_puct: float = 1.25,
                fpu: float | None = None, dirichlet_alpha: float = 0.3, dirichlet_fraction: float = 0.25,
                seed: int = 0) -> Self: ...
    # (games int64 (K,), observations int8 (K, C + 1, H, W), remaining int8 (K, C, 21), masks bool (K, A),
    # colours int8 (K,), players int8 (K,))
    def _pending(self) -> tuple[NDArray[np.int64], NDArray[np.int8], NDArray[np.int8], NDArray[np.bool_],
                                NDArray[np.int8], NDArray[np.int8]]: ...
    def evaluate(self, priors: ArrayLike, values: ArrayLike) -> None: ...  # (K, A); (K, P) or (K,)
    def visit_counts(self) -> NDArray[np.int32]: ...  # (B, A)
    def root_values(self) -> NDArray[np.float32]: ...  # (B, P)
    def best_moves(self) -> NDArray[np.int32]: ...  # (B,)
    # (ids int32, priors float32, visits int32, values float32), each (n,)
    def children(self, game: int, moves: Sequence[int] = ()) -> tuple[
        NDArray[np.int32], NDArray[np.float32], NDArray[np.int32], NDArray[np.float32]]: ...
    @property
    def done(self) -> bool: ...
    @property
    def num_games(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_placements(self) -> int: ...
    @property
    def variant(self) -> str: ...
    @property
    def params(self) -> Mapping[str, Any]: ...

# (moves, squares_left, solved)
def all84_solve(game: Game, *, seed: int = 0, time_limit: float | None = None,
                progress: Callable[[dict[str, Any]], object] | None = None) -> tuple[tuple[int, ...], int, bool]: ...

# (ids int32 (n,), visits int64 (n,), values float64 (n,), simulations, wins float64 (n,),
# scores float64 (n,), principal_variation int32 (m,), player_wins float64 (P,), player_scores float64 (P,))
def mcts(game: Game, *, simulations: int = 0, seconds: float = 0.0, exploration: float = 0.5,
         prior_temperature: float = 2.5, rave: float = 0.3, margin: float | None = None, evaluation: float = 0.3,
         replies: bool = True, early_stop: float = 0.0, max_nodes: int = 4294967295, threads: int = 1, seed: int = 0,
         tree: CapsuleType | None = None, cpu: bool = False, shared: bool = False) -> tuple[
    NDArray[np.int32], NDArray[np.int64], NDArray[np.float64], int, NDArray[np.float64], NDArray[np.float64],
    NDArray[np.int32], NDArray[np.float64], NDArray[np.float64]]: ...
def mcts_tree() -> CapsuleType: ...
def mcts_tree_memory(tree: CapsuleType, /) -> tuple[int, int]: ...  # (bytes, prunings)

# (count, timed_out)
def pack_count(height: int, width: int, kinds: Iterable[_PackKind], *, same_colour_edges: bool = True,
               limit: int = 0, up_to_symmetry: bool = False, time_limit: float | None = None,
               progress: Callable[[dict[str, Any]], object] | None = None) -> tuple[int, bool]: ...

# (labels int16 (height, width), colours int8 (height, width), ((piece, colour), ...)), or None
def pack_solve(height: int, width: int, kinds: Iterable[_PackKind], *, same_colour_edges: bool = True,
               seed: int = 0, time_limit: float | None = None,
               progress: Callable[[dict[str, Any]], object] | None = None
               ) -> tuple[NDArray[np.int16], NDArray[np.int8], tuple[tuple[int, int], ...]] | None: ...
def parse_move(text: str, variant: str, /) -> int: ...

# (piece, orientation, anchor_row, anchor_col, size): int8 (A,); cells: int8 (A, 5, 2) padded with -1
def placement_table(variant: str, /) -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int8],
                                              NDArray[np.int8], NDArray[np.int8], NDArray[np.int8]]: ...

# colour_scores (n, C) -> (player scores int64 (n, P), winners bool (n, P))
def player_results(
    variant: str, colour_scores: ArrayLike, /
) -> tuple[NDArray[np.int64], NDArray[np.bool_], NDArray[np.float64]]: ...
def player_weights(variant: str, /) -> NDArray[np.int8]: ...  # (P, C)
def policy_move(game: Game, policy: _Policy, seed: int) -> int: ...

# (ids int32 (n,), features float32 (n, len(PRIOR_FEATURES)), phase, log_priors float32 (n,))
def prior_features(game: Game, /) -> tuple[NDArray[np.int32], NDArray[np.float32], int, NDArray[np.float32]]: ...
# (colour 0's chance to win, phase, features float64 (4,)); Duo only
def evaluation(game: Game, /) -> tuple[float, int, NDArray[np.float64]]: ...
def random_playouts(variant: str, n: int, seed: int = 0, *, start: str = "any") -> NDArray[np.int16]: ...  # (n, C)

# (margin (its sign with outcome) or None, best placement ids, positions searched, side)
def solve(game: Game, *, max_nodes: int = 1000000, all_best: bool = True, outcome: bool = False) -> tuple[
    int | None, tuple[int, ...], int, int]: ...
def variant_info(variant: str, /) -> dict[str, Any]: ...
