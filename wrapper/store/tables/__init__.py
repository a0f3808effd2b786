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

from wrapper.store.tables.columns import metadata
from wrapper.store.tables.conversation import (
    history,
    journal,
    model_calls,
    participants,
    pending_turns,
    rate_buckets,
    threads,
)
from wrapper.store.tables.delivery import (
    channel_state,
    outbox,
    routes,
    schedules,
    sent_messages,
    workers,
)
from wrapper.store.tables.people import actions, calibration, identities, memory, users
from wrapper.store.tables.polls import meeting_attendees, meeting_polls, meeting_votes
from wrapper.store.tables.tokens import (
    calendar_feeds,
    link_codes,
    sender_checks,
    web_links,
    web_sessions,
)

__all__ = [
    "actions",
    "calendar_feeds",
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
