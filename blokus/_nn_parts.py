"""The parts of ``blokus.nn``'s networks (PyTorch): the trunk, the placement head and the value
head, shared by ``blokus.nn.PlacementNet`` and the MaskablePPO policy (``blokus._sb3_policy``);
``blokus.nn`` is where users find them."""
from __future__ import annotations

import warnings

import numpy as np

from blokus._core import NUM_ORIENTATIONS, PIECE_NAMES, PIECE_SIZES, VARIANTS
from blokus._optional import needs
from blokus.placements import Placements, placements

with needs("torch", "blokus.nn"):
    import torch
    from torch import nn

NUM_PIECES = len(PIECE_NAMES)
# float64, rounded once to float32 in the copy, as in the measured runs: a last-bit change of the
# bias makes another training run (benchmarks/LOG.md)
_PIECE_SIZES = torch.tensor(PIECE_SIZES, dtype=torch.float64)


def placement_table(num_placements: int) -> Placements:
    """The placement table with ``num_placements`` rows (Duo's or the classic board's).

    Raises
    ------
    ValueError
        No Blokus board has that many placements.
    """
    counts: dict[int, str] = {}
    for variant in VARIANTS:
        table = placements(variant)
        if len(table.piece) == num_placements:
            return table
        counts.setdefault(len(table.piece), variant)
    known = ", ".join(f"{variant} {count}" for count, variant in counts.items())
    raise ValueError(f"no Blokus board has {num_placements} placements ({known})")


def _finite(value, name: str) -> float:
    """``value`` as a float, or ValueError if it is not a finite real number."""
    real = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if not real or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, not {value!r}")
    return float(value)


def _float(x) -> torch.Tensor:
    return torch.as_tensor(x).float()


_SIDES = torch.tensor([[0., 1, 0], [1, 0, 1], [0, 1, 0]])
_CORNERS = torch.tensor([[1., 0, 1], [0, 0, 0], [1, 0, 1]])


def _contacts(colours: torch.Tensor) -> torch.Tensor:
    """(B, C, H, W) 0/1 cells of each colour -> (B, 2C, H, W): per colour, the empty cells next
    to its cells by a side (closed to it), then those next to them by a corner only (where its
    pieces may attach)."""
    c = colours.shape[1]
    kernels = torch.stack([_SIDES, _CORNERS])[:, None].repeat(c, 1, 1, 1).to(colours)  # (2C, 1, 3, 3)
    touch = torch.nn.functional.conv2d(colours.repeat_interleave(2, dim=1), kernels, padding=1, groups=2 * c) > 0
    empty = colours.sum(dim=1, keepdim=True) == 0
    sides, corners = touch[:, 0::2], touch[:, 1::2]
    return torch.cat([sides & empty, corners & ~sides & empty], dim=1).to(colours)


class Trunk(nn.Module):
    """Convolutional trunk: planes and pieces in hand -> features per cell.

    Parameters
    ----------
    planes, colours : int
        C + 1 observation planes and C colours (Duo 3 and 2, classic 5 and 4).
    channels : int
        K, features per cell.
    blocks : int
        Residual blocks (two 3x3 convolutions each) after the 3x3 stem.

    Notes
    -----
    ``forward(observation, remaining)``: ``observation`` (B, C + 1, H, W) and ``remaining``
    (B, C, 21), any numeric dtype (int8 as the environments give them; 0/1 values), to float32
    features (B, K, H, W). The pieces in hand enter as a learned bias per channel. Added to the
    planes: per colour, the empty cells next to its cells by a side and those next to them by a
    corner only (which the stem's 3x3 window could not tell from the colour planes alone: whether
    a cell is free to the colour depends on its whole 3x3 neighbourhood), and a plane of ones, so
    that the zero padding shows where the board's edge is.
    """

    def __init__(self, planes: int, colours: int, channels: int = 32, blocks: int = 2):
        super().__init__()
        self.channels, self.colours = channels, colours
        self.stem = nn.Conv2d(planes + 2 * colours + 1, channels, 3, padding=1)
        self.pieces = nn.Linear(colours * NUM_PIECES, channels)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
                          nn.Conv2d(channels, channels, 3, padding=1))
            for _ in range(blocks))

    def forward(self, observation, remaining) -> torch.Tensor:
        x = _float(observation)
        x = torch.cat([x, _contacts(x[:, :self.colours]), torch.ones_like(x[:, :1])], dim=1)
        x = self.stem(x) + self.pieces(_float(remaining).flatten(1))[:, :, None, None]
        x = torch.relu(x)
        for block in self.blocks:
            x = torch.relu(x + block(x))
        return x


def _pooled(features: torch.Tensor) -> torch.Tensor:
    """(B, K, H, W) -> (B, 2K): mean and max over the board."""
    return torch.cat([features.mean(dim=(2, 3)), features.amax(dim=(2, 3))], dim=1)


def _rim(cells: np.ndarray, side: int) -> torch.Tensor:
    """(A, 2, H * W) bool: per placement (``cells`` (A, 5, 2) as in ``blokus.placements``), the
    cells next to it by a side (its edge cells, which its colour may no longer take), then those
    next to it by a corner only (its corner cells, where the colour's next pieces may attach):
    the contacts of a board holding that placement alone."""
    own = torch.zeros(len(cells), 1, side, side)
    rows, k = np.nonzero(cells[:, :, 0] >= 0)
    own[rows, 0, cells[rows, k, 0], cells[rows, k, 1]] = 1
    return torch.cat([_contacts(chunk).bool() for chunk in own.split(4096)]).flatten(2)  # chunks: less memory


class PlacementHead(nn.Module):
    """One logit per placement id, from the features at its cells and around it, its orientation
    and its piece.

    ``logit(a) = sum_k S[orientation(a), cell_k(a)] + sum_{x in corners(a)} Q[x] + sum_{x in
    edges(a)} E[x] + <P(pooled), onehot(piece(a))> + b[orientation(a)]``, where ``S`` is a 1x1
    convolution of the trunk's features to one score map per orientation (91: how good it is to
    cover this cell with that orientation), ``cell_k(a)`` the cells of placement a
    (``blokus.placements``), ``Q`` and ``E`` two more maps (how good a new attachment point is
    at a cell, and what closing a cell to the mover costs) summed over the cells next to the
    placement by a corner only and by a side, ``P`` a linear map of the mean- and max-pooled
    features to one value per piece, ``b`` a learned bias per orientation. All the sums are one
    sparse matrix product (A rows, a 1 per cell the placement covers or touches).

    Parameters
    ----------
    table : blokus.Placements
        The board's placement table (``blokus.placements(variant)``).
    channels : int
        K, the trunk's channels.
    size_prior : float
        The piece term's starting bias, in logits per square: ``size_prior * (size - mean size)``
        for each piece (:meth:`init_size_prior`), so that an untrained head plays larger pieces
        first, the first thing a Blokus player learns (a colour scores minus the squares left in
        its hand: docs/rules.md, "Scoring"). The default 2 puts the X 8 logits above the
        monomino (the runs that chose it: ``benchmarks/LOG.md``). 0 for a head that starts with
        no preference; the bias is learned like any other.

    Raises
    ------
    ValueError
        ``size_prior`` is not a finite real number.

    Notes
    -----
    ``forward(features)``: float (B, K, H, W) -> float32 logits (B, A), unmasked.
    """

    def __init__(self, table: Placements, channels: int, size_prior: float = 2.0):
        super().__init__()
        self.size_prior = _finite(size_prior, "size_prior")
        side = int(table.cells[:, :, 0].max()) + 1  # square boards
        cells = np.asarray(table.cells, np.int64)
        valid = cells[:, :, 0] >= 0
        orientation = np.asarray(table.orientation, np.int64)
        columns = [(orientation[:, None] * side * side + cells[:, :, 0] * side + cells[:, :, 1])[valid]]
        rows = [np.repeat(np.arange(len(cells)), valid.sum(axis=1))]
        rim = _rim(cells, side).numpy()
        for k in range(2):  # edge cells, then corner cells
            placement, cell = np.nonzero(rim[:, k])
            rows.append(placement)
            columns.append((NUM_ORIENTATIONS + k) * side * side + cell)
        indices = np.stack([np.concatenate(rows), np.concatenate(columns)])  # (2, covered cells)
        with warnings.catch_warnings():  # "sparse CSR support is in beta": the product is all we use
            warnings.simplefilter("ignore", UserWarning)
            cover = torch.sparse_coo_tensor(indices, torch.ones(indices.shape[1]),
                                            (len(cells), (NUM_ORIENTATIONS + 2) * side * side)
                                            ).coalesce().to_sparse_csr()
        # fixed, and rebuilt from the table when a saved model is loaded: not saved with the weights
        self.register_buffer("cover", cover, persistent=False)
        self.register_buffer("piece", torch.from_numpy(np.asarray(table.piece, np.int64)), persistent=False)
        self.register_buffer("orientation", torch.from_numpy(orientation), persistent=False)
        self.cells = nn.Conv2d(channels, NUM_ORIENTATIONS + 2, 1)  # S, then E and Q
        self.pieces = nn.Linear(2 * channels, NUM_PIECES)
        self.orientation_bias = nn.Parameter(torch.zeros(NUM_ORIENTATIONS))
        self.init_size_prior()

    def init_size_prior(self) -> None:
        """Set the piece term's bias to ``size_prior`` x (each piece's squares - their mean),
        the rest of the head untouched (called again after an initialisation that zeroes biases,
        such as SB3's orthogonal one)."""
        with torch.no_grad():
            self.pieces.bias.copy_(self.size_prior * (_PIECE_SIZES - _PIECE_SIZES.mean()))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        scores = self.cells(features).flatten(1)  # (B, 93 * H * W)
        logits = (self.cover @ scores.T).T  # (B, A): each placement's cells, edge and corner cells summed
        logits = logits + self.pieces(_pooled(features))[:, self.piece]
        return logits + self.orientation_bias[self.orientation]


class ValueHead(nn.Module):
    """Mean- and max-pooled features -> a hidden layer -> ``outputs`` values (float32 (B, outputs))."""

    def __init__(self, channels: int, outputs: int = 1, hidden: int = 64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * channels, hidden), nn.ReLU(), nn.Linear(hidden, outputs))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.net(_pooled(features))


def mask_logits(logits: torch.Tensor, legal_mask) -> torch.Tensor:
    """``logits`` with every illegal id set to the lowest float: probability 0 after a softmax
    wherever one id is legal (and no NaN where none is). ``legal_mask``: (B, A), bool or 0/1."""
    legal = torch.as_tensor(legal_mask, device=logits.device).bool()
    return logits.masked_fill(~legal, torch.finfo(logits.dtype).min)


