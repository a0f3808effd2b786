"""Which due outbox items a worker claims: one ``UPDATE … RETURNING``, per dialect.

A claim is one ``UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING *``, with
``FOR UPDATE SKIP LOCKED`` on PostgreSQL so that concurrent claimers take
different items instead of queueing; on SQLite ``BEGIN IMMEDIATE`` already
makes the statement the only writer. A claim whose lease has run out, or
whose worker has stopped beating (`wrapper.coordination.workers`, when the claimer passes
``alive_since``), is claimed again: delivery is at least once.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Update, and_, bindparam, or_, select, update

from wrapper.coordination.workers import claim_is_free
from wrapper.store.tables import outbox
from wrapper.store.types import UTCDateTime

__all__ = ["claim_for", "claim_statement"]


def _at(name: str) -> Any:
    return bindparam(name, type_=UTCDateTime())


def claim_statement(dialect_name: str, *, live_workers: bool = False) -> Update:
    """The claim, for ``"sqlite"`` or ``"postgresql"``: one ``UPDATE … RETURNING``.

    Parameters: ``now``, ``expires`` (now + lease), ``worker``, ``limit``, and
    with `live_workers` ``alive_since``: a claim of a worker silent since then
    is taken at once.
    """
    now = _at("now")
    taken = (
        and_(
            claim_is_free(outbox.c.claimed_by, outbox.c.claim_expires_at),
            # Never a job this worker is still sending: a late heartbeat can make a live
            # worker look dead, and taking its own job back would send it twice.
            or_(outbox.c.claimed_by != bindparam("worker"), outbox.c.claim_expires_at <= now),
        )
        if live_workers
        else outbox.c.claim_expires_at <= now
    )
    older = outbox.alias("older")
    older_reply_out = (
        select(older.c.id)
        .where(
            older.c.status == "claimed",
            older.c.thread_key == outbox.c.thread_key,
            older.c.id < outbox.c.id,
            older.c.kind == "reply",
        )
        .exists()
    )
    pick = (
        select(outbox.c.id)
        .where(
            or_(
                and_(outbox.c.status.in_(("pending", "deferred")), outbox.c.due_at <= now),
                and_(outbox.c.status == "claimed", taken),
            ),
            # A thread's replies go out in the order of their turns: a reply waits while
            # an older one of its thread is claimed (being sent, or held by a dead worker
            # until it is taken over). Older ones due now are in this very pick, first.
            or_(outbox.c.kind != "reply", ~older_reply_out),
        )
        .order_by(outbox.c.due_at, outbox.c.id)
        .limit(bindparam("limit"))
    )
    if dialect_name == "postgresql":
        pick = pick.with_for_update(skip_locked=True)
    return (
        update(outbox)
        .where(outbox.c.id.in_(pick))
        .values(
            status="claimed",
            claimed_by=bindparam("worker"),
            claim_expires_at=_at("expires"),
            attempts=outbox.c.attempts + 1,
        )
        .returning(*outbox.c)
    )


_CLAIM: dict[tuple[str, bool], Update] = {}


def claim_for(dialect_name: str, *, live_workers: bool) -> Update:
    """`claim_statement` for this dialect, built once."""
    which = (dialect_name, live_workers)
    if which not in _CLAIM:
        _CLAIM[which] = claim_statement(dialect_name, live_workers=live_workers)
    return _CLAIM[which]
