"""The outbox: every message the agent sends goes through here, durably.

An item is ``pending`` (or ``deferred``) until it is due, then ``claimed`` by
one worker for a lease, then ``sent``, back to ``pending`` (`retry_later`),
``deferred`` by the agent, ``failed``, or ``skipped`` (an occurrence of a
recurring schedule not sent: `wrapper.outbound.schedules`). Nothing is deleted: every state
stays visible in `Outbox.listing`.

A worker claims due items for a lease (`wrapper.outbound.claiming`); a claim
whose lease has run out, or whose worker has stopped beating, is claimed again:
delivery is at least once.

Every item has a unique `key`, its idempotency key: a turn derives it from the
message and the position of what it sends (`bot.turns.lifecycle`), and an insert whose
key exists already changes nothing (`enqueue_in`). The key goes out with the
send (`channels.base.Outgoing.key`; an email's Message-ID is made from it).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, get_args

from sqlalchemy import Update, and_, bindparam, func, select, update
from sqlalchemy.engine import Connection

from wrapper.coordination.workers import renew_heartbeat
from wrapper.outbound.claiming import claim_for
from wrapper.store import queries as q
from wrapper.store import tables as t
from wrapper.store.db import Database
from wrapper.store.tables import outbox, sent_messages
from wrapper.store.types import UTCDateTime

__all__ = [
    "MAX_ERROR_CHARS",
    "MAX_TEXT_CHARS",
    "JobDecision",
    "Outbox",
    "OutboxItem",
    "OutboxKind",
    "OutboxStatus",
    "cancel_reminders",
    "count_reminders",
    "decide_in",
    "enqueue_in",
    "item_values",
    "mark_sent_in",
    "new_job_key",
    "outbox_item",
    "sent_item_in",
]

OutboxKind = Literal["reply", "proactive", "reminder"]
OutboxStatus = Literal["pending", "claimed", "sent", "deferred", "failed", "skipped"]

MAX_TEXT_CHARS = 20_000
MAX_ERROR_CHARS = 500


_KINDS: frozenset[str] = frozenset(get_args(OutboxKind))
_STATUSES: frozenset[str] = frozenset(get_args(OutboxStatus))


def _at(name: str) -> Any:
    return bindparam(name, type_=UTCDateTime())


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """One outbox row."""

    id: int
    kind: OutboxKind
    channel: str
    thread_id: str
    thread_key: str
    user_key: str | None
    text: str
    status: OutboxStatus
    due_at: datetime
    claimed_by: str | None
    claim_expires_at: datetime | None
    attempts: int
    last_error: str | None
    defer_reason: str | None
    deferred_from: datetime | None
    memory_id: int | None
    created_at: datetime
    sent_at: datetime | None
    key: str
    user_id: str | None
    final_text: str | None
    decided_at: datetime | None
    schedule_id: int | None = None
    occurs_at: datetime | None = None


def new_job_key() -> str:
    """A key for an item no message stands behind (an operator's, a refusal's)."""
    return "job-" + secrets.token_hex(8)


def _owned(item_id: Any, worker: Any) -> Any:
    return and_(outbox.c.id == item_id, outbox.c.status == "claimed", outbox.c.claimed_by == worker)


_ITEM: Any = bindparam("item")
_WORKER: Any = bindparam("worker")
_MARK_SENT = (
    update(outbox)
    .where(_owned(_ITEM, _WORKER))
    .values(status="sent", sent_at=_at("at"), claim_expires_at=None)
)
_REMINDED_BY_SEND = (
    update(t.memory)
    .where(
        t.memory.c.id
        == select(outbox.c.memory_id)
        .where(outbox.c.id == _ITEM, outbox.c.kind == "reminder")
        .scalar_subquery()
    )
    .values(reminded_at=_at("at"))
)
_HOLD_ON = update(outbox).where(_owned(_ITEM, _WORKER)).values(claim_expires_at=_at("until"))
_RETRY_LATER = (
    update(outbox)
    .where(_owned(_ITEM, _WORKER))
    .values(
        status="pending",
        due_at=_at("at"),
        last_error=bindparam("error"),
        claimed_by=None,
        claim_expires_at=None,
    )
)
_FAIL = (
    update(outbox)
    .where(_owned(_ITEM, _WORKER))
    .values(status="failed", last_error=bindparam("error"), claim_expires_at=None)
)
# SET expressions read the row as it was: deferred_from gets the old due_at.
_DEFER = (
    update(outbox)
    .where(_owned(_ITEM, _WORKER))
    .values(
        status="deferred",
        deferred_from=outbox.c.due_at,
        due_at=_at("until"),
        occurs_at=_at("until"),
        defer_reason=bindparam("reason"),
        claimed_by=None,
        claim_expires_at=None,
    )
)
_CANCEL_REMINDER = (
    update(outbox)
    .where(
        outbox.c.kind == "reminder",
        outbox.c.memory_id == bindparam("memory"),
        outbox.c.status.in_(("pending", "deferred")),
    )
    .values(status="failed", last_error="canceled")
)


@dataclass(frozen=True, slots=True)
class JobDecision:
    """The agent's call on a claimed proactive job: send `text`, or wait until `defer_until`."""

    item_id: int
    worker: str
    text: str = ""
    defer_until: datetime | None = None
    reason: str = ""


_DECIDE = (
    update(outbox)
    .where(_owned(_ITEM, _WORKER))
    .values(final_text=bindparam("final"), decided_at=_at("at"))
)


def decide_in(conn: Connection, decision: JobDecision, *, at: datetime) -> bool:
    """In the caller's transaction: record the decision; False unless the worker holds the job.

    A deferral puts the job back as ``deferred``; a send keeps it claimed with
    its `final_text`, so a crash before the send sends that text, decided once.
    """
    params: dict[str, Any] = {"item": decision.item_id, "worker": decision.worker}
    if decision.defer_until is not None:
        stmt, params = _DEFER, {**params, "until": decision.defer_until, "reason": decision.reason}
    else:
        stmt, params = _DECIDE, {**params, "final": decision.text, "at": at}
    return bool(conn.execute(stmt, params).rowcount)


def mark_sent_in(
    conn: Connection,
    item_id: int,
    *,
    worker: str,
    sent_at: datetime,
    channel: str | None = None,
    platform_ids: Sequence[str] = (),
) -> bool:
    """In the caller's transaction: the item is sent; False unless `worker` still holds it.

    A sent reminder of a memory item marks the item reminded, in the same
    transaction: the person has been told, so the next turn's runtime block
    does not show it [OVERDUE] for the agent to say again.

    `platform_ids` (what `channel`'s send returned) are kept, so that a
    person's reply naming one of them finds this item (`sent_item_in`).
    """
    if not conn.execute(_MARK_SENT, {"item": item_id, "worker": worker, "at": sent_at}).rowcount:
        return False
    conn.execute(_REMINDED_BY_SEND, {"item": item_id, "at": sent_at})
    if channel is not None and platform_ids:
        rows = [
            {"channel": channel, "platform_id": pid, "outbox_id": item_id, "sent_at": sent_at}
            for pid in dict.fromkeys(platform_ids)
        ]
        conn.execute(q.insert_for(conn, sent_messages).values(rows).on_conflict_do_nothing())
    return True


def sent_item_in(conn: Connection, channel: str, platform_id: str) -> OutboxItem | None:
    """The item that went out as the platform's message `platform_id`, or None."""
    row = (
        conn.execute(
            select(outbox)
            .join(sent_messages, sent_messages.c.outbox_id == outbox.c.id)
            .where(sent_messages.c.channel == channel, sent_messages.c.platform_id == platform_id)
        )
        .mappings()
        .first()
    )
    return outbox_item(row) if row is not None else None


def count_reminders(conn: Connection, memory_id: int) -> int:
    """How many of the memory item's reminders wait to be sent."""
    stmt = select(func.count()).where(
        outbox.c.kind == "reminder",
        outbox.c.memory_id == memory_id,
        outbox.c.status.in_(("pending", "deferred")),
    )
    return int(conn.execute(stmt).scalar_one())


def cancel_reminders(conn: Connection, memory_id: int) -> int:
    """In the caller's transaction: fail the memory item's waiting reminders; how many."""
    return int(conn.execute(_CANCEL_REMINDER, {"memory": memory_id}).rowcount)


_LISTING = select(outbox).order_by(outbox.c.id.desc()).limit(bindparam("limit"))
_LISTING_STATUS = _LISTING.where(outbox.c.status == bindparam("status"))


class Outbox:
    """The durable queue of outgoing messages."""

    def __init__(self, database: Database) -> None:
        self._db = database

    @property
    def database(self) -> Database:
        """The store, for tools that read it directly (benchmarks, tests)."""
        return self._db

    async def claim_due(
        self,
        *,
        now: datetime,
        worker: str,
        lease: timedelta,
        limit: int = 10,
        alive_since: datetime | None = None,
    ) -> list[OutboxItem]:
        """Claim up to `limit` due items (and expired claims) for `worker`, oldest due first.

        With `alive_since`, a claim whose worker has not beaten since then
        (`wrapper.coordination.workers`) counts as expired.
        """
        if limit < 1:
            raise ValueError(f"limit must be >= 1, not {limit}")
        if lease <= timedelta(0):
            raise ValueError(f"lease must be positive, not {lease}")
        params = {"now": now, "expires": now + lease, "worker": worker, "limit": limit}
        if alive_since is not None:
            params["alive_since"] = alive_since

        def work(conn: Connection) -> list[OutboxItem]:
            stmt = claim_for(conn.dialect.name, live_workers=alive_since is not None)
            items = [outbox_item(row._mapping) for row in conn.execute(stmt, params)]
            return sorted(items, key=lambda item: (item.due_at, item.id))

        return await self._db.run(work, inline=True)

    async def renew_claim(
        self, item_id: int, *, worker: str, now: datetime, until: datetime
    ) -> bool:
        """Just before a send: whether `worker` still holds the item, its lease renewed to `until`.

        A worker silent past the dead-after time (starved of CPU, or paced for
        long) may have lost the job to another worker, which sends it; sending
        it here as well would send it twice. When it still holds the job, its
        heartbeat is renewed to `now` in the same transaction: a worker that is
        about to send is alive, and without the beat a late heartbeat could let
        another worker take the job over during the send itself and send it
        again. A second copy then needs the send and its mark to outlast the
        dead-after time, or the worker to die in between (docs/ARCHITECTURE.md,
        "At least once").
        """
        params = {"item": item_id, "worker": worker, "until": until}

        def work(conn: Connection) -> bool:
            if not conn.execute(_HOLD_ON, params).rowcount:
                return False
            renew_heartbeat(conn, worker, now=now)
            return True

        return await self._db.run(work, inline=True)

    async def retry_later(self, item_id: int, *, worker: str, error: str, at: datetime) -> bool:
        """Back to pending, due at `at`, keeping the error; False unless claimed by `worker`."""
        params = {"item": item_id, "worker": worker, "error": error[:MAX_ERROR_CHARS], "at": at}
        return await self._change(_RETRY_LATER, **params)

    async def fail(self, item_id: int, *, worker: str, error: str) -> bool:
        """Give up for good, keeping the error; False unless claimed by `worker`."""
        error = error[:MAX_ERROR_CHARS]
        return await self._change(_FAIL, item=item_id, worker=worker, error=error)

    async def listing(
        self, *, limit: int = 50, status: OutboxStatus | None = None
    ) -> list[OutboxItem]:
        """The newest `limit` items (of one status, if given), newest first."""
        if status is not None and status not in _STATUSES:
            raise ValueError(f"unknown outbox status {status!r}; use one of {sorted(_STATUSES)}")
        stmt = _LISTING if status is None else _LISTING_STATUS
        params: dict[str, Any] = {"limit": limit, "status": status}

        def work(conn: Connection) -> list[OutboxItem]:
            return [outbox_item(row._mapping) for row in conn.execute(stmt, params)]

        return await self._db.run(work, inline=True)

    async def counts(self) -> dict[str, int]:
        """How many jobs are in each state (``/metrics``)."""

        def work(conn: Connection) -> dict[str, int]:
            rows = conn.execute(select(outbox.c.status, func.count()).group_by(outbox.c.status))
            return {str(status): int(count) for status, count in rows}

        return await self._db.run(work, inline=True)

    async def _change(self, stmt: Update, **params: Any) -> bool:
        return await self._count(stmt, **params) > 0

    async def _count(self, stmt: Update, **params: Any) -> int:
        def work(conn: Connection) -> int:
            return int(conn.execute(stmt, params).rowcount)

        return await self._db.run(work, inline=True)


def item_values(
    *,
    kind: str,
    channel: str,
    thread_id: str,
    thread_key: str,
    user_key: str | None,
    user_id: str | None,
    text: str,
    due_at: datetime,
    memory_id: int | None,
    now: datetime,
    key: str,
) -> dict[str, Any]:
    """A new pending item's column values, checked.

    Raises:
        ValueError: an unknown kind, text over 20,000 characters, or text with NUL.
    """
    if kind not in _KINDS:
        raise ValueError(f"unknown outbox kind {kind!r}; use one of {sorted(_KINDS)}")
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"outbox text is {len(text)} characters; at most {MAX_TEXT_CHARS}")
    if "\x00" in text:
        raise ValueError("outbox text contains NUL, which PostgreSQL cannot store")
    return {
        "kind": kind,
        "channel": channel,
        "thread_id": thread_id,
        "thread_key": thread_key,
        "user_key": user_key,
        "user_id": user_id,
        "text": text,
        "status": "pending",
        "due_at": due_at,
        "attempts": 0,
        "memory_id": memory_id,
        "created_at": now,
        "key": key,
        "occurs_at": due_at,
    }


_DUE_HINT = (
    update(t.users)
    .where(
        t.users.c.id.in_(
            select(t.identities.c.user_id).where(t.identities.c.user_key == bindparam("key"))
        )
    )
    .values(has_due_items=True)
)


def enqueue_in(conn: Connection, values: dict[str, Any]) -> int:
    """In the caller's transaction: insert the item unless its key exists; its id either way.

    A reminder sets its person's `has_due_items`, so the runtime block reads it.
    """
    conn.execute(
        q.insert_for(conn, outbox).values(**values).on_conflict_do_nothing(index_elements=["key"])
    )
    if values.get("kind") in q.REMINDER_KINDS and values.get("user_key"):
        conn.execute(_DUE_HINT, {"key": values["user_key"]})
    return int(conn.execute(select(outbox.c.id).where(outbox.c.key == values["key"])).scalar_one())


def outbox_item(row: Any) -> OutboxItem:
    """An `OutboxItem` from a row of the outbox table."""
    return OutboxItem(**{name: row[name] for name in OutboxItem.__dataclass_fields__})
