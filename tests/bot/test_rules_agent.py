"""The rules agent (no LLM) takes reminders as people write them, through the whole gateway.

Real store, real outbox and dispatcher, the recording channel of test_gateway; the time is
read by clockcore (Duckling where installed), the content is what is left.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.config import Settings
from bot.gateway import Gateway
from tests.bot.test_gateway import RecordingChannel, inbound

NEW_YORK = ZoneInfo("America/New_York")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[Gateway, RecordingChannel]]:
    channel = RecordingChannel()
    settings = Settings(home=tmp_path, http_port=0)
    async with Gateway(settings, channels=[channel], poll_interval=0.05) as gateway:
        await gateway.accept(inbound("clock: home tz America/New_York", message_id="tz"))
        await gateway.settle()
        yield gateway, channel


async def test_half_past_3pm_is_read_whole_and_the_content_is_what_is_left(
    world: tuple[Gateway, RecordingChannel],
) -> None:
    gateway, channel = world
    await gateway.accept(inbound("remind me at half past 3pm to call mom", message_id="r1"))
    await gateway.settle()
    (item,) = await gateway.wrapper.recall(user_key="test:7", query="mom")
    assert item.content == "call mom"
    assert item.due_at is not None
    local = item.due_at.astimezone(NEW_YORK)
    assert (local.hour, local.minute) == (15, 30)
    assert "15:30" in channel.sent[-1].text or "3:30" in channel.sent[-1].text


async def test_every_monday_is_a_recurring_schedule_not_one_monday(
    world: tuple[Gateway, RecordingChannel],
) -> None:
    gateway, channel = world
    text = "remind me every Monday at 9am to submit the timesheet"
    await gateway.accept(inbound(text, message_id="r2"))
    await gateway.settle()
    assert await gateway.wrapper.recall(user_key="test:7", query="timesheet") == []
    (schedule,) = await gateway.wrapper.reminders.listing("test:7")
    assert schedule.text == "submit the timesheet"
    assert "BYDAY=MO" in schedule.rrule and "BYHOUR=9" in schedule.rrule
    assert schedule.zone is None  # floating: it follows the person
    assert schedule.next_at is not None
    local = schedule.next_at.astimezone(NEW_YORK)
    assert (local.weekday(), local.hour, local.minute) == (0, 9, 0)
    reply = channel.sent[-1].text
    assert "repeating" in reply and f"s{schedule.id}" in reply
