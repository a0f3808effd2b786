"""Conversation history: each thread's messages to and from the agent, in order.

Content is kept exactly as given (no stripping, no normalising): the agent
re-sends earlier messages byte for byte, so the stored text is the sent text.

Appends to one thread are serialised so that `seq` stays gap-free (0..n):

- SQLite: every transaction starts with ``BEGIN IMMEDIATE`` (see `wrapper.store.db`),
  so only one writer, in any process, is between reading ``max(seq)`` and
  inserting.
- PostgreSQL: the transaction first takes a transaction-scoped advisory lock
  keyed on the thread (``pg_advisory_xact_lock(<history class>,
  hashtext(thread_key))``). Appends to one thread queue on it; other threads
  proceed (a hash collision only makes two threads share a queue). The lock
  is released at commit, after which the next holder's ``max(seq)`` (READ
  COMMITTED: a new snapshot per statement) sees the rows just written.

The unique index on ``(thread_key, seq)`` backs both: a bug that let two
writers pick one seq would fail loudly rather than interleave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, select, text, update
from sqlalchemy.engine import Connection

from wrapper.store.db import Database
from wrapper.store.tables import history

__all__ = [
    "EARLIER",
    "ROLES",
    "History",
    "StoredMessage",
    "append_in",
    "count_in",
    "replace_prefix_in",
]

EARLIER = "[Earlier conversation"
"""How a head that stands for deleted or summarised messages begins (compaction in
`bot.agent`, retention in `wrapper.people.retention`); `bot.app.cache_watch` and the pruning know a
thread's head by it."""

ROLES = frozenset({"system", "user", "assistant", "tool"})


# The advisory lock's first key ("hist"): keeps these locks apart from others.
_LOCK_CLASS = 0x68697374
_LOCK = text(f"SELECT pg_advisory_xact_lock({_LOCK_CLASS:d}, hashtext(:key))")

_KEY: Any = bindparam("key")
_NEXT_SEQ = select(func.coalesce(func.max(history.c.seq), -1) + 1).where(
    history.c.thread_key == _KEY
)
_LOAD = (
    select(
        history.c.role,
        history.c.content,
        history.c.tool_calls,
        history.c.tool_call_id,
        history.c.name,
    )
    .where(history.c.thread_key == _KEY)
    .order_by(history.c.seq)
)
_DROP_PREFIX = delete(history).where(
    history.c.thread_key == _KEY, history.c.seq < bindparam("upto")
)
# Renumbering goes through negative seqs so that no row ever meets another's
# seq mid-statement (unique indexes are checked row by row).
_PARK_REST = (
    update(history)
    .where(history.c.thread_key == _KEY, history.c.seq >= bindparam("upto"))
    .values(seq=-1 - (history.c.seq - bindparam("upto")))
)
_UNPARK_REST = (
    update(history)
    .where(history.c.thread_key == _KEY, history.c.seq < 0)
    .values(seq=bindparam("first") - 1 - history.c.seq)
)


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """One message as the agent sent or received it.

    `tool_calls` entries are ``(id, name, arguments)``, arguments as JSON text.
    """

    role: str
    content: str
    tool_calls: tuple[tuple[str, str, str], ...] = ()
    tool_call_id: str | None = None
    name: str | None = None


class History:
    """Each thread's conversation, stored in order and byte for byte."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def load(self, thread_key: str) -> list[StoredMessage]:
        """The thread's messages in `seq` order (empty for an unknown thread)."""

        def work(conn: Connection) -> list[StoredMessage]:
            rows = conn.execute(_LOAD, {"key": thread_key})
            return [_message(row._mapping) for row in rows]

        return await self._db.run(work, inline=True)


def append_in(
    conn: Connection, thread_key: str, messages: Sequence[StoredMessage], *, at: datetime
) -> None:
    """Add `messages` after the thread's last one, in the caller's transaction.

    Raises:
        ValueError: an unknown role, or text a database cannot keep (NUL).
    """
    rows = [_row(m) for m in messages]
    if rows:
        _append_rows(conn, thread_key, rows, at)


def count_in(conn: Connection, thread_key: str) -> int:
    """How many messages the thread has, in the caller's transaction (locks the thread)."""
    _lock(conn, thread_key)
    return int(conn.execute(_NEXT_SEQ, {"key": thread_key}).scalar_one())


def replace_prefix_in(
    conn: Connection,
    thread_key: str,
    upto_seq: int,
    summary: Sequence[StoredMessage],
    *,
    at: datetime,
) -> None:
    """Compaction, in the caller's transaction: the messages before `upto_seq` become
    `summary`; seq restarts at 0.

    Later messages keep their content and order (and are renumbered after the
    summary). `upto_seq` past the end replaces every message.

    Raises:
        ValueError: a negative `upto_seq`, or a summary `append_in` would refuse.
    """
    if upto_seq < 0:
        raise ValueError(f"upto_seq must be >= 0, not {upto_seq}")
    rows = [_row(m) for m in summary]
    _lock(conn, thread_key)
    params = {"key": thread_key, "upto": upto_seq}
    conn.execute(_DROP_PREFIX, params)
    conn.execute(_PARK_REST, params)
    _insert(conn, thread_key, 0, rows, at)
    conn.execute(_UNPARK_REST, {"key": thread_key, "first": len(rows)})


def _append_rows(
    conn: Connection, thread_key: str, rows: list[dict[str, Any]], at: datetime
) -> None:
    _lock(conn, thread_key)
    first = int(conn.execute(_NEXT_SEQ, {"key": thread_key}).scalar_one())
    _insert(conn, thread_key, first, rows, at)


def _lock(conn: Connection, thread_key: str) -> None:
    """Serialise writers of one thread (SQLite's BEGIN IMMEDIATE already has)."""
    if conn.dialect.name == "postgresql":
        conn.execute(_LOCK, {"key": thread_key})


def _insert(
    conn: Connection, thread_key: str, first: int, rows: list[dict[str, Any]], at: datetime
) -> None:
    if rows:
        values = [
            {**row, "thread_key": thread_key, "seq": first + offset, "created_at": at}
            for offset, row in enumerate(rows)
        ]
        conn.execute(history.insert(), values)


def _row(message: StoredMessage) -> dict[str, Any]:
    if message.role not in ROLES:
        raise ValueError(f"unknown role {message.role!r}; use one of {sorted(ROLES)}")
    texts = [message.content, message.tool_call_id or "", message.name or ""]
    if any("\x00" in t for t in texts):
        raise ValueError("message text contains NUL, which PostgreSQL cannot store")
    calls = [
        {"id": call_id, "name": name, "arguments": arguments}
        for call_id, name, arguments in message.tool_calls
    ]
    return {
        "role": message.role,
        "content": message.content,
        "tool_calls": calls or None,
        "tool_call_id": message.tool_call_id,
        "name": message.name,
    }


def _message(row: Any) -> StoredMessage:
    calls = row["tool_calls"] or []
    return StoredMessage(
        role=row["role"],
        content=row["content"],
        tool_calls=tuple((c["id"], c["name"], c["arguments"]) for c in calls),
        tool_call_id=row["tool_call_id"],
        name=row["name"],
    )
