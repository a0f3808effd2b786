"""Where a thread's answers go, and the small values adapters keep.

A *route* is what a channel adapter needs to answer in a thread (chat ids, a
Slack ``thread_ts``, mail headers). The gateway stores the route of each
inbound message with the message itself, so a reminder sent days later still
knows where to go. *Channel state* is a durable key-value pair for adapters
(an IMAP mailbox's last UID), shared by every worker on the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from wrapper.store import queries as q
from wrapper.store.db import Database
from wrapper.store.tables import channel_state, routes

__all__ = ["ChannelState", "Routes", "clean_route", "save_route"]


MAX_ROUTE_CHARS = 8_000
MAX_MEMBERS = 20
"""The most people a thread's ``members`` holds."""


def save_route(
    conn: Connection, *, thread_key: str, channel: str, route: Mapping[str, str], at: datetime
) -> None:
    """Make `route` the thread's route (a later message's route replaces an earlier one).

    A route's ``members`` (space-separated, the people a group thread's answers reach)
    is kept as a set: the union of every route's, the first `MAX_MEMBERS`, so whoever
    wrote last does not decide who reads the thread (docs/SECURITY.md).

    Raises:
        ValueError: a route over 8,000 characters.
    """
    clean = clean_route(route)
    if "members" in clean:
        before = conn.execute(
            select(routes.c.route).where(routes.c.thread_key == thread_key)
        ).scalar_one_or_none()
        known = str((before or {}).get("members", "")).split()
        union = list(dict.fromkeys([*known, *clean["members"].split()]))[:MAX_MEMBERS]
        clean["members"] = " ".join(union)
    stmt = q.insert_for(conn, routes).values(
        thread_key=thread_key, channel=channel, route=clean, updated_at=at
    )
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["thread_key"],
            set_={"route": clean, "updated_at": at},
            where=routes.c.updated_at <= at,
        )
    )


def clean_route(route: Mapping[str, str]) -> dict[str, str]:
    """`route` as stored: string to string.

    Raises:
        ValueError: over 8,000 characters.
    """
    clean = {str(k): str(v) for k, v in route.items()}
    if sum(len(k) + len(v) for k, v in clean.items()) > MAX_ROUTE_CHARS:
        raise ValueError(f"a route is limited to {MAX_ROUTE_CHARS} characters")
    return clean


class Routes:
    """Read access to the stored routes."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def get(self, thread_key: str) -> dict[str, str]:
        """The thread's latest route, or an empty one."""

        def work(conn: Connection) -> Any:
            return conn.execute(
                select(routes.c.route).where(routes.c.thread_key == thread_key)
            ).scalar_one_or_none()

        found = await self._db.run(work)
        return dict(found) if found else {}


class ChannelState:
    """Durable values for adapters (`channels.base.StateStore`), in the store."""

    def __init__(self, database: Database, *, clock_now: Any) -> None:
        self._db = database
        self._now = clock_now

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""

        def work(conn: Connection) -> Any:
            return conn.execute(
                select(channel_state.c.value).where(channel_state.c.key == key)
            ).scalar_one_or_none()

        value = await self._db.run(work)
        return None if value is None else str(value)

    async def put(self, key: str, value: str) -> None:
        """Store `value` under `key` (durable when this returns)."""
        at = self._now()

        def work(conn: Connection) -> None:
            stmt = q.insert_for(conn, channel_state).values(key=key, value=value, updated_at=at)
            conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=["key"], set_={"value": value, "updated_at": at}
                )
            )

        await self._db.run(work)
