"""Typed values for the rows a message reads: its person and its thread.

The queries in `wrapper.store.queries` return these instead of column dicts, so a
misspelt column is a type error, not a silent None. They are plain frozen
dataclasses (an ORM object carries SQLAlchemy state and costs several times
more to build on the message path). `ThreadView` is the thread as one message
reads it, named apart from the `threads` table of `wrapper.store.tables`.

The caps the wrapper applies to what it keeps are here too, each defined once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from clockcore import ContactWindow, InvalidContactWindowError

__all__ = [
    "MAX_KNOWN_PLACES",
    "MAX_NOTICE_CHARS",
    "PersonRow",
    "ThreadView",
]

MAX_KNOWN_PLACES = 3
"""Places a person named that are remembered for their zone (newest first)."""
MAX_NOTICE_CHARS = 300
"""The longest notice (a channel's hint about a message) shown to the person."""


@dataclass(frozen=True, slots=True)
class PersonRow:
    """An identity joined with its person: what a message needs to know of who sent it.

    Attributes:
        user_id: the person (several identities may share one).
        default_tz: the zone the person set, or None.
        platform_tz: the zone a platform reports for them (their default until they set one).
        policy_overrides: their CLOCK policy overrides (a partial policy mapping).
        known_locations: places they named, newest first, at most `MAX_KNOWN_PLACES`.
        last_interaction_any_channel_at: their last message on any channel.
        last_interaction_any_channel: that message's channel.
        actions_until: no action of theirs is open past this (a hint that skips a query).
        has_due_items: they may have reminders due (a hint that skips a query).
        contact_window: the hours they set ("09:00-22:00"), None for the default.
        display_name: what this identity's platform last called them, or None.
    """

    user_id: str
    default_tz: str | None = None
    platform_tz: str | None = None
    policy_overrides: Mapping[str, Any] = field(default_factory=dict)
    known_locations: tuple[str, ...] = ()
    last_interaction_any_channel_at: datetime | None = None
    last_interaction_any_channel: str | None = None
    actions_until: datetime | None = None
    has_due_items: bool = False
    contact_window: str | None = None
    display_name: str | None = None

    @classmethod
    def from_row(cls, row: Mapping[Any, Any]) -> PersonRow:
        """From the person query's columns (JSON columns may be NULL on old rows)."""
        return cls(
            user_id=str(row["user_id"]),
            default_tz=row["default_tz"],
            platform_tz=row["platform_tz"],
            policy_overrides=row["policy_overrides"] or {},
            known_locations=tuple(row["known_locations"] or ()),
            last_interaction_any_channel_at=row["last_interaction_any_channel_at"],
            last_interaction_any_channel=row["last_interaction_any_channel"],
            actions_until=row["actions_until"],
            has_due_items=bool(row["has_due_items"]),
            contact_window=row["contact_window"],
            display_name=row["display_name"],
        )

    def window(self, default: ContactWindow) -> ContactWindow:
        """Their contact window: the one they set, else `default` (also for a bad stored one)."""
        if self.contact_window:
            try:
                return ContactWindow.parse(self.contact_window)
            except InvalidContactWindowError:
                pass
        return default

    @property
    def own_zone(self) -> str | None:
        """The zone they set, else the one their platform reports, else None."""
        return self.default_tz or self.platform_tz


@dataclass(frozen=True, slots=True)
class ThreadView:
    """A thread's zone override and stamps, as a message reads them.

    Attributes:
        thread_kind: "conversation", or the kind a directive set (docs/clock-spec.md §4.3).
        session_tz: the zone set for this thread, overriding the person's.
        session_started_at: when the current session began.
        last_interaction_at: the last message either way.
        delta_hours: the thread zone's offset from the agent's, as last stamped.
    """

    thread_kind: str = "conversation"
    session_tz: str | None = None
    session_started_at: datetime | None = None
    last_interaction_at: datetime | None = None
    delta_hours: float | None = None

    @classmethod
    def from_row(cls, row: Mapping[Any, Any]) -> ThreadView:
        """From the threads table's columns."""
        return cls(
            thread_kind=row["thread_kind"] or "conversation",
            session_tz=row["session_tz"],
            session_started_at=row["session_started_at"],
            last_interaction_at=row["last_interaction_at"],
            delta_hours=row["delta_hours"],
        )
