"""What an envelope names beside the time: zones named in a message, open actions, items due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from clockcore.actions import OPEN_STATUSES, ActionSource, ActionStatus
from clockcore.clock import as_utc
from clockcore.envelope_text import iso_or_none, local_time, wall
from clockcore.geo.zones import get_zone, to_iso

__all__ = ["NamedZone", "OpenAction", "UpcomingItem", "due_label"]


def due_label(item: UpcomingItem, tz: str) -> str:
    """``[DUE 2026-04-30 09:00]`` or ``[OVERDUE 2026-04-28 09:00]``, in zone `tz`.

    Overdue is the item's own ``overdue`` flag (set when the envelope was built).

    Raises:
        UnknownTimezoneError: `tz` is not an IANA id.
    """
    word = "OVERDUE" if item.overdue else "DUE"
    return f"[{word} {wall(local_time(item.due_at, tz), seconds=False)}]"


@dataclass(frozen=True, slots=True)
class NamedZone:
    """A zone the message names that is not the session's: `name` as written, `zone` its id."""

    name: str
    zone: str

    def __post_init__(self) -> None:
        get_zone(self.zone)


@dataclass(frozen=True, slots=True)
class OpenAction:
    """A clocked action the envelope may mention (docs/clock-spec.md §6).

    Attributes:
        id: the action's id (``act_9f3c``).
        label: the normalised short label, as the user's words summarised.
        status: its status; only ``planned``, ``in_progress`` and
            ``likely_done`` are rendered.
        recorded_at: when it was clocked, aware.
        expires_at: when it stops counting, aware.
        thread_key: the thread it was clocked in.
        source: how it was stored.
        expected_typical_minutes: a typical duration, when known.
        expected_max_minutes: a maximal duration, when known.

    Raises:
        NaiveDatetimeError: an instant is naive.
    """

    id: str
    label: str
    status: ActionStatus
    recorded_at: datetime
    expires_at: datetime
    thread_key: str
    source: ActionSource
    expected_typical_minutes: int | None = None
    expected_max_minutes: int | None = None

    def __post_init__(self) -> None:
        as_utc(self.recorded_at)
        as_utc(self.expires_at)

    def is_open(self, now: datetime) -> bool:
        """Still open at `now`: an open status and not yet expired."""
        return self.status in OPEN_STATUSES and as_utc(self.expires_at) > as_utc(now)

    def to_dict(self, tz: str) -> dict[str, object]:
        """JSON-ready, instants ISO-8601 in zone `tz`."""
        return {
            "id": self.id,
            "label": self.label,
            "status": self.status,
            "recorded_at": to_iso(self.recorded_at, tz),
            "expires_at": to_iso(self.expires_at, tz),
            "thread_key": self.thread_key,
            "source": self.source,
            "expected_typical_minutes": self.expected_typical_minutes,
            "expected_max_minutes": self.expected_max_minutes,
        }


@dataclass(frozen=True, slots=True)
class UpcomingItem:
    """A reminder to come, or a note due soon or overdue (docs/reminders.md, "What is due").

    Attributes:
        id: a reminder's id (``"r12"`` one-shot, ``"s5"`` repeating), or a note's
            memory item id.
        content: what it says, as stored.
        due_at: when it is due, aware.
        overdue: ``due_at <= now`` when the envelope was built.
        reminded_at: when the agent last surfaced it, if ever.

    Raises:
        NaiveDatetimeError: an instant is naive.
    """

    id: int | str
    content: str
    due_at: datetime
    overdue: bool
    reminded_at: datetime | None = None

    def __post_init__(self) -> None:
        as_utc(self.due_at)
        if self.reminded_at is not None:
            as_utc(self.reminded_at)

    def to_dict(self, tz: str) -> dict[str, object]:
        """JSON-ready, instants ISO-8601 in zone `tz`, with its `due_label`."""
        return {
            "id": self.id,
            "content": self.content,
            "due_at": to_iso(self.due_at, tz),
            "overdue": self.overdue,
            "reminded_at": iso_or_none(self.reminded_at, tz),
            "label": due_label(self, tz),
        }
