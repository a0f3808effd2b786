"""Leadership: one worker at a time reads an intake that a platform allows only once.

Telegram's ``getUpdates``, a Slack Socket Mode connection and an IMAP mailbox's
IDLE each take one reader: a second poller gets 409 Conflict, a second socket
steals events. Among the workers on one PostgreSQL, each such intake has one
leader: the worker holding a session-level advisory lock named after it
(``pg_try_advisory_lock``), on a connection of the leadership's own, in
autocommit, so no transaction stays open.

The lock lives exactly as long as that connection (`wrapper.coordination.session_locks`).
A leader that dies (kill -9, a power cut) closes it, and PostgreSQL frees the
lock at once; the other workers try again every few seconds
(`bot.app.intake.IntakeLeader`), so one of them leads within seconds and reads
on from the stored offset, cursor or UID.
A leader whose connection breaks (the database restarted) has lost every lock
with it: `alive` says so, and its intakes stop until it leads again.

On SQLite a store has one worker (docs/ARCHITECTURE.md), so every intake is led by it:
`shared` is False and `try_lead` always succeeds.
"""

from __future__ import annotations

import logging

from wrapper.coordination.session_locks import SessionLocks
from wrapper.store.db import Database

__all__ = ["LOCK_CLASS", "Leadership"]

log = logging.getLogger(__name__)

LOCK_CLASS = 0x6C656164
"""The advisory lock's first key ("lead"): keeps these locks apart from the history's."""


class Leadership:
    """The intakes this worker leads, each a session lock (`SessionLocks`) on PostgreSQL."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._locks = SessionLocks(database, LOCK_CLASS)
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
            try:
                won = await self._locks.try_lock(name)
            except Exception:
                self._held.clear()  # the connection broke, and every lock with it
                raise
            if not won:
                return False
        self._held.add(name)
        log.info("leading %s", name)
        return True

    async def alive(self) -> bool:
        """Whether the leads still stand; False (all of them lost) when the connection broke."""
        if not self.shared or await self._locks.alive():
            return True
        self._held.clear()
        return False

    async def resign(self, name: str) -> None:
        """Stop leading `name` (another worker may take it at once)."""
        if name not in self._held:
            return
        self._held.discard(name)
        if self.shared and not await self._locks.unlock(name):
            self._held.clear()

    async def close(self) -> None:
        """Give up every leadership: close the lock connection."""
        self._held.clear()
        await self._locks.close()
