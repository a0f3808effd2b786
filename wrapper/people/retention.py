"""Retention: conversations older than ``CLOCKBOT_RETENTION_DAYS`` are deleted.

`prune_in` deletes, in one transaction, what people said and were told before a cutoff:

- journal rows received before it (the erasure tombstones stay: they hold no words, and
  keep an erased person's old messages from coming back);
- the conversation history before it, thread by thread. The old messages give way to one
  short note and an acknowledgement, as at compaction; the cut falls on a person's message,
  so a tool call never loses its result. The prompt's prefix changes there, once per prune;
- sent, failed and skipped outbox jobs whose time was before it, with the platform ids kept
  for them (a reply to such an old message starts a new thread);
- clocked actions that expired before it, and the record of model calls made before it
  (`wrapper.turns.model_calls`; a thread's next request then counts as its first).

It leaves what is not a conversation: people, their zones and contact windows, memory items
they asked for, reminders and schedules still to come, routes. With no setting, nothing is
deleted: keeping is the default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection

from clockcore import to_iso
from wrapper.people.person_data import ERASED
from wrapper.store import tables as t
from wrapper.store.tables import history, outbox, sent_messages
from wrapper.turns.history import EARLIER, StoredMessage, count_in, replace_prefix_in
from wrapper.turns.model_calls import model_calls

__all__ = ["Pruned", "prune_in", "retention_note"]

_DONE = ("sent", "failed", "skipped")


@dataclass(frozen=True, slots=True)
class Pruned:
    """What one prune deleted: table → rows, and the threads whose history was cut."""

    rows: dict[str, int] = field(default_factory=dict)
    threads: int = 0


def retention_note(cutoff: datetime) -> tuple[StoredMessage, StoredMessage]:
    """The two messages that stand for a thread's deleted past."""
    return (
        StoredMessage(
            role="user",
            content=f"{EARLIER} deleted: messages before {to_iso(cutoff, 'UTC')} are not kept]",
        ),
        StoredMessage(role="assistant", content="Noted."),
    )


def prune_in(conn: Connection, *, before: datetime, now: datetime) -> Pruned:
    """Delete the conversation older than `before` (see the module), in the caller's transaction."""
    rows: dict[str, int] = {}

    def run(name: str, statement: object) -> None:
        count = conn.execute(statement).rowcount  # type: ignore[call-overload]
        if count:
            rows[name] = rows.get(name, 0) + count

    run(
        "inbound_journal",
        delete(t.journal).where(t.journal.c.received_at < before, t.journal.c.user_key != ERASED),
    )
    old_jobs = select(outbox.c.id).where(
        outbox.c.status.in_(_DONE), func.coalesce(outbox.c.sent_at, outbox.c.due_at) < before
    )
    run("sent_messages", delete(sent_messages).where(sent_messages.c.outbox_id.in_(old_jobs)))
    run("outbox", delete(outbox).where(outbox.c.id.in_(old_jobs)))
    run("actions", delete(t.actions).where(t.actions.c.expires_at < before))
    run("model_calls", delete(model_calls).where(model_calls.c.at < before))
    threads = 0
    stale = conn.execute(
        select(history.c.thread_key).where(history.c.created_at < before).distinct()
    ).scalars()
    for thread_key in list(stale):
        count_in(conn, thread_key)  # locks the thread: a turn or another worker waits
        cut = _cut(conn, thread_key, before)
        if cut is None:
            continue
        gone = conn.execute(
            select(func.count())
            .select_from(history)
            .where(history.c.thread_key == thread_key, history.c.seq < cut)
        ).scalar_one()
        replace_prefix_in(conn, thread_key, cut, retention_note(before), at=now)
        rows["history"] = rows.get("history", 0) + int(gone)
        threads += 1
    return Pruned(rows, threads)


def _cut(conn: Connection, thread_key: str, before: datetime) -> int | None:
    """Where the thread's old part ends, or None when nothing would go.

    The cut is the first person's message at or before the first message that is not old
    (or the end). A head left by compaction or an earlier prune is written when it is made,
    so it looks new; it is passed over, and goes with the old messages after it.
    """
    in_thread = history.c.thread_key == thread_key
    head = conn.execute(select(history.c.content).where(in_thread, history.c.seq == 0))
    first = head.scalar_one_or_none()
    start = 2 if isinstance(first, str) and first.startswith(EARLIER) else 0
    first_new = conn.execute(
        select(func.min(history.c.seq)).where(
            in_thread, history.c.seq >= start, history.c.created_at >= before
        )
    ).scalar_one()
    if first_new is None:
        cut = conn.execute(select(func.count()).where(in_thread)).scalar_one()
    else:
        cut = conn.execute(
            select(func.max(history.c.seq)).where(
                in_thread,
                history.c.seq >= start,
                history.c.seq <= first_new,
                history.c.role == "user",
            )
        ).scalar_one()
    if cut is None or int(cut) <= start:
        return None
    return int(cut)
