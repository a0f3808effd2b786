"""The waiting list: every message to be answered, from its arrival until its turn commits.

A message goes on the list in the transaction that journals it, already
claimed by the worker that received it (`add_claimed`). It leaves the list only in
the transaction that commits its turn (`finish`, called by
`wrapper.turns.turn_commit`), and only if that worker's claim is still the newest:
each claim bumps `claims`, and the commit names the number it holds (a
fence). So a turn is committed once even when a slow worker was taken for
dead and its message answered elsewhere.

A claim is free to take (`claim`) when its lease is over, or at once when its
worker is dead (`wrapper.coordination.workers`). A turn whose model failed gives its claim
back with a later `retry_at` (`release`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError
from sqlalchemy import and_, bindparam, delete, func, or_, select, update
from sqlalchemy.engine import Connection

from clockcore import ContextEnvelope, MessageRef
from wrapper.coordination.workers import Workers, claim_is_free
from wrapper.store import queries as q
from wrapper.store.db import Database
from wrapper.store.tables import pending_turns as pending
from wrapper.store.types import UTCDateTime
from wrapper.turns.envelope_json import envelope_from_json, envelope_to_json

__all__ = ["WaitingTurn", "WaitingTurns", "add_claimed", "finish", "hold_back", "release"]


@dataclass(frozen=True, slots=True)
class WaitingTurn:
    """A message taken from the waiting list, with the claim that took it.

    `fence` is the claim's number: the turn commits only while it is the newest.
    """

    ref: MessageRef
    envelope: ContextEnvelope | None
    attempts: int
    fence: int
    worker: str
    held: bool = False
    """The person's turn limit held it back before (`wrapper.turns.limits`)."""


def add_claimed(
    conn: Connection,
    ref: MessageRef,
    *,
    worker: str,
    lease_until: datetime,
    envelope: ContextEnvelope,
) -> int:
    """In the journal's transaction: put `ref` on the list, claimed by `worker`; the fence."""
    conn.execute(
        q.insert_for(conn, pending)
        .values(
            channel=ref.channel,
            message_id=ref.message_id,
            thread_id=ref.thread_id,
            user_id=ref.user_id,
            text=ref.text,
            received_at=ref.received_at,
            retry_at=ref.received_at,
            attempts=0,
            claimed_by=worker,
            claim_expires_at=lease_until,
            claims=1,
            envelope=envelope_to_json(envelope),
        )
        .on_conflict_do_nothing(index_elements=["channel", "message_id"])
    )
    return 1


def _mine(ref: MessageRef, worker: str, fence: int) -> Any:
    return and_(
        pending.c.channel == ref.channel,
        pending.c.message_id == ref.message_id,
        pending.c.claimed_by == worker,
        pending.c.claims == fence,
    )


def finish(conn: Connection, turn: WaitingTurn) -> bool:
    """In the turn's transaction: take the message off the list; False if the claim was lost."""
    return bool(
        conn.execute(delete(pending).where(_mine(turn.ref, turn.worker, turn.fence))).rowcount
    )


def release(conn: Connection, turn: WaitingTurn, *, retry_at: datetime) -> bool:
    """Give the claim back after a failed turn, one attempt more; False if it was lost."""
    stmt = (
        update(pending)
        .where(_mine(turn.ref, turn.worker, turn.fence))
        .values(
            claimed_by=None,
            claim_expires_at=None,
            retry_at=retry_at,
            attempts=pending.c.attempts + 1,
        )
    )
    return bool(conn.execute(stmt).rowcount)


def hold_back(conn: Connection, turn: WaitingTurn, *, retry_at: datetime, at: datetime) -> bool:
    """Give the claim back until `retry_at` without counting an attempt (a turn limit)."""
    stmt = (
        update(pending)
        .where(_mine(turn.ref, turn.worker, turn.fence))
        .values(claimed_by=None, claim_expires_at=None, retry_at=retry_at, held_at=at)
    )
    return bool(conn.execute(stmt).rowcount)


def _claim_statement(postgres: bool) -> Any:
    pick = (
        select(pending.c.id)
        .where(
            pending.c.retry_at <= bindparam("now", type_=UTCDateTime()),
            claim_is_free(pending.c.claimed_by, pending.c.claim_expires_at),
            # Not a turn this worker is still running (a late heartbeat looks like death).
            or_(
                pending.c.claimed_by.is_(None),
                pending.c.claimed_by != bindparam("worker"),
                pending.c.claim_expires_at <= bindparam("now", type_=UTCDateTime()),
            ),
        )
        .order_by(pending.c.received_at, pending.c.id)
        .limit(bindparam("limit"))
    )
    if postgres:
        pick = pick.with_for_update(skip_locked=True)
    return (
        update(pending)
        .where(pending.c.id.in_(pick))
        .values(
            claimed_by=bindparam("worker"),
            claim_expires_at=bindparam("expires", type_=UTCDateTime()),
            claims=pending.c.claims + 1,
        )
        .returning(*pending.c)
    )


_CLAIM = {True: _claim_statement(True), False: _claim_statement(False)}


class WaitingTurns:
    """The waiting list, as the turn runner and the operator see it."""

    def __init__(self, database: Database, workers: Workers) -> None:
        self._db = database
        self._workers = workers

    async def claim(
        self, *, worker: str, now: datetime, lease: timedelta, limit: int = 20
    ) -> list[WaitingTurn]:
        """Take up to `limit` messages nobody live is answering, oldest first.

        One ``UPDATE … RETURNING`` (``SKIP LOCKED`` on PostgreSQL): two
        workers never take one message at once.
        """
        params = {
            **self._workers.liveness(now),
            "worker": worker,
            "expires": now + lease,
            "limit": limit,
        }

        def work(conn: Connection) -> list[WaitingTurn]:
            rows = conn.execute(_CLAIM[conn.dialect.name == "postgresql"], params).mappings()
            return [_turn(row) for row in sorted(rows, key=lambda r: (r["received_at"], r["id"]))]

        return await self._db.run(work, inline=True)

    async def count(self) -> int:
        """How many messages are waiting (being answered or kept for a retry)."""
        return int(
            await self._db.run(
                lambda conn: conn.execute(select(func.count()).select_from(pending)).scalar_one()
            )
        )


def _turn(row: Any) -> WaitingTurn:
    try:
        envelope = envelope_from_json(row["envelope"]) if row["envelope"] is not None else None
    except ValidationError:  # kept by an older build: the turn runner makes a fresh one
        envelope = None
    kept = envelope.message if envelope is not None else None
    if kept is not None and kept.message_id == row["message_id"]:
        ref = kept  # the message whole: its route, language, reply and proof
    else:
        # Rebuilt from the columns, it cannot say whether its sender was proven: say not,
        # so a privileged request asks to be confirmed rather than running unproven.
        ref = MessageRef(
            channel=row["channel"],
            thread_id=row["thread_id"],
            user_id=row["user_id"],
            message_id=row["message_id"],
            text=row["text"],
            received_at=row["received_at"] or row["retry_at"],
            proven=False,
        )
    return WaitingTurn(
        ref=ref,
        envelope=envelope,
        attempts=int(row["attempts"]),
        fence=int(row["claims"]),
        worker=str(row["claimed_by"]),
        held=row["held_at"] is not None,
    )
