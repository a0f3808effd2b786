"""A reminder's id as people and the model name it: ``s<id>`` repeating, ``r<id>`` one-shot.

A repeating reminder is typed by the last four digits of its id
(docs/reminders.md); `resolve_reminder_id` finds the full ids a typed one names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.schedules import Schedule

__all__ = ["parse_reminder_id", "reminder_id", "resolve_reminder_id", "short_reminder_id"]


def reminder_id(item: OutboxItem | Schedule) -> str:
    """How the person and the model name a reminder: ``s<id>`` recurring, ``r<id>`` one-shot
    (and a repeating one made from it, `Schedule.named`)."""
    if isinstance(item, Schedule):
        return item.named or f"s{item.id}"
    return f"r{item.id}"


def parse_reminder_id(text: str) -> tuple[Literal["s", "r"], int] | None:
    """("s" or "r", id) for a reminder id, None for anything else."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in "sr" or not text[1:].isdigit():
        return None
    return ("s" if text[0] == "s" else "r"), int(text[1:])


_SHORT = 10_000
"""A repeating reminder is typed by the last four digits of its id (docs/reminders.md)."""


def short_reminder_id(full: str) -> str:
    """The id a person types: ``s5182`` for a repeating one, a one-shot's own ``r40``."""
    parsed = parse_reminder_id(full)
    if parsed is None or parsed[0] == "r" or parsed[1] < _SHORT:
        return full
    return f"s{parsed[1] % _SHORT:04d}"


def resolve_reminder_id(typed: str, known: Iterable[str]) -> list[str]:
    """The full ids among `known` that `typed` names: itself, or the repeating ones it ends."""
    parsed = parse_reminder_id(typed)
    if parsed is None:
        return []
    kind, number = parsed
    exact = f"{kind}{number}"
    if exact in known:
        return [exact]
    if kind == "r" or number >= _SHORT:
        return []
    return [k for k in known if k.startswith("s") and short_reminder_id(k) == f"s{number:04d}"]
