"""What a turn's tools intend to change, as values, and how each lands in a transaction.

A tool that writes does not touch the store: it stages one of these effects
and answers the model from the staged value (`bot.agent.tools.toolbox`). The turn's commit
(`wrapper.turns.turn_commit`) applies them in order, in the one transaction that
also writes the history, the reply and the waiting list. The same functions
back the wrapper's own methods (`InteractionWrapper.remember` …), so a write
means one thing whichever way it comes.

An effect that meets a store changed since it was staged (an item another
turn deleted meanwhile) changes nothing rather than failing the turn: what
the person was told stays true of the moment the tool ran.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy.engine import Connection

from clockcore import ContactWindow, ContextEnvelope, MessageRef, Policy, delta_hours, require_zone
from clockcore.actions import MAX_TTL, classify_activity, draft_action
from wrapper import keys
from wrapper.calendar_feeds import NewCalendarFeed, new_feed_in
from wrapper.errors import WrapperError
from wrapper.inbound.sender_checks import NewSenderCheck, TakeSenderCheck, check_in, take_check_in
from wrapper.meeting_polls import MeetingVote, NewMeetingPoll, store_poll_in, vote_in
from wrapper.outbound.outbox import OutboxKind, cancel_reminders, enqueue_in, item_values
from wrapper.outbound.reminders import ReminderChange, RuleChange, change_in, rule_in
from wrapper.outbound.schedule_changes import rezone_in
from wrapper.outbound.schedules import NewSchedule, create_in
from wrapper.store import queries
from wrapper.store.queries.actions import new_action_id
from wrapper.store.queries.memory import new_memory_id
from wrapper.store.rows import PersonRow
from wrapper.web import NewSignInLink, link_in

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
    "actions_enabled",
    "apply_effect",
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
            id=new_memory_id(), user_key=user_key, content=content, due_at=due_at,
            created_at=created_at, group=group,
        )  # fmt: skip


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
            key=key, kind=kind, channel=message.channel, thread_id=message.thread_id,
            thread_key=envelope.thread_key, user_key=envelope.user_key, user_id=message.user_id,
            text=text, due_at=due_at, memory_id=memory_id,
        )  # fmt: skip


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


def apply_effect(
    conn: Connection, effect: Effect, *, policy: Policy, agent_tz: str, now: datetime
) -> None:
    """Write one effect in the caller's transaction."""
    match effect:
        case NewMemory():
            store_memory(conn, effect, now=now)
        case MarkReminded():
            queries.mark_reminded(conn, effect.id, effect.at)
        case ForgetMemory():
            drop_memory(conn, user_key=effect.user_key, item_id=effect.id)
        case NewAction():
            record_action(conn, effect, policy=policy)
        case ActionStatusChange():
            change_action(conn, user_key=effect.user_key, action_id=effect.id, status=effect.status)
        case ZoneChange():
            set_zone(conn, effect, agent_tz=agent_tz, now=now)
        case Enqueue():
            enqueue_in(conn, outbox_values(effect, now))
        case NewSchedule():
            create_in(conn, effect, now=now)
        case ReminderChange():
            change_in(conn, effect, now=now)
        case RuleChange():
            rule_in(conn, effect, now=now)
        case WindowChange():
            person = _person(conn, effect.user_key, now)
            queries.update_person(conn, person.user_id, contact_window=effect.window)
        case NewSignInLink():
            link_in(conn, effect, now=now)
        case NewCalendarFeed():
            new_feed_in(conn, effect, now=now)
        case NewMeetingPoll():
            store_poll_in(conn, effect, now=now)
        case MeetingVote():
            vote_in(conn, effect, now=now)
        case NewSenderCheck():
            check_in(conn, effect, now=now)
        case TakeSenderCheck():
            take_check_in(conn, effect)


def outbox_values(effect: Enqueue, now: datetime) -> dict[str, Any]:
    """The outbox row `effect` inserts, checked (`wrapper.outbound.outbox.item_values`).

    Raises:
        ValueError: text over 20,000 characters or with NUL.
    """
    return item_values(
        kind=effect.kind, channel=effect.channel, thread_id=effect.thread_id,
        thread_key=effect.thread_key, user_key=effect.user_key, user_id=effect.user_id,
        text=effect.text, due_at=effect.due_at, memory_id=effect.memory_id, now=now,
        key=effect.key,
    )  # fmt: skip


def _person(conn: Connection, user_key: str, now: datetime) -> PersonRow:
    channel, channel_user_id = keys.split_user_key(user_key)
    return queries.person_for(
        conn, user_key=user_key, channel=channel, channel_user_id=channel_user_id, now=now
    )


def store_memory(conn: Connection, item: NewMemory, *, now: datetime) -> int:
    """Insert the item (creating the person when new); its id."""
    person = _person(conn, item.user_key, now)
    return queries.insert_memory(
        conn, item_id=item.id, user_id=person.user_id, content=item.content,
        now=item.created_at or now, due_at=item.due_at, group=item.group,
    )  # fmt: skip


def drop_memory(conn: Connection, *, user_key: str, item_id: int) -> int | None:
    """Delete the person's item and fail its waiting reminders; how many, None for no such item."""
    person = queries.load_person(conn, user_key)
    if person is None:
        return None
    if not queries.delete_memory(conn, user_id=person.user_id, item_id=item_id):
        return None
    return cancel_reminders(conn, item_id)


def actions_enabled(conn: Connection, *, policy: Policy, user_key: str) -> bool:
    """Whether the person's policy lets actions be recorded."""
    person = queries.load_person(conn, user_key)
    overrides = person.policy_overrides if person else {}
    return bool(policy.with_overrides(overrides).store.latest_actions.enabled)


def record_action(conn: Connection, action: NewAction, *, policy: Policy) -> str:
    """Record a clocked action as ``clock it:`` does, applying the person's cap; its id.

    `expected_minutes` replaces the typical duration, raises the maximum to it
    when needed, and stretches the expiry to cover it (at most `MAX_TTL`).

    Raises:
        ActionsDisabledError: the person's policy turns action tracking off.
    """
    person = _person(conn, action.user_key, action.at)
    person_id = person.user_id
    settings = policy.with_overrides(person.policy_overrides).store.latest_actions
    if not settings.enabled:
        raise ActionsDisabledError()
    thread, _ = queries.load_thread(conn, action.thread_key, action.user_key)
    known = classify_activity(action.label) is not None
    draft = draft_action(
        action.label,
        source="clock_it",
        thread_kind=thread.thread_kind if thread else "conversation",  # type: ignore[arg-type]
        store_quotes=False,
        calibration=queries.calibration_for(conn, person_id) if known else {},
    )
    typical, most, ttl = None, None, None
    if action.expected_minutes is not None:
        most = max(draft.expected_max_minutes or 0, action.expected_minutes)
        typical = action.expected_minutes
        ttl = min(max(draft.ttl, timedelta(minutes=most)), MAX_TTL)
    action_id, _ = queries.record_action(
        conn, action_id=action.id, person_id=person_id, thread_key=action.thread_key,
        draft=draft, at=action.at, max_items=settings.max_items, typical_minutes=typical,
        max_minutes=most, ttl=ttl,
    )  # fmt: skip
    return action_id


def change_action(conn: Connection, *, user_key: str, action_id: str, status: str) -> bool:
    """Set the status of the person's action; False when they have no such action."""
    person = queries.load_person(conn, user_key)
    if person is None:
        return False
    return queries.set_action_status(
        conn, user_id=person.user_id, action_id=action_id, status=status
    )


def set_zone(conn: Connection, change: ZoneChange, *, agent_tz: str, now: datetime) -> None:
    """Set the thread's session zone (a bare thread row when new) or the person's home zone."""
    if change.scope == "thread":
        assert change.thread_key is not None  # checked when the change was made
        agent_id, channel, thread_id = keys.split_thread_key(change.thread_key)
        queries.set_thread_zone(
            conn, thread_key=change.thread_key, agent_id=agent_id, channel=channel,
            thread_id=thread_id, zone=change.zone,
            delta_hours=delta_hours(change.zone, agent_tz, now), now=now,
        )  # fmt: skip
    else:
        person = _person(conn, change.user_key, now)
        queries.update_person(conn, person.user_id, default_tz=change.zone)
        if person.own_zone != change.zone:
            rezone_in(conn, person.user_id, old=person.own_zone, now=now)
