"""The rules agent (no LLM) manages reminders in every phrasing of issue 13, through the gateway.

Real store (SQLite and PostgreSQL), the real gateway, dispatcher and tools, on a settable
clock; the channel is test_gateway's recording stand-in. The person lives in New York.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from clockcore import ContactWindow, SettableClock
from tests.bot.test_gateway import RecordingChannel, inbound

NEW_YORK = ZoneInfo("America/New_York")
WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York
USER = "test:7"


class World:
    def __init__(self, gateway: Gateway, channel: RecordingChannel, clock: SettableClock) -> None:
        self.gateway, self.channel, self.clock = gateway, channel, clock
        self._n = 0

    async def say(self, text: str) -> str:
        """Send `text` as the person; the bot's answer."""
        self._n += 1
        before = len(self.channel.sent)
        await self.gateway.accept(
            inbound(text, message_id=f"m{self._n}", received_at=self.clock.now())
        )
        await self.gateway.settle()
        answers = [m.text for m in self.channel.sent[before:] if m.kind == "reply"]
        assert len(answers) == 1, answers
        return answers[0]

    async def wait(self, delta: timedelta) -> list[str]:
        """Let `delta` pass; the reminders sent meanwhile."""
        before = len(self.channel.sent)
        self.clock.advance(delta)
        await self.gateway.settle()
        return [m.text for m in self.channel.sent[before:]]


@pytest.fixture
async def world(tmp_path: Path, database_url: str) -> AsyncIterator[World]:
    clock = SettableClock(WEDNESDAY)
    channel = RecordingChannel()
    settings = Settings(home=tmp_path, http_port=0, database_url=database_url)
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        w = World(gateway, channel, clock)
        await w.say("clock: home tz America/New_York")
        yield w


async def _jobs(world: World) -> list[tuple[str, datetime]]:
    schedules, one_shots = await world.gateway.wrapper.reminders.reminders(USER)
    found = [(f"s:{s.text}", s.next_at) for s in schedules if s.next_at is not None]
    return found + [(f"r:{j.text}", j.due_at) for j in one_shots]


async def test_a_weekday_reminder_is_listed_with_its_id_and_next_time(world: World) -> None:
    answer = await world.say("remind me every weekday at 9am to check the queue")
    assert "repeating" in answer
    await world.say("remind me tomorrow at 3pm to call the bank")
    listing = await world.say("what are my reminders?")
    (schedule,) = await world.gateway.wrapper.reminders.listing(USER)
    short = f"s{schedule.id % 10_000:04d}"  # what a person types (docs/reminders.md, "Ids")
    assert (
        f"{short}: check the queue (every weekday at 09:00), next: Thursday 11 Jun, 09:00"
        in listing
    )
    assert "call the bank, next: Thursday 11 Jun, 15:00" in listing


async def test_cancel_by_words_cancels_the_one_that_matches(world: World) -> None:
    await world.say("remind me every Friday at 4pm to submit the timesheet")
    await world.say("remind me every day at 8am to take the pill")
    answer = await world.say("cancel the timesheet reminder")
    assert answer.startswith("Canceled s")
    assert [what for what, _ in await _jobs(world)] == ["s:take the pill"]
    assert "can't find" in await world.say("cancel the yoga reminder")


async def test_two_matches_are_asked_about(world: World) -> None:
    await world.say("remind me every Monday at 9am to call mom")
    await world.say("remind me every Sunday at 6pm to call mom back")
    answer = await world.say("cancel the call mom reminder")
    assert "Several reminders match" in answer and "Which one?" in answer
    assert len(await _jobs(world)) == 2


async def test_pause_until_monday_then_it_comes_again_on_monday(world: World) -> None:
    await world.say("remind me every day at 8am to stretch")
    answer = await world.say("pause my reminders until Monday")
    assert answer.startswith("Paused until Monday 15 Jun, 08:00")
    ((_, next_at),) = await _jobs(world)
    assert next_at.astimezone(NEW_YORK) == datetime(2026, 6, 15, 8, tzinfo=NEW_YORK)
    assert await world.wait(timedelta(days=4)) == []  # Thursday to Sunday: nothing
    sent = await world.wait(timedelta(days=1))  # Monday 10:00: the 08:00 one, late
    assert len(sent) == 1 and "stretch" in sent[0]


async def test_resume_after_pause_until_brings_everything_back_now(world: World) -> None:
    await world.say("remind me every day at 8pm to stretch")
    await world.say("remind me tomorrow at 3pm to call the bank")
    await world.say("pause my reminders until Monday")
    held = dict(await _jobs(world))
    assert held["s:stretch"].astimezone(NEW_YORK) == datetime(2026, 6, 15, 20, tzinfo=NEW_YORK)
    assert held["r:call the bank"].astimezone(NEW_YORK) == datetime(2026, 6, 15, 8, tzinfo=NEW_YORK)
    assert await world.say("resume my reminders") == "Your reminders are back on."
    back = dict(await _jobs(world))
    assert back["s:stretch"].astimezone(NEW_YORK) == datetime(2026, 6, 10, 20, tzinfo=NEW_YORK)
    assert back["r:call the bank"].astimezone(NEW_YORK) == datetime(
        2026, 6, 11, 15, tzinfo=NEW_YORK
    )
    (sent,) = await world.wait(timedelta(hours=10, minutes=1))
    assert "stretch" in sent


async def test_resume_brings_back_a_paused_schedule(world: World) -> None:
    await world.say("remind me every day at 8am to stretch")
    (schedule,) = await world.gateway.wrapper.reminders.listing(USER)
    assert await world.gateway.wrapper.reminders.pause(USER, schedule.id, now=world.clock.now())
    assert await _jobs(world) == []
    assert await world.say("resume my reminders") == "Your reminders are back on."
    ((_, next_at),) = await _jobs(world)
    assert next_at.astimezone(NEW_YORK) == datetime(2026, 6, 11, 8, tzinfo=NEW_YORK)


async def test_move_the_3pm_one_to_4(world: World) -> None:
    await world.say("remind me tomorrow at 3pm to call the bank")
    await world.say("remind me tomorrow at 5pm to pick up the kids")
    answer = await world.say("move the 3pm one to 4")
    assert answer == "Moved: call the bank, to Thursday 11 Jun, 16:00 (in 1 day)."
    moved = dict(await _jobs(world))
    assert moved["r:call the bank"].astimezone(NEW_YORK).hour == 16
    assert moved["r:pick up the kids"].astimezone(NEW_YORK).hour == 17


async def test_snooze_20_min_brings_the_reminder_back_once(world: World) -> None:
    await world.say("remind me in 5 minutes to take the cake out")
    (sent,) = await world.wait(timedelta(minutes=5))
    assert "take the cake out" in sent
    answer = await world.say("snooze 20 min")
    assert answer.startswith("Snoozed: take the cake out, until Wednesday 10 Jun, 10:25")
    assert await world.wait(timedelta(minutes=19)) == []
    (again,) = await world.wait(timedelta(minutes=1))
    assert "take the cake out" in again
    assert await world.wait(timedelta(hours=1)) == []


async def test_snoozing_again_moves_the_snoozed_copy_and_stop_this_one_stops_it(
    world: World,
) -> None:
    """Issue 61: three "snooze 30 min" left three copies, and "stop this one" said "nothing
    more will come" over a copy that then came."""
    await world.say("remind me in 5 minutes to take the pizza out")
    await world.wait(timedelta(minutes=5))  # sent at 10:05
    assert "until Wednesday 10 Jun, 10:35" in await world.say("snooze 30 min")
    world.clock.advance(timedelta(minutes=2))
    assert "until Wednesday 10 Jun, 10:37" in await world.say("snooze it 30 min")  # from now
    assert "until Wednesday 10 Jun, 20:00" in await world.say("remind me again tonight")
    assert await _jobs(world) == [("r:take the pizza out", datetime(2026, 6, 11, tzinfo=UTC))]
    answer = await world.say("stop this one")
    assert answer.startswith("Canceled r"), answer
    assert await _jobs(world) == []
    assert await world.wait(timedelta(days=1)) == []


class _TickingClock(SettableClock):
    """A clock that moves a little each time it is read, as a real one does."""

    def now(self) -> datetime:
        return self.advance(timedelta(microseconds=137))


async def test_a_snooze_by_a_span_lands_on_whole_seconds(tmp_path: Path) -> None:
    """Issue 61: two reads of a real clock moved a 04:00 reminder to 04:29:59.999358."""
    clock = _TickingClock(WEDNESDAY + timedelta(microseconds=250_000))
    channel = RecordingChannel()
    settings = Settings(home=tmp_path, http_port=0)
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        world = World(gateway, channel, clock)
        await world.say("clock: home tz America/New_York")
        await world.say("remind me tomorrow at 4am to call Tokyo")
        (number,) = await _ids(world)
        answer = await world.say(f"snooze r{number} 30 min")
        assert "Thursday 11 Jun, 04:30" in answer, answer
        assert await _jobs(world) == [("r:call Tokyo", datetime(2026, 6, 11, 8, 30, tzinfo=UTC))]


async def _ids(world: World) -> list[int]:
    _, one_shots = await world.gateway.wrapper.reminders.reminders(USER)
    return [j.id for j in one_shots]


async def test_remind_me_again_tonight(world: World) -> None:
    await world.say("remind me in 5 minutes to water the plants")
    await world.wait(timedelta(minutes=5))
    answer = await world.say("remind me again tonight")
    assert "until Wednesday 10 Jun, 20:00" in answer  # "tonight" is 20:00 (docs/time-rules.md)
    assert [what for what, _ in await _jobs(world)] == ["r:water the plants"]


async def test_stop_this_one_ends_the_schedule_that_just_fired(world: World) -> None:
    await world.say("remind me every day at 11am to drink water")
    (sent,) = await world.wait(timedelta(hours=1))
    assert "drink water" in sent
    assert (await world.say("stop this one")).startswith("Canceled s")
    assert await _jobs(world) == []
    assert await world.wait(timedelta(days=2)) == []


async def test_done_is_acknowledged(world: World) -> None:
    assert await world.say("done") == "Good, marked done."


# --- quiet hours: the person's own contact window ----------------------------------------------


async def test_my_hours_are_9_to_22_sets_the_contact_window(world: World) -> None:
    answer = await world.say("my hours are 9 to 22")
    assert answer.startswith("Your contact hours are now 09:00–22:00 (America/New_York).")
    assert await world.gateway.wrapper.people.contact_window_of(USER) == ContactWindow(
        time(9), time(22)
    )


async def test_dont_message_me_before_9am_moves_only_the_start(world: World) -> None:
    await world.say("don't message me before 9am")
    assert await world.gateway.wrapper.people.contact_window_of(USER) == ContactWindow(
        time(9), time(23)
    )
    await world.say("don't message me after 9:30pm")
    window = await world.gateway.wrapper.people.contact_window_of(USER)
    assert window == ContactWindow(time(9), time(21, 30))


async def test_a_bare_hour_that_could_be_morning_or_evening_is_asked(world: World) -> None:
    answer = await world.say("don't message me after 10")
    assert answer == "Do you mean 10:00 in the morning or 22:00? Say '10am' or '10pm'."
    assert await world.gateway.wrapper.people.contact_window_of(USER) == ContactWindow()


async def test_outside_the_window_the_advisory_speaks_and_the_reminder_still_goes(
    world: World,
) -> None:
    await world.say("my hours are 9am to 5pm")
    await world.say("remind me today at 6pm to call mom")
    world.clock.set(datetime(2026, 6, 10, 22, 0, 5, tzinfo=UTC))  # 18:00:05 in New York
    envelope = await world.gateway.wrapper.on_user_message(
        channel="test", thread_id="dm:7", user_id="7", text="hi", message_id="probe",
        received_at=world.clock.now(),
    )  # fmt: skip
    assert envelope.contact.contact_window == ContactWindow(time(9), time(17))
    assert not envelope.contact.within_contact_window
    assert envelope.contact.advisory
    sent = await world.wait(timedelta(seconds=1))
    assert any("call mom" in text for text in sent)  # nothing holds it but the agent's defer
