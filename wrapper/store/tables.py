"""The store's tables, declared once (SQLAlchemy Core). One schema for SQLite and PostgreSQL.

A *user* is a person; an *identity* is that person on one channel
(``user_key = "<channel>:<id>"``). Identities start with a user of their own
and share one only when the person links them (docs/clock-spec.md §7.0).

The migrations (`wrapper/store/migrations`) build these tables; a test compares the
migrated store with `metadata` on SQLite and PostgreSQL. Every statement in the
store is SQLAlchemy Core on these `Table`s: no ORM objects are made, so rows
come back as mappings and the values the code passes around are its own
dataclasses (`wrapper.store.rows`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    false,
    text,
)

from wrapper.store.types import UTCDateTime

__all__ = [
    "actions",
    "calibration",
    "channel_state",
    "history",
    "identities",
    "journal",
    "link_codes",
    "meeting_attendees",
    "meeting_polls",
    "meeting_votes",
    "memory",
    "metadata",
    "model_calls",
    "outbox",
    "participants",
    "pending_turns",
    "rate_buckets",
    "routes",
    "schedules",
    "sender_checks",
    "sent_messages",
    "threads",
    "users",
    "web_links",
    "web_sessions",
    "workers",
]

metadata = MetaData()
"""Every table below: what the migrations build (a test compares the two)."""

BigId = BigInteger().with_variant(Integer(), "sqlite")
"""64-bit ids; plain INTEGER on SQLite, where that is already 64-bit and the rowid."""


def _text(name: str, length: int | None = None, **kwargs: Any) -> Column[Any]:
    """A required text column (``VARCHAR``, of `length` when given)."""
    return Column(name, String(length), nullable=False, **kwargs)


def _maybe(name: str, length: int | None = None, **kwargs: Any) -> Column[Any]:
    """An optional text column."""
    return Column(name, String(length), nullable=True, **kwargs)


def _instant(name: str, *, required: bool = False, index: bool = False) -> Column[Any]:
    """An aware UTC instant (`wrapper.store.types.UTCDateTime`); optional unless `required`."""
    return Column(name, UTCDateTime(), nullable=not required, index=index)


def _person(*, primary_key: bool = False, index: bool = False) -> Column[Any]:
    """``user_id``: the person a row belongs to."""
    return Column(
        "user_id",
        String(40),
        ForeignKey("users.id"),
        primary_key=primary_key,
        nullable=False,
        index=index,
    )


users = Table(
    "users",
    metadata,
    _text("id", 40, primary_key=True),
    _maybe("default_tz", 64),
    # The zone a platform reports for the person (Slack's profile); their
    # default only while they have not set one themselves.
    _maybe("platform_tz", 64),
    Column("policy_overrides", JSON),
    Column("known_locations", JSON),
    _instant("last_interaction_any_channel_at"),
    _maybe("last_interaction_any_channel", 32),
    # Hints that let a message skip queries that cannot return anything. They
    # may be stale only in the safe direction (a query that finds nothing).
    _instant("actions_until"),
    Column("has_due_items", Boolean, nullable=False, default=False, server_default=false()),
    _instant("created_at", required=True),
    # The hours the person set for being contacted ("09:00-22:00"); None: the default.
    _maybe("contact_window", 16),
)
"""A person: default zone, policy overrides, the cross-channel stamp."""

identities = Table(
    "identities",
    metadata,
    _text("user_key", primary_key=True),
    _text("channel", 32),
    _text("channel_user_id"),
    _person(index=True),
    _instant("last_user_message_at"),
    _instant("last_agent_message_at"),
    _instant("created_at", required=True),
    _maybe("display_name"),
)
"""A person on one channel, that channel's stamps (CLOCK-STATE ``channels``) and the name
the platform last gave for them (`clockcore.message.person_name`)."""

link_codes = Table(
    "link_codes",
    metadata,
    _text("code_hash", 64, primary_key=True),
    _text("user_key", index=True),
    _text("thread_key"),
    _instant("expires_at", required=True),
    _maybe("redeemer"),
    _maybe("redeemer_thread"),
)
"""A short-lived code one identity issued to be linked from another (`wrapper.people.linking`).

Only its hash is kept. Once redeemed it names the redeeming identity and waits
for the issuer's yes or no.
"""

threads = Table(
    "threads",
    metadata,
    _text("thread_key", primary_key=True),
    _text("agent_id", 64),
    _text("channel", 32),
    _text("thread_id"),
    _text("thread_kind", 16, default="conversation"),
    _maybe("session_tz", 64),
    _maybe("agent_tz", 64),
    Column("delta_hours", Float, nullable=True),
    _instant("session_started_at"),
    _instant("last_interaction_at"),
    _instant("last_user_message_at"),
    _instant("last_agent_message_at"),
    _instant("created_at", required=True),
)
"""A conversation: its kind, zone override and stamps."""

participants = Table(
    "thread_participants",
    metadata,
    _text("thread_key", primary_key=True),
    _text("user_key", primary_key=True),
    _instant("last_user_message_at"),
)
"""Who spoke in a thread, and when each last did."""

actions = Table(
    "actions",
    metadata,
    _text("id", 40, primary_key=True),
    _person(),
    _text("thread_key"),
    _text("label", 200),
    _text("type", 32, default="temporal_action"),
    _text("status", 16),
    _maybe("activity", 64),
    _text("source", 16),
    _maybe("quote", 200),
    _instant("recorded_at", required=True),
    _instant("expires_at", required=True),
    Column("expected_typical_minutes", Integer, nullable=True),
    Column("expected_max_minutes", Integer, nullable=True),
    Index("ix_actions_user_recorded", "user_id", "recorded_at"),
)
"""A latest action (docs/clock-spec.md §6.3): a short label, its status and its expiry."""

calibration = Table(
    "calibration",
    metadata,
    _person(primary_key=True),
    _text("activity", 64, primary_key=True),
    Column("typical_minutes", Integer, nullable=False),
    Column("max_minutes", Integer, nullable=False),
    _instant("updated_at", required=True),
)
"""A person's own duration for an activity ("meal:dinner" takes them 90 min)."""

memory = Table(
    "memory_items",
    metadata,
    Column("id", BigId, primary_key=True),
    _person(),
    _text("content"),
    _instant("created_at", required=True),
    _instant("due_at"),
    _instant("reminded_at"),
    # Where it was remembered when that was a group thread: only that thread's tools
    # see it. None for an item from a private thread (or from before this was kept).
    _maybe("thread_key"),
    Index(
        "ix_memory_items_due",
        "user_id",
        "due_at",
        sqlite_where=text("due_at IS NOT NULL"),
        postgresql_where=text("due_at IS NOT NULL"),
    ),
)
"""Something the agent remembers for a person, optionally due at an instant.

docs/clock-spec.md, "Due dates on memory".
"""

journal = Table(
    "inbound_journal",
    metadata,
    Column("id", Integer, primary_key=True),
    _text("channel", 32),
    _maybe("message_id"),
    _text("thread_key"),
    _text("user_key"),
    _instant("received_at", required=True),
    _text("text"),
    UniqueConstraint("channel", "message_id", name="uq_journal_message"),
)
"""Every inbound message, once: the unique key is how a redelivery is recognised."""

history = Table(
    "history",
    metadata,
    Column("id", Integer, primary_key=True),
    _text("thread_key"),
    Column("seq", Integer, nullable=False),
    _text("role", 16),
    _text("content"),
    Column("tool_calls", JSON(none_as_null=True), nullable=True),
    _maybe("tool_call_id"),
    _maybe("name"),
    _instant("created_at", required=True),
    Index("ix_history_thread_seq", "thread_key", "seq", unique=True),
)
"""One message of a thread's conversation with the agent, in `seq` order (0..n)."""

outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True),
    _text("kind", 16),
    _text("channel", 32),
    _text("thread_id"),
    _text("thread_key"),
    _maybe("user_key"),
    _text("text"),
    _text("status", 16),
    _instant("due_at", required=True),
    _maybe("claimed_by"),
    _instant("claim_expires_at"),
    Column("attempts", Integer, nullable=False, default=0, server_default="0"),
    _maybe("last_error", 500),
    _maybe("defer_reason"),
    _instant("deferred_from"),
    Column("memory_id", BigId, nullable=True),
    _instant("created_at", required=True),
    _instant("sent_at"),
    _text("key", 300),
    _maybe("user_id"),
    _maybe("final_text"),
    _instant("decided_at"),
    Column("schedule_id", BigId, nullable=True, index=True),
    _instant("occurs_at"),
    Index("ix_outbox_status_due", "status", "due_at"),
    # What is due reads a note's reminders (docs/reminders.md, "What is due").
    Index(
        "ix_outbox_memory",
        "memory_id",
        sqlite_where=text("memory_id IS NOT NULL"),
        postgresql_where=text("memory_id IS NOT NULL"),
    ),
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
"""A message waiting to go out, going out, sent, deferred or failed: all stay visible."""

pending_turns = Table(
    "pending_turns",
    metadata,
    Column("id", Integer, primary_key=True),
    _text("channel", 32),
    _text("message_id"),
    _text("thread_id"),
    _text("user_id"),
    _text("text"),
    _instant("retry_at", required=True),
    Column("attempts", Integer, nullable=False, default=0),
    _maybe("claimed_by", 40),
    _instant("claim_expires_at"),
    Column("claims", Integer, nullable=False, default=0, server_default="0"),
    _instant("received_at"),
    Column("envelope", JSON, nullable=True),
    # When the person's turn limit last held it back (`wrapper.turns.limits`); None: never.
    _instant("held_at"),
    UniqueConstraint("channel", "message_id", name="uq_pending_message"),
)
"""A message waiting for its answer: being answered, or failed and kept for a retry.

`claimed_by` is the worker answering it now (None: nobody), until
`claim_expires_at` or until that worker stops beating (`workers`); `claims`
counts claims and fences a commit to the latest one. A message nobody holds is
taken again from `retry_at`. `envelope` is its context envelope as the wrapper
made it on arrival (JSON), so a retry answers with the facts of that moment plus
a note of the delay.
"""

rate_buckets = Table(
    "rate_buckets",
    metadata,
    _text("key", 200, primary_key=True),
    Column("tokens", Float, nullable=False),
    _instant("updated_at", required=True),
    _instant("noticed_at"),
)
"""A token bucket of turns (`wrapper.turns.limits`): a person's or a channel's.

`tokens` were left at `updated_at`; `noticed_at` is when its person was last
told they are over the limit.
"""

routes = Table(
    "routes",
    metadata,
    _text("thread_key", primary_key=True),
    _text("channel", 32),
    Column("route", JSON, nullable=False),
    _instant("updated_at", required=True),
)
"""Where a thread's answers go: the adapter's route from its latest message."""

channel_state = Table(
    "channel_state",
    metadata,
    _text("key", 300, primary_key=True),
    _text("value"),
    _instant("updated_at", required=True),
)
"""A small value an adapter keeps across restarts (an IMAP UIDVALIDITY)."""

workers = Table(
    "workers",
    metadata,
    _text("id", 40, primary_key=True),
    _instant("started_at", required=True),
    _instant("heartbeat_at", required=True),
)
"""A running worker and its heartbeat: claims of a worker that stopped beating are free."""

schedules = Table(
    "schedules",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=False),
    _person(index=True),
    _text("user_key"),
    _text("thread_key"),
    _text("channel", 32),
    _text("thread_id"),
    _maybe("channel_user_id"),
    _text("text"),
    _text("rrule", 500),
    _text("dtstart", 32),
    _maybe("zone", 64),
    _text("origin_tz", 64),
    Column("elapsed", Boolean, nullable=False, default=False, server_default=false()),
    _text("missed", 8, default="one", server_default="one"),
    _text("state", 8, default="active", server_default="active"),
    _instant("created_at", required=True),
    _instant("updated_at", required=True),
    _maybe("named", 24),
)
"""A recurring reminder: its rule, zone (None: floating), text, thread and state.

`named` is the id it is known by when it began as a one-shot reminder (``r40``),
made repeating in place ("make it every other week"): None names it ``s<id>``.

`dtstart` is the rule's DTSTART as naive wall time (ISO text, so no driver
turns it into an instant); `user_id` is the person, `channel_user_id` the id
the channel knows them by (the outbox jobs' route).
"""

sent_messages = Table(
    "sent_messages",
    metadata,
    _text("channel", 32, primary_key=True),
    _text("platform_id", primary_key=True),
    Column("outbox_id", Integer, nullable=False),
    _instant("sent_at", required=True),
)
"""A message the platform took from us, by its own id: what a reply to it names.

`platform_id` is what `channels.base.Channel.send` returned (Telegram
``<chat>:<message>``, Slack ``<channel>:<ts>``, a Message-ID); a person's reply
carries it as `Inbound.reply_to`, and this row leads to its job.
"""

model_calls = Table(
    "model_calls",
    metadata,
    Column("id", Integer, primary_key=True),
    _text("thread_key"),
    _maybe("turn_key"),
    _instant("at", required=True),
    _text("provider", 32),
    _text("model", 200),
    _text("purpose", 16),
    Column("prompt_tokens", Integer, nullable=True),
    Column("cached_tokens", Integer, nullable=True),
    Column("completion_tokens", Integer, nullable=True),
    Column("cache_write_tokens", Integer, nullable=True),
    Column("latency_ms", Float, nullable=False),
    _text("hashes"),
    _text("prefix", 16),
    Column("first_difference", Integer, nullable=True),
    Column("evicted", Boolean, nullable=False, default=False),
    Index("ix_model_calls_thread", "thread_key", "id"),
    Index("ix_model_calls_at", "at"),
)
"""One request to the model: its usage, latency and prompt prefix (`wrapper.turns.model_calls`).

`hashes` holds one 16-hex hash per message sent, space-separated; `prefix` says how
they compare with the thread's previous request (first, same, changed, compacted).
"""

web_links = Table(
    "web_links",
    metadata,
    _text("token_hash", 64, primary_key=True),
    _text("user_key"),
    _instant("created_at", required=True),
    _instant("expires_at", required=True),
    _instant("used_at"),
)
"""A one-time sign-in link for the web pages (`wrapper.web`): only its token's hash is kept."""

sender_checks = Table(
    "sender_checks",
    metadata,
    _text("token_hash", 64, primary_key=True),
    _text("user_key", index=True),
    _text("request"),
    _instant("created_at", required=True),
    _instant("expires_at", required=True),
    _maybe("thread_key"),
)
"""A privileged request from a sender the channel could not prove (`wrapper.inbound.sender_checks`).

It waits for a reply carrying the token mailed to the address, in the private thread it was
asked in (`thread_key`); only the token's hash is kept.
"""

calendar_feeds = Table(
    "calendar_feeds",
    metadata,
    _text("token_hash", 64, primary_key=True),
    _person(index=True),
    _instant("created_at", required=True),
)
"""A person's calendar feed (`wrapper.calendar_feeds`): only its token's hash is kept; one each."""

meeting_polls = Table(
    "meeting_polls",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    _text("thread_key", index=True),
    _text("channel", 32),
    _text("thread_id"),
    _text("organiser"),
    Column("minutes", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("voters", JSON, nullable=False),
    _text("status", 16),
    Column("chosen", Integer, nullable=True),
    _instant("closes_at", required=True),
    _instant("created_at", required=True),
    Index("ix_meeting_polls_open", "status", "closes_at"),
)
"""A meeting poll in a group (`wrapper.meeting_polls`): the proposed slots, who is asked."""

meeting_votes = Table(
    "meeting_votes",
    metadata,
    Column("poll_id", BigInteger, ForeignKey("meeting_polls.id"), primary_key=True),
    _text("user_key", primary_key=True),
    Column("choices", JSON, nullable=False),
    _instant("at", required=True),
)
"""One member's answer to a meeting poll: the options they can make (their latest answer)."""

meeting_attendees = Table(
    "meeting_attendees",
    metadata,
    Column("poll_id", BigInteger, ForeignKey("meeting_polls.id"), primary_key=True),
    _text("user_key", primary_key=True, index=True),
)
"""Who is in the meeting a poll decided: the members who could make the chosen slot, as
they answered when it was decided (a later answer changes nothing). Their feeds and
timelines show the meeting."""

web_sessions = Table(
    "web_sessions",
    metadata,
    _text("token_hash", 64, primary_key=True),
    _maybe("user_id", 40, index=True),
    _maybe("user_key"),
    _instant("created_at", required=True),
    _instant("expires_at", required=True),
)
"""A signed-in browser (`wrapper.web`): a person's, or an operator's when `user_id` is None."""
