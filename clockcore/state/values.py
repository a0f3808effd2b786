"""CLOCK-STATE v3 as typed values (docs/clock-spec.md §10.2), as `state.document` reads them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from clockcore.actions import ActionSource, ActionStatus
from clockcore.policy import ThreadKind

__all__ = [
    "ACTION_SOURCES",
    "ACTION_STATUSES",
    "STATE_VERSION",
    "THREAD_KINDS",
    "ActionState",
    "CalibrationState",
    "ChannelStamps",
    "ClockState",
    "MemoryState",
    "ThreadState",
    "UserState",
]

STATE_VERSION: Final = 3
ACTION_STATUSES: tuple[ActionStatus, ...] = (
    "planned",
    "in_progress",
    "likely_done",
    "done",
    "canceled",
    "expired",
)
ACTION_SOURCES: tuple[ActionSource, ...] = ("auto", "clock_it", "user_confirmed")
THREAD_KINDS: tuple[ThreadKind, ...] = ("project", "conversation", "scheduling", "operations")


@dataclass(frozen=True, slots=True)
class ChannelStamps:
    """A user's last messages on one channel (``users.<id>.channels.<channel_key>``)."""

    last_user_message_at: datetime | None = None
    last_agent_message_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ActionState:
    """A clocked action (docs/clock-spec.md §6.3); every action expires."""

    id: str
    label: str
    type: str
    status: ActionStatus
    recorded_at: datetime
    expires_at: datetime
    thread_key: str
    source: ActionSource
    expected_typical_minutes: int | None = None
    expected_max_minutes: int | None = None


@dataclass(frozen=True, slots=True)
class CalibrationState:
    """A user's own duration for an activity (``calibration.activity_overrides``)."""

    typical_minutes: int
    max_minutes: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class UserState:
    """Everything stored for one user.

    Attributes:
        default_tz: the user's home IANA zone, when known.
        policy_overrides: a partial CLOCK policy block (keys under ``clock:``),
            as written; apply it with ``DEFAULT_POLICY.with_overrides``.
        last_interaction_any_channel_at: the user's last interaction anywhere.
        channels: last-message stamps per channel key.
        latest_actions: clocked actions, in stored order.
        calibration: per-activity durations, keyed by activity (``meal:dinner``).
    """

    default_tz: str | None = None
    policy_overrides: Mapping[str, object] = field(default_factory=dict)
    last_interaction_any_channel_at: datetime | None = None
    channels: Mapping[str, ChannelStamps] = field(default_factory=dict)
    latest_actions: tuple[ActionState, ...] = ()
    calibration: Mapping[str, CalibrationState] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ThreadState:
    """Everything stored for one thread (docs/clock-spec.md §7.2 thread key)."""

    thread_kind: ThreadKind = "conversation"
    session_tz: str | None = None
    agent_tz: str | None = None
    delta_hours: float | None = None
    participants: tuple[str, ...] = ()
    last_interaction_at: datetime | None = None
    last_user_message_at_by_user: Mapping[str, datetime] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MemoryState:
    """A remembered item or reminder (``x_clockbot.memory``)."""

    id: int
    user_id: str
    content: str
    created_at: datetime
    due_at: datetime | None = None
    reminded_at: datetime | None = None
    thread_key: str | None = None
    """The group thread it was remembered in (only that thread sees it); None: private."""


@dataclass(frozen=True, slots=True)
class ClockState:
    """A whole CLOCK-STATE document as values: users and threads by id, memory, backup parts.

    Mappings are plain dicts; treat them as read-only. Instants read by
    `load_state` are aware UTC datetimes.

    Attributes:
        backup: the rows of each backup part (`clockcore.state.backup.PARTS`) by the part's
            name, each row its columns by name; a part with no rows may be left out.
    """

    users: Mapping[str, UserState] = field(default_factory=dict)
    threads: Mapping[str, ThreadState] = field(default_factory=dict)
    memory: tuple[MemoryState, ...] = ()
    backup: Mapping[str, tuple[Mapping[str, object], ...]] = field(default_factory=dict)
