"""One turn at a time per thread across the workers that share a PostgreSQL store.

Inside a worker, `bot.turns.lifecycle` already runs a thread's turns one at a time, in
arrival order. Across workers (webhooks behind a load balancer: two messages
of one thread can reach two workers), `ThreadLocks.only_turn` adds:

- a session-level advisory lock keyed by the thread
  (``pg_try_advisory_lock(<class>, hashtext(thread_key))``), taken on one
  autocommit connection of the worker's own for all its threads
  (`wrapper.coordination.session_locks`), so a turn holds no pooled connection while the
  model thinks, and no transaction is open. A worker that dies closes the
  connection and PostgreSQL frees its locks at once;
- arrival order: a worker holding the lock still waits while an *older*
  message of the thread is on the waiting list and claimed: by another worker
  (about to run, or running there), by a dead one (about to be taken over), or
  by this worker itself (it took the message over after it had started this
  newer one). It gives the lock back, and the caller's in-process lock for the
  thread (`yield_to`) so the older message can run here, and tries again. It
  waits at most `ORDER_WAIT` for that, so a stuck peer delays a thread but
  never stops it. A message released after a failed turn (claimed by nobody
  until its retry) does not hold the thread up.

A lock connection that breaks loses every lock on it; the turns in hand go
on (a turn's claim fences its commit) and the next turn reconnects. On SQLite
one worker serves a store (docs/ARCHITECTURE.md) and `hold` only checks nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from sqlalchemy import and_, exists, select
from sqlalchemy.engine import Connection

from wrapper.coordination.session_locks import SessionLocks
from wrapper.store.db import Database
from wrapper.store.tables import pending_turns as pending

__all__ = ["LOCK_CLASS", "ORDER_WAIT", "ThreadLocks"]

LOCK_CLASS = 0x74687264
"""The advisory lock's first key ("thrd"): apart from the history's and the leadership's."""
ORDER_WAIT = timedelta(seconds=60)
"""The longest a turn waits for an older message of its thread held by another worker."""
_POLL = 0.05
"""Seconds between tries for a lock another worker holds."""


def _older_claimed(conn: Connection, channel: str, thread_id: str, message_id: str) -> bool:
    """Whether an older message of the thread waits on the list, claimed by any worker."""
    mine = select(pending.c.id).where(
        pending.c.channel == channel, pending.c.message_id == message_id
    )
    older = exists().where(
        and_(
            pending.c.channel == channel,
            pending.c.thread_id == thread_id,
            pending.c.id < mine.scalar_subquery(),
            pending.c.claimed_by.is_not(None),
        )
    )
    return bool(conn.execute(select(older)).scalar())


async def _take_back(lock: asyncio.Lock) -> None:
    """Acquire `lock` again even if cancelled meanwhile: the caller's `async with` releases it."""
    cancelled = False
    while True:
        try:
            await lock.acquire()
        except asyncio.CancelledError:
            cancelled = True
            continue
        break
    if cancelled:
        raise asyncio.CancelledError


class ThreadLocks:
    """This worker's cross-worker thread locks (PostgreSQL); nothing to hold on SQLite."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._locks = SessionLocks(database, LOCK_CLASS)

    @property
    def shared(self) -> bool:
        """Several workers may share the store: turns take a lock."""
        return self._database.dialect == "postgresql"

    @asynccontextmanager
    async def only_turn(
        self,
        thread_key: str,
        *,
        channel: str,
        thread_id: str,
        message_id: str | None,
        yield_to: asyncio.Lock | None = None,
    ) -> AsyncIterator[None]:
        """Run the body as the only turn of `thread_key` among the workers, in arrival order.

        `message_id` is the turn's message (None for a proactive turn, which
        takes its place after whatever is running). `yield_to`, held by the
        caller, is let go while an older message goes first.
        """
        if not self.shared:
            yield
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ORDER_WAIT.total_seconds()
        while True:
            await self._lock(thread_key)
            if message_id is None or loop.time() >= deadline:
                break
            try:
                waiting = await self._database.run(
                    lambda conn: _older_claimed(conn, channel, thread_id, message_id),
                    inline=True,
                )
            except BaseException:
                await self._locks.unlock(thread_key)
                raise
            if not waiting:
                break
            await self._locks.unlock(thread_key)  # let the older message's worker have it
            if yield_to is None:
                await asyncio.sleep(_POLL * 4)
                continue
            yield_to.release()  # and this worker's next turn, if that is the older one
            try:
                await asyncio.sleep(_POLL * 4)
            finally:
                await _take_back(yield_to)
        try:
            yield
        finally:
            await self._locks.unlock(thread_key)

    async def close(self) -> None:
        """Close the lock connection (every lock on it goes with it)."""
        await self._locks.close()

    async def _lock(self, thread_key: str) -> None:
        """Wait until this worker holds the thread's lock (another holds it while its turn runs)."""
        while True:
            if await self._locks.try_lock(thread_key):
                return
            await asyncio.sleep(_POLL)
