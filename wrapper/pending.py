"""Messages the model could not answer yet, kept until a retry answers them.

Written only when a turn fails, so the hot path pays nothing. A message needs
an id to be retried: the journal recognises it again and gives its envelope
without recording it twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection

from wrapper import queries as q
from wrapper.db import Database
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

        def work(conn: Connection) -> None:
            stmt = q.insert_for(conn, pending).values(
                channel=channel, message_id=message_id, thread_id=thread_id,
                user_id=user_id, text=text, failed_at=at, attempts=1,
            )  # fmt: skip
            conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=["channel", "message_id"],
                    set_={"failed_at": at, "attempts": pending.c.attempts + 1},
                )
            )

        await self._db.run(work)

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
