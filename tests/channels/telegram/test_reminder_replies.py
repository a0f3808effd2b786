"""A reply to a reminder on Telegram means that reminder, not the newest one.

python-telegram-bot against the fake Bot API, through the gateway, the rules agent answering.
Issue 13: "a reply to the reminder in words works as well" (Telegram ``reply_to_message``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from clockcore import SettableClock
from tests.channels.telegram.test_gateway import gateway
from tests.support.fake_telegram import FakeTelegram

START = datetime(2026, 6, 10, 14, tzinfo=UTC)


async def test_snooze_in_reply_to_an_older_reminder_snoozes_that_one(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    clock = SettableClock(START)
    alice = tg.user(42, "alice")
    async with gateway(tg, tmp_path, clock=clock) as gw:
        for n, ask in enumerate(("in 5 minutes to stretch", "in 6 minutes to drink water"), 1):
            tg.private(alice, f"remind me {ask}", date=int(clock.now().timestamp()))
            await tg.wait_sent(n)
            await gw.settle()
        clock.advance(minutes=5)
        await gw.settle()
        clock.advance(minutes=1)
        await gw.settle()
        stretch, water = tg.sent[2], tg.sent[3]
        assert "stretch" in stretch.plain and "water" in water.plain
        tg.reply(alice, stretch, "snooze 20 min", date=int(clock.now().timestamp()))
        await tg.wait_sent(5)
        await gw.settle()
        assert tg.sent[4].plain.startswith("Snoozed: stretch, until Wednesday 10 Jun, 14:26")
        tg.private(alice, "snooze 20 min", date=int(clock.now().timestamp()))  # no reply: newest
        await tg.wait_sent(6)
        await gw.settle()
    assert tg.sent[5].plain.startswith("Snoozed: drink water, until Wednesday 10 Jun, 14:26")
