"""Leadership: one worker at a time reads an intake that a platform allows only once.

Telegram's ``getUpdates``, a Slack Socket Mode connection and an IMAP mailbox's
IDLE each take one reader: a second poller gets 409 Conflict, a second socket
steals events. Among the workers on one PostgreSQL, each such intake has one
leader: the worker holding a session-level advisory lock named after it
(``pg_try_advisory_lock``), on a connection of the leadership's own, in
autocommit, so no transaction stays open.

The lock lives exactly as long as that connection. A leader that dies (kill -9,
a power cut) closes it, and PostgreSQL frees the lock at once; the other
workers try again every few seconds (`bot.intake.IntakeLeader`), so one of
them leads within seconds and reads on from the stored offset, cursor or UID.
A leader whose connection breaks (the database restarted) has lost every lock
with it: `alive` says so, and its intakes stop until it leads again.

On SQLite a store has one worker (DESIGN.md), so every intake is led by it:
`shared` is False and `try_lead` always succeeds.
"""

from __future__ import annotations

import logging

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from wrapper.db import Database

__all__ = ["LOCK_CLASS", "Leadership"]

log = logging.getLogger(__name__)

LOCK_CLASS = 0x6C656164
"""The advisory lock's first key ("lead"): keeps these locks apart from the history's."""

_TRY = text("SELECT pg_try_advisory_lock(:cls, hashtext(:name))")
_UNLOCK = text("SELECT pg_advisory_unlock(:cls, hashtext(:name))")
_PING = text("SELECT 1")
_KEEPALIVE = (
    # A leader whose host vanishes sends no FIN; the server probes the idle connection
    # and drops it (and the locks) after about 5 + 2 * 2 = 9 s, not the system's 2 hours.
    text("SET tcp_keepalives_idle = 5"),
    text("SET tcp_keepalives_interval = 2"),
    text("SET tcp_keepalives_count = 2"),
)


class Leadership:
    """The intakes this worker leads, and the connection its locks live on."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._connection: AsyncConnection | None = None
        self._held: set[str] = set()

    @property
    def shared(self) -> bool:
        """Several workers may share the store (PostgreSQL): leading takes a lock."""
        return self._database.dialect == "postgresql"

    @property
    def held(self) -> frozenset[str]:
        """The names this worker leads now."""
        return frozenset(self._held)

    async def try_lead(self, name: str) -> bool:
        """Lead `name` if no other worker does; True when this worker leads it now.

        Raises:
            sqlalchemy.exc.DBAPIError: the database cannot be reached (nothing is led).
        """
        if name in self._held:
            return True
        if self.shared:
            connection = await self._connect()
            try:
                result = await connection.execute(_TRY, {"cls": LOCK_CLASS, "name": name})
                won = bool(result.scalar_one())
            except Exception:
                await self._lose()
                raise
            if not won:
                return False
        self._held.add(name)
        log.info("leading %s", name)
        return True

    async def alive(self) -> bool:
        """Whether the leads still stand; False (all of them lost) when the connection broke."""
        if not self.shared or self._connection is None:
            return True
        try:
            await self._connection.execute(_PING)
        except Exception as exc:
            log.warning(
                "lost every leadership: the lock connection failed (%s)", type(exc).__name__
            )
            await self._lose()
            return False
        return True

    async def resign(self, name: str) -> None:
        """Stop leading `name` (another worker may take it at once)."""
        if name not in self._held:
            return
        self._held.discard(name)
        if self.shared and self._connection is not None:
            try:
                await self._connection.execute(_UNLOCK, {"cls": LOCK_CLASS, "name": name})
            except Exception:  # the connection is gone, and the lock with it
                await self._lose()

    async def close(self) -> None:
        """Give up every leadership: close the lock connection."""
        self._held.clear()
        if self._connection is not None:
            connection, self._connection = self._connection, None
            try:
                await connection.close()
            except Exception as exc:  # already broken: its locks went with it
                log.debug("lock connection closed with %s", type(exc).__name__)

    async def _connect(self) -> AsyncConnection:
        if self._connection is None:
            connection = await self._database.autocommit_connection()
            for setting in _KEEPALIVE:  # ignored on a Unix socket
                await connection.execute(setting)
            self._connection = connection
        return self._connection

    async def _lose(self) -> None:
        """The lock connection failed: no lock it held stands any more."""
        self._held.clear()
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                await connection.invalidate()
                await connection.close()
            except Exception as exc:
                log.debug("broken lock connection: %s", type(exc).__name__)
