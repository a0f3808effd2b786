"""Session-level PostgreSQL advisory locks on one autocommit connection of their own.

The intake leadership (`wrapper.coordination.leadership`) and the per-thread turn locks
(`wrapper.coordination.thread_locks`) both hold locks that must outlive any transaction
and die with the worker. They live on one connection, in autocommit, so no
transaction stays open and no pooled connection is held while they are. The
locks last exactly as long as the connection:

- a worker killed with -9 closes it, and PostgreSQL frees its locks at once;
- a worker whose host vanishes sends no FIN; the connection's TCP keepalives
  (5 s idle, then 2 probes 2 s apart) let the server drop it, and the locks,
  after about 9 s instead of the system's 2 hours;
- a connection that fails here is forgotten (every lock on it is gone), and
  the next call opens a new one.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import TextClause

from wrapper.store.db import Database

__all__ = ["SessionLocks"]

log = logging.getLogger(__name__)

_TRY = text("SELECT pg_try_advisory_lock(:cls, hashtext(:name))")
_UNLOCK = text("SELECT pg_advisory_unlock(:cls, hashtext(:name))")
_PING = text("SELECT 1")
_KEEPALIVE = (
    text("SET tcp_keepalives_idle = 5"),
    text("SET tcp_keepalives_interval = 2"),
    text("SET tcp_keepalives_count = 2"),
)


class SessionLocks:
    """Advisory locks of one class (the first key), named by text (hashed to the second)."""

    def __init__(self, database: Database, lock_class: int) -> None:
        self._database = database
        self._class = lock_class
        self._connection: AsyncConnection | None = None
        self._mutex = asyncio.Lock()

    async def try_lock(self, name: str) -> bool:
        """Take the lock `name` if no other session holds it; True when this one does now.

        Raises:
            sqlalchemy.exc.DBAPIError: the database cannot be reached (no lock is held).
        """
        return await self._execute(_TRY, name)

    async def unlock(self, name: str) -> bool:
        """Give the lock `name` back; False when the connection broke (every lock went with it)."""
        try:
            await self._execute(_UNLOCK, name)
        except Exception as exc:
            log.warning("advisory lock %s went with its broken connection (%s)", name, exc)
            return False
        return True

    async def alive(self) -> bool:
        """Whether the locks held still stand: no connection yet, or it still answers."""
        if self._connection is None:
            return True
        try:
            await self._execute(_PING, None)
        except Exception as exc:
            log.warning("every advisory lock lost: the connection failed (%s)", type(exc).__name__)
            return False
        return True

    async def close(self) -> None:
        """Close the connection: every lock on it is given up."""
        async with self._mutex:
            connection, self._connection = self._connection, None
        if connection is not None:
            try:
                await connection.close()
            except Exception as exc:  # already broken: its locks went with it
                log.debug("lock connection closed with %s", type(exc).__name__)

    async def _execute(self, statement: TextClause, name: str | None) -> bool:
        async with self._mutex:
            if self._connection is None:
                connection = await self._database.autocommit_connection()
                for setting in _KEEPALIVE:  # ignored on a Unix socket
                    await connection.execute(setting)
                self._connection = connection
            try:
                params = {"cls": self._class, "name": name} if name is not None else {}
                result = await self._connection.execute(statement, params)
                return bool(result.scalar_one())
            except Exception:
                broken, self._connection = self._connection, None
                try:
                    await broken.invalidate()
                    await broken.close()
                except Exception as exc:
                    log.debug("broken lock connection: %s", type(exc).__name__)
                raise
