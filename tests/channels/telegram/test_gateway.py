"""End to end: Telegram updates through the real gateway, wrapper, agent, outbox and dispatcher.

The agent is the built-in rules agent unless a test scripts a model with `FakeLLMServer`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from bot.llm import OpenAIProvider
from bot.llm.types import Provider
from channels.telegram import TelegramChannel
from channels.telegram.messages import REFUSED
from clockcore import Clock, SettableClock
from tests.support.fake_llm import FakeLLMServer, Reply
from tests.support.fake_telegram import FakeTelegram, check_html

SECRET = "s3cret-Token_1"
HOOK = "https://bot.example.org/telegram/webhook"


@asynccontextmanager
async def gateway(
    tg: FakeTelegram,
    home: Path,
    *,
    provider: Provider | None = None,
    clock: Clock | None = None,
    **options: Any,
) -> AsyncIterator[Gateway]:
    channel = TelegramChannel(tg.token, api_url=tg.api_url, clock=clock, **options)
    settings = Settings(home=home, http_port=0)
    gw = Gateway(settings, channels=[channel], clock=clock, provider=provider, poll_interval=0.1)
    await gw.start()
    try:
        yield gw
    finally:
        await gw.stop()


def _journal(state: dict[str, object]) -> str:
    """The stored state without the export's own time stamp, to compare before and after."""
    return json.dumps(
        {k: v for k, v in state.items() if k not in ("exported_at", "generated_at")},
        sort_keys=True,
        default=str,
    )


async def test_private_chat_replies_in_order(tg: FakeTelegram, tmp_path: Path) -> None:
    alice = tg.user(42, "alice")
    async with gateway(tg, tmp_path) as gw:
        tg.private(alice, "what time is it in Tokyo")
        tg.private(alice, "clock it: going for a run")
        first, second = await tg.wait_sent(2)
        await gw.settle()
    assert (first.chat_id, second.chat_id) == (42, 42)
    assert "Asia/Tokyo" in first.plain
    assert "Clocked: going for a run" in second.plain
    assert first.parse_mode == "HTML"
    assert len(tg.sent) == 2


async def test_tz_command_and_clock_it_change_the_next_envelope(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    start = datetime(2026, 1, 15, 3, 0, tzinfo=UTC)  # 12:00 in Tokyo
    clock = SettableClock(start)
    date = int(start.timestamp())
    alice = tg.user(42, "alice")
    async with FakeLLMServer(default_text="Noted.") as llm:
        provider = OpenAIProvider(base_url=llm.openai_base_url, model="m", api_key="k")
        async with gateway(tg, tmp_path, provider=provider, clock=clock) as gw:
            tg.private(alice, "/tz Asia/Tokyo", date=date)
            await tg.wait_sent(1)
            await gw.settle()
            assert await gw.wrapper.people.user_timezone("telegram:42") == "Asia/Tokyo"
            tg.private(alice, "clock it: going for a run", date=date + 60)
            await tg.wait_sent(2)
            await gw.settle()
            clock.advance(timedelta(hours=3))
            tg.private(alice, "hello again", date=date + 3 * 3600)
            await tg.wait_sent(3)
            await gw.settle()
        newest = llm.completions[-1].json["messages"][-1]["content"]
    assert "User timezone: Asia/Tokyo" in newest
    assert 'Open action: "run" (clocked 2 h 59 min ago' in newest
    assert "Last message in this thread: 2 h 59 min ago" in newest  # from the messages' own dates


async def test_webhook_answers_the_right_secret_and_refuses_others(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    alice = tg.user(42, "alice")
    async with gateway(tg, tmp_path, mode="webhook", webhook_url=HOOK, webhook_secret=SECRET) as gw:
        assert tg.webhook is not None
        assert (tg.webhook["url"], tg.webhook["secret_token"]) == (HOOK, SECRET)
        url = f"http://127.0.0.1:{gw.http_port}/telegram/webhook"
        before = _journal(await gw.wrapper.export_state())
        update = tg.private(alice, "what time is it in Tokyo")
        assert await tg.post_webhook(url, update, secret="wrong") == 403
        assert await tg.post_webhook(url, update, secret="") == 403
        headers_missing = await _post_without_secret(url, update)
        assert headers_missing == 403
        await gw.settle()
        assert _journal(await gw.wrapper.export_state()) == before
        assert await gw.outbox.listing() == []
        assert tg.sent == []
        assert await tg.post_webhook(url, update) == 200
        assert await tg.post_webhook(url, update) == 200  # Telegram sends it again: one answer
        await gw.settle()
        [reply] = await tg.wait_sent(1)
        assert "Asia/Tokyo" in reply.plain
        assert len(await gw.outbox.listing()) == 1
    assert tg.calls_of("getUpdates") == []


async def _post_without_secret(url: str, update: dict[str, Any]) -> int:
    from aiohttp import ClientSession

    async with ClientSession() as session, session.post(url, json=update) as response:
        return response.status


async def test_groups_and_topics_get_their_thread_keys(tg: FakeTelegram, tmp_path: Path) -> None:
    alice = tg.user(42, "alice")
    async with gateway(tg, tmp_path) as gw:
        tg.group(-1001, alice, "@clockbot_bot what time is it in Tokyo")
        tg.group(-1001, alice, "what time is it in Tokyo", topic=7, reply_to_bot=True)
        answers = {sent.message_thread_id: sent for sent in await tg.wait_sent(2)}  # any order
        in_group, in_topic = answers[None], answers[7]
        await gw.settle()
        quiet = tg.group(-2002, alice, "what time is it in Paris, just between us humans")
        # Read and handled: a getUpdates confirms it (its offset passes the update) only after
        # the adapter handed it to the gateway.
        await tg.wait_until(
            lambda: any(
                int(call.params.get("offset") or 0) > quiet["update_id"]
                for call in tg.calls_of("getUpdates")
            ),
            "the quiet update confirmed",
        )
        await gw.settle()
        state = json.dumps(await gw.wrapper.export_state(), default=str)
        items = await gw.outbox.listing()
    assert (in_group.chat_id, in_group.message_thread_id) == (-1001, None)
    assert (in_topic.chat_id, in_topic.message_thread_id) == (-1001, 7)
    assert sorted(item.thread_id for item in items) == ["group:-1001", "group:-1001:topic:7"]
    assert "agent:main:telegram:group:-1001:topic:7" in state
    assert "agent:main:telegram:group:-2002" in state  # the unmentioned message was stamped...
    assert len(tg.sent) == 2  # ...and not answered


async def test_a_redelivered_update_is_answered_once(tg: FakeTelegram, tmp_path: Path) -> None:
    alice = tg.user(42, "alice")
    async with gateway(tg, tmp_path) as gw:
        update = tg.private(alice, "what time is it in Tokyo")
        await tg.wait_sent(1)
        await gw.settle()
        tg.redeliver(update)
        tg.private(alice, "clock it: reading")  # something after it, to know it was read
        await tg.wait_sent(2)
        await gw.settle()
    assert ["Asia/Tokyo" in s.plain for s in tg.sent] == [True, False]


async def test_a_restart_between_receiving_and_confirming_answers_once(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    alice = tg.user(42, "alice")
    tg.freeze_offsets = True  # the getUpdates that would confirm never reaches Telegram
    async with gateway(tg, tmp_path) as gw:
        tg.private(alice, "what time is it in Tokyo")
        await tg.wait_sent(1)
        await gw.settle()
    assert len(tg.updates) == 1  # not confirmed
    tg.freeze_offsets = False
    async with gateway(tg, tmp_path) as gw:
        polls = len(tg.calls_of("getUpdates"))
        await tg.wait_calls("getUpdates", polls + 2)  # fetched it again, then confirmed it
        await gw.settle()
        assert tg.updates == []
    assert len(tg.sent) == 1


async def test_a_429_delays_the_reply_and_loses_nothing(tg: FakeTelegram, tmp_path: Path) -> None:
    alice = tg.user(42, "alice")
    tg.fail_next("sendMessage", 429, retry_after=2)
    async with gateway(tg, tmp_path) as gw:
        tg.private(alice, "what time is it in Tokyo")
        [reply] = await tg.wait_sent(1, timeout=20)
        await gw.settle()
        [refused, accepted] = tg.calls_of("sendMessage")
        items = await gw.outbox.listing()
    assert accepted.at - refused.at >= 2.0  # the dispatcher waited as Telegram asked
    assert "Asia/Tokyo" in reply.plain
    assert [i.status for i in items] == ["sent"]
    assert len(tg.sent) == 1


async def test_a_5000_character_answer_arrives_as_two_valid_html_messages(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    long_answer = "\n\n".join(  # no sentence twice: a loop would be said once (bot.agent)
        " ".join(f"The **meeting** {p}.{n} is at 9 & the <agenda> follows." for n in range(20))
        for p in range(5)
    )
    assert 4500 < len(long_answer) < 5500
    async with FakeLLMServer() as llm:
        llm.script(Reply.text(long_answer))
        provider = OpenAIProvider(base_url=llm.openai_base_url, model="m", api_key="k")
        async with gateway(tg, tmp_path, provider=provider) as gw:
            tg.private(tg.user(42), "tell me everything")
            await tg.wait_sent(2)
            await gw.settle()
    assert len(tg.sent) == 2
    for sent in tg.sent:
        assert sent.parse_mode == "HTML"
        check_html(sent.text)
        assert len(sent.text) <= 4096
    assert "&lt;agenda&gt;" in tg.sent[0].text and "<b>meeting</b>" in tg.sent[1].text


async def test_a_reminder_reaches_the_chat_with_the_advisory_for_the_agent(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    # 12:00 UTC is 04:00 in Los Angeles: outside the default 08:00–23:00 window.
    start = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
    clock = SettableClock(start)
    date = int(start.timestamp())
    alice = tg.user(42, "alice")
    async with FakeLLMServer() as llm:
        llm.script(
            Reply.text("Your zone is set."),
            Reply.tool_call("remind", '{"text": "stretch", "when": "in 1 minute"}'),
            Reply.text("I'll remind you in a minute."),
            Reply.text("Time to stretch!"),
        )
        provider = OpenAIProvider(base_url=llm.openai_base_url, model="m", api_key="k")
        async with gateway(tg, tmp_path, provider=provider, clock=clock) as gw:
            tg.private(alice, "/tz America/Los_Angeles", date=date)
            await tg.wait_sent(1)
            await gw.settle()
            tg.private(alice, "remind me in 1 minute to stretch", date=date + 1)
            await tg.wait_sent(2)
            await gw.settle()
            clock.advance(timedelta(minutes=2))
            await gw.settle()
            reminder = (await tg.wait_sent(3))[2]
        proactive = llm.completions[-1].json["messages"][-1]["content"]
    assert (reminder.chat_id, reminder.plain) == (42, "Time to stretch!")
    assert "Advisory:" in proactive and "stretch" in proactive


async def test_a_refused_user_stores_nothing_but_gets_the_refusal(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with gateway(tg, tmp_path, allowed_users=["@alice"]) as gw:
        before = _journal(await gw.wrapper.export_state())
        tg.private(tg.user(666, "mallory"), "what time is it in Tokyo")
        [refusal] = await tg.wait_sent(1)
        tg.private(tg.user(42, "alice"), "what time is it in Tokyo")
        await tg.wait_sent(2)
        await gw.settle()
        mallory_state = json.dumps(await gw.wrapper.export_state(), default=str)
        items = await gw.outbox.listing()
    assert (refusal.chat_id, refusal.text) == (666, REFUSED)
    # Neither her identity nor her chat (a bare "666" could be a timestamp's microseconds).
    assert "telegram:666" not in mallory_state and "dm:666" not in mallory_state
    assert before != mallory_state
    assert [item.thread_id for item in items] == ["dm:42"]
