"""The outbox: claims, leases, deferrals, retries, failures and listing, on both databases."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Connection

from tests.support import staged
from wrapper.coordination.workers import Workers
from wrapper.outbound.claiming import claim_statement
from wrapper.outbound.outbox import (
    JobDecision,
    Outbox,
    OutboxItem,
    cancel_reminders,
    decide_in,
    mark_sent_in,
)
from wrapper.outbound.reminders import meant_in
from wrapper.store.db import Database, resolve_url

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)
LEASE = timedelta(minutes=5)
TARGET: dict[str, Any] = {
    "channel": "telegram",
    "thread_id": "dm:7",
    "thread_key": "agent:main:telegram:dm:7",
    "user_key": "telegram:7",
}


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(resolve_url(database_url))
    await database.migrate()
    try:
        yield database
    finally:
        await database.dispose()


@pytest.fixture
def outbox(db: Database) -> Outbox:
    return Outbox(db)


async def _enqueue(
    outbox: Outbox,
    text: str = "hello",
    *,
    due_at: datetime = NOW,
    kind: Any = "reply",
    **extra: Any,
) -> int:
    return await staged.queued(
        outbox, kind=kind, text=text, due_at=due_at, now=NOW, **{**TARGET, **extra}
    )


def _thread(n: int) -> dict[str, str]:
    """Another thread's target: replies of one thread go out one at a time, in order."""
    return {"thread_id": f"dm:{n}", "thread_key": f"agent:main:telegram:dm:{n}"}


async def _sent(outbox: Outbox, item_id: int, *, worker: str, sent_at: datetime) -> bool:
    """Mark the item sent as a delivery's transaction does (`record_delivery`)."""
    return await outbox.database.run(
        lambda conn: mark_sent_in(conn, item_id, worker=worker, sent_at=sent_at)
    )


async def _deferred(
    outbox: Outbox, item_id: int, *, worker: str, until: datetime, reason: str
) -> bool:
    """The agent deferred the job, as a proactive turn's commit records it (`decide_in`)."""
    decision = JobDecision(item_id, worker, defer_until=until, reason=reason)
    return await outbox.database.run(lambda conn: decide_in(conn, decision, at=NOW))


async def _by_id(outbox: Outbox, item_id: int) -> OutboxItem:
    (item,) = [i for i in await outbox.listing(limit=1000) if i.id == item_id]
    return item


async def test_enqueue_claim_send(outbox: Outbox) -> None:
    item_id = await _enqueue(outbox, "Time to call the bank.\n", kind="reminder", memory_id=3)
    pending = await _by_id(outbox, item_id)
    assert (pending.status, pending.attempts, pending.claimed_by) == ("pending", 0, None)

    (claimed,) = await outbox.claim_due(now=NOW, worker="w1", lease=LEASE)

    assert claimed.id == item_id
    assert claimed.status == "claimed"
    assert claimed.claimed_by == "w1"
    assert claimed.claim_expires_at == NOW + LEASE
    assert claimed.attempts == 1
    assert claimed.text == "Time to call the bank.\n"
    assert (claimed.kind, claimed.memory_id, claimed.user_key) == ("reminder", 3, "telegram:7")
    assert claimed.due_at == NOW
    assert claimed.due_at.tzinfo is not None
    assert await outbox.claim_due(now=NOW, worker="w2", lease=LEASE) == []

    sent_at = NOW + timedelta(seconds=2)
    assert await _sent(outbox, item_id, worker="w1", sent_at=sent_at) is True
    sent = await _by_id(outbox, item_id)
    assert (sent.status, sent.sent_at, sent.claimed_by) == ("sent", sent_at, "w1")
    # Sent is terminal: never claimed again, not even long after.
    assert await outbox.claim_due(now=NOW + timedelta(days=9), worker="w2", lease=LEASE) == []
    assert await _sent(outbox, item_id, worker="w1", sent_at=sent_at) is False


async def test_not_due_is_not_claimed(outbox: Outbox) -> None:
    later = await _enqueue(outbox, "later", due_at=NOW + timedelta(hours=1))
    first = await _enqueue(outbox, "first", due_at=NOW - timedelta(minutes=1))
    second = await _enqueue(outbox, "second", due_at=NOW)

    claimed = await outbox.claim_due(now=NOW, worker="w1", lease=LEASE)
    assert [i.id for i in claimed] == [first, second]  # oldest due first; due_at <= now
    for item in claimed:
        assert await _sent(outbox, item.id, worker="w1", sent_at=NOW)
    assert await outbox.claim_due(now=NOW + timedelta(minutes=59), worker="w1", lease=LEASE) == []
    (due,) = await outbox.claim_due(now=NOW + timedelta(hours=1), worker="w1", lease=LEASE)
    assert due.id == later


async def test_limit_caps_a_claim(outbox: Outbox) -> None:
    ids = [
        await _enqueue(outbox, f"m{i}", due_at=NOW - timedelta(seconds=10 - i), **_thread(i))
        for i in range(5)
    ]
    first = await outbox.claim_due(now=NOW, worker="w1", lease=LEASE, limit=2)
    rest = await outbox.claim_due(now=NOW, worker="w2", lease=LEASE, limit=10)
    assert [i.id for i in first] == ids[:2]
    assert [i.id for i in rest] == ids[2:]
    with pytest.raises(ValueError, match="limit"):
        await outbox.claim_due(now=NOW, worker="w1", lease=LEASE, limit=0)
    with pytest.raises(ValueError, match="lease"):
        await outbox.claim_due(now=NOW, worker="w1", lease=timedelta(0))


async def test_a_threads_replies_go_out_one_at_a_time_in_order(outbox: Outbox) -> None:
    first = await _enqueue(outbox, "first", due_at=NOW - timedelta(seconds=2))
    second = await _enqueue(outbox, "second", due_at=NOW - timedelta(seconds=1))
    elsewhere = await _enqueue(outbox, "elsewhere", **_thread(9))
    reminder = await _enqueue(outbox, "a reminder", kind="reminder")
    (taken,) = await outbox.claim_due(now=NOW, worker="w1", lease=LEASE, limit=1)
    assert taken.id == first
    # w1 is sending the first reply: the second waits; other threads and kinds do not.
    rest = await outbox.claim_due(now=NOW, worker="w2", lease=LEASE)
    assert sorted(i.id for i in rest) == sorted([elsewhere, reminder])
    assert await _sent(outbox, first, worker="w1", sent_at=NOW)
    (then,) = await outbox.claim_due(now=NOW, worker="w2", lease=LEASE)
    assert then.id == second


async def test_a_reply_held_by_a_dead_worker_holds_its_threads_next_one(outbox: Outbox) -> None:
    first = await _enqueue(outbox, "first", due_at=NOW - timedelta(seconds=2))
    second = await _enqueue(outbox, "second", due_at=NOW - timedelta(seconds=1))
    await outbox.claim_due(now=NOW, worker="dead", lease=LEASE, limit=1)
    assert await outbox.claim_due(now=NOW, worker="w2", lease=LEASE) == []
    # Once the lease ends (or the worker is seen dead) the first goes out before the second.
    later = NOW + LEASE + timedelta(seconds=1)
    (taken,) = await outbox.claim_due(now=later, worker="w2", lease=LEASE)
    assert taken.id == first
    assert await _sent(outbox, first, worker="w2", sent_at=later)
    (then,) = await outbox.claim_due(now=later, worker="w2", lease=LEASE)
    assert then.id == second


async def test_concurrent_claimers_never_share_an_item(outbox: Outbox) -> None:
    ids = {await _enqueue(outbox, f"m{i}", **_thread(i)) for i in range(10)}

    results = await asyncio.gather(
        *(outbox.claim_due(now=NOW, worker=f"w{n}", lease=LEASE, limit=1) for n in range(20))
    )

    claimed = [item for result in results for item in result]
    assert all(len(result) <= 1 for result in results)
    assert sorted(i.id for i in claimed) == sorted(ids)
    assert len({i.claimed_by for i in claimed}) == 10
    assert await outbox.claim_due(now=NOW, worker="late", lease=LEASE) == []
    stored = await outbox.listing()
    assert [i.attempts for i in stored] == [1] * 10


ITEMS, CLAIMERS = 200, 4


async def _claim_all(url: str, worker: str) -> list[int]:
    database = Database(resolve_url(url))
    claimed: list[int] = []
    try:
        outbox = Outbox(database)
        while batch := await outbox.claim_due(now=NOW, worker=worker, lease=LEASE, limit=3):
            for item in batch:
                assert item.claimed_by == worker
                claimed.append(item.id)
                assert await _sent(outbox, item.id, worker=worker, sent_at=NOW)
    finally:
        await database.dispose()
    return claimed


def _claim_worker(url: str, worker: str, out: str) -> None:
    claimed = asyncio.run(_claim_all(url, worker))
    Path(out).write_text(json.dumps(claimed))


def _read_claims(outs: list[Path]) -> list[list[int]]:
    return [json.loads(out.read_text()) for out in outs]


async def test_claimers_in_many_processes_take_each_item_once(
    database_url: str, outbox: Outbox, tmp_path: Path
) -> None:
    ids = {await _enqueue(outbox, f"m{i}") for i in range(ITEMS)}
    context = multiprocessing.get_context("spawn")
    outs = [tmp_path / f"claims-{n}.json" for n in range(CLAIMERS)]
    processes = [
        context.Process(target=_claim_worker, args=(database_url, f"p{n}", str(outs[n])))
        for n in range(CLAIMERS)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=300)
    assert [p.exitcode for p in processes] == [0] * CLAIMERS

    per_process = _read_claims(outs)
    every = [item_id for claims in per_process for item_id in claims]
    assert len(every) == ITEMS  # nothing claimed twice...
    assert set(every) == ids  # ...and nothing left behind
    stored = await outbox.listing(limit=ITEMS + 10)
    assert {(i.status, i.attempts) for i in stored} == {("sent", 1)}
    owner = {item_id: f"p{n}" for n, claims in enumerate(per_process) for item_id in claims}
    assert all(i.claimed_by == owner[i.id] for i in stored)


async def test_expired_lease_is_claimed_again(outbox: Outbox) -> None:
    item_id = await _enqueue(outbox)
    (first,) = await outbox.claim_due(now=NOW, worker="crashed", lease=LEASE)

    assert (
        await outbox.claim_due(now=NOW + LEASE - timedelta(seconds=1), worker="w2", lease=LEASE)
        == []
    )
    (again,) = await outbox.claim_due(now=NOW + LEASE, worker="w2", lease=LEASE)

    assert again.id == first.id == item_id
    assert (again.claimed_by, again.attempts) == ("w2", 2)
    assert again.claim_expires_at == NOW + 2 * LEASE
    # The first worker comes back: its claim is gone, every outcome is refused.
    assert await _sent(outbox, item_id, worker="crashed", sent_at=NOW + LEASE) is False
    assert await outbox.fail(item_id, worker="crashed", error="late") is False
    assert await outbox.retry_later(item_id, worker="crashed", error="x", at=NOW) is False
    assert await _deferred(outbox, item_id, worker="crashed", until=NOW, reason="x") is False
    assert await _sent(outbox, item_id, worker="w2", sent_at=NOW + LEASE) is True
    assert (await _by_id(outbox, item_id)).claimed_by == "w2"


async def test_a_worker_that_looks_dead_never_takes_back_its_own_job(outbox: Outbox) -> None:
    # No heartbeat rows at all: every worker counts as dead. w1's job in flight is free for
    # others at once, but w1 itself must not claim it again (it would send it twice).
    item_id = await _enqueue(outbox)
    alive_since = NOW - timedelta(seconds=8)
    (first,) = await outbox.claim_due(now=NOW, worker="w1", lease=LEASE, alive_since=alive_since)
    assert await outbox.claim_due(now=NOW, worker="w1", lease=LEASE, alive_since=alive_since) == []
    (taken,) = await outbox.claim_due(now=NOW, worker="w2", lease=LEASE, alive_since=alive_since)
    assert taken.id == first.id == item_id
    assert taken.claimed_by == "w2"
    # Its own lease run out, a worker may take its job back (nobody else came for it).
    late = NOW + 2 * LEASE
    (again,) = await outbox.claim_due(now=late, worker="w2", lease=LEASE, alive_since=late)
    assert again.claimed_by == "w2"


async def test_a_worker_about_to_send_is_alive_so_its_job_is_not_taken_during_the_send(
    db: Database, outbox: Outbox
) -> None:
    # w1 claimed a job 10 s ago and has not beaten since: dead to anyone looking 8 s back.
    # Its check before the send renews its heartbeat with the lease, so w2 cannot take the
    # job over while it is being sent; silent 8 s past that check, it can.
    dead_after = timedelta(seconds=8)
    workers = Workers(db, dead_after=dead_after)
    before = NOW - timedelta(seconds=10)
    await workers.beat("w1", now=before)
    await workers.beat("w2", now=NOW)
    first = await _enqueue(outbox, "first", due_at=before)
    second = await _enqueue(outbox, "second", due_at=before, **_thread(2))
    claimed = await outbox.claim_due(now=before, worker="w1", lease=LEASE)
    assert [item.id for item in claimed] == [first, second]
    assert await workers.alive(now=NOW) == ["w2"]

    assert await outbox.renew_claim(first, worker="w1", now=NOW, until=NOW + LEASE) is True
    assert await workers.alive(now=NOW) == ["w1", "w2"]
    soon = NOW + timedelta(seconds=5)
    assert await outbox.claim_due(
        now=soon, worker="w2", lease=LEASE, alive_since=soon - dead_after
    ) == []  # fmt: skip
    assert await _sent(outbox, first, worker="w1", sent_at=soon) is True

    late = NOW + timedelta(seconds=9)
    (taken,) = await outbox.claim_due(
        now=late, worker="w2", lease=LEASE, alive_since=late - dead_after
    )
    assert (taken.id, taken.claimed_by) == (second, "w2")
    assert await outbox.renew_claim(second, worker="w1", now=late, until=late + LEASE) is False


async def test_defer_waits_until_then_keeps_the_reason(outbox: Outbox) -> None:
    due = NOW - timedelta(minutes=3)
    item_id = await _enqueue(outbox, "Good morning!", kind="proactive", due_at=due)
    await outbox.claim_due(now=NOW, worker="w1", lease=LEASE)
    until = NOW + timedelta(hours=8)

    assert await _deferred(outbox, item_id, worker="w1", until=until, reason="it is 3am for them")

    deferred = await _by_id(outbox, item_id)
    assert (deferred.status, deferred.due_at, deferred.deferred_from) == ("deferred", until, due)
    assert deferred.defer_reason == "it is 3am for them"
    assert (deferred.claimed_by, deferred.claim_expires_at) == (None, None)
    assert [i.id for i in await outbox.listing(status="deferred")] == [item_id]
    assert await outbox.claim_due(now=until - timedelta(seconds=1), worker="w2", lease=LEASE) == []
    (claimed,) = await outbox.claim_due(now=until, worker="w2", lease=LEASE)
    assert (claimed.id, claimed.attempts) == (item_id, 2)
    assert claimed.defer_reason == "it is 3am for them"
    assert claimed.deferred_from == due


async def test_retry_later_keeps_the_error(outbox: Outbox) -> None:
    item_id = await _enqueue(outbox)
    await outbox.claim_due(now=NOW, worker="w1", lease=LEASE)
    retry_at = NOW + timedelta(minutes=5)

    assert await outbox.retry_later(item_id, worker="w1", error="E" * 600, at=retry_at)

    waiting = await _by_id(outbox, item_id)
    assert (waiting.status, waiting.due_at, waiting.claimed_by) == ("pending", retry_at, None)
    assert waiting.last_error == "E" * 500
    assert await outbox.claim_due(now=NOW + timedelta(minutes=4), worker="w2", lease=LEASE) == []
    (again,) = await outbox.claim_due(now=retry_at, worker="w2", lease=LEASE)
    assert (again.attempts, again.last_error) == (2, "E" * 500)


async def test_fail_is_terminal(outbox: Outbox) -> None:
    item_id = await _enqueue(outbox)
    await outbox.claim_due(now=NOW, worker="w1", lease=LEASE)

    assert await outbox.fail(item_id, worker="w1", error="403: bot was blocked by the user")

    failed = await _by_id(outbox, item_id)
    assert (failed.status, failed.last_error) == ("failed", "403: bot was blocked by the user")
    assert failed.claim_expires_at is None
    assert await outbox.claim_due(now=NOW + timedelta(days=30), worker="w2", lease=LEASE) == []
    assert await outbox.fail(item_id, worker="w1", error="again") is False


async def test_unknown_ids_and_other_workers_are_refused(outbox: Outbox) -> None:
    item_id = await _enqueue(outbox)
    assert await _sent(outbox, 999, worker="w1", sent_at=NOW) is False
    assert await outbox.retry_later(999, worker="w1", error="e", at=NOW) is False
    assert await outbox.fail(999, worker="w1", error="e") is False
    assert await _deferred(outbox, 999, worker="w1", until=NOW, reason="r") is False
    # Not claimed yet: nobody may finish it.
    assert await _sent(outbox, item_id, worker="w1", sent_at=NOW) is False
    await outbox.claim_due(now=NOW, worker="w1", lease=LEASE)
    assert await _sent(outbox, item_id, worker="w2", sent_at=NOW) is False
    assert (await _by_id(outbox, item_id)).status == "claimed"


async def test_oversized_text_is_refused_before_writing(outbox: Outbox) -> None:
    with pytest.raises(ValueError, match="20000"):
        await _enqueue(outbox, "x" * 20_001)
    with pytest.raises(ValueError, match="kind"):
        await _enqueue(outbox, kind="shout")
    assert await outbox.listing() == []
    item_id = await _enqueue(outbox, "é" * 20_000)
    assert (await _by_id(outbox, item_id)).text == "é" * 20_000


async def test_listing_shows_every_state_newest_first(outbox: Outbox) -> None:
    ids = [await _enqueue(outbox, f"m{i}", due_at=NOW - timedelta(minutes=5 - i)) for i in range(5)]
    await outbox.claim_due(now=NOW, worker="w1", lease=LEASE, limit=4)
    await _sent(outbox, ids[0], worker="w1", sent_at=NOW)
    await _deferred(outbox, ids[1], worker="w1", until=NOW + timedelta(hours=1), reason="night")
    await outbox.fail(ids[2], worker="w1", error="boom")
    # ids[3] stays claimed; ids[4] was due but beyond the claim's limit: still pending.

    listed = await outbox.listing()

    assert [i.id for i in listed] == ids[::-1]
    assert {i.id: i.status for i in listed} == {
        ids[0]: "sent",
        ids[1]: "deferred",
        ids[2]: "failed",
        ids[3]: "claimed",
        ids[4]: "pending",
    }
    assert [i.id for i in await outbox.listing(status="failed")] == [ids[2]]
    assert [i.id for i in await outbox.listing(limit=2)] == [ids[4], ids[3]]
    with pytest.raises(ValueError, match="status"):
        await outbox.listing(status="lost")  # type: ignore[arg-type]


async def test_cancel_reminder_fails_only_waiting_reminders(outbox: Outbox) -> None:
    in_flight = await _enqueue(outbox, "in flight", kind="reminder", memory_id=7)
    await outbox.claim_due(now=NOW, worker="w1", lease=LEASE)
    pending = await _enqueue(outbox, "pending", kind="reminder", memory_id=7, due_at=NOW)
    deferred = await _enqueue(outbox, "deferred", kind="reminder", memory_id=7, due_at=NOW)
    await outbox.claim_due(now=NOW, worker="w2", lease=LEASE, limit=2)
    await _deferred(outbox, deferred, worker="w2", until=NOW + timedelta(hours=1), reason="r")
    await outbox.retry_later(pending, worker="w2", error="e", at=NOW + timedelta(hours=1))
    other_memory = await _enqueue(outbox, "other", kind="reminder", memory_id=8)
    proactive = await _enqueue(outbox, "not a reminder", kind="proactive", memory_id=7)

    assert await outbox.database.run(lambda conn: cancel_reminders(conn, 7)) == 2
    assert await outbox.database.run(lambda conn: cancel_reminders(conn, 7)) == 0
    assert await outbox.database.run(lambda conn: cancel_reminders(conn, 12345)) == 0

    status = {i.id: (i.status, i.last_error) for i in await outbox.listing()}
    assert status[pending] == ("failed", "canceled")
    assert status[deferred] == ("failed", "canceled")
    assert status[in_flight] == ("claimed", None)
    assert status[other_memory] == ("pending", None)
    assert status[proactive] == ("pending", None)


async def test_claim_sql_skips_locked_rows_only_on_postgresql(db: Database) -> None:
    def compiled(conn: Connection) -> str:
        return str(claim_statement(conn.dialect.name).compile(dialect=conn.dialect))

    sql = (await db.run(compiled)).upper()

    assert sql.startswith("UPDATE OUTBOX SET")
    assert "RETURNING" in sql
    if db.dialect == "postgresql":
        assert "FOR UPDATE SKIP LOCKED" in sql
    else:
        assert "FOR UPDATE" not in sql
        assert "SKIP LOCKED" not in sql


async def test_a_reply_names_the_reminder_it_answers_only_within_its_own_thread(
    db: Database, outbox: Outbox
) -> None:
    """`meant_in`: the platform ids kept at the send lead back to the job, in its thread only."""
    first = await _enqueue(outbox, "stretch", kind="reminder", key="k1")
    second = await _enqueue(outbox, "water", kind="reminder", key="k2")
    other = await _enqueue(
        outbox, "bank", kind="reminder", key="k3", thread_id="dm:8",
        thread_key="agent:main:telegram:dm:8", user_key="telegram:8",
    )  # fmt: skip
    assert [i.id for i in await outbox.claim_due(now=NOW, worker="w", lease=LEASE)] == [
        first, second, other
    ]  # fmt: skip
    for item, ids in ((first, ["7:10", "7:11"]), (second, ["7:12"]), (other, ["8:5"])):
        sent = await db.run(
            lambda conn, item=item, ids=ids: mark_sent_in(
                conn, item, worker="w", sent_at=NOW, channel="telegram", platform_ids=ids
            )
        )
        assert sent

    async def meant(thread: str, reply_to: str | None) -> int | None:
        key = f"agent:main:telegram:{thread}"
        found = await db.run(lambda conn: meant_in(conn, key, "telegram", reply_to))
        return found.id if found is not None else None

    assert await meant("dm:7", "7:10") == first
    assert await meant("dm:7", "7:11") == first  # any part of it
    assert await meant("dm:7", None) == second  # no reply: the newest sent here
    assert await meant("dm:7", "7:99") == second  # a message that is not ours: the newest
    assert await meant("dm:7", "8:5") == second  # another person's reminder is never reached
    assert await meant("dm:8", "7:10") == other
