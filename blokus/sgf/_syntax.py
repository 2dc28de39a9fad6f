"""SGF syntax (FF[4]): text <-> game trees of nodes of properties, whatever the game."""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import NamedTuple

_IDENT = re.compile(r"[A-Z0-9]+")
_PLAIN_VALUE = re.compile(r"[^\]\\]+")  # a run of a value's characters that need no unescaping

# The deepest nesting of game trees read. A writer opens at most one tree per node of a line,
# and no Blokus game has more than 84 moves (4 colours x 21 pieces; Pentobi's opening books nest
# 10 deep): 1000 leaves room for any commented record, and "(;" repeated is refused after 2000
# characters instead of being held whole at ~170 bytes of memory per character.
MAX_DEPTH = 1000

Node = Mapping[str, list[str]]  # property identifier -> its unescaped values, in file order
# Every node without properties is this one, read only: ";" repeated costs a list slot each.
_EMPTY_NODE: Node = MappingProxyType({})


class _Tree(NamedTuple):
    """One SGF game tree: a sequence of nodes, then its variations (child trees)."""

    nodes: list
    children: list


def _shorten(value: str, limit: int = 40) -> str:
    """A value as error messages quote it: cut to ``limit`` characters, so that a huge property
    is not echoed whole."""
    return value if len(value) <= limit else value[:limit] + f"... ({len(value)} characters)"


def _text_arg(text) -> str:
    """The SGF text of ``text``: a str, or bytes as UTF-8 (what Pentobi writes)."""
    if isinstance(text, str):
        return text
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"SGF bytes are not UTF-8 (byte {exc.start}): decode them first") from None
    raise TypeError(f"SGF text must be a str (or UTF-8 bytes), not {type(text).__name__}")


def _where(text: str, i: int) -> str:
    """Where index i is, for error messages: "line 3, column 7" (both from 1)."""
    line = text.count("\n", 0, i) + 1
    column = i - text.rfind("\n", 0, i)
    return f"line {line}, column {column}"


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _parse(text: str) -> Iterator[_Tree]:
    """The game trees of an SGF collection (GameTree = "(" Node+ GameTree* ")"), each yielded
    as soon as it is closed, so that a reader that wants only the first stops reading there.

    Iterative rather than recursive: opening books nest variations as deep as their lines.
    Nesting deeper than ``MAX_DEPTH`` is refused where it happens.
    """
    open_trees: list[_Tree] = []
    i = _skip_space(text, 1 if text.startswith("\ufeff") else 0)
    while i < len(text):
        c = text[i]
        if c == "(":
            if open_trees and not open_trees[-1].nodes:
                raise ValueError(f"SGF syntax: a variation before any node at {_where(text, i)}")
            if len(open_trees) == MAX_DEPTH:
                raise ValueError(f"SGF syntax: game trees nested deeper than {MAX_DEPTH} at "
                                 f"{_where(text, i)} (no Blokus record needs more)")
            tree = _Tree([], [])
            if open_trees:
                open_trees[-1].children.append(tree)
            open_trees.append(tree)
            i += 1
        elif c == ")":
            if not open_trees:
                raise ValueError(f"SGF syntax: unbalanced ')' at {_where(text, i)}")
            tree = open_trees.pop()
            if not tree.nodes:
                raise ValueError(f"SGF syntax: empty game tree '()' at {_where(text, i)}")
            i += 1
            if not open_trees:
                yield tree
        elif c == ";":
            if not open_trees:
                raise ValueError(f"SGF syntax: a node outside any game tree at {_where(text, i)}")
            if open_trees[-1].children:
                raise ValueError(f"SGF syntax: a node after a variation at {_where(text, i)}")
            node, i = _parse_node(text, i + 1)
            open_trees[-1].nodes.append(node)
        else:
            raise ValueError(f"SGF syntax: unexpected {c!r} at {_where(text, i)}")
        i = _skip_space(text, i)
    if open_trees:
        raise ValueError(f"SGF syntax: unbalanced '(': {len(open_trees)} game tree(s) not closed")


def _parse_node(text: str, i: int) -> tuple[Node, int]:
    """The properties after a ';', and the index after them. A property repeated in one node
    (not valid SGF, but seen in the wild) has its values merged."""
    node: dict[str, list[str]] = {}
    while True:
        i = _skip_space(text, i)
        match = _IDENT.match(text, i)
        if match is None:
            if i < len(text) and text[i] not in "();":
                raise ValueError(f"SGF syntax: expected a property identifier (capital letters) "
                                 f"at {_where(text, i)}, found {text[i]!r}")
            return node or _EMPTY_NODE, i
        ident, i = match.group(), _skip_space(text, match.end())
        if i >= len(text) or text[i] != "[":
            raise ValueError(f"SGF syntax: property {_shorten(ident)} has no value at {_where(text, i)}")
        values = node.setdefault(ident, [])
        while i < len(text) and text[i] == "[":
            value, i = _parse_value(text, i + 1)
            values.append(value)
            i = _skip_space(text, i)


def _parse_value(text: str, i: int) -> tuple[str, int]:
    """A value after its '[': up to the first unescaped ']', unescaped. A backslash keeps the
    next character; before a line break it is a soft line break, and both vanish (SGF FF[4])."""
    out = []
    start = i
    while i < len(text):
        plain = _PLAIN_VALUE.match(text, i)
        if plain:
            out.append(plain.group())
            i = plain.end()
            continue
        if text[i] == "]":
            return "".join(out), i + 1
        i += 1  # a backslash
        if i < len(text) and text[i] in "\r\n":
            pair = text[i:i + 2]
            i += 2 if pair in ("\r\n", "\n\r") else 1
        elif i < len(text):
            out.append(text[i])
            i += 1
    raise ValueError(f"SGF syntax: unbalanced '[' at {_where(text, start - 1)}: value never closed")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _node_text(node: Node) -> str:
    return ";" + "".join(ident + "".join(f"[{_escape(v)}]" for v in values)
                         for ident, values in node.items())
