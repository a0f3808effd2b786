"""Workers and their heartbeats: a claim lives as long as the worker that holds it.

Every running gateway is a worker with a random id. It writes its heartbeat
every `HEARTBEAT_EVERY`; one that has not beaten for `dead_after` (default
`DEAD_AFTER`) is taken for dead, and so is one whose row is gone (it stopped
cleanly, or was never registered). Whatever it held, a waiting message or an
outbox job, is then free for any other worker (or its own restart) within
seconds. The long leases stay as the last resort only.

A worker taken for dead that was only slow loses nothing either: a turn
commits only if its claim is still the newest (`claims` fence), and a job's
state changes only while its claim is still the worker's.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, delete, exists, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from clockcore import Clock
from wrapper.store import queries as q
from wrapper.store.db import Database
from wrapper.store.tables import workers
from wrapper.store.types import UTCDateTime

__all__ = [
    "DEAD_AFTER",
    "HEARTBEAT_EVERY",
    "Workers",
    "claim_is_free",
    "new_worker_id",
    "renew_heartbeat",
]

HEARTBEAT_EVERY = timedelta(seconds=2)
"""How often a worker writes its heartbeat."""
DEAD_AFTER = timedelta(seconds=8)
"""A worker silent this long is taken for dead (four missed beats)."""
FORGET_AFTER = timedelta(days=1)
"""Rows of workers silent this long are deleted."""

log = logging.getLogger(__name__)


def new_worker_id() -> str:
    """A fresh worker id: ``w-`` and 12 hex digits."""
    return "w-" + secrets.token_hex(6)


def claim_is_free(claimed_by: Any, expires_at: Any) -> ColumnElement[bool]:
    """SQL: a claim anyone may take now: its lease is over or its worker is not alive.

    Binds ``now`` and ``alive_since`` (now minus the dead-after span) as
    aware datetimes. A row nobody holds (``claimed_by`` NULL) is free too.
    """
    alive = exists(
        select(workers.c.id).where(
            workers.c.id == claimed_by,
            workers.c.heartbeat_at > bindparam("alive_since", type_=UTCDateTime()),
        )
    )
    return or_(
        claimed_by.is_(None),
        and_(expires_at.is_not(None), expires_at <= bindparam("now", type_=UTCDateTime())),
        ~alive,
    )


def renew_heartbeat(conn: Connection, worker: str, *, now: datetime) -> None:
    """Move `worker`'s heartbeat forward to `now`, inside the caller's transaction.

    A worker with no row (one that never registered, as in a single process
    without heartbeats) stays without one: registering is `Workers.beat`'s job.
    """
    conn.execute(
        update(workers)
        .where(workers.c.id == worker, workers.c.heartbeat_at < now)
        .values(heartbeat_at=now)
    )


class Workers:
    """The worker table: register, beat, retire."""

    def __init__(self, database: Database, *, dead_after: timedelta = DEAD_AFTER) -> None:
        if dead_after <= timedelta(0):
            raise ValueError(f"dead_after must be positive, not {dead_after}")
        self._db = database
        self.dead_after = dead_after

    def liveness(self, now: datetime) -> dict[str, datetime]:
        """The bind parameters `claim_is_free` needs, for `now`."""
        return {"now": now, "alive_since": now - self.dead_after}

    async def beat(self, worker: str, *, now: datetime) -> None:
        """Register `worker` or renew its heartbeat; forget long-silent workers."""

        def work(conn: Connection) -> None:
            insert = q.insert_for(conn, workers).values(id=worker, started_at=now, heartbeat_at=now)
            conn.execute(
                insert.on_conflict_do_update(index_elements=["id"], set_={"heartbeat_at": now})
            )
            conn.execute(delete(workers).where(workers.c.heartbeat_at < now - FORGET_AFTER))

        await self._db.run(work, inline=True)

    async def beat_forever(self, worker: str, *, clock: Clock, every: float) -> None:
        """Beat every `every` seconds until cancelled; a failed beat is logged and retried."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.beat(worker, now=clock.now())
            except Exception:
                log.exception("heartbeat failed; trying again")

    async def retire(self, worker: str) -> None:
        """A clean stop: the worker's claims are free at once."""
        await self._db.run(
            lambda conn: conn.execute(delete(workers).where(workers.c.id == worker)), inline=True
        )

    async def alive(self, *, now: datetime) -> list[str]:
        """The ids of the workers alive at `now`."""

        def work(conn: Connection) -> list[str]:
            rows = conn.execute(
                select(workers.c.id)
                .where(workers.c.heartbeat_at > now - self.dead_after)
                .order_by(workers.c.id)
            )
            return [str(row[0]) for row in rows]

        return await self._db.run(work, inline=True)
