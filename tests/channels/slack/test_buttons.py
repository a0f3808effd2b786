"""Reminder buttons on Slack: the real slack-bolt in Socket Mode against the fake, through the gateway.

A reminder is posted with Block Kit buttons; a press is a ``block_actions`` interaction that
bolt's action listener journals before it acks (a double tap is one action); then
``chat.update`` shows what was chosen. Issue 13, acceptance "Buttons" (Slack). The rules agent
answers; the clock is settable, the store SQLite.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.app.gateway import Gateway
from channels.reminder_buttons import NOT_YOURS, read_button
from channels.slack.buttons import read_press, reminder_blocks
from clockcore import SettableClock
from tests.channels.slack.conftest import settings_for, socket_channel
from tests.support.fake_slack import FakeSlack, dm_event

START = datetime(2026, 6, 10, 14, tzinfo=UTC)


def _labels(post: dict[str, Any]) -> list[str]:
    blocks = json.loads(post["blocks"]) if isinstance(post.get("blocks"), str) else post["blocks"]
    return [
        b["text"]["text"]
        for block in blocks
        if block["type"] == "actions"
        for b in block["elements"]
    ]


async def _stretch_reminder(slack: FakeSlack, gw: Gateway, clock: SettableClock) -> dict[str, Any]:
    """Ask in a DM for a reminder in 5 minutes, let them pass; the reminder's post."""
    await slack.wait_connections(1)
    await slack.wait_acked(await slack.push_event(dm_event("remind me in 5 minutes to stretch")))
    await gw.settle()
    clock.advance(minutes=5)
    await gw.settle()
    return slack.posts[-1]


async def test_snooze_10_min_comes_back_once_and_a_double_tap_changes_nothing(
    slack: FakeSlack, tmp_path: Path
) -> None:
    clock = SettableClock(START)
    channel = socket_channel(slack, clock=clock)
    async with Gateway(settings_for(tmp_path), channels=[channel], clock=clock) as gw:
        reminder = await _stretch_reminder(slack, gw, clock)
        assert "stretch" in reminder["text"]
        assert _labels(reminder) == ["✓ Done", "Snooze 10 min", "1 h", "Tomorrow"]
        posts = len(slack.posts)
        press = slack.press(reminder, "Snooze 10 min")
        await slack.wait_acked(await slack.push_interaction(press))
        await gw.settle()
        assert len(slack.posts) == posts + 1
        assert slack.posts[-1]["text"].startswith("Snoozed: stretch, until Wednesday 10 Jun, 23:15")
        (update,) = slack.updates
        assert update["ts"] == reminder["ts"]
        shown = update["blocks"]
        shown = json.loads(shown) if isinstance(shown, str) else shown
        assert shown[-1]["elements"][0]["text"] == "⏰ Snoozed for 10 minutes"
        assert "actions" not in [block["type"] for block in shown]
        await slack.wait_acked(await slack.push_interaction(press))  # the double tap
        await gw.settle()
        assert len(slack.posts) == posts + 1
        clock.advance(minutes=10)
        await gw.settle()
        clock.advance(hours=2)
        await gw.settle()
    again = [p for p in slack.posts[posts + 1 :] if "stretch" in p["text"]]
    assert len(again) == 1
    assert _labels(again[0])[1] == "Snooze 10 min"


async def test_a_press_by_someone_not_allowed_is_acked_and_does_nothing(
    slack: FakeSlack, tmp_path: Path
) -> None:
    clock = SettableClock(START)
    channel = socket_channel(slack, clock=clock, allowed_users=["U1"])
    async with Gateway(settings_for(tmp_path), channels=[channel], clock=clock) as gw:
        reminder = await _stretch_reminder(slack, gw, clock)
        posts = len(slack.posts)
        press = slack.press(reminder, "1 h", user="U9")
        await slack.wait_acked(await slack.push_interaction(press))
        await gw.settle()
    assert len(slack.posts) == posts
    assert slack.updates == []


async def test_a_press_on_someone_elses_reminder_is_told_so_privately_and_changes_nothing(
    slack: FakeSlack, tmp_path: Path
) -> None:
    """Issue 35, row 12: the press was journaled without its presser and shown as chosen."""
    clock = SettableClock(START)
    channel = socket_channel(slack, clock=clock)
    async with Gateway(settings_for(tmp_path), channels=[channel], clock=clock) as gw:
        reminder = await _stretch_reminder(slack, gw, clock)
        posts = len(slack.posts)
        press = slack.press(reminder, "1 h", user="U9")
        await slack.wait_acked(await slack.push_interaction(press))
        await gw.settle()
        assert len(slack.posts) == posts
        assert slack.updates == []
        [told] = await slack.wait_ephemerals(1)
        assert (told["user"], told["text"]) == ("U9", NOT_YOURS)
        mine = slack.press(reminder, "1 h")
        await slack.wait_acked(await slack.push_interaction(mine))
        await gw.settle()
    assert slack.posts[-1]["text"].startswith("Snoozed: stretch")
    assert len(slack.updates) == 1


@pytest.mark.parametrize("user", ["", " ", "\t"])
def test_a_press_by_a_blank_user_is_no_press(user: str) -> None:
    # Found by the event fuzz: a blank user id reached the store and came back as a 500.
    body = {
        "type": "block_actions", "user": {"id": user, "team_id": "T0CLOCK"},
        "channel": {"id": "D1"}, "message": {"ts": "1600000000.000000", "text": "x"},
        "actions": [{"action_id": "rem:done", "value": "rem:done:r0", "type": "button"}],
    }  # fmt: skip
    assert read_press(body, default_team="T0CLOCK") is None
    body["user"] = {"id": "U1", "team_id": "T0CLOCK"}
    assert read_press(body, default_team="T0CLOCK") is not None


def test_a_link_request_carries_yes_and_no_for_its_person() -> None:
    blocks = reminder_blocks("telegram:42 wants to join your clockbot identity", "", "U1")
    assert blocks is not None
    [actions] = [b for b in blocks if b["type"] == "actions"]
    values = [button["value"] for button in actions["elements"]]
    assert values == ["ask:link-yes:U1", "ask:link-no:U1"]
    body = {
        "type": "block_actions", "user": {"id": "U1", "team_id": "T0CLOCK"},
        "channel": {"id": "D1"}, "message": {"ts": "1600000000.000000", "text": "x"},
        "actions": [{"action_id": "rem:link-yes", "value": values[0], "type": "button"}],
    }  # fmt: skip
    press = read_press(body, default_team="T0CLOCK")
    assert press is not None
    assert (press.action, press.reminder, press.owner) == ("link-yes", "", "U1")
    assert read_button("ask:noop") is not None
    assert read_button("ask:link-maybe:U1") is None
