"""Threads: their fields, and a zone override set before the first message."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.engine import Connection

from wrapper.store.queries.common import insert_for
from wrapper.store.tables import (
    threads,
)


def update_thread(conn: Connection, thread_key: str, **values: Any) -> None:
    conn.execute(update(threads).where(threads.c.thread_key == thread_key).values(**values))


def set_thread_zone(
    conn: Connection,
    *,
    thread_key: str,
    agent_id: str,
    channel: str,
    thread_id: str,
    zone: str,
    delta_hours: float,
    now: datetime,
) -> None:
    """Set the thread's session zone override, creating a bare thread row when there is none.

    A created row has no stamps, so the thread's first message still starts its session.
    """
    row = insert_for(conn, threads).values(
        thread_key=thread_key,
        agent_id=agent_id,
        channel=channel,
        thread_id=thread_id,
        thread_kind="conversation",
        session_tz=zone,
        delta_hours=delta_hours,
        created_at=now,
    )
    conn.execute(
        row.on_conflict_do_update(
            index_elements=["thread_key"],
            set_={"session_tz": row.excluded.session_tz, "delta_hours": row.excluded.delta_hours},
        )
    )
