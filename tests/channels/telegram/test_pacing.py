"""The dispatcher keeps Telegram's send limits, and one busy chat never holds up another.

The real gateway and Telegram adapter against the fake Bot API, the rules agent, SQLite.
Jobs are put in the outbox directly, all due at once, as a burst of reminders would be.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from channels.base import Outgoing, Pace
from channels.telegram import TelegramChannel
from clockcore import SettableClock
from tests.support import staged
from tests.support.fake_telegram import FakeTelegram

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


async def _enqueue(tg: FakeTelegram, gateway: Gateway, chat: int, texts: Sequence[str]) -> None:
    tg.message({"id": chat, "type": "private", "first_name": "T"}, None, "earlier")  # a known chat
    for text in texts:
        await staged.queued(
            gateway.outbox, kind="reply", channel="telegram", thread_id=f"dm:{chat}",
            thread_key=f"agent:main:telegram:dm:{chat}", user_key=f"telegram:{chat}",
            text=text, due_at=NOW, now=NOW,
        )  # fmt: skip


async def test_a_chat_gets_a_short_burst_then_one_a_second_while_another_chat_goes_at_once(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    clock = SettableClock(NOW)
    channel = TelegramChannel(tg.token, api_url=tg.api_url, clock=clock)
    gateway = Gateway(Settings(home=tmp_path, http_port=0), channels=[channel], clock=clock)
    async with gateway:
        await _enqueue(tg, gateway, 11, [f"busy {n}" for n in range(6)])
        await _enqueue(tg, gateway, 22, ["quiet"])
        await gateway.settle(timeout=30)
    to_busy = [c for c in tg.calls_of("sendMessage") if int(c.params["chat_id"]) == 11]
    order = [m.plain for m in tg.sent]
    assert [c.params["text"] for c in to_busy] == [f"busy {n}" for n in range(6)], "in order"
    assert order.index("quiet") < order.index("busy 3"), "the quiet chat did not wait its turn"
    # Three at once, then one a second: six sends to one chat take at least three seconds.
    assert to_busy[5].at - to_busy[0].at >= 2.9
    assert to_busy[2].at - to_busy[0].at < to_busy[5].at - to_busy[3].at


def _outgoing(thread_id: str, route: dict[str, str] | None = None) -> Outgoing:
    return Outgoing(
        kind="reply", thread_id=thread_id, user_id="1", text="x", route=route or {}, key="k"
    )


def test_telegram_paces_name_the_bot_the_chat_and_a_group() -> None:
    channel = TelegramChannel("123:abc", api_url="http://127.0.0.1:9")
    direct = channel.paces(_outgoing("dm:42"))
    group = channel.paces(_outgoing("group:-100", {"chat_id": "-100"}))
    nowhere = channel.paces(_outgoing("somewhere"))
    assert set(direct) == {Pace("telegram:123", 30, 1.0), Pace("telegram:123:chat:42", 3, 3.0)}
    assert Pace("telegram:123:group:-100", 20, 60.0) in group
    assert Pace("telegram:123:chat:-100", 3, 3.0) in group
    assert nowhere == (Pace("telegram:123", 30, 1.0),)


def test_slack_paces_name_the_channel_from_the_route_or_the_thread() -> None:
    from channels.slack import SlackChannel

    channel = SlackChannel("xoxb-1", app_token="xapp-1", api_url="http://127.0.0.1:9/api/")
    routed = channel.paces(_outgoing("T1:C9:1.0", {"channel": "C9", "thread_ts": "1.0"}))
    direct = channel.paces(_outgoing("dm:T1:D5"))
    assert routed == (Pace("slack::C9", 3, 3.0),)  # the team is known once started
    assert direct == (Pace("slack::D5", 3, 3.0),)
    assert channel.paces(_outgoing("nowhere")) == ()
