"""Retention: the conversation before a cutoff is deleted; the rest keeps its bytes and order.

A real store (SQLite and PostgreSQL) and the wrapper's own writes, on a settable clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from clockcore import SettableClock
from tests.support import staged
from wrapper.core import InteractionWrapper
from wrapper.people.retention import retention_note
from wrapper.store import tables as t
from wrapper.turns.history import StoredMessage

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
KEY = "agent:main:test:dm:7"
CALL = StoredMessage(role="assistant", content="", tool_calls=(("c1", "now", "{}"),))
RESULT = StoredMessage(role="tool", content="09:00", tool_call_id="c1", name="now")


def _turn(text: str, answer: str) -> list[StoredMessage]:
    return [
        StoredMessage(role="user", content=text),
        StoredMessage(role="assistant", content=answer),
    ]


async def _journal(wrapper: InteractionWrapper) -> list[tuple[str, str]]:
    def rows(conn: object) -> list[tuple[str, str]]:
        query = select(t.journal.c.message_id, t.journal.c.user_key).order_by(t.journal.c.id)
        return [tuple(r) for r in conn.execute(query)]  # type: ignore[attr-defined]

    return await wrapper.database.run(rows)


async def test_old_history_gives_way_to_a_note_at_a_persons_message(database_url: str) -> None:
    clock = SettableClock(T0)
    wrapper = await InteractionWrapper.open(database_url, clock=clock)
    try:
        old = [*_turn("hello", "hi"), StoredMessage(role="user", content="time?"), CALL, RESULT]
        await staged.appended(wrapper, KEY, old, at=T0)
        # The answer to "time?" comes 40 days later, in the same turn: it is new, but the cut
        # cannot fall between a tool call and its result, so it falls at "time?".
        late = [StoredMessage(role="assistant", content="It is 09:00.")]
        await staged.appended(wrapper, KEY, late, at=T0 + timedelta(days=40))
        recent = _turn("and now?", "10:00")
        await staged.appended(wrapper, KEY, recent, at=T0 + timedelta(days=41))
        clock.set(T0 + timedelta(days=45))

        cutoff = T0 + timedelta(days=15)
        pruned = await wrapper.people.prune(before=cutoff)
        after = await wrapper.history.load(KEY)
        again = await wrapper.people.prune(before=cutoff)
        unchanged = await wrapper.history.load(KEY)
    finally:
        await wrapper.close()
    assert after == [*retention_note(cutoff), *old[2:], *late, *recent]
    assert pruned.threads == 1 and pruned.rows["history"] == 2
    assert again.threads == 0 and unchanged == after, "a second prune changes no prefix"


async def test_a_thread_wholly_old_keeps_only_the_note_and_a_later_prune_takes_what_followed(
    database_url: str,
) -> None:
    clock = SettableClock(T0)
    wrapper = await InteractionWrapper.open(database_url, clock=clock)
    try:
        await staged.appended(wrapper, KEY, _turn("hello", "hi"), at=T0)
        clock.set(T0 + timedelta(days=31))
        first = T0 + timedelta(days=1)
        await wrapper.people.prune(before=first)
        assert await wrapper.history.load(KEY) == list(retention_note(first))
        await staged.appended(wrapper, KEY, _turn("back", "welcome"), at=T0 + timedelta(days=31))
        clock.set(T0 + timedelta(days=70))
        second = T0 + timedelta(days=40)
        await wrapper.people.prune(before=second)
        history = await wrapper.history.load(KEY)
    finally:
        await wrapper.close()
    assert history == list(retention_note(second)), "the old note and what followed it went"


async def test_journal_jobs_and_actions_before_the_cutoff_go_and_tombstones_stay(
    database_url: str,
) -> None:
    from tests.bot.test_gateway import inbound

    clock = SettableClock(T0)
    wrapper = await InteractionWrapper.open(database_url, clock=clock)
    try:
        await wrapper.receive(inbound("heading to lunch", "m1", received_at=T0).ref)
        await wrapper.receive(inbound("old words", "b1", user_id="8", thread_id="dm:8",
                                      received_at=T0).ref)  # fmt: skip
        await wrapper.people.erase_person("test:8")
        job = await staged.queued(
            wrapper.outbox, kind="reply", channel="test", thread_id="dm:7", thread_key=KEY, user_key="test:7",
            text="enjoy", due_at=T0, now=T0,
        )  # fmt: skip
        [claimed] = await wrapper.outbox.claim_due(now=T0, worker="w", lease=timedelta(minutes=1))
        await wrapper.record_delivery(claimed, worker="w", text="enjoy", platform_ids=["p1"])
        later = T0 + timedelta(days=40)
        clock.set(later)
        await wrapper.receive(inbound("back at my desk", "m2", received_at=later).ref)
        pending = await staged.queued(
            wrapper.outbox, kind="reminder", channel="test", thread_id="dm:7", thread_key=KEY, user_key="test:7",
            text="stretch", due_at=later + timedelta(days=1), now=T0,
        )  # fmt: skip
        pruned = await wrapper.people.prune(before=T0 + timedelta(days=30))
        journal = await _journal(wrapper)
        jobs = {item.id for item in await wrapper.outbox.listing()}
        redelivered = await wrapper.receive(inbound("back at my desk", "m2", received_at=later).ref)
        tombstone = await wrapper.receive(inbound("old words", "b1", user_id="8",
                                                  thread_id="dm:8", received_at=T0).ref)  # fmt: skip
    finally:
        await wrapper.close()
    assert journal == [("b1", "erased"), ("m2", "test:7")]
    assert job not in jobs and pending in jobs, "a job still to come stays"
    assert pruned.rows["inbound_journal"] == 1 and pruned.rows["outbox"] == 1
    assert pruned.rows["sent_messages"] == 1
    assert redelivered.duplicate and tombstone.duplicate
