"""A thread reply to a reminder in a Slack DM means that reminder, not the newest one.

The real slack-bolt in Socket Mode against the fake Slack, through the gateway, the rules agent
answering. Issue 13: "a reply to the reminder in words works as well" (a Slack thread reply).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.app.gateway import Gateway
from clockcore import SettableClock
from tests.channels.slack.conftest import settings_for, socket_channel
from tests.support.fake_slack import FakeSlack, dm_event

START = datetime(2026, 6, 10, 14, tzinfo=UTC)


async def test_snooze_in_the_thread_of_an_older_reminder_snoozes_that_one(
    slack: FakeSlack, tmp_path: Path
) -> None:
    clock = SettableClock(START)
    channel = socket_channel(slack, clock=clock)
    async with Gateway(settings_for(tmp_path), channels=[channel], clock=clock) as gw:
        await slack.wait_connections(1)
        for ask in ("in 5 minutes to stretch", "in 6 minutes to drink water"):
            await slack.wait_acked(await slack.push_event(dm_event(f"remind me {ask}")))
            await gw.settle()
        clock.advance(minutes=5)
        await gw.settle()
        clock.advance(minutes=1)
        await gw.settle()
        stretch, water = slack.posts[-2], slack.posts[-1]
        assert "stretch" in stretch["text"] and "water" in water["text"]
        reply = dm_event("snooze 20 min") | {"thread_ts": stretch["ts"]}
        await slack.wait_acked(await slack.push_event(reply))
        await gw.settle()
        assert "stretch" in slack.posts[-1]["text"]
        assert slack.posts[-1]["text"].startswith("Snoozed: stretch, until")
        await slack.wait_acked(await slack.push_event(dm_event("snooze 20 min")))
        await gw.settle()
    assert slack.posts[-1]["text"].startswith("Snoozed: drink water, until")
