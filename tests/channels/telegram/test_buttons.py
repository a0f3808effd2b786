"""Reminder buttons on Telegram: python-telegram-bot against the fake Bot API, through the gateway.

A reminder carries [Done] [Snooze 10 min] [1 h] [Tomorrow]; a press is a ``callback_query``
that is journaled like a message (a double tap is one action), answered, and shown on the
message. Issue 13, acceptance "Buttons" (Telegram). The rules agent answers; the clock is
settable, the store SQLite.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app.gateway import Gateway
from clockcore import SettableClock
from tests.channels.telegram.test_gateway import gateway
from tests.support.fake_telegram import FakeTelegram, SentMessage, TgUser

START = datetime(2026, 6, 10, 14, tzinfo=UTC)


def _buttons(sent: SentMessage) -> list[tuple[str, str]]:
    assert sent.reply_markup is not None
    return [
        (b["text"], b["callback_data"]) for row in sent.reply_markup["inline_keyboard"] for b in row
    ]


async def _stretch_reminder(
    tg: FakeTelegram, gw: Gateway, clock: SettableClock, user: TgUser, *, answered: int = 0
) -> SentMessage:
    """`user` asks for a reminder in 5 minutes, and they pass; the reminder as sent."""
    tg.private(user, "remind me in 5 minutes to stretch", date=int(clock.now().timestamp()))
    await tg.wait_sent(answered + 1)
    await gw.settle()
    clock.advance(timedelta(minutes=5))
    await gw.settle()
    return tg.sent[-1]


async def test_snooze_10_min_comes_back_once_and_a_double_tap_changes_nothing(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    clock = SettableClock(START)
    alice = tg.user(42, "alice")
    async with gateway(tg, tmp_path, clock=clock) as gw:
        tg.private(alice, "clock: home tz Europe/Berlin", date=int(clock.now().timestamp()))
        reminder = await _stretch_reminder(tg, gw, clock, alice, answered=1)
        assert "stretch" in reminder.plain
        buttons = _buttons(reminder)
        assert [label for label, _ in buttons] == ["✓ Done", "Snooze 10 min", "1 h", "Tomorrow"]
        assert all(len(data.encode()) <= 64 for _, data in buttons)  # the Bot API's limit
        snooze = buttons[1][1]
        assert tg.answered == []
        tg.press(alice, reminder, snooze)
        await tg.wait_calls("answerCallbackQuery", 1)
        await tg.wait_sent(4)
        await gw.settle()
        assert tg.answered[0]["text"] == "⏰ Snoozed for 10 minutes"
        shown = tg.markups[(reminder.chat_id, reminder.message_id)]
        assert [b["text"] for row in shown["inline_keyboard"] for b in row] == [
            "⏰ Snoozed for 10 minutes"
        ]
        assert tg.sent[-1].plain.startswith("Snoozed: stretch, until Wednesday 10 Jun, 16:15")
        tg.press(alice, reminder, snooze)  # the second tap of a double tap
        await tg.wait_calls("answerCallbackQuery", 2)
        await gw.settle()
        assert len(tg.sent) == 4  # no second answer
        clock.advance(minutes=9)
        await gw.settle()
        assert len(tg.sent) == 4
        clock.advance(minutes=1)
        await gw.settle()
        clock.advance(hours=2)
        await gw.settle()
    again = [s for s in tg.sent[4:] if "stretch" in s.plain]
    assert len(again) == 1  # it came back once, with buttons of its own
    assert _buttons(again[0])[1][0] == "Snooze 10 min"


async def test_done_is_answered_and_shown(tg: FakeTelegram, tmp_path: Path) -> None:
    clock = SettableClock(START)
    alice = tg.user(42, "alice")
    async with gateway(tg, tmp_path, clock=clock) as gw:
        reminder = await _stretch_reminder(tg, gw, clock, alice)
        tg.press(alice, reminder, _buttons(reminder)[0][1])
        await tg.wait_calls("answerCallbackQuery", 1)
        await tg.wait_sent(3)
        await gw.settle()
    assert tg.answered[0]["text"] == "✓ Done"
    assert tg.sent[-1].plain == "Good, marked done."


async def test_a_forged_or_stale_button_is_answered_and_does_nothing(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    clock = SettableClock(START)
    alice = tg.user(42, "alice")
    async with gateway(tg, tmp_path, clock=clock) as gw:
        tg.private(alice, "what time is it", date=int(clock.now().timestamp()))
        (answer,) = await tg.wait_sent(1)
        tg.press(alice, answer, "rem:snooze:everything")  # not a button of ours
        tg.press(alice, answer, "rem:10m:r999999")  # a reminder that does not exist
        await tg.wait_calls("answerCallbackQuery", 2)
        await tg.wait_sent(2)
        await gw.settle()
    assert "can't find a reminder" in tg.sent[-1].plain.lower()
    assert len(tg.sent) == 2


async def test_in_a_group_only_the_reminders_person_can_press_its_buttons(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """B pressing first on A's reminder changed nothing but swallowed A's own press as a
    duplicate, and the keyboard said "Snoozed" (issue 35, row 12)."""
    clock = SettableClock(START)
    alice, bob = tg.user(42, "alice"), tg.user(43, "bob")
    async with gateway(tg, tmp_path, clock=clock) as gw:
        now = int(clock.now().timestamp())
        tg.group(-1001, alice, "@clockbot_bot remind me in 5 minutes to stretch", date=now)
        await tg.wait_sent(1)
        await gw.settle()
        clock.advance(timedelta(minutes=5))
        await gw.settle()
        reminder = tg.sent[-1]
        assert "stretch" in reminder.plain
        snooze = _buttons(reminder)[1][1]
        tg.press(bob, reminder, snooze)
        await tg.wait_calls("answerCallbackQuery", 1)
        await gw.settle()
        assert tg.answered[0]["text"].startswith("This is for someone else")
        assert (reminder.chat_id, reminder.message_id) not in tg.markups  # buttons unchanged
        assert len(tg.sent) == 2  # nothing was said in the group
        tg.press(alice, reminder, snooze)
        await tg.wait_calls("answerCallbackQuery", 2)
        await tg.wait_sent(3)
        await gw.settle()
    assert tg.answered[1]["text"] == "⏰ Snoozed for 10 minutes"
    assert tg.sent[-1].plain.startswith("Snoozed: stretch")


async def test_a_link_request_is_answered_with_its_buttons_by_the_issuer_only(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Issue 35: the issuer confirms a redeemed code; buttons where the channel has them."""
    clock = SettableClock(START)
    ana, ben = tg.user(42, "ana"), tg.user(43, "ben")
    async with gateway(tg, tmp_path, clock=clock) as gw:
        tg.private(ana, "clock: link", date=int(clock.now().timestamp()))
        [issued] = await tg.wait_sent(1)
        code = re.search(r"clock: link ([A-Z0-9-]{14})", issued.plain)
        assert code is not None, issued.plain
        tg.private(ben, f"clock: link {code.group(1)}", date=int(clock.now().timestamp()))
        await tg.wait_sent(3)  # Ben hears that Ana is asked; Ana is asked
        await gw.settle()
        [question] = [s for s in tg.sent if s.chat_id == 42 and "wants to join" in s.plain]
        assert [label for label, _ in _buttons(question)] == ["✓ Yes, link us", "✗ No"]
        yes = _buttons(question)[0][1]
        tg.press(ben, question, yes)  # not his to answer (a forwarded message, say)
        await tg.wait_calls("answerCallbackQuery", 1)
        await gw.settle()
        assert tg.answered[0]["text"].startswith("This is for someone else")
        tg.press(ana, question, yes)
        await tg.wait_calls("answerCallbackQuery", 2)
        await gw.settle()
        await gw.settle()
    assert tg.answered[1]["text"] == "✓ Yes"
    told_ben = [s.plain for s in tg.sent if s.chat_id == 43]
    assert any(t.startswith("Linked with telegram:42") for t in told_ben), told_ben
    assert any("Linked with telegram:43" in s.plain for s in tg.sent if s.chat_id == 42)
