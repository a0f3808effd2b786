"""Memory items: stored (with a due time or not), marked reminded, listed, deleted."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from wrapper.store.queries.common import chosen_id
from wrapper.store.tables import (
    memory,
    users,
)


def new_memory_id() -> int:
    """A memory item's id, chosen before it is stored (`chosen_id`)."""
    return chosen_id()


def insert_memory(
    conn: Connection,
    *,
    item_id: int,
    user_id: str,
    content: str,
    now: datetime,
    due_at: datetime | None,
    group: str | None = None,
) -> int:
    if due_at is not None:
        conn.execute(update(users).where(users.c.id == user_id).values(has_due_items=True))
    conn.execute(
        memory.insert().values(
            id=item_id,
            user_id=user_id,
            content=content,
            created_at=now,
            due_at=due_at,
            thread_key=group,
        )
    )
    return item_id


def mark_reminded(conn: Connection, item_id: int, at: datetime) -> bool:
    result = conn.execute(update(memory).where(memory.c.id == item_id).values(reminded_at=at))
    return bool(result.rowcount)


def memory_newest_first(
    conn: Connection, user_id: str, *, group: str | None = None
) -> Iterator[Mapping[str, Any]]:
    """The person's memory items, newest first, read as the caller consumes them.

    With `group` (a group thread's key), only the items remembered in that thread.
    """
    stmt = (
        select(
            memory.c.id,
            memory.c.content,
            memory.c.created_at,
            memory.c.due_at,
            memory.c.reminded_at,
        )
        .where(memory.c.user_id == user_id)
        .order_by(memory.c.created_at.desc(), memory.c.id.desc())
    )
    if group is not None:
        stmt = stmt.where(memory.c.thread_key == group)
    for row in conn.execute(stmt).mappings():
        yield dict(row)


def memory_item(
    conn: Connection, *, user_id: str, item_id: int, group: str | None = None
) -> Mapping[str, Any] | None:
    """One of the person's items (with `group`, only one remembered in that thread), or None."""
    stmt = select(
        memory.c.id, memory.c.content, memory.c.created_at, memory.c.due_at, memory.c.reminded_at
    ).where(memory.c.id == item_id, memory.c.user_id == user_id)
    if group is not None:
        stmt = stmt.where(memory.c.thread_key == group)
    row = conn.execute(stmt).mappings().first()
    return dict(row) if row is not None else None


def delete_memory(conn: Connection, *, user_id: str, item_id: int) -> bool:
    """Delete one of the person's items; False when they have no item `item_id`."""
    result = conn.execute(delete(memory).where(memory.c.id == item_id, memory.c.user_id == user_id))
    return bool(result.rowcount)
