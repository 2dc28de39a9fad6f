"""Blokus game records: SGF game trees <-> ``blokus.Game``, and the functions of ``blokus.sgf``."""
from __future__ import annotations

import os
import re
from collections.abc import Iterable

from blokus._files import read_regular, write_regular
from blokus.game import Game
from blokus.sgf._syntax import Node, _node_text, _parse, _shorten, _text_arg, _Tree
from blokus.variants import START_RULES, VARIANTS, variant

# The GM string of each variant (Pentobi's, from the variants' table); classic_teams is written as
# "Blokus".
GAME_NAMES = {name: variant(name).sgf_game for name in VARIANTS}
# The variant a GM string names: the first with that string (classic, not classic_teams, for
# "Blokus": a record of the team game says so in BKV).
VARIANT_OF_GAME_NAME = {gm: next(v for v in GAME_NAMES if GAME_NAMES[v] == gm) for gm in GAME_NAMES.values()}
# Pentobi's reader ignores case and surrounding spaces in GM; so do we.
_VARIANT_OF_GM = {gm.lower(): v for gm, v in VARIANT_OF_GAME_NAME.items()}
VARIANT_PROPERTY = "BKV"
START_PROPERTY = "BKS"



def _write_ids(num_colours: int) -> tuple[str, ...]:
    """Move property per colour index, as Pentobi writes them: B/W with two colours, else 1, 2, ..."""
    return ("B", "W") if num_colours == 2 else tuple(str(c + 1) for c in range(num_colours))


# Move properties of older Pentobi versions, which Pentobi itself still reads, per number of
# colours (BLUE..GREEN; 1/2 in Duo).
_OLD_IDS = {2: {"1": 0, "2": 1, "BLUE": 0, "GREEN": 1}, 4: {"BLUE": 0, "YELLOW": 1, "RED": 2, "GREEN": 3}}


def _read_ids(num_colours: int) -> dict[str, int]:
    """Move properties read, with their colour index: ours and the older ones."""
    return {**{ident: c for c, ident in enumerate(_write_ids(num_colours))}, **_OLD_IDS.get(num_colours, {})}


# Any of these in a variant that does not use it is an error rather than an ignored property:
# skipping it would silently drop a move (B/W in a four-colour game, 3/4 in Duo).
_ALL_MOVE_IDS = {ident for name in VARIANTS for ident in _read_ids(variant(name).num_colours)}
_SETUP_IDS = ("AB", "AW", "A1", "A2", "A3", "A4", "AE", "PL")
# Root properties dumps writes itself; a keyword may not replace them or add moves or setup.
_RESERVED = {"GM", "CA", VARIANT_PROPERTY, START_PROPERTY, *_ALL_MOVE_IDS, *_SETUP_IDS}


# ---------------------------------------------------------------------------------------------
# Game trees <-> blokus.Game

def _main_line(tree: _Tree, mainline: bool) -> list[Node]:
    """The nodes from the root to the end of the game, following the first variation."""
    nodes = list(tree.nodes)
    while tree.children:
        if len(tree.children) > 1 and not mainline:
            raise ValueError(f"the game has variations (a branch after node {len(nodes) - 1}); "
                             "pass mainline=True to follow the first")
        tree = tree.children[0]
        nodes.extend(tree.nodes)
    return nodes


def _single(root: Node, ident: str) -> str | None:
    values = root.get(ident)
    if values is None:
        return None
    if len(values) != 1:
        raise ValueError(f"{_shorten(ident)} must have one value, not {len(values)}")
    return values[0]


def _variant(root: Node) -> str:
    gm = _single(root, "GM")
    if gm is None:
        raise ValueError("no GM property in the root node: not a Blokus SGF record")
    variant = _VARIANT_OF_GM.get(gm.strip().lower())
    if variant is None:
        raise ValueError(f"unsupported variant GM[{_shorten(gm)}]: only " +
                         ", ".join(sorted(set(GAME_NAMES.values()))) + " are played here")
    ours = _single(root, VARIANT_PROPERTY)
    if ours is not None:
        if GAME_NAMES.get(ours) != GAME_NAMES[variant]:
            raise ValueError(f"{VARIANT_PROPERTY}[{_shorten(ours)}] does not fit GM[{_shorten(gm)}]")
        variant = ours
    return variant


def _start(root: Node) -> str:
    start = _single(root, START_PROPERTY)
    if start is None:
        return "fixed"  # Pentobi's rule
    if start not in START_RULES:
        raise ValueError(f"{START_PROPERTY}[{_shorten(start)}]: the start rule is one of {', '.join(START_RULES)}")
    return start


def _game(tree: _Tree, mainline: bool) -> Game:
    """Replays the main line of a game tree, checking every move with the engine."""
    nodes = _main_line(tree, mainline)
    game = Game(_variant(nodes[0]), start=_start(nodes[0]))
    ids = _read_ids(game.num_colours)
    count = 0
    for number, node in enumerate(nodes):
        setup = [ident for ident in _SETUP_IDS if ident in node]
        if setup:
            raise ValueError(f"node {number}: setup properties ({', '.join(setup)}) are "
                             "unsupported: only games played from the empty board can be read")
        moves = [ident for ident in node if ident in _ALL_MOVE_IDS]
        if not moves:
            continue
        count += 1
        # Pentobi up to 0.2 split a move's cells over several values: join them.
        cells = ",".join(node[moves[0]])
        where = f"node {number}, move {count} ({moves[0]}[{_shorten(cells)}])"
        if len(moves) > 1:
            raise ValueError(f"{where}: one node holds several moves ({', '.join(moves)})")
        if moves[0] not in ids:
            gm, letters = _shorten(nodes[0]["GM"][0]), "/".join(_write_ids(game.num_colours))
            raise ValueError(f"{where}: {moves[0]} is not a move property of GM[{gm}] "
                             f"(Blokus SGF: moves are {letters})")
        _play(game, ids[moves[0]], cells, where)
    return game


def _play(game: Game, colour: int, cells: str, where: str) -> None:
    # Passes are implicit (Pentobi writes none): the engine skips colours that cannot move, so the node's
    # colour must be exactly the engine's colour to move.
    if game.to_move < 0:
        raise ValueError(f"{where}: the game is already over")
    if colour != game.to_move:
        raise ValueError(f"{where}: {game.colour_name(colour)} moves, but "
                         f"{game.colour_name(game.to_move)} is to move")
    try:
        game.play(cells)
    except ValueError as exc:  # IllegalMoveError included: the message names the rule
        raise ValueError(f"{where}: {exc}") from exc


def _root(game: Game, properties: dict) -> Node:
    root: dict[str, list[str]] = {"GM": [GAME_NAMES[game.variant]], "CA": ["UTF-8"]}
    if VARIANT_OF_GAME_NAME[GAME_NAMES[game.variant]] != game.variant:  # GM alone would read back another
        root[VARIANT_PROPERTY] = [game.variant]
    if game.start == "any":
        root[START_PROPERTY] = ["any"]
    for key, value in properties.items():
        ident = key.upper()
        if not re.fullmatch(r"[A-Z][A-Z0-9]*", ident):
            raise ValueError(f"property {_shorten(repr(key))}: an SGF property name is letters (then digits)")
        if ident in _RESERVED:
            raise ValueError(f"property {_shorten(repr(key))}: {ident} is written by dumps itself")
        if ident in root:
            raise ValueError(f"property {_shorten(repr(key))}: {ident} given twice (names are upper-cased)")
        values = [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
        if not values:
            raise ValueError(f"property {_shorten(repr(key))}: an SGF property needs at least one value")
        root[ident] = values
    return root


# ---------------------------------------------------------------------------------------------
# Public API

def dumps(game: Game, **properties) -> str:
    """One game as one line of Blokus SGF, without a trailing newline.

    Parameters
    ----------
    game : blokus.Game
        Any variant, either start rule, finished or not.
    **properties
        Extra root properties, e.g. ``PB="Ann"``, ``DT="2024-05-01"``, ``C="a comment"`` or our
        own such as ``seed=7``. Names are upper-cased (``seed`` is written ``SEED``); a list or
        tuple gives several values, anything else one value, ``str(value)``. ``]`` and ``\\``
        are escaped. A value holding a line break keeps it (SGF allows it), so the record is
        then no longer one line.

    Returns
    -------
    str
        ``(;GM[...]CA[UTF-8]...;B[...];W[...])``: the root node (``GM``, ``CA``, ``BKV`` for
        ``classic_teams``, ``BKS[any]`` for ``start="any"``, then ``properties``), then one node
        per move in play order, its cells in the canonical order a1, b1, ..., a2, ...
        (as Pentobi writes them).

    Raises
    ------
    ValueError
        A property name is not letters then digits, has no value, or is one dumps writes
        itself (``GM``, ``CA``, ``BKV``, ``BKS``) or a move or setup property.
    """
    ids = _write_ids(game.num_colours)
    # move_text already lists cells in the canonical order (bottom row first, then by column).
    moves = "".join(f";{ids[colour]}[{game.move_text(move)}]" for colour, move in game.history)
    return f"({_node_text(_root(game, properties))}{moves})"


def records(text: str | bytes, *, mainline: bool = False) -> list[tuple[Game, dict[str, list[str]]]]:
    """Every game of an SGF collection, with its root properties.

    Parameters
    ----------
    text : str or bytes
        Any number of game trees (one per line or not; bytes are read as UTF-8), with any SGF layout: whitespace between
        tokens, several properties per node, escaped and multiple values, lowercase cells in any
        order. Property names are capitals and digits (SGF FF[4]). Unknown properties are
        ignored (and returned when in the root node).
    mainline : bool
        Follow the first variation at every branch instead of refusing a tree with variations.

    Returns
    -------
    list of (blokus.Game, dict)
        Per game tree: the game replayed, and its root node's properties as
        ``{identifier: [unescaped values]}``.

    Raises
    ------
    ValueError
        Bad SGF syntax (unbalanced parentheses or brackets, game trees nested more than 1000
        deep: refused at that parenthesis, before the rest is read, ...); a ``GM`` missing or not one of
        the four we play ("unsupported variant"); a setup property (``AB``, ``AW``,
        ``A1``-``A4``, ``AE``, ``PL``); variations without ``mainline``; or a move (named by its
        node and move number) that is not by the colour to move or is illegal (docs/rules.md,
        "Placing a piece" and "Turns, passing, end"). Colours that cannot move are skipped
        by the engine, as passes are not written. With several game trees the message
        starts with the game's number ("game 3 of 5: ..."). Values are quoted cut to 40
        characters.
    TypeError
        ``text`` is neither str nor bytes.
    """
    trees = list(_parse(_text_arg(text)))
    out = []
    for number, tree in enumerate(trees, 1):
        try:
            out.append((_game(tree, mainline), dict(tree.nodes[0])))
        except ValueError as exc:
            if len(trees) == 1:
                raise
            raise ValueError(f"game {number} of {len(trees)}: {exc}") from exc
    return out


def loads(text: str, *, mainline: bool = False) -> Game:
    """The game of an SGF text holding exactly one game tree.

    Parameters
    ----------
    text : str or bytes
        One game tree, in any SGF layout (see ``records``); bytes are read as UTF-8.
    mainline : bool
        Follow the first variation at every branch instead of refusing a tree with variations.

    Returns
    -------
    blokus.Game
        The variant of ``GM`` (``classic_teams`` when ``BKV`` says so), start rule ``"fixed"``
        unless ``BKS[any]``, with every move played.

    Raises
    ------
    TypeError
        ``text`` is neither str nor bytes.
    ValueError
        The text holds no game tree or several (refused at the second, before the rest is
        read), or any error of ``records``.
    """
    trees = _parse(_text_arg(text))
    first = next(trees, None)
    if first is None:
        raise ValueError("expected exactly one game tree, found none")
    if next(trees, None) is not None:  # the rest is not read: it could be any length
        raise ValueError("expected exactly one game tree, found more; records() reads a collection")
    return _game(first, mainline)


def read(path: str | os.PathLike, *, mainline: bool = False) -> list[Game]:
    """All games of a ``.blksgf`` file (UTF-8, as Pentobi writes them).

    Parameters
    ----------
    path : str or os.PathLike
    mainline : bool
        Follow the first variation at every branch (see ``records``).

    Returns
    -------
    list of blokus.Game
        One per game tree, in file order.

    Raises
    ------
    OSError
        The file cannot be read.
    ValueError
        As ``records``; also text that is not UTF-8 (``UnicodeDecodeError``), and a name that is
        not a regular file (a FIFO, a device, a directory: "not a regular file but ...").
    """
    text = read_regular(path).decode("utf-8")
    return [game for game, _ in records(text, mainline=mainline)]


def write(path: str | os.PathLike, games: Game | Iterable[Game], **properties) -> None:
    """Write games to a ``.blksgf`` file, one per line, each line newline-terminated (UTF-8).

    Parameters
    ----------
    path : str or os.PathLike
        Replaced if it exists.
    games : blokus.Game or iterable of blokus.Game
    **properties
        Root properties for every game, as in ``dumps``.

    Raises
    ------
    OSError
        The file cannot be written.
    ValueError
        As ``dumps``; also a name that is not a regular file (left as it was).
    """
    if isinstance(games, Game):
        games = [games]
    lines = [dumps(game, **properties) + "\n" for game in games]  # all checked before writing
    write_regular(path, "".join(lines).encode("utf-8"))
