"""A slow, obviously-right Blokus reference, written from ``rules.md`` alone.

The tests compare the engine with this module. It never imports ``blokus``: it works on
cell sets, so it can check the engine's placement table, its legal-move lists, its turn
order and its scores without trusting any of them. Everything here follows rules.md:

* cells are ``(row, col)`` from the top-left; the text form is column letter + row number
  counted from the bottom, canonical order by row from the bottom, then by column;
* the 21 pieces are the free polyominoes of 1..5 squares (names and shapes below);
* a placement is legal when its cells are on the board and empty, the piece is in hand,
  no cell shares an edge with the colour, and it covers a free starting square (first
  placement) or touches the colour corner to corner (later placements);
* a colour without a legal placement is skipped; the game ends when none has one;
* score: minus one per square in hand; +15 with all 21 placed, +20 if the last was ``1``.
"""

from __future__ import annotations

import numpy as np

PIECE_NAMES = [
    "1", "2", "I3", "V3", "I4", "L4", "T4", "O", "Z4", "I5", "L5",
    "Y", "N", "P", "U", "V5", "T5", "W", "Z5", "F", "X",
]

# One fixed orientation of every named piece, drawn by hand as (row, col) cells.
PIECE_CELLS = {
    "1": [(0, 0)],
    "2": [(0, 0), (0, 1)],
    "I3": [(0, 0), (0, 1), (0, 2)],
    "V3": [(0, 0), (1, 0), (1, 1)],
    "I4": [(0, 0), (0, 1), (0, 2), (0, 3)],
    "L4": [(0, 0), (1, 0), (2, 0), (2, 1)],
    "T4": [(0, 0), (0, 1), (0, 2), (1, 1)],
    "O": [(0, 0), (0, 1), (1, 0), (1, 1)],
    "Z4": [(0, 0), (0, 1), (1, 1), (1, 2)],
    "I5": [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)],
    "L5": [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)],
    "Y": [(0, 0), (0, 1), (0, 2), (0, 3), (1, 1)],
    "N": [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)],
    "P": [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)],
    "U": [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)],
    "V5": [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)],
    "T5": [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)],
    "W": [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)],
    "Z5": [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)],
    "F": [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)],
    "X": [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
}

# rules.md: fixed orientations per piece, in PIECE_NAMES order (91 in all).
ORIENTATION_COUNTS = [1, 2, 2, 4, 2, 8, 4, 1, 4, 2, 8, 8, 8, 8, 4, 4, 4, 4, 4, 8, 1]
PIECE_SIZES = [len(PIECE_CELLS[n]) for n in PIECE_NAMES]
TOTAL_SQUARES = 89

# rules.md's variant table: board size, colours, players.
VARIANTS = {
    "classic": (20, 4, 4),
    "classic_2": (20, 4, 2),
    "classic_3": (20, 4, 3),
    "classic_teams": (20, 4, 4),
    "duo": (14, 2, 2),
}
CLASSIC_VARIANTS = ["classic", "classic_2", "classic_3", "classic_teams"]
GREEN = 3  # rules.md: classic colours in turn order, 0 blue, 1 yellow, 2 red, 3 green

# rules.md: placements (one orientation laid entirely on the board) per board side.
PLACEMENT_COUNTS = {20: 30433, 14: 13729}


# ---------------------------------------------------------------- geometry
def normalize(cells):
    """Translate a cell set so that its smallest row and column are 0."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def fixed_orientations(cells):
    """All distinct shapes reachable by rotating and mirroring (as normalized sets)."""
    out = set()
    cur = list(cells)
    for _mirror in range(2):
        for _turn in range(4):
            out.add(normalize(cur))
            cur = [(c, -r) for r, c in cur]  # quarter turn
        cur = [(r, -c) for r, c in cur]  # mirror
    return out


def free_key(cells):
    """A canonical key of a free polyomino (same for every rotation / mirror)."""
    return min(tuple(sorted(o)) for o in fixed_orientations(cells))


def free_polyominoes(n):
    """Every free polyomino of n squares, grown square by square (independent of names)."""
    shapes = {free_key([(0, 0)])}
    for _ in range(n - 1):
        grown = set()
        for shape in shapes:
            cells = set(shape)
            for r, c in shape:
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nb = (r + dr, c + dc)
                    if nb not in cells:
                        grown.add(free_key(cells | {nb}))
        shapes = grown
    return shapes


# shape (normalized fixed orientation) -> piece index
ORIENTATION_TO_PIECE = {
    o: p for p, name in enumerate(PIECE_NAMES) for o in fixed_orientations(PIECE_CELLS[name])
}


def piece_of(cells):
    """Piece index of a cell set, or None when it is not one of the 21 shapes."""
    return ORIENTATION_TO_PIECE.get(normalize(cells))


# ---------------------------------------------------------------- text form
def cell_text(r, c, size):
    return "%s%d" % (chr(ord("a") + c), size - r)


def canonical_key(cell, size):
    r, c = cell
    return (size - 1 - r, c)  # by row from the bottom, then by column


def cells_text(cells, size):
    """Canonical text of a placement: a1, b1, ..., a2, ... order."""
    return ",".join(cell_text(r, c, size) for r, c in sorted(cells, key=lambda x: canonical_key(x, size)))


def parse_cells(text, size):
    out = []
    for tok in text.split(","):
        tok = tok.strip().lower()
        out.append((size - int(tok[1:]), ord(tok[0]) - ord("a")))
    return out


# ---------------------------------------------------------------- placements
class PlacementTable:
    """Every way to lay every fixed orientation of every piece fully on a size x size board."""

    def __init__(self, size):
        self.size = size
        pieces, cellsets = [], []
        for p, name in enumerate(PIECE_NAMES):
            for o in sorted(fixed_orientations(PIECE_CELLS[name]), key=sorted):
                h = 1 + max(r for r, _ in o)
                w = 1 + max(c for _, c in o)
                for dr in range(size - h + 1):
                    for dc in range(size - w + 1):
                        pieces.append(p)
                        cellsets.append(frozenset((r + dr, c + dc) for r, c in o))
        self.piece = np.array(pieces, dtype=np.int64)
        self.cellsets = cellsets
        self.index = {cs: i for i, cs in enumerate(cellsets)}
        sentinel = size * size
        flat = np.full((len(cellsets), 5), sentinel, dtype=np.int64)
        for i, cs in enumerate(cellsets):
            for j, (r, c) in enumerate(sorted(cs)):
                flat[i, j] = r * size + c
        self.flat = flat  # padded with the sentinel cell (always empty, never adjacent)

    def __len__(self):
        return len(self.cellsets)


_TABLES = {}


def placement_table(size):
    if size not in _TABLES:
        _TABLES[size] = PlacementTable(size)
    return _TABLES[size]


def start_squares(variant, start, colour):
    """Starting squares a colour's first piece may cover (rules.md)."""
    size = VARIANTS[variant][0]
    if size == 20:
        corners = [(0, 0), (0, 19), (19, 19), (19, 0)]  # blue, yellow, red, green
        return corners if start == "any" else [corners[colour]]
    points = [(4, 4), (9, 9)]  # purple, orange
    return points if start == "any" else [points[colour]]


def attachment_points(board, colour, starts):
    """rules.md: the empty cells diagonal to the colour's cells and not edge-adjacent to them;
    before its first piece, the starting squares that are still empty. board is a 2-D array of
    colours (-1 empty), starts the colour's starting squares."""
    own = board == colour
    if not own.any():
        out = np.zeros(board.shape, dtype=bool)
        for r, c in starts:
            if board[r, c] == -1:
                out[r, c] = True
        return out
    pad = np.zeros((board.shape[0] + 2, board.shape[1] + 2), dtype=bool)
    pad[1:-1, 1:-1] = own
    edge = pad[:-2, 1:-1] | pad[2:, 1:-1] | pad[1:-1, :-2] | pad[1:-1, 2:]
    diag = pad[:-2, :-2] | pad[:-2, 2:] | pad[2:, :-2] | pad[2:, 2:]
    return diag & ~edge & (board == -1)


# ---------------------------------------------------------------- game
class RefGame:
    """The rules of rules.md on plain arrays; moves are cell sets."""

    def __init__(self, variant="classic", start="any"):
        self.variant = variant
        self.start = start
        self.size, self.num_colours, self.num_players = VARIANTS[variant]
        self.table = placement_table(self.size)
        n = self.size * self.size
        self.board = np.full(n + 1, -1, dtype=np.int64)  # last entry: sentinel, always empty
        self.remaining = np.ones((self.num_colours, 21), dtype=bool)
        self.last_piece = [None] * self.num_colours
        self.history = []  # (colour, piece, frozenset cells)
        self.to_move = 0

    # -- state helpers
    def board2d(self):
        return self.board[:-1].reshape(self.size, self.size)

    def _neighbour_masks(self, colour):
        size = self.size
        own = np.zeros((size + 2, size + 2), dtype=bool)
        own[1:-1, 1:-1] = self.board2d() == colour
        edge = own[:-2, 1:-1] | own[2:, 1:-1] | own[1:-1, :-2] | own[1:-1, 2:]
        diag = own[:-2, :-2] | own[:-2, 2:] | own[2:, :-2] | own[2:, 2:]
        pad = np.zeros(1, dtype=bool)
        return np.concatenate([edge.ravel(), pad]), np.concatenate([diag.ravel(), pad])

    def is_first(self, colour):
        return bool(self.remaining[colour].all())

    def legal_mask(self, colour):
        """Legal placements of colour, over the reference table."""
        t = self.table
        occupied = self.board != -1
        occupied[-1] = False
        edge, diag = self._neighbour_masks(colour)
        ok = ~occupied[t.flat].any(axis=1)
        ok &= ~edge[t.flat].any(axis=1)
        ok &= self.remaining[colour][t.piece]
        if self.is_first(colour):
            start = np.zeros(self.size * self.size + 1, dtype=bool)
            for r, c in start_squares(self.variant, self.start, colour):
                start[r * self.size + c] = True
            ok &= start[t.flat].any(axis=1)
        else:
            ok &= diag[t.flat].any(axis=1)
        return ok

    def legal_cellsets(self, colour):
        mask = self.legal_mask(colour)
        return {self.table.cellsets[i] for i in np.flatnonzero(mask)}

    def count_legal(self, colour):
        return int(self.legal_mask(colour).sum())

    def broken_rules(self, colour, cells):
        """Names of the rules a placement of cells by colour breaks (empty set: legal).

        Keys: 'off board', 'occupied', 'already used', 'edge', 'corner', 'starting'.
        Cells must form one of the 21 shapes.
        """
        size = self.size
        cells = list(cells)
        p = piece_of(cells)
        assert p is not None, "not a piece shape"
        broken = set()
        on = [(r, c) for r, c in cells if 0 <= r < size and 0 <= c < size]
        if len(on) < len(cells):
            broken.add("off board")
        b = self.board2d()
        if any(b[r, c] != -1 for r, c in on):
            broken.add("occupied")
        if not self.remaining[colour, p]:
            broken.add("already used")

        def own(r, c):
            return 0 <= r < size and 0 <= c < size and b[r, c] == colour

        if any(own(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            broken.add("edge")
        if self.is_first(colour):
            starts = set(start_squares(self.variant, self.start, colour))
            if not any((r, c) in starts and b[r, c] == -1 for r, c in cells):
                broken.add("starting")
        elif not any(own(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1))):
            broken.add("corner")
        return broken

    # -- moves
    def place(self, colour, cells):
        """Put cells of colour on the board without any check and without moving the turn
        (to rebuild a position from a history); ``to_move`` is left unchanged."""
        cells = frozenset(cells)
        p = piece_of(cells)
        for r, c in cells:
            self.board[r * self.size + c] = colour
        self.remaining[colour, p] = False
        self.last_piece[colour] = p
        self.history.append((colour, p, cells))

    def next_mover(self, after):
        """The colour to move after colour `after` moved: the next one in turn order that
        has a legal placement, or -1 when none has."""
        return self._next_mover(after)

    def play(self, cells):
        """Play cells for the colour to move (must be legal); advance the turn with skips."""
        colour = self.to_move
        assert colour >= 0, "game over"
        cells = frozenset(cells)
        assert not self.broken_rules(colour, cells), self.broken_rules(colour, cells)
        self.place(colour, cells)
        self.to_move = self._next_mover(colour)

    def _next_mover(self, after):
        n = self.num_colours
        for step in range(1, n + 1):
            c = (after + step) % n
            if self.count_legal(c) > 0:
                return c
        return -1

    # -- scoring
    def scores(self):
        out = []
        for c in range(self.num_colours):
            left = sum(PIECE_SIZES[p] for p in range(21) if self.remaining[c, p])
            if left == 0:
                out.append(20 if self.last_piece[c] == 0 else 15)
            else:
                out.append(-left)
        return out

    def player_to_move(self):
        return player_to_move(self.variant, self.to_move, self.green_pieces())

    def green_pieces(self):
        return sum(1 for c, _, _ in self.history if c == GREEN)


def player_scores(variant, scores):
    """Player scores from colour scores, per rules.md's table."""
    s = list(scores)
    if variant in ("classic", "duo"):
        return s
    if variant == "classic_2":
        return [s[0] + s[2], s[1] + s[3]]
    if variant == "classic_3":
        return s[:3]
    if variant == "classic_teams":
        return [s[0] + s[2], s[1] + s[3], s[0] + s[2], s[1] + s[3]]
    raise ValueError(variant)


def winners(variant, scores):
    ps = player_scores(variant, scores)
    best = max(ps)
    return [i for i, v in enumerate(ps) if v == best]


def player_to_move(variant, colour, green_pieces_on_board):
    """The player who places colour's next piece (rules.md); -1 once the game is over."""
    if colour < 0:
        return -1
    if variant == "classic_2":
        return colour % 2
    if variant == "classic_3" and colour == GREEN:
        return green_pieces_on_board % 3
    return colour
