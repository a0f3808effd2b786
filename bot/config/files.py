"""Reading a settings file, and the one error every settings problem becomes.

`ConfigError` names each bad field by its dotted path (and its environment
variable, added by `bot.config.settings`) and never quotes a value: a config holds
secrets. `read_yaml` reads the file with errors that give a position, not the
line; `without_empty` drops null and empty values (they count as unset);
`laid_over` lays one source over another, group by group.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from clockcore import PolicyError

__all__ = ["ConfigError", "laid_over", "policy_reason", "read_yaml", "without_empty"]


class ConfigError(ValueError):
    """A configuration clockbot cannot run with.

    The message names each bad field by its dotted path and its environment
    variable, and the file when there is one; it never quotes a value.

    Attributes:
        problems: ``(field, message)`` pairs, e.g. ``("telegram.mode", "...")``.
        source: the YAML file read, if any.
    """

    def __init__(self, problems: list[tuple[str, str]], *, source: Path | None = None) -> None:
        self.problems = tuple(problems)
        self.source = source
        head = "invalid configuration" + (f" ({source})" if source else "")
        lines = [f"{field}: {message}" if field else message for field, message in problems]
        super().__init__(head + ":\n  " + "\n  ".join(lines) if lines else head)


def read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise ConfigError([("", f"cannot read {path}: {reason}")], source=path) from None
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        # str(exc) quotes the offending line, which may hold a secret: use the position only.
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "unreadable"
        raise ConfigError([("", f"not valid YAML{where}: {problem}")], source=path) from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError([("", "the top level must be a mapping")], source=path)
    return loaded


def without_empty(data: Mapping[Any, Any]) -> dict[Any, Any]:
    """A copy of a YAML mapping without null or empty-string values (they count as unset)."""
    result: dict[Any, Any] = {}
    for key, value in data.items():
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        result[key] = without_empty(value) if isinstance(value, Mapping) else value
    return result


def laid_over(low: Mapping[str, Any], high: Mapping[str, Any]) -> dict[str, Any]:
    """`low` with `high` laid over it, group by group (``llm:`` from both is one group)."""
    merged = dict(low)
    for key, value in high.items():
        below = merged.get(key)
        both = isinstance(below, Mapping) and isinstance(value, Mapping)
        merged[key] = laid_over(below, value) if both else value  # type: ignore[arg-type]
    return merged


def policy_reason(exc: PolicyError) -> str:
    """The reason of a `PolicyError`, without the source and path it starts with."""
    message = str(exc)
    for prefix in (f"{exc.source}: " if exc.source else "", f"{exc.path or '<policy>'}: "):
        message = message.removeprefix(prefix)
    return message
