"""The dispatcher: due jobs decided, delivered, retried and capped; schedules' occurrences.

Real store (SQLite and PostgreSQL), the rules agent, the real gateway and dispatcher on a
settable clock; the channel is test_gateway's recording stand-in. A "downtime" is the
gateway stopped, the clock moved on, and a new gateway started on the same store.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from bot.app.dispatch import CLAIM_LEASE, MAX_ATTEMPTS
from bot.app.gateway import Gateway
from bot.config.settings import Settings
from channels.base import ChannelError, Outgoing
from clockcore import SettableClock, parse_recurrence
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support import staged
from wrapper.outbound.outbox import outbox
from wrapper.outbound.schedules import NewSchedule, new_schedule_id
from wrapper.store import tables as t

SUNDAY = datetime(2026, 6, 7, 12, tzinfo=UTC)


class BrokenChannel(RecordingChannel):
    """Raises a plain bug (not a ChannelError) on every send."""

    async def send(self, message: Outgoing) -> None:
        raise RuntimeError("an adapter bug")


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    return Settings(home=tmp_path, http_port=0, database_url=database_url)


@pytest.fixture
def clock() -> SettableClock:
    return SettableClock(SUNDAY)


@pytest.fixture
async def world(
    settings: Settings, clock: SettableClock
) -> AsyncIterator[tuple[Gateway, RecordingChannel]]:
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        yield gateway, channel


async def _hello(gateway: Gateway, clock: SettableClock) -> int:
    """A reply saying "hello" in the test channel's DM 7, due now; its id."""
    return await staged.queued(
        gateway.outbox, kind="reply", channel="test", thread_id="dm:7", thread_key="agent:main:test:dm:7",
        user_key="test:7", text="hello", due_at=clock.now(), now=clock.now(),
    )  # fmt: skip


async def _daily(gateway: Gateway, clock: SettableClock, text: str, missed: str = "one") -> int:
    rule = parse_recurrence("every day at 8am", "Europe/Berlin", clock.now())
    assert rule.rrule is not None and rule.dtstart is not None
    new = NewSchedule(
        id=new_schedule_id(), user_key="test:7", thread_key="agent:main:test:dm:7",
        channel="test", thread_id="dm:7", user_id="7", text=text, rrule=rule.rrule,
        dtstart=rule.dtstart, zone=None, origin_tz="Europe/Berlin", missed=missed,  # type: ignore[arg-type]
    )  # fmt: skip
    await gateway.wrapper.reminders.create(new, now=clock.now())
    return new.id


async def test_each_occurrence_goes_out_at_its_time_through_the_proactive_turn(
    world: tuple[Gateway, RecordingChannel], clock: SettableClock
) -> None:
    gateway, channel = world
    await _daily(gateway, clock, "water the plants")
    for day in (8, 9, 10):
        clock.set(datetime(2026, 6, day, 6, 0, 5, tzinfo=UTC))  # 08:00:05 in Berlin
        await gateway.settle()
    texts = [m.text for m in channel.sent]
    assert len(texts) == 3
    assert all("water the plants" in t and "offline" not in t for t in texts)
    assert all(m.kind == "reminder" for m in channel.sent)


async def test_three_days_down_send_one_late_message_with_the_note(
    settings: Settings, clock: SettableClock
) -> None:
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        await _daily(gateway, clock, "take the pill")
        await gateway.settle()
    clock.set(datetime(2026, 6, 11, 8, tzinfo=UTC))  # Thursday 10:00 in Berlin
    later = RecordingChannel()
    async with Gateway(settings, channels=[later], clock=clock, poll_interval=0.05) as gateway:
        await gateway.settle()
        clock.advance(timedelta(minutes=5))
        await gateway.settle()
    assert channel.sent == []
    (message,) = later.sent
    assert "take the pill" in message.text
    assert "This was due at 08:00 on Monday 8 June; I was offline." in message.text
    assert "3 more times" in message.text


async def test_three_days_down_with_skip_send_nothing(
    settings: Settings, clock: SettableClock
) -> None:
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        schedule = await _daily(gateway, clock, "stretch", missed="skip")
    clock.set(datetime(2026, 6, 11, 8, tzinfo=UTC))
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        await gateway.settle()
        (listed,) = await gateway.wrapper.reminders.listing("test:7")
    assert channel.sent == []
    assert listed.id == schedule
    assert listed.next_at == datetime(2026, 6, 12, 6, tzinfo=UTC)


async def test_a_late_one_shot_reminder_says_so(settings: Settings, clock: SettableClock) -> None:
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        await gateway.accept(inbound("clock: home tz Europe/Berlin", message_id="tz"))
        await gateway.accept(inbound("remind me tomorrow at 9am to call the bank", "r1"))
        await gateway.settle()
    answered = len(channel.sent)
    clock.set(datetime(2026, 6, 8, 11, tzinfo=UTC))  # due 07:00 UTC, four hours ago
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        await gateway.settle()
    (late,) = channel.sent[answered:]
    assert "call the bank" in late.text
    assert "This was due at 09:00 on Monday 8 June; I was offline." in late.text


async def test_every_error_counts_toward_the_cap_not_only_channel_errors(
    settings: Settings, clock: SettableClock
) -> None:
    channel = BrokenChannel()
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        item_id = await _hello(gateway, clock)
        for _ in range(MAX_ATTEMPTS + 2):
            await gateway.settle()
            clock.advance(timedelta(minutes=11))  # past the longest backoff
        (item,) = [i for i in await gateway.outbox.listing() if i.id == item_id]
    assert item.status == "failed"
    assert item.attempts == MAX_ATTEMPTS
    assert item.last_error == "unexpected error: RuntimeError"


async def test_a_permanent_channel_error_fails_the_job_at_once(
    world: tuple[Gateway, RecordingChannel], clock: SettableClock
) -> None:
    gateway, channel = world
    channel.failures.append(ChannelError("chat not found", permanent=True))
    item_id = await _hello(gateway, clock)
    await gateway.settle()
    (item,) = [i for i in await gateway.outbox.listing() if i.id == item_id]
    assert (item.status, item.attempts, item.last_error) == ("failed", 1, "chat not found")
    assert channel.sent == []


async def test_with_a_retention_the_dispatcher_deletes_the_old_conversation(
    settings: Settings, clock: SettableClock
) -> None:
    channel = RecordingChannel()
    kept = settings.model_copy(update={"retention_days": 30})
    key = "agent:main:test:dm:7"
    async with Gateway(kept, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        assert channel.sink is not None
        await channel.sink(inbound("hello", "m1", received_at=clock.now()))
        await gateway.settle()
        before = await gateway.wrapper.history.load(key)
        clock.advance(timedelta(days=31))
        await channel.sink(inbound("what time is it", "m2", received_at=clock.now()))
        await gateway.settle()
        history = await gateway.wrapper.history.load(key)
        jobs = await gateway.outbox.listing()
        journal = await gateway.wrapper.database.run(
            lambda conn: list(conn.execute(select(t.journal.c.message_id)).scalars())
        )
    assert before[0].content.endswith("hello")
    assert history[0].content.startswith("[Earlier conversation deleted")
    assert not any(m.content.endswith("hello") for m in history)
    assert history[2].content.endswith("what time is it")
    assert len(jobs) == 1 and len(channel.sent) == 2, "the first answer's job went"
    assert journal == ["m2"]


async def test_a_job_taken_over_while_its_worker_waited_is_not_sent_by_it(
    world: tuple[Gateway, RecordingChannel], clock: SettableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """This worker claimed the job, then stalled (here: in the pacer) past the dead-after time,
    and another worker took the job over. It checks its claim just before the send and leaves
    the job to the other worker instead of sending it too. The other worker here never beats,
    so it is taken for dead in turn and this one sends the job on its second claim: once."""
    gateway, channel = world
    taken: list[str] = []
    pacer_wait = gateway.dispatcher._pacer.wait

    async def stalled(paces: Any) -> None:
        await pacer_wait(paces)
        if not taken:

            def take_over(conn: Connection) -> None:
                conn.execute(update(outbox).values(claimed_by="another-worker"))

            await gateway.wrapper.database.run(take_over)
            taken.append("another-worker")

    monkeypatch.setattr(gateway.dispatcher._pacer, "wait", stalled)
    item_id = await _hello(gateway, clock)
    await gateway.settle()
    (item,) = [i for i in await gateway.outbox.listing() if i.id == item_id]
    assert taken == ["another-worker"]
    assert [m.text for m in channel.sent] == ["hello"]
    assert (item.status, item.attempts) == ("sent", 2)


async def test_a_job_still_held_before_its_send_has_its_lease_renewed(
    world: tuple[Gateway, RecordingChannel], clock: SettableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    gateway, channel = world
    leases: list[object] = []

    async def paced(paces: Any) -> None:
        clock.advance(timedelta(minutes=5))  # a long wait for the platform's rate limit

    original = gateway.outbox.renew_claim

    async def watched(item_id: int, *, worker: str, now: datetime, until: datetime) -> bool:
        leases.append(until)
        return await original(item_id, worker=worker, now=now, until=until)

    monkeypatch.setattr(gateway.dispatcher._pacer, "wait", paced)
    monkeypatch.setattr(gateway.outbox, "renew_claim", watched)
    await _hello(gateway, clock)
    await gateway.settle()
    assert [m.text for m in channel.sent] == ["hello"]
    assert leases == [SUNDAY + timedelta(minutes=5) + CLAIM_LEASE]
