"""A person, their identity on each channel, and their actions, durations and memory."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, Index, Integer, Table, false, text

from wrapper.store.tables.columns import (
    BigId,
    instant,
    metadata,
    optional_text,
    person_id,
    required_text,
)

__all__ = ["actions", "calibration", "identities", "memory", "users"]

users = Table(
    "users",
    metadata,
    required_text("id", 40, primary_key=True),
    optional_text("default_tz", 64),
    # The zone a platform reports for the person (Slack's profile); their
    # default only while they have not set one themselves.
    optional_text("platform_tz", 64),
    Column("policy_overrides", JSON),
    Column("known_locations", JSON),
    instant("last_interaction_any_channel_at"),
    optional_text("last_interaction_any_channel", 32),
    # Hints that let a message skip queries that cannot return anything. They
    # may be stale only in the safe direction (a query that finds nothing).
    instant("actions_until"),
    Column("has_due_items", Boolean, nullable=False, default=False, server_default=false()),
    instant("created_at", required=True),
    # The hours the person set for being contacted ("09:00-22:00"); None: the default.
    optional_text("contact_window", 16),
)
"""A person: default zone, policy overrides, the cross-channel stamp."""


identities = Table(
    "identities",
    metadata,
    required_text("user_key", primary_key=True),
    required_text("channel", 32),
    required_text("channel_user_id"),
    person_id(index=True),
    instant("last_user_message_at"),
    instant("last_agent_message_at"),
    instant("created_at", required=True),
    optional_text("display_name"),
)
"""A person on one channel, that channel's stamps (CLOCK-STATE ``channels``) and the name
the platform last gave for them (`clockcore.message.person_name`)."""


actions = Table(
    "actions",
    metadata,
    required_text("id", 40, primary_key=True),
    person_id(),
    required_text("thread_key"),
    required_text("label", 200),
    required_text("type", 32, default="temporal_action"),
    required_text("status", 16),
    optional_text("activity", 64),
    required_text("source", 16),
    optional_text("quote", 200),
    instant("recorded_at", required=True),
    instant("expires_at", required=True),
    Column("expected_typical_minutes", Integer, nullable=True),
    Column("expected_max_minutes", Integer, nullable=True),
    Index("ix_actions_user_recorded", "user_id", "recorded_at"),
)
"""A latest action (docs/clock-spec.md §6.3): a short label, its status and its expiry."""


calibration = Table(
    "calibration",
    metadata,
    person_id(primary_key=True),
    required_text("activity", 64, primary_key=True),
    Column("typical_minutes", Integer, nullable=False),
    Column("max_minutes", Integer, nullable=False),
    instant("updated_at", required=True),
)
"""A person's own duration for an activity ("meal:dinner" takes them 90 min)."""


memory = Table(
    "memory_items",
    metadata,
    Column("id", BigId, primary_key=True),
    person_id(),
    required_text("content"),
    instant("created_at", required=True),
    instant("due_at"),
    instant("reminded_at"),
    # Where it was remembered when that was a group thread: only that thread's tools
    # see it. None for an item from a private thread (or from before this was kept).
    optional_text("thread_key"),
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
