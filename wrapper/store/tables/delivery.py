"""What goes out and where: outbox, repeating schedules, what was sent, routes, workers."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, Index, Integer, Table, UniqueConstraint, false, text

from wrapper.store.tables.columns import (
    BigId,
    instant,
    metadata,
    optional_text,
    person_id,
    required_text,
)

__all__ = ["channel_state", "outbox", "routes", "schedules", "sent_messages", "workers"]

outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True),
    required_text("kind", 16),
    required_text("channel", 32),
    required_text("thread_id"),
    required_text("thread_key"),
    optional_text("user_key"),
    required_text("text"),
    required_text("status", 16),
    instant("due_at", required=True),
    optional_text("claimed_by"),
    instant("claim_expires_at"),
    Column("attempts", Integer, nullable=False, default=0, server_default="0"),
    optional_text("last_error", 500),
    optional_text("defer_reason"),
    instant("deferred_from"),
    Column("memory_id", BigId, nullable=True),
    instant("created_at", required=True),
    instant("sent_at"),
    required_text("key", 300),
    optional_text("user_id"),
    optional_text("final_text"),
    instant("decided_at"),
    Column("schedule_id", BigId, nullable=True, index=True),
    instant("occurs_at"),
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


schedules = Table(
    "schedules",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=False),
    person_id(index=True),
    required_text("user_key"),
    required_text("thread_key"),
    required_text("channel", 32),
    required_text("thread_id"),
    optional_text("channel_user_id"),
    required_text("text"),
    required_text("rrule", 500),
    required_text("dtstart", 32),
    optional_text("zone", 64),
    required_text("origin_tz", 64),
    Column("elapsed", Boolean, nullable=False, default=False, server_default=false()),
    required_text("missed", 8, default="one", server_default="one"),
    required_text("state", 8, default="active", server_default="active"),
    instant("created_at", required=True),
    instant("updated_at", required=True),
    optional_text("named", 24),
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
    required_text("channel", 32, primary_key=True),
    required_text("platform_id", primary_key=True),
    Column("outbox_id", Integer, nullable=False),
    instant("sent_at", required=True),
)
"""A message the platform took from us, by its own id: what a reply to it names.

`platform_id` is what `channels.base.Channel.send` returned (Telegram
``<chat>:<message>``, Slack ``<channel>:<ts>``, a Message-ID); a person's reply
carries it as `Inbound.reply_to`, and this row leads to its job.
"""


routes = Table(
    "routes",
    metadata,
    required_text("thread_key", primary_key=True),
    required_text("channel", 32),
    Column("route", JSON, nullable=False),
    instant("updated_at", required=True),
)
"""Where a thread's answers go: the adapter's route from its latest message."""


channel_state = Table(
    "channel_state",
    metadata,
    required_text("key", 300, primary_key=True),
    required_text("value"),
    instant("updated_at", required=True),
)
"""A small value an adapter keeps across restarts (an IMAP UIDVALIDITY)."""


workers = Table(
    "workers",
    metadata,
    required_text("id", 40, primary_key=True),
    instant("started_at", required=True),
    instant("heartbeat_at", required=True),
)
"""A running worker and its heartbeat: claims of a worker that stopped beating are free."""
