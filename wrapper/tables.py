"""The store's tables (SQLModel). One schema for SQLite and PostgreSQL.

A *user* is a person; an *identity* is that person on one channel
(``user_key = "<channel>:<id>"``). Identities start with a user of their own
and share one only when the person links them (docs/clock-spec.md §7.0).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Index, Integer, UniqueConstraint, false, text
from sqlmodel import Field, SQLModel

from wrapper.types import UTCDateTime

__all__ = [
    "ActionRow",
    "CalibrationRow",
    "ChannelStateRow",
    "HistoryRow",
    "IdentityRow",
    "JournalRow",
    "LinkCodeRow",
    "MemoryRow",
    "OutboxRow",
    "ParticipantRow",
    "PendingTurnRow",
    "RouteRow",
    "SentMessageRow",
    "ThreadRow",
    "UserRow",
    "WebLinkRow",
    "WebSessionRow",
    "WorkerRow",
]

BigId = BigInteger().with_variant(Integer(), "sqlite")
"""64-bit ids; plain INTEGER on SQLite, where that is already 64-bit and the rowid."""


def _instant(*, nullable: bool = True, index: bool = False) -> Any:
    return Field(default=None, sa_type=UTCDateTime, nullable=nullable, index=index)


class UserRow(SQLModel, table=True):
    """A person: default zone, policy overrides, the cross-channel stamp."""

    __tablename__ = "users"

    id: str = Field(primary_key=True, max_length=40)
    default_tz: str | None = Field(default=None, max_length=64)
    # The zone a platform reports for the person (Slack's profile); their
    # default only while they have not set one themselves.
    platform_tz: str | None = Field(default=None, max_length=64)
    policy_overrides: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))
    known_locations: list[str] = Field(default_factory=list, sa_column=Column(JSON))
    last_interaction_any_channel_at: datetime | None = _instant()
    last_interaction_any_channel: str | None = Field(default=None, max_length=32)
    # Hints that let a message skip queries that cannot return anything. They
    # may be stale only in the safe direction (a query that finds nothing).
    actions_until: datetime | None = _instant()
    has_due_items: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    # The hours the person set for being contacted ("09:00-22:00"); None: the default.
    contact_window: str | None = Field(default=None, max_length=16)


class IdentityRow(SQLModel, table=True):
    """A person on one channel, and that channel's stamps (CLOCK-STATE ``channels``)."""

    __tablename__ = "identities"

    user_key: str = Field(primary_key=True)
    channel: str = Field(max_length=32)
    channel_user_id: str
    user_id: str = Field(foreign_key="users.id", index=True, max_length=40)
    last_user_message_at: datetime | None = _instant()
    last_agent_message_at: datetime | None = _instant()
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class LinkCodeRow(SQLModel, table=True):
    """A short-lived code one identity issued to be linked from another (`wrapper.linking`).

    Only its hash is kept. Once redeemed it names the redeeming identity and waits
    for the issuer's yes or no.
    """

    __tablename__ = "link_codes"

    code_hash: str = Field(primary_key=True, max_length=64)
    user_key: str = Field(index=True)
    thread_key: str
    expires_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    redeemer: str | None = Field(default=None)
    redeemer_thread: str | None = Field(default=None)


class ThreadRow(SQLModel, table=True):
    """A conversation: its kind, zone override and stamps."""

    __tablename__ = "threads"

    thread_key: str = Field(primary_key=True)
    agent_id: str = Field(max_length=64)
    channel: str = Field(max_length=32)
    thread_id: str
    thread_kind: str = Field(default="conversation", max_length=16)
    session_tz: str | None = Field(default=None, max_length=64)
    agent_tz: str | None = Field(default=None, max_length=64)
    delta_hours: float | None = None
    session_started_at: datetime | None = _instant()
    last_interaction_at: datetime | None = _instant()
    last_user_message_at: datetime | None = _instant()
    last_agent_message_at: datetime | None = _instant()
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class ParticipantRow(SQLModel, table=True):
    """Who spoke in a thread, and when each last did."""

    __tablename__ = "thread_participants"

    thread_key: str = Field(primary_key=True)
    user_key: str = Field(primary_key=True)
    last_user_message_at: datetime | None = _instant()


class ActionRow(SQLModel, table=True):
    """A latest action (docs/clock-spec.md §6.3): a short label, its status and its expiry."""

    __tablename__ = "actions"
    __table_args__ = (Index("ix_actions_user_recorded", "user_id", "recorded_at"),)

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40)
    thread_key: str
    label: str = Field(max_length=200)
    type: str = Field(default="temporal_action", max_length=32)
    status: str = Field(max_length=16)
    activity: str | None = Field(default=None, max_length=64)
    source: str = Field(max_length=16)
    quote: str | None = Field(default=None, max_length=200)
    recorded_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    expires_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    expected_typical_minutes: int | None = None
    expected_max_minutes: int | None = None


class CalibrationRow(SQLModel, table=True):
    """A person's own duration for an activity ("meal:dinner" takes them 90 min)."""

    __tablename__ = "calibration"

    user_id: str = Field(primary_key=True, foreign_key="users.id", max_length=40)
    activity: str = Field(primary_key=True, max_length=64)
    typical_minutes: int
    max_minutes: int
    updated_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class MemoryRow(SQLModel, table=True):
    """Something the agent remembers for a person, optionally due at an instant.

    docs/clock-spec.md, "Due dates on memory".
    """

    __tablename__ = "memory_items"
    __table_args__ = (
        Index(
            "ix_memory_items_due",
            "user_id",
            "due_at",
            sqlite_where=text("due_at IS NOT NULL"),
            postgresql_where=text("due_at IS NOT NULL"),
        ),
    )

    id: int | None = Field(default=None, sa_column=Column(BigId, primary_key=True))
    user_id: str = Field(foreign_key="users.id", max_length=40)
    content: str
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    due_at: datetime | None = _instant()
    reminded_at: datetime | None = _instant()
    thread_key: str | None = Field(default=None)
    """Where it was remembered when that was a group thread: only that thread's tools see it.
    None for an item from a private thread (or from before this was kept)."""


class JournalRow(SQLModel, table=True):
    """Every inbound message, once: the unique key is how a redelivery is recognised."""

    __tablename__ = "inbound_journal"
    __table_args__ = (UniqueConstraint("channel", "message_id", name="uq_journal_message"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    channel: str = Field(max_length=32)
    message_id: str | None = Field(default=None)
    thread_key: str
    user_key: str
    received_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    text: str


class HistoryRow(SQLModel, table=True):
    """One message of a thread's conversation with the agent, in `seq` order (0..n)."""

    __tablename__ = "history"
    __table_args__ = (Index("ix_history_thread_seq", "thread_key", "seq", unique=True),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    thread_key: str
    seq: int
    role: str = Field(max_length=16)
    content: str
    tool_calls: list[dict[str, str]] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True))
    )
    tool_call_id: str | None = Field(default=None)
    name: str | None = Field(default=None)
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class OutboxRow(SQLModel, table=True):
    """A message waiting to go out, going out, sent, deferred or failed: all stay visible."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_status_due", "status", "due_at"),
        # A thread's replies go out in order: a reply waits while an older one is claimed.
        Index(
            "ix_outbox_claimed_thread",
            "thread_key",
            "id",
            sqlite_where=text("status = 'claimed'"),
            postgresql_where=text("status = 'claimed'"),
        ),
        UniqueConstraint("key", name="uq_outbox_key"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    kind: str = Field(max_length=16)
    channel: str = Field(max_length=32)
    thread_id: str
    thread_key: str
    user_key: str | None = Field(default=None)
    text: str
    status: str = Field(max_length=16)
    due_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    claimed_by: str | None = Field(default=None)
    claim_expires_at: datetime | None = _instant()
    attempts: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    last_error: str | None = Field(default=None, max_length=500)
    defer_reason: str | None = Field(default=None)
    deferred_from: datetime | None = _instant()
    memory_id: int | None = Field(default=None, sa_type=BigId)
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    sent_at: datetime | None = _instant()
    key: str = Field(max_length=300, nullable=False)
    user_id: str | None = Field(default=None)
    final_text: str | None = Field(default=None)
    decided_at: datetime | None = _instant()
    schedule_id: int | None = Field(default=None, sa_type=BigId, index=True)
    occurs_at: datetime | None = _instant()


class PendingTurnRow(SQLModel, table=True):
    """A message waiting for its answer: being answered, or failed and kept for a retry.

    `claimed_by` is the worker answering it now (None: nobody), until
    `claim_expires_at` or until that worker stops beating (`WorkerRow`);
    `claims` counts claims and fences a commit to the latest one. A message
    nobody holds is taken again from `retry_at`. `envelope` is its context
    envelope as the wrapper made it on arrival (JSON), so a retry answers
    with the facts of that moment plus a note of the delay.
    """

    __tablename__ = "pending_turns"
    __table_args__ = (UniqueConstraint("channel", "message_id", name="uq_pending_message"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    channel: str = Field(max_length=32)
    message_id: str
    thread_id: str
    user_id: str
    text: str
    retry_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    attempts: int = Field(default=0)
    claimed_by: str | None = Field(default=None, max_length=40)
    claim_expires_at: datetime | None = _instant()
    claims: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    received_at: datetime | None = _instant()
    envelope: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    held_at: datetime | None = _instant()
    """When the person's turn limit last held it back (`wrapper.limits`); None: never."""


class RateBucketRow(SQLModel, table=True):
    """A token bucket of turns (`wrapper.limits`): a person's or a channel's.

    `tokens` were left at `updated_at`; `noticed_at` is when its person was
    last told they are over the limit.
    """

    __tablename__ = "rate_buckets"

    key: str = Field(primary_key=True, max_length=200)
    tokens: float
    updated_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    noticed_at: datetime | None = _instant()


class RouteRow(SQLModel, table=True):
    """Where a thread's answers go: the adapter's route from its latest message."""

    __tablename__ = "routes"

    thread_key: str = Field(primary_key=True)
    channel: str = Field(max_length=32)
    route: dict[str, str] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class ChannelStateRow(SQLModel, table=True):
    """A small value an adapter keeps across restarts (an IMAP UIDVALIDITY)."""

    __tablename__ = "channel_state"

    key: str = Field(primary_key=True, max_length=300)
    value: str
    updated_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class WorkerRow(SQLModel, table=True):
    """A running worker and its heartbeat: claims of a worker that stopped beating are free."""

    __tablename__ = "workers"

    id: str = Field(primary_key=True, max_length=40)
    started_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    heartbeat_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class ScheduleRow(SQLModel, table=True):
    """A recurring reminder: its rule, zone (None: floating), text, thread and state.

    `dtstart` is the rule's DTSTART as naive wall time (ISO text, so no driver
    turns it into an instant); `user_id` is the person, `channel_user_id` the
    id the channel knows them by (the outbox jobs' route).
    """

    __tablename__ = "schedules"

    id: int = Field(sa_column=Column(BigId, primary_key=True, autoincrement=False))
    user_id: str = Field(foreign_key="users.id", index=True, max_length=40)
    user_key: str
    thread_key: str
    channel: str = Field(max_length=32)
    thread_id: str
    channel_user_id: str | None = Field(default=None)
    text: str
    rrule: str = Field(max_length=500)
    dtstart: str = Field(max_length=32)
    zone: str | None = Field(default=None, max_length=64)
    origin_tz: str = Field(max_length=64)
    elapsed: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    missed: str = Field(default="one", max_length=8, sa_column_kwargs={"server_default": "one"})
    state: str = Field(
        default="active", max_length=8, sa_column_kwargs={"server_default": "active"}
    )
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    updated_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class SentMessageRow(SQLModel, table=True):
    """A message the platform took from us, by its own id: what a reply to it names.

    `platform_id` is what `channels.base.Channel.send` returned (Telegram
    ``<chat>:<message>``, Slack ``<channel>:<ts>``, a Message-ID); a person's
    reply carries it as `Inbound.reply_to`, and this row leads to its job.
    """

    __tablename__ = "sent_messages"

    channel: str = Field(primary_key=True, max_length=32)
    platform_id: str = Field(primary_key=True)
    outbox_id: int = Field(sa_column=Column(Integer, nullable=False))
    sent_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class ModelCallRow(SQLModel, table=True):
    """One request to the model: its usage, latency and prompt prefix (`wrapper.model_calls`).

    `hashes` holds one 16-hex hash per message sent, space-separated; `prefix` says how
    they compare with the thread's previous request (first, same, changed, compacted).
    """

    __tablename__ = "model_calls"
    __table_args__ = (
        Index("ix_model_calls_thread", "thread_key", "id"),
        Index("ix_model_calls_at", "at"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    thread_key: str
    turn_key: str | None = None
    at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    provider: str = Field(max_length=32)
    model: str = Field(max_length=200)
    purpose: str = Field(max_length=16)
    prompt_tokens: int | None = None
    cached_tokens: int | None = None
    completion_tokens: int | None = None
    cache_write_tokens: int | None = None
    latency_ms: float
    hashes: str
    prefix: str = Field(max_length=16)
    first_difference: int | None = None
    evicted: bool = Field(default=False)


class WebLinkRow(SQLModel, table=True):
    """A one-time sign-in link for the web pages (`wrapper.web`): only its token's hash is kept."""

    __tablename__ = "web_links"

    token_hash: str = Field(primary_key=True, max_length=64)
    user_key: str
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    expires_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    used_at: datetime | None = _instant()


class SenderCheckRow(SQLModel, table=True):
    """A privileged request from a sender the channel could not prove (`wrapper.sender_checks`).

    It waits for a reply carrying the token mailed to the address; only the token's hash is kept.
    """

    __tablename__ = "sender_checks"

    token_hash: str = Field(primary_key=True, max_length=64)
    user_key: str = Field(index=True)
    request: str
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    expires_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class WebSessionRow(SQLModel, table=True):
    """A signed-in browser (`wrapper.web`): a person's, or an operator's when `user_id` is None."""

    __tablename__ = "web_sessions"

    token_hash: str = Field(primary_key=True, max_length=64)
    user_id: str | None = Field(default=None, max_length=40, index=True)
    user_key: str | None = Field(default=None)
    created_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    expires_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
