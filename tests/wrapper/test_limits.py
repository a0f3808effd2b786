"""`wrapper.turns.limits`: token buckets in the store, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from clockcore import MessageRef, SettableClock
from wrapper.core import InteractionWrapper
from wrapper.turns.limits import Admission, Bucket, TurnLimits, admit, take

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[InteractionWrapper]:
    wrapper = await InteractionWrapper.open(database_url, clock=SettableClock(START))
    try:
        yield wrapper
    finally:
        await wrapper.close()


async def _take(store: InteractionWrapper, bucket: Bucket, at: datetime) -> datetime | None:
    return await store.database.run(lambda conn: take(conn, "person:p", bucket, at))


async def test_a_bucket_gives_its_burst_then_one_turn_per_refill(
    store: InteractionWrapper,
) -> None:
    bucket = Bucket(per_minute=6, burst=3)  # one turn every 10 s
    assert [await _take(store, bucket, START) for _ in range(3)] == [None, None, None]
    assert await _take(store, bucket, START) == START + timedelta(seconds=10)
    assert await _take(store, bucket, START + timedelta(seconds=5)) == START + timedelta(seconds=10)
    assert await _take(store, bucket, START + timedelta(seconds=10)) is None
    assert await _take(store, bucket, START + timedelta(seconds=10)) is not None
    # Long quiet refills it to the burst, not beyond.
    later = START + timedelta(hours=1)
    assert [await _take(store, bucket, later) for _ in range(4)][:3] == [None, None, None]
    assert await _take(store, bucket, later) is not None
    # A clock behind the stored one (another worker's) neither refills nor breaks it.
    assert await _take(store, bucket, START) is not None


async def test_concurrent_takers_never_share_the_last_turn(store: InteractionWrapper) -> None:
    bucket = Bucket(per_minute=1, burst=5)
    results = await asyncio.gather(*(_take(store, bucket, START) for _ in range(20)))
    assert sum(r is None for r in results) == 5


async def _message(store: InteractionWrapper, n: int) -> MessageRef:
    ref = MessageRef(
        channel="telegram", thread_id="9", user_id="9", message_id=str(n),
        text=f"message {n}", received_at=START + timedelta(seconds=n),
    )  # fmt: skip
    await store.receive(ref, claim_for="w1", lease_until=START + timedelta(minutes=5))
    return ref


async def test_over_the_limit_a_message_is_folded_or_held_and_the_person_hears_it_once(
    store: InteractionWrapper,
) -> None:
    limits = TurnLimits(person=Bucket(6, 1), channel=Bucket(0, 0))
    for n in range(3):
        await _message(store, n)
    [first, second, third] = await store.waiting.claim(
        worker="w2", now=START + timedelta(minutes=6), lease=timedelta(minutes=1)
    )
    now = START + timedelta(minutes=6)

    async def admitted(turn: object) -> object:
        return await store.database.run(
            lambda conn: admit(conn, turn, person_id="p", limits=limits, now=now)  # type: ignore[arg-type]
        )

    verdicts = [await admitted(t) for t in (first, second, third)]
    assert [v.admission for v in verdicts] == [Admission.RUN, Admission.FOLD, Admission.HOLD]
    assert [v.notify for v in verdicts] == [False, True, False], "one notice"
    assert verdicts[2].retry_at == now + timedelta(seconds=10)
    # The held message is back on the list, no attempt counted, marked held.
    [again] = await store.waiting.claim(
        worker="w2", now=now + timedelta(seconds=10), lease=timedelta(minutes=1)
    )
    assert again.ref.message_id == "2"
    assert (again.held, again.attempts) == (True, 0)


async def test_the_channel_cap_holds_everyone_and_gives_the_persons_turn_back(
    store: InteractionWrapper,
) -> None:
    limits = TurnLimits(person=Bucket(6, 2), channel=Bucket(6, 1))
    await _message(store, 0)
    await _message(store, 1)
    first, second = await store.waiting.claim(
        worker="w2", now=START + timedelta(minutes=6), lease=timedelta(minutes=1)
    )
    now = START + timedelta(minutes=6)

    def work(conn: object) -> list[Admission]:
        return [
            admit(conn, t, person_id="p", limits=limits, now=now).admission  # type: ignore[arg-type]
            for t in (first, second)
        ]

    assert await store.database.run(work) == [Admission.RUN, Admission.HOLD]
    # The person's second turn was given back when the channel had none.
    assert await store.database.run(lambda conn: take(conn, "person:p", limits.person, now)) is None
