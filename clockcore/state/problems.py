"""A problem in a state document: its JSON path, a message quoting at most a short scalar, order."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "JsonPath",
    "Problem",
    "in_document_order",
    "json_path",
    "json_type",
    "outside",
    "rendered",
    "short",
]

_SHORT = 40
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
JsonPath = tuple[str | int, ...]
Problem = tuple[JsonPath, str]


def outside(problems: list[Problem], taken: Sequence[JsonPath]) -> list[Problem]:
    """The problems not at or under a path already reported."""
    return [
        problem
        for problem in problems
        if not any(problem[0][: len(prefix)] == prefix for prefix in taken)
    ]


def in_document_order(problems: list[Problem], document: object) -> list[Problem]:
    """Sort problems as their fields appear in the document; missing keys after present ones."""
    positions: dict[int, dict[str, int]] = {}

    def key(problem: Problem) -> list[tuple[int, str]]:
        node: object = document
        result: list[tuple[int, str]] = []
        for part in problem[0]:
            if isinstance(node, dict) and isinstance(part, str):
                index = positions.get(id(node))
                if index is None:
                    index = positions[id(node)] = {name: i for i, name in enumerate(node)}
                result.append((index.get(part, len(index)), part))
                node = node.get(part)
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                result.append((part, ""))
                node = node[part]
            else:
                result.append((0, str(part)))
                node = None
        return result

    return sorted(problems, key=key)


def rendered(problems: Iterable[Problem]) -> list[tuple[str, str]]:
    return [(json_path(path), message) for path, message in problems]


def json_path(path: JsonPath) -> str:
    """``$.users.u1.latest_actions[0].status``; keys that are not identifiers go in ``['...']``."""
    parts = ["$"]
    for part in path:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif _IDENTIFIER.fullmatch(part):
            parts.append(f".{part}")
        else:
            escaped = part.replace("\\", "\\\\").replace("'", "\\'")
            parts.append(f"['{escaped}']")
    return "".join(parts)


def json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    return f"a {type(value).__name__}"


def short(value: object) -> str:
    """A scalar quoted for a message, cut short; anything else by its type."""
    if isinstance(value, str):
        return repr(value) if len(value) <= _SHORT else repr(value[: _SHORT - 3] + "...")
    if value is None or isinstance(value, bool | int | float):
        text = json.dumps(value)
        return text if len(text) <= _SHORT else text[: _SHORT - 3] + "..."
    return json_type(value)
