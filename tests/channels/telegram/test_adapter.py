"""The adapter against the fake Bot API server, with a collecting sink (no gateway)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import pytest
from telegram import Bot
from telegram.error import Conflict

from bot.app.redact import redact_http_logs
from channels.base import ChannelError, InMemoryStateStore, Outgoing
from channels.telegram import TelegramChannel
from channels.telegram.messages import REFUSED, START, TEXT_ONLY
from tests.channels.telegram.conftest import Collected
from tests.support.fake_telegram import FakeTelegram

Start = Callable[..., Coroutine[Any, Any, TelegramChannel]]


@pytest.fixture
async def start(tg: FakeTelegram, sink: Collected) -> AsyncIterator[Start]:
    """Start a channel on the fake server (stopped at the end); keyword arguments pass through."""
    running: list[TelegramChannel] = []

    async def _start(state: InMemoryStateStore | None = None, **options: Any) -> TelegramChannel:
        channel = TelegramChannel(tg.token, api_url=tg.api_url, **options)
        await channel.start(sink, state or InMemoryStateStore())
        running.append(channel)
        return channel

    yield _start
    for channel in running:
        await channel.stop()


def _out(
    text: str, *, thread: str = "dm:42", route: dict[str, str] | None = None, key: str = "k"
) -> Outgoing:
    route = {"chat_id": "42"} if route is None else route
    return Outgoing(kind="reply", thread_id=thread, user_id="42", text=text, route=route, key=key)


async def test_polling_confirms_an_update_only_after_the_sink_has_it(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    sink.failures = 1  # the store is down for the first attempt
    await start()
    update = tg.private(tg.user(42, "alice"), "hello")
    [inbound] = await sink.wait(1, timeout=15)
    assert (inbound.thread_id, inbound.text, inbound.message_id) == (
        "dm:42",
        "hello",
        f"42:{update['message']['message_id']}",
    )
    polls = tg.calls_of("getUpdates")
    # The update was fetched at least twice: the failed attempt did not confirm it.
    assert (
        sum(1 for call in polls if int(call.params.get("offset") or 0) <= update["update_id"]) >= 2
    )
    await tg.wait_calls("getUpdates", len(polls) + 1)
    assert tg.updates == []  # confirmed by the next poll, after the sink returned


async def test_start_registers_commands_and_polling_removes_a_stale_webhook(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    tg.webhook = {"url": "https://old.example/hook"}
    redact_http_logs()  # as `clockbot run` does first: this raw Bot's URLs hold the token
    async with Bot(tg.token, base_url=f"{tg.api_url}/bot") as bot:
        with pytest.raises(Conflict):  # Telegram refuses getUpdates while a webhook is set
            await bot.get_updates(timeout=0)
    await start()
    assert tg.calls_of("deleteWebhook")  # and polling works below, so it is gone
    assert [c["command"] for c in tg.commands] == ["start", "help", "tz", "upcoming", "link"]
    tg.private(tg.user(42), "hi")
    await sink.wait(1)


async def test_a_bad_token_fails_start_without_naming_it(tg: FakeTelegram, sink: Collected) -> None:
    channel = TelegramChannel("999:wrong-token", api_url=tg.api_url)
    with pytest.raises(ChannelError) as caught:
        await channel.start(sink, InMemoryStateStore())
    assert "999:wrong-token" not in str(caught.value)
    assert caught.value.permanent
    await channel.stop()


async def test_the_token_never_reaches_the_logs(
    tg: FakeTelegram, sink: Collected, start: Start, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    channel = await start()
    tg.private(tg.user(42), "hi")
    await sink.wait(1)
    tg.fail_next("sendMessage", 500, description="Internal Server Error")
    with pytest.raises(ChannelError) as caught:
        await channel.send(_out("hello"))
    assert tg.token not in str(caught.value)
    assert "httpx" in caplog.text or "getUpdates" in caplog.text  # something was logged
    assert tg.token not in caplog.text


async def test_start_and_help_answer_directly_and_still_count(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    await start()
    tg.private(tg.user(42), "/start")
    [inbound] = await sink.wait(1)
    assert (inbound.text, inbound.respond) == ("/start", False)
    [sent] = await tg.wait_sent(1)
    assert sent.text == START and sent.chat_id == 42


async def test_a_redelivered_start_after_a_restart_is_not_answered_twice(
    tg: FakeTelegram, sink: Collected
) -> None:
    state = InMemoryStateStore()
    tg.freeze_offsets = True  # the confirming getUpdates never arrives: a crash
    first = TelegramChannel(tg.token, api_url=tg.api_url)
    await first.start(sink, state)
    tg.private(tg.user(42), "/start")
    await sink.wait(1)
    await tg.wait_sent(1)
    await first.stop()
    tg.freeze_offsets = False
    second = TelegramChannel(tg.token, api_url=tg.api_url)
    await second.start(sink, state)
    try:
        await sink.wait(2)  # delivered again and handed on again (the journal dedupes it)
        await tg.wait_calls("getUpdates", len(tg.calls_of("getUpdates")) + 1)
        assert len(tg.sent) == 1
    finally:
        await second.stop()


async def test_a_photo_counts_and_gets_a_text_only_reply(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    await start()
    tg.photo(42, tg.user(42))
    [inbound] = await sink.wait(1)
    assert (inbound.text, inbound.respond) == ("", False)
    [sent] = await tg.wait_sent(1)
    assert sent.text == TEXT_ONLY


async def test_a_refused_user_gets_only_the_refusal(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    await start(allowed_users=["@alice", "7"])
    mallory = tg.user(666, "mallory")
    tg.private(mallory, "hello")
    tg.group(-1001, mallory, "chatting in the group")  # not addressed: not even a refusal
    tg.private(tg.user(7), "let in by id")
    tg.private(tg.user(8, "Alice"), "let in by name")
    items = await sink.wait(2)
    assert [i.user_id for i in items] == ["7", "8"]
    [refusal] = await tg.wait_sent(1)
    assert (refusal.chat_id, refusal.text) == (666, REFUSED)
    await asyncio.sleep(0.2)
    assert len(sink.items) == 2 and len(tg.sent) == 1


async def test_send_renders_html_and_answers_in_the_topic(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    channel = await start()
    update = tg.group(-1001, tg.user(42), "@clockbot_bot hi", topic=7)
    [inbound] = await sink.wait(1)
    await channel.send(
        _out("It is **noon** & <fine>", thread=inbound.thread_id, route=dict(inbound.route))
    )
    [sent] = tg.sent
    assert (sent.chat_id, sent.message_thread_id, sent.parse_mode) == (-1001, 7, "HTML")
    assert sent.text == "It is <b>noon</b> &amp; &lt;fine&gt;"
    assert sent.reply_to_message_id == update["message"]["message_id"]


async def test_send_without_a_route_uses_the_thread_id(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    channel = await start()
    tg.group(-1001, tg.user(42), "@clockbot_bot hi", topic=7)
    await sink.wait(1)
    await channel.send(_out("later", thread="group:-1001:topic:7", route={}))
    assert (tg.sent[-1].chat_id, tg.sent[-1].message_thread_id) == (-1001, 7)
    with pytest.raises(ChannelError) as caught:
        await channel.send(_out("where?", thread="nonsense", route={}))
    assert caught.value.permanent


async def test_typing_sends_the_chat_action(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    channel = await start()
    tg.group(-1001, tg.user(42), "@clockbot_bot hi", topic=7)
    [inbound] = await sink.wait(1)
    await channel.typing(inbound.route)
    [call] = tg.calls_of("sendChatAction")
    assert call.params["action"] == "typing"
    assert (call.params["chat_id"], call.params["message_thread_id"]) == ("-1001", "7")


@pytest.mark.parametrize(
    ("status", "description", "retry_after", "permanent"),
    [
        (429, None, 2.0, False),
        (403, "Forbidden: bot was blocked by the user", None, True),
        (400, "Bad Request: chat not found", None, True),
        (502, "Bad Gateway", None, False),
    ],
)
async def test_send_failures_become_channel_errors(
    tg: FakeTelegram,
    sink: Collected,
    start: Start,
    status: int,
    description: str | None,
    retry_after: float | None,
    permanent: bool,
) -> None:
    channel = await start()
    tg.private(tg.user(42), "hi")
    await sink.wait(1)
    tg.fail_next(
        "sendMessage", status, retry_after=2 if status == 429 else None, description=description
    )
    with pytest.raises(ChannelError) as caught:
        await channel.send(_out("hello"))
    assert (caught.value.retry_after, caught.value.permanent) == (retry_after, permanent)
    await channel.send(_out("hello again"))  # the next attempt goes through
    assert [s.text for s in tg.sent] == ["hello again"]


async def test_a_retry_after_a_failed_part_does_not_repeat_sent_parts(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    channel = await start()
    tg.private(tg.user(42), "hi")
    await sink.wait(1)
    message = _out("\n\n".join(f"Paragraph {n}. " + "x " * 1500 for n in range(3)), key="o-9")
    tg.fail_next("sendMessage", 429, retry_after=1, after=1)  # the second part is refused
    with pytest.raises(ChannelError):
        await channel.send(message)
    assert len(tg.sent) == 1
    await channel.send(message)  # the dispatcher's retry sends what is missing
    assert [s.plain.split(".")[0] for s in tg.sent] == ["Paragraph 0", "Paragraph 1", "Paragraph 2"]


async def test_an_unparseable_html_refusal_falls_back_to_plain_text(
    tg: FakeTelegram, sink: Collected, start: Start
) -> None:
    channel = await start()
    tg.private(tg.user(42), "hi")
    await sink.wait(1)
    tg.fail_next("sendMessage", 400, description="Bad Request: can't parse entities: test")
    await channel.send(_out("**bold** & more"))
    [sent] = tg.sent
    assert (sent.text, sent.parse_mode) == ("bold & more", None)
