"""What a turn's tools intend to change, as values; `effect_writes` lands each in a transaction.

A tool that writes does not touch the store: it stages one of these effects
and answers the model from the staged value (`bot.agent.tools.toolbox`). The turn's commit
(`wrapper.turns.turn_commit`) applies them in order (`effect_writes.apply_effect`), in the
one transaction that also writes the history, the reply and the waiting list. The same
functions back the wrapper's own methods (`InteractionWrapper.remember` …), so a write
means one thing whichever way it comes.

An effect that meets a store changed since it was staged (an item another
turn deleted meanwhile) changes nothing rather than failing the turn: what
the person was told stays true of the moment the tool ran.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from clockcore import ContactWindow, ContextEnvelope, MessageRef, require_zone
from clockcore.actions import MAX_TTL
from wrapper import keys
from wrapper.calendar_feeds import NewCalendarFeed
from wrapper.errors import WrapperError
from wrapper.inbound.sender_checks import NewSenderCheck, TakeSenderCheck
from wrapper.meeting_polls import MeetingVote, NewMeetingPoll
from wrapper.outbound.outbox import OutboxKind, item_values
from wrapper.outbound.reminders import ReminderChange, RuleChange
from wrapper.outbound.schedules import NewSchedule
from wrapper.store.queries.actions import new_action_id
from wrapper.store.queries.memory import new_memory_id
from wrapper.web import NewSignInLink

__all__ = [
    "MAX_EXPECTED_MINUTES",
    "MAX_MEMORY_CHARS",
    "SETTABLE_ACTION_STATUSES",
    "ActionStatusChange",
    "ActionsDisabledError",
    "Effect",
    "Enqueue",
    "ForgetMemory",
    "MarkReminded",
    "NewAction",
    "NewCalendarFeed",
    "NewMemory",
    "NewSchedule",
    "NewSenderCheck",
    "NewSignInLink",
    "ReminderChange",
    "RuleChange",
    "TakeSenderCheck",
    "WindowChange",
    "ZoneChange",
    "check_action",
    "check_memory",
    "new_action_id",
    "new_memory_id",
    "outbox_values",
]

MAX_MEMORY_CHARS = 10_000
"""The longest memory item."""
MAX_EXPECTED_MINUTES = int(MAX_TTL.total_seconds() // 60)
"""The longest duration a clocked action may be expected to take."""
SETTABLE_ACTION_STATUSES: frozenset[str] = frozenset(
    {"in_progress", "likely_done", "done", "canceled"}
)
"""The statuses an action may be set to (the update_action tool's enum)."""


class ActionsDisabledError(WrapperError):
    """The person's policy turns action tracking off (``store.latest_actions.enabled``)."""

    def __init__(self) -> None:
        super().__init__("recording actions is turned off by this person's policy")


def check_memory(content: str) -> str:
    """The content as it will be stored (stripped).

    Raises:
        ValueError: empty, or over `MAX_MEMORY_CHARS`.
    """
    content = content.strip()
    if not content:
        raise ValueError("content must not be empty")
    if len(content) > MAX_MEMORY_CHARS:
        raise ValueError(f"content is over {MAX_MEMORY_CHARS:,} characters")
    return content


def check_action(label: str, expected_minutes: int | None) -> str:
    """The label as it will be stored.

    Raises:
        ValueError: a blank label, or `expected_minutes` outside 1..`MAX_EXPECTED_MINUTES`.
    """
    if not label.strip():
        raise ValueError("label must not be empty")
    if expected_minutes is not None and not 1 <= expected_minutes <= MAX_EXPECTED_MINUTES:
        raise ValueError(
            f"expected_minutes must be between 1 and {MAX_EXPECTED_MINUTES}, not {expected_minutes}"
        )
    return label


@dataclass(frozen=True, slots=True)
class NewMemory:
    """Store a memory item for the person (``remember``).

    `created_at` is when the tool ran (None: the commit's instant), so the
    items of one turn keep the order they were remembered in.
    """

    id: int
    user_key: str
    content: str
    due_at: datetime | None = None
    created_at: datetime | None = None
    group: str | None = None
    """The group thread's key when remembered in one (`MemoryRow.thread_key`)."""

    @classmethod
    def new(
        cls,
        user_key: str,
        content: str,
        *,
        due_at: datetime | None = None,
        created_at: datetime | None = None,
        group: str | None = None,
    ) -> NewMemory:
        """A new item with a fresh id (`content` already checked by `check_memory`)."""
        return cls(
            id=new_memory_id(),
            user_key=user_key,
            content=content,
            due_at=due_at,
            created_at=created_at,
            group=group,
        )


@dataclass(frozen=True, slots=True)
class MarkReminded:
    """The agent mentioned the item (``update_memory(reminded_at=…)``)."""

    id: int
    at: datetime


@dataclass(frozen=True, slots=True)
class ForgetMemory:
    """Delete the person's item and cancel its waiting reminders (``forget``)."""

    user_key: str
    id: int


@dataclass(frozen=True, slots=True)
class NewAction:
    """Record an action the person is about to do (``clock_it``)."""

    id: str
    user_key: str
    thread_key: str
    label: str
    expected_minutes: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class ActionStatusChange:
    """Set an action's status (``update_action``)."""

    user_key: str
    id: str
    status: str


@dataclass(frozen=True, slots=True)
class ZoneChange:
    """Set the thread's session zone or the person's home zone (``set_timezone``).

    `zone` is made the canonical IANA id; `thread_key` is needed for the thread
    scope only.

    Raises:
        UnknownTimezoneError: `zone` is not an IANA id.
        ValueError: an unknown scope, a thread scope without a thread, or a
            malformed `user_key`.
    """

    user_key: str
    thread_key: str | None
    zone: str
    scope: Literal["thread", "home"]

    def __post_init__(self) -> None:
        if self.scope not in ("thread", "home"):
            raise ValueError(f"scope must be 'thread' or 'home', not {self.scope!r}")
        if self.scope == "thread" and not self.thread_key:
            raise ValueError("a thread's zone needs its thread key")
        keys.split_user_key(self.user_key)
        object.__setattr__(self, "zone", require_zone(self.zone))


@dataclass(frozen=True, slots=True)
class WindowChange:
    """Set the person's contact window (``set_contact_window``): "HH:MM-HH:MM"."""

    user_key: str
    window: str

    def __post_init__(self) -> None:
        """Raises `InvalidContactWindowError` (a ValueError) for a window that cannot be read."""
        keys.split_user_key(self.user_key)
        ContactWindow.parse(self.window)

    @classmethod
    def of(cls, user_key: str, window: ContactWindow) -> WindowChange:
        return cls(user_key, f"{window.start:%H:%M}-{window.end:%H:%M}")


@dataclass(frozen=True, slots=True)
class Enqueue:
    """Put a message in the outbox; `key` makes a second insert a no-op."""

    key: str
    kind: OutboxKind
    channel: str
    thread_id: str
    thread_key: str
    user_key: str | None
    user_id: str | None
    text: str
    due_at: datetime
    memory_id: int | None = None

    @classmethod
    def answering(
        cls,
        message: MessageRef,
        envelope: ContextEnvelope,
        *,
        key: str,
        kind: OutboxKind,
        text: str,
        due_at: datetime,
        memory_id: int | None = None,
    ) -> Enqueue:
        """A message to `message`'s thread and writer, from the turn that answers it."""
        return cls(
            key=key,
            kind=kind,
            channel=message.channel,
            thread_id=message.thread_id,
            thread_key=envelope.thread_key,
            user_key=envelope.user_key,
            user_id=message.user_id,
            text=text,
            due_at=due_at,
            memory_id=memory_id,
        )


Effect = (
    NewMemory
    | MarkReminded
    | ForgetMemory
    | NewAction
    | ActionStatusChange
    | ZoneChange
    | Enqueue
    | NewSchedule
    | ReminderChange
    | RuleChange
    | WindowChange
    | NewSignInLink
    | NewCalendarFeed
    | NewMeetingPoll
    | MeetingVote
    | NewSenderCheck
    | TakeSenderCheck
)


def outbox_values(effect: Enqueue, now: datetime) -> dict[str, Any]:
    """The outbox row `effect` inserts, checked (`wrapper.outbound.outbox.item_values`).

    Raises:
        ValueError: text over 20,000 characters or with NUL.
    """
    return item_values(
        kind=effect.kind,
        channel=effect.channel,
        thread_id=effect.thread_id,
        thread_key=effect.thread_key,
        user_key=effect.user_key,
        user_id=effect.user_id,
        text=effect.text,
        due_at=effect.due_at,
        memory_id=effect.memory_id,
        now=now,
        key=effect.key,
    )
