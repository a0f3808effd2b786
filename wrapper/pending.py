"""Messages the model could not answer yet, kept until a retry answers them.

Written only when a turn fails, so the hot path pays nothing. A message needs
an id to be retried: the journal recognises it again and gives its envelope
without recording it twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection

from wrapper import queries as q
from wrapper.db import Database
from wrapper.routes import hold_for_answer
from wrapper.tables import PendingTurnRow

__all__ = ["PendingTurn", "PendingTurns"]

pending = PendingTurnRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class PendingTurn:
    """One message waiting for the model."""

    channel: str
    message_id: str
    thread_id: str
    user_id: str
    text: str
    failed_at: datetime
    attempts: int


class PendingTurns:
    """The waiting list."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def keep(
        self,
        *,
        channel: str,
        message_id: str,
        thread_id: str,
        user_id: str,
        text: str,
        at: datetime,
    ) -> None:
        """Remember a message the model failed on (again: one more attempt counted)."""
        fields = {"channel": channel, "message_id": message_id, "thread_id": thread_id}
        await self._db.run(
            lambda conn: hold_for_answer(
                conn, **fields, user_id=user_id, text=text, retry_at=at, attempts=1
            )
        )

    async def due(self, *, before: datetime, limit: int = 20) -> list[PendingTurn]:
        """Messages that failed before `before`, oldest first."""

        def work(conn: Connection) -> list[PendingTurn]:
            rows = conn.execute(
                select(pending)
                .where(pending.c.failed_at <= before)
                .order_by(pending.c.failed_at, pending.c.id)
                .limit(limit)
            ).mappings()
            return [q.row_as(PendingTurn, row) for row in rows]

        return await self._db.run(work)

    async def claim(
        self, *, before: datetime, until: datetime, limit: int = 20
    ) -> list[PendingTurn]:
        """Take messages due before `before` for a retry, leased to `until`, oldest first.

        One ``UPDATE … RETURNING`` (``SKIP LOCKED`` on PostgreSQL), so two
        workers never retry the same message at once; a worker that dies
        mid-retry leaves it to be taken again after `until`.
        """
        pick = (
            select(pending.c.id)
            .where(pending.c.failed_at <= before)
            .order_by(pending.c.failed_at, pending.c.id)
            .limit(limit)
        )

        def work(conn: Connection) -> list[PendingTurn]:
            postgres = conn.dialect.name == "postgresql"
            chosen = pick.with_for_update(skip_locked=True) if postgres else pick
            rows = conn.execute(
                update(pending)
                .where(pending.c.id.in_(chosen))
                .values(failed_at=until)
                .returning(*pending.c)
            ).mappings()
            taken = sorted(rows, key=lambda row: row["id"])
            return [q.row_as(PendingTurn, row) for row in taken]

        return await self._db.run(work)

    async def done(self, *, channel: str, message_id: str) -> None:
        """The message is answered: forget it."""
        await self._db.run(
            lambda conn: conn.execute(
                delete(pending).where(
                    pending.c.channel == channel, pending.c.message_id == message_id
                )
            )
        )

    async def count(self) -> int:
        """How many messages are waiting."""
        return int(
            await self._db.run(
                lambda conn: conn.execute(select(func.count()).select_from(pending)).scalar_one()
            )
        )
