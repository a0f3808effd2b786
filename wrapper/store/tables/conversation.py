"""A thread and its turns: who spoke, messages in, history, waiting list, limits, model calls."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, Float, Index, Integer, Table, UniqueConstraint

from wrapper.store.tables.columns import instant, metadata, optional_text, required_text

__all__ = [
    "history",
    "journal",
    "model_calls",
    "participants",
    "pending_turns",
    "rate_buckets",
    "threads",
]

threads = Table(
    "threads",
    metadata,
    required_text("thread_key", primary_key=True),
    required_text("agent_id", 64),
    required_text("channel", 32),
    required_text("thread_id"),
    required_text("thread_kind", 16, default="conversation"),
    optional_text("session_tz", 64),
    optional_text("agent_tz", 64),
    Column("delta_hours", Float, nullable=True),
    instant("session_started_at"),
    instant("last_interaction_at"),
    instant("last_user_message_at"),
    instant("last_agent_message_at"),
    instant("created_at", required=True),
)
"""A conversation: its kind, zone override and stamps."""


participants = Table(
    "thread_participants",
    metadata,
    required_text("thread_key", primary_key=True),
    required_text("user_key", primary_key=True),
    instant("last_user_message_at"),
)
"""Who spoke in a thread, and when each last did."""


journal = Table(
    "inbound_journal",
    metadata,
    Column("id", Integer, primary_key=True),
    required_text("channel", 32),
    optional_text("message_id"),
    required_text("thread_key"),
    required_text("user_key"),
    instant("received_at", required=True),
    required_text("text"),
    UniqueConstraint("channel", "message_id", name="uq_journal_message"),
)
"""Every inbound message, once: the unique key is how a redelivery is recognised."""


history = Table(
    "history",
    metadata,
    Column("id", Integer, primary_key=True),
    required_text("thread_key"),
    Column("seq", Integer, nullable=False),
    required_text("role", 16),
    required_text("content"),
    Column("tool_calls", JSON(none_as_null=True), nullable=True),
    optional_text("tool_call_id"),
    optional_text("name"),
    instant("created_at", required=True),
    Index("ix_history_thread_seq", "thread_key", "seq", unique=True),
)
"""One message of a thread's conversation with the agent, in `seq` order (0..n)."""


pending_turns = Table(
    "pending_turns",
    metadata,
    Column("id", Integer, primary_key=True),
    required_text("channel", 32),
    required_text("message_id"),
    required_text("thread_id"),
    required_text("user_id"),
    required_text("text"),
    instant("retry_at", required=True),
    Column("attempts", Integer, nullable=False, default=0),
    optional_text("claimed_by", 40),
    instant("claim_expires_at"),
    Column("claims", Integer, nullable=False, default=0, server_default="0"),
    instant("received_at"),
    Column("envelope", JSON, nullable=True),
    # When the person's turn limit last held it back (`wrapper.turns.limits`); None: never.
    instant("held_at"),
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
    required_text("key", 200, primary_key=True),
    Column("tokens", Float, nullable=False),
    instant("updated_at", required=True),
    instant("noticed_at"),
)
"""A token bucket of turns (`wrapper.turns.limits`): a person's or a channel's.

`tokens` were left at `updated_at`; `noticed_at` is when its person was last
told they are over the limit.
"""


model_calls = Table(
    "model_calls",
    metadata,
    Column("id", Integer, primary_key=True),
    required_text("thread_key"),
    optional_text("turn_key"),
    instant("at", required=True),
    required_text("provider", 32),
    required_text("model", 200),
    required_text("purpose", 16),
    Column("prompt_tokens", Integer, nullable=True),
    Column("cached_tokens", Integer, nullable=True),
    Column("completion_tokens", Integer, nullable=True),
    Column("cache_write_tokens", Integer, nullable=True),
    Column("latency_ms", Float, nullable=False),
    required_text("hashes"),
    required_text("prefix", 16),
    Column("first_difference", Integer, nullable=True),
    Column("evicted", Boolean, nullable=False, default=False),
    Index("ix_model_calls_thread", "thread_key", "id"),
    Index("ix_model_calls_at", "at"),
)
"""One request to the model: its usage, latency and prompt prefix (`wrapper.turns.model_calls`).

`hashes` holds one 16-hex hash per message sent, space-separated; `prefix` says how
they compare with the thread's previous request (first, same, changed, compacted).
"""
