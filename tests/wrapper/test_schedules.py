"""Recurring schedules on a real store (SQLite and PostgreSQL), walked on a settable clock.

Each occurrence is claimed from the outbox as the dispatcher claims it, then advanced
(`wrapper.outbound.reminders.advance_in`); what is "sent" is what advance says to send. The rules
come from `clockcore.parse_recurrence`, as a tool's would. Issue 13, acceptance "Scenario"
and "Downtime".
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from clockcore import SettableClock, parse_recurrence
from wrapper import InteractionWrapper
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.schedules import LATE_AFTER, MissedRuns, NewSchedule, new_schedule_id
from wrapper.turns.effects import ZoneChange

USER = "test:7"
THREAD = "agent:main:test:dm:7"
WORKER = "w1"
LEASE = timedelta(minutes=2)
NEW_YORK = ZoneInfo("America/New_York")
BERLIN = ZoneInfo("Europe/Berlin")
TOKYO = ZoneInfo("Asia/Tokyo")


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[tuple[InteractionWrapper, SettableClock]]:
    clock = SettableClock(datetime(2026, 3, 6, 20, tzinfo=UTC))  # Friday 15:00 in New York
    opened = await InteractionWrapper.open(database_url, agent_tz="UTC", clock=clock)
    try:
        yield opened, clock
    finally:
        await opened.close()


async def _schedule(
    wrapper: InteractionWrapper,
    clock: SettableClock,
    text: str,
    tz: str,
    *,
    missed: MissedRuns = "one",
    schedule_id: int | None = None,
) -> int:
    rule = parse_recurrence(text, tz, clock.now())
    assert rule.kind == "recurring", rule
    assert rule.rrule is not None and rule.dtstart is not None
    new = NewSchedule(
        id=schedule_id or new_schedule_id(), user_key=USER, thread_key=THREAD, channel="test",
        thread_id="dm:7", user_id="7", text=f"reminder: {text}", rrule=rule.rrule,
        dtstart=rule.dtstart, zone=rule.zone, origin_tz=tz, elapsed=rule.elapsed, missed=missed,
    )  # fmt: skip
    await wrapper.reminders.create(new, now=clock.now())
    return new.id


def _wall(at: datetime, zone: ZoneInfo) -> str:
    return at.astimezone(zone).isoformat(timespec="minutes")[:16]


async def _jobs(wrapper: InteractionWrapper, schedule_id: int) -> list[OutboxItem]:
    return sorted(
        (
            job
            for job in await wrapper.outbox.listing(limit=10_000)
            if job.schedule_id == schedule_id
        ),
        key=lambda job: job.id,
    )


async def _waiting(wrapper: InteractionWrapper, schedule_id: int) -> list[OutboxItem]:
    return [job for job in await _jobs(wrapper, schedule_id) if job.status == "pending"]


async def _run_due(wrapper: InteractionWrapper, clock: SettableClock) -> list[tuple[datetime, str]]:
    """Claim and handle every job due now, as the dispatcher would: (occurrence, note) sent."""
    sent: list[tuple[datetime, str]] = []
    while items := await wrapper.outbox.claim_due(now=clock.now(), worker=WORKER, lease=LEASE):
        for item in items:
            occurrence = await wrapper.reminders.advance(item, now=clock.now(), worker=WORKER)
            if occurrence.send:
                assert item.occurs_at is not None
                sent.append((item.occurs_at, occurrence.note))
                assert await wrapper.record_delivery(item, worker=WORKER, text=item.text)
    return sent


async def _walk(
    wrapper: InteractionWrapper, clock: SettableClock, schedule_id: int, count: int
) -> list[datetime]:
    """Move the clock to each next occurrence in turn and send it; the instants sent."""
    sent: list[datetime] = []
    for _ in range(count):
        (job,) = await _waiting(wrapper, schedule_id)
        clock.set(job.due_at + timedelta(seconds=5))
        handled = await _run_due(wrapper, clock)
        assert [note for _, note in handled] == [""]  # on time: no note
        sent.extend(at for at, _ in handled)
    return sent


async def test_every_weekday_at_9_set_on_friday_fires_monday_9_new_york_after_the_spring_change(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    schedule = await _schedule(wrapper, clock, "every weekday at 9am", "America/New_York")
    sent = await _walk(wrapper, clock, schedule, 10)
    local = [at.astimezone(NEW_YORK) for at in sent]
    assert local[0].date().isoformat() == "2026-03-09"  # Monday, the day after the change
    assert all((t.hour, t.minute) == (9, 0) for t in local)
    assert all(t.weekday() < 5 for t in local)
    assert [t.date().isoformat() for t in local[:6]] == [
        "2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13", "2026-03-16",
    ]  # fmt: skip
    assert sent[0] == datetime(2026, 3, 9, 13, tzinfo=UTC)  # EDT: 4 h behind UTC now


@pytest.mark.parametrize("start", ["2026-03-27", "2026-10-23"])
async def test_an_8am_berlin_daily_stays_at_8_across_both_changes(
    store: tuple[InteractionWrapper, SettableClock], start: str
) -> None:
    wrapper, clock = store
    clock.set(datetime.fromisoformat(f"{start}T12:00:00+00:00"))
    schedule = await _schedule(wrapper, clock, "every day at 8am", "Europe/Berlin")
    sent = await _walk(wrapper, clock, schedule, 4)
    assert [(t.astimezone(BERLIN).hour, t.astimezone(BERLIN).minute) for t in sent] == [(8, 0)] * 4
    utc_hours = [t.hour for t in sent]
    assert utc_hours == ([7, 6, 6, 6] if start == "2026-03-27" else [6, 7, 7, 7])
    days = {t.astimezone(BERLIN).date() for t in sent}
    assert len(days) == 4  # one a day, none lost or doubled on the changes


async def test_a_floating_schedule_follows_a_move_and_a_fixed_one_stays(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    await wrapper.save_settings(
        ZoneChange(user_key=USER, thread_key=THREAD, zone="America/New_York", scope="home")
    )
    floating = await _schedule(wrapper, clock, "every day at 9am", "America/New_York")
    fixed = await _schedule(wrapper, clock, "every day at 9am New York time", "America/New_York")
    (job,) = await _waiting(wrapper, floating)
    assert job.due_at.astimezone(NEW_YORK).hour == 9
    # Friday 15:00 in New York is Saturday 05:00 in Tokyo: Saturday 09:00 there is still ahead.
    await wrapper.save_settings(
        ZoneChange(user_key=USER, thread_key=THREAD, zone="Asia/Tokyo", scope="home")
    )
    (moved,) = await _waiting(wrapper, floating)
    assert _wall(moved.due_at, TOKYO) == "2026-03-07T09:00"
    (kept,) = await _waiting(wrapper, fixed)
    assert _wall(kept.due_at, NEW_YORK) == "2026-03-07T09:00"
    assert await wrapper.reminders.cancel(USER, fixed, now=clock.now())  # out of the walk
    sent = await _walk(wrapper, clock, floating, 3)
    assert [t.astimezone(TOKYO).hour for t in sent] == [9, 9, 9]


async def test_a_move_past_the_waiting_occurrence_skips_it_and_takes_the_next(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    clock.set(datetime(2026, 3, 6, 23, tzinfo=UTC))  # 18:00 NY; Saturday 08:00 in Tokyo
    await wrapper.save_settings(
        ZoneChange(user_key=USER, thread_key=THREAD, zone="America/New_York", scope="home")
    )
    floating = await _schedule(wrapper, clock, "every day at 7am", "America/New_York")
    await wrapper.save_settings(
        ZoneChange(user_key=USER, thread_key=THREAD, zone="Asia/Tokyo", scope="home")
    )
    jobs = await _jobs(wrapper, floating)
    assert [job.status for job in jobs] == ["skipped", "pending"]
    assert _wall(jobs[1].due_at, TOKYO) == "2026-03-08T07:00"


@pytest.mark.parametrize(("missed", "expected"), [("one", 1), ("skip", 0), ("all", 4)])
async def test_three_days_down_over_a_daily_schedule(
    store: tuple[InteractionWrapper, SettableClock], missed: MissedRuns, expected: int
) -> None:
    wrapper, clock = store
    clock.set(datetime(2026, 6, 7, 12, tzinfo=UTC))  # Sunday
    schedule = await _schedule(wrapper, clock, "every day at 8am", "Europe/Berlin", missed=missed)
    # Down from before Monday 08:00 until Thursday 10:00: Mon, Tue, Wed, Thu were due.
    clock.set(datetime(2026, 6, 11, 8, tzinfo=UTC))
    sent = await _run_due(wrapper, clock)
    assert len(sent) == expected
    if missed == "one":
        ((at, note),) = sent
        assert _wall(at, BERLIN) == "2026-06-08T08:00"
        assert "due at 08:00 on Monday 8 June" in note and "I was offline" in note
        assert "3 more times" in note
    if missed == "all":
        assert [at.astimezone(BERLIN).day for at, _ in sent] == [8, 9, 10, 11]
    (job,) = await _waiting(wrapper, schedule)  # the next one, and only it, waits
    assert _wall(job.due_at, BERLIN) == "2026-06-12T08:00"
    statuses = [j.status for j in await _jobs(wrapper, schedule)]
    assert statuses.count("skipped") == (1 if missed == "skip" else 0)


async def test_a_little_late_is_on_time_and_carries_no_note(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    schedule = await _schedule(wrapper, clock, "every day at 9am", "America/New_York")
    (job,) = await _waiting(wrapper, schedule)
    clock.set(job.due_at + LATE_AFTER - timedelta(seconds=1))
    assert [note for _, note in await _run_due(wrapper, clock)] == [""]


async def test_advancing_twice_enqueues_the_next_occurrence_once(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    schedule = await _schedule(wrapper, clock, "every hour", "UTC")
    (job,) = await _waiting(wrapper, schedule)
    clock.set(job.due_at + timedelta(seconds=1))
    (item,) = await wrapper.outbox.claim_due(now=clock.now(), worker=WORKER, lease=LEASE)
    for _ in range(3):  # a crash before the decision: claimed again, advanced again
        clock.advance(timedelta(minutes=1))
        await wrapper.reminders.advance(item, now=clock.now(), worker=WORKER)
    assert len(await _waiting(wrapper, schedule)) == 1


async def test_storing_the_same_schedule_twice_keeps_one(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    schedule_id = new_schedule_id()
    for _ in range(2):  # a turn's commit repeated
        await _schedule(wrapper, clock, "every day at 9am", "UTC", schedule_id=schedule_id)
    assert len(await wrapper.reminders.listing(USER)) == 1
    assert len(await _jobs(wrapper, schedule_id)) == 1


async def test_a_counted_rule_ends_after_its_last_occurrence(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    schedule = await _schedule(wrapper, clock, "every day at 9am for 2 days", "UTC")
    assert len(await _walk(wrapper, clock, schedule, 2)) == 2
    assert await _waiting(wrapper, schedule) == []
    assert await wrapper.reminders.listing(USER) == []
    (ended,) = await wrapper.reminders.listing(USER, include_ended=True)
    assert ended.state == "ended"


async def test_pause_resume_and_cancel(store: tuple[InteractionWrapper, SettableClock]) -> None:
    wrapper, clock = store
    schedule = await _schedule(wrapper, clock, "every day at 9am", "America/New_York")
    assert await wrapper.reminders.pause(USER, schedule, now=clock.now())
    assert await _waiting(wrapper, schedule) == []
    (listed,) = await wrapper.reminders.listing(USER)
    assert (listed.state, listed.next_at) == ("paused", None)
    clock.advance(timedelta(days=2))
    assert await _run_due(wrapper, clock) == []  # nothing comes while paused
    assert await wrapper.reminders.resume(USER, schedule, now=clock.now())
    (job,) = await _waiting(wrapper, schedule)
    assert job.due_at > clock.now()
    assert await wrapper.reminders.pause(
        USER, schedule, now=clock.now(), until=datetime(2026, 3, 16, 4, tzinfo=UTC)
    )
    (job,) = await _waiting(wrapper, schedule)
    assert _wall(job.due_at, NEW_YORK) == "2026-03-16T09:00"
    assert not await wrapper.reminders.cancel("test:8", schedule, now=clock.now())  # not theirs
    assert await wrapper.reminders.cancel(USER, schedule, now=clock.now())
    assert await _waiting(wrapper, schedule) == []
    assert not await wrapper.reminders.cancel(USER, schedule, now=clock.now())


async def test_a_claimed_occurrence_of_a_canceled_schedule_is_skipped(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    schedule = await _schedule(wrapper, clock, "every day at 9am", "UTC")
    (job,) = await _waiting(wrapper, schedule)
    clock.set(job.due_at)
    (item,) = await wrapper.outbox.claim_due(now=clock.now(), worker=WORKER, lease=LEASE)
    assert await wrapper.reminders.cancel(USER, schedule, now=clock.now())
    occurrence = await wrapper.reminders.advance(item, now=clock.now(), worker=WORKER)
    assert not occurrence.send
    assert [j.status for j in await _jobs(wrapper, schedule)] == ["skipped"]


async def test_occurrences_folded_by_a_short_outage_are_said_though_not_late(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    schedule = await _schedule(wrapper, clock, "every 5 minutes", "UTC")
    (job,) = await _waiting(wrapper, schedule)
    clock.set(job.due_at + timedelta(minutes=8))  # under LATE_AFTER, past the next one
    ((_, note),) = await _run_due(wrapper, clock)
    assert "It came due 1 more time since" in note
    (nxt,) = await _waiting(wrapper, schedule)
    assert nxt.due_at == job.due_at + timedelta(minutes=10)


async def test_a_rule_stepping_in_seconds_goes_on_past_the_first_occurrence_of_a_minute(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    """Every occurrence gets its own job: keys that named only the minute stalled the schedule."""
    wrapper, clock = store
    start = clock.now().replace(tzinfo=None) + timedelta(seconds=10)
    new = NewSchedule(
        id=new_schedule_id(), user_key=USER, thread_key=THREAD, channel="test",
        thread_id="dm:7", user_id="7", text="tick", rrule="FREQ=SECONDLY;INTERVAL=10",
        dtstart=start, zone="UTC", origin_tz="UTC", elapsed=True, missed="all",
    )  # fmt: skip
    await wrapper.reminders.create(new, now=clock.now())
    sent = await _walk(wrapper, clock, new.id, 8)
    assert [at - sent[0] for at in sent] == [timedelta(seconds=10 * n) for n in range(8)]
    assert len({job.key for job in await _jobs(wrapper, new.id)}) == 9  # 8 sent, 1 waiting
