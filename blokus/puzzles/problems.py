"""The problems a ``check`` reports: pieces, cover and colour contacts, in sentences."""
from __future__ import annotations

import numpy as np

from blokus.puzzles.pieces import COLOUR_NAMES, NUM_COLOURS
from blokus.puzzles.shapes import _normalise, _orientations
from blokus.puzzles.solution import Solution


def _describe(name: str, colour: int) -> str:
    return f"{COLOUR_NAMES[colour] if 0 <= colour < NUM_COLOURS else f'colour {colour}'} {name}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cells_text(cells, most: int = 6) -> str:
    cells = sorted(cells)
    text = ", ".join(f"({r}, {c})" for r, c in cells[:most])
    return text + (f" and {len(cells) - most} more" if len(cells) > most else "")


def _check_pieces(solution: Solution, shape) -> list[str]:
    problems = []
    shapes = _orientations()
    for i, (name, colour, cells) in enumerate(solution.pieces):
        what = f"piece {i} ({_describe(name, colour)})"
        if name not in shapes:
            problems.append(f"piece {i}: unknown piece {name!r}")
            continue
        if not 0 <= colour < NUM_COLOURS:
            problems.append(f"{what}: colour must be 0-3")
        off = [cell for cell in cells if not (0 <= cell[0] < shape[0] and 0 <= cell[1] < shape[1])]
        if off:
            problems.append(f"{what}: cells off the grid: {_cells_text(off)}")
        if len(set(cells)) != len(cells) or not cells or _normalise(cells) not in shapes[name]:
            problems.append(f"{what}: cells {_cells_text(cells)} are not a {name}")
    return problems


def _check_cover(solution: Solution, shape, *, allow_empty: bool) -> list[str]:
    """Overlaps, gaps (unless allowed) and grid labels that disagree with the pieces."""
    problems = []
    cover = np.zeros(shape, dtype=np.int32)
    expected = np.full(shape, -1, dtype=np.int32)
    for i, (_, _, cells) in enumerate(solution.pieces):
        for r, c in set(cells):
            if 0 <= r < shape[0] and 0 <= c < shape[1]:
                cover[r, c] += 1
                expected[r, c] = i
    twice = list(zip(*np.nonzero(cover > 1)))
    if twice:
        problems.append(f"cells covered by more than one piece: {_cells_text(twice)}")
    empty = list(zip(*np.nonzero(cover == 0)))
    if empty and not allow_empty:
        problems.append(f"{len(empty)} empty cells: {_cells_text(empty)}")
    wrong = list(zip(*np.nonzero((solution.grid != expected) & (cover <= 1))))
    if wrong:
        problems.append(f"grid labels disagree with the pieces at {_cells_text(wrong)}")
    return problems


def _same_colour_contacts(solution: Solution) -> list[str]:
    grid, colours = solution.grid, solution.colours
    found = set()
    for axis in (0, 1):
        a = (slice(None, -1), slice(None)) if axis == 0 else (slice(None), slice(None, -1))
        b = (slice(1, None), slice(None)) if axis == 0 else (slice(None), slice(1, None))
        touching = (grid[a] != grid[b]) & (grid[a] >= 0) & (grid[b] >= 0) & (colours[a] == colours[b])
        for r, c in zip(*np.nonzero(touching)):
            found.add(tuple(sorted((int(grid[a][r, c]), int(grid[b][r, c])))))
    problems = []
    for i, j in sorted(found):
        problems.append(f"pieces {i} ({_describe(*solution.pieces[i][:2])}) and {j} "
                        f"({_describe(*solution.pieces[j][:2])}) share an edge")
    return problems
