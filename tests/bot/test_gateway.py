"""The gateway between adapters and the agent: intake, retries, routes, the dispatcher, /healthz.

The channel here is a recording stand-in for an adapter (the real adapters are
tested against their platforms' libraries in tests/channels); everything
behind it is real: the store, the rules agent, the outbox and the dispatcher.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from channels.base import Channel, ChannelError, HttpRoute, Inbound, Outgoing, Sink, StateStore
from clockcore import MessageRef
from tests.support import staged

NOW = datetime(2026, 3, 7, 15, tzinfo=UTC)


class RecordingChannel(Channel):
    """Keeps what the gateway sends; can be told to fail the next sends."""

    name = "test"

    def __init__(self) -> None:
        self.sent: list[Outgoing] = []
        self.failures: list[ChannelError] = []
        self.typing_routes: list[Mapping[str, str]] = []
        self.sink: Sink | None = None
        self.state: StateStore | None = None

    async def start(self, sink: Sink, state: StateStore, *, intake: bool = True) -> None:
        self.sink, self.state = sink, state

    async def send(self, message: Outgoing) -> None:
        if self.failures:
            raise self.failures.pop(0)
        self.sent.append(message)

    async def stop(self) -> None:
        self.sink = None

    async def typing(self, route: Mapping[str, str]) -> None:
        self.typing_routes.append(route)

    def http_routes(self) -> list[HttpRoute]:
        return []


def inbound(text: str, message_id: str = "m1", **changes: object) -> Inbound:
    fields: dict[str, object] = {
        "channel": "test",
        "thread_id": "dm:7",
        "user_id": "7",
        "text": text,
        "message_id": message_id,
        "received_at": datetime.now(UTC),
        "route": {"chat": "7"},
    }
    fields.update(changes)
    return Inbound(**fields)  # type: ignore[arg-type]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path, http_port=0)


@pytest.fixture
async def channel() -> RecordingChannel:
    return RecordingChannel()


@pytest.fixture
async def gateway(settings: Settings, channel: RecordingChannel) -> AsyncIterator[Gateway]:
    async with Gateway(settings, channels=[channel], poll_interval=0.05) as gw:
        yield gw


async def test_a_message_is_answered_once_through_its_route(
    gateway: Gateway, channel: RecordingChannel
) -> None:
    await gateway.accept(inbound("what time is it in Tokyo"))
    await gateway.accept(inbound("what time is it in Tokyo"))  # redelivered
    await gateway.settle()
    assert len(channel.sent) == 1
    reply = channel.sent[0]
    assert reply.kind == "reply"
    assert reply.route == {"chat": "7"}
    assert reply.thread_id == "dm:7"
    assert reply.user_id == "7"
    assert "Tokyo" in reply.text
    assert channel.typing_routes[0] == {"chat": "7"}
    assert await gateway.wrapper.waiting.count() == 0  # answered: off the list
    assert reply.key == "test:m1#reply"  # keyed by the message, so a repeat is recognisable
    [item] = await gateway.outbox.listing()
    assert item.status == "sent"


async def test_a_message_not_addressed_to_the_bot_is_stamped_not_answered(
    gateway: Gateway, channel: RecordingChannel
) -> None:
    await gateway.accept(inbound("clock it: lunch with the team", respond=False))
    await gateway.settle()
    assert channel.sent == []
    envelope = await gateway.wrapper.on_user_message(
        channel="test", thread_id="dm:7", user_id="7", text="hello", message_id="m2"
    )
    assert envelope.elapsed_since_last_interaction is not None  # the first one counted
    assert [a.label for a in envelope.open_actions] == ["lunch with the team"]


async def test_a_turn_left_by_a_dead_worker_is_answered_once_after_restart(
    settings: Settings,
) -> None:
    first = RecordingChannel()
    async with Gateway(settings, channels=[first]) as gw:
        # What a worker that crashed right after journaling leaves behind: a claim
        # held by a worker that never beats again.
        ref = MessageRef(
            channel="test", thread_id="dm:7", user_id="7", message_id="m1",
            text="what's coming up", received_at=datetime.now(UTC), route={"chat": "7"},
        )  # fmt: skip
        await gw.wrapper.receive(
            ref, claim_for="w-dead", lease_until=datetime.now(UTC) + timedelta(hours=1)
        )
    second = RecordingChannel()
    async with Gateway(settings, channels=[second], retry_interval=0.05) as gw:
        for _ in range(200):
            await gw.settle()
            if second.sent:
                break
            await _pause()
        await gw.accept(inbound("what's coming up"))  # the platform delivers it again
        await gw.settle()
    assert [m.route for m in second.sent] == [{"chat": "7"}]
    assert first.sent == []


async def test_a_rate_limited_send_waits_and_is_not_lost(
    gateway: Gateway, channel: RecordingChannel
) -> None:
    channel.failures.append(ChannelError("slow down", retry_after=0.2))
    await gateway.accept(inbound("what time is it in Tokyo"))
    for _ in range(200):
        await gateway.settle()
        if channel.sent:
            break
        await _pause()
    [item] = await gateway.outbox.listing()
    assert item.status == "sent"
    assert item.attempts == 2
    assert len(channel.sent) == 1


async def test_a_permanent_failure_is_recorded_not_retried(
    gateway: Gateway, channel: RecordingChannel
) -> None:
    channel.failures.append(ChannelError("the bot was blocked", permanent=True))
    await gateway.accept(inbound("what time is it in Tokyo"))
    await gateway.settle()
    [item] = await gateway.outbox.listing()
    assert item.status == "failed"
    assert item.last_error == "the bot was blocked"
    assert channel.sent == []


async def test_an_oversized_message_gets_a_clear_reply_and_stores_nothing(
    gateway: Gateway, channel: RecordingChannel
) -> None:
    await gateway.accept(inbound("x" * 100_001))
    await gateway.settle()
    [reply] = channel.sent
    assert "too long" in reply.text
    assert "100,001" in reply.text
    assert reply.route == {"chat": "7"}
    state = await gateway.wrapper.export_state()
    threads = state["threads"]
    assert isinstance(threads, dict)
    assert threads["agent:main:test:dm:7"]["last_user_message_iso_by_user"] == {}  # only our reply


async def test_the_platform_zone_is_the_default_until_the_person_sets_one(
    gateway: Gateway,
) -> None:
    await gateway.accept(inbound("hello", user_zone="Asia/Tokyo", respond=False))
    assert await gateway.wrapper.people.user_timezone("test:7") == "Asia/Tokyo"
    await gateway.accept(inbound("clock: home tz Europe/Berlin", "m2", respond=False))
    await gateway.accept(inbound("hello again", "m3", user_zone="Asia/Tokyo", respond=False))
    assert await gateway.wrapper.people.user_timezone("test:7") == "Europe/Berlin"
    await gateway.accept(inbound("hi", "m4", user_zone="Not/AZone", user_id="8", respond=False))
    assert (
        await gateway.wrapper.people.user_timezone("test:8") is None
    )  # an unknown zone is ignored


async def test_a_hint_reaches_the_envelope_as_a_notice(gateway: Gateway) -> None:
    hint = "Their mail's Date header carries UTC+02:00 (a hint, not their zone)."
    ref = MessageRef(
        channel="test", thread_id="dm:7", user_id="7", message_id="h1", text="hi",
        received_at=datetime.now(UTC), hint=hint,
    )  # fmt: skip
    envelope = await gateway.wrapper.receive(ref)
    assert hint in envelope.notices
    assert hint in envelope.render()
    assert await gateway.wrapper.people.user_timezone("test:7") is None


async def test_a_job_for_a_channel_not_running_here_waits(
    gateway: Gateway, channel: RecordingChannel
) -> None:
    now = datetime.now(UTC)
    await staged.queued(
        gateway.outbox, kind="reply", channel="elsewhere", thread_id="dm:1", thread_key="agent:main:elsewhere:dm:1",
        user_key="elsewhere:1", text="hi", due_at=now, now=now,
    )  # fmt: skip
    await gateway.settle()
    [item] = await gateway.outbox.listing()
    assert item.status == "pending"
    assert item.last_error == "the elsewhere channel is not running here"


async def test_adapters_keep_small_values_across_restarts(settings: Settings) -> None:
    async with Gateway(settings, channels=[RecordingChannel()]) as gw:
        await gw.wrapper.channel_state.put("test:uid", "41")
        await gw.wrapper.channel_state.put("test:uid", "42")
    channel = RecordingChannel()
    async with Gateway(settings, channels=[channel]):
        assert channel.state is not None
        assert await channel.state.get("test:uid") == "42"
        assert await channel.state.get("test:other") is None


async def test_healthz_reports_the_store_and_the_channels(
    gateway: Gateway,
) -> None:
    assert gateway.http_port
    url = f"http://127.0.0.1:{gateway.http_port}/healthz"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        body = json.loads(await response.text())
    assert body == {"status": "ok", "channels": ["test"], "problems": {}}


async def _pause() -> None:
    import asyncio

    await asyncio.sleep(0.02)


async def test_turns_in_one_thread_run_one_at_a_time_in_arrival_order(
    settings: Settings, channel: RecordingChannel
) -> None:
    from bot.llm import OpenAIProvider
    from tests.support.fake_llm import FakeLLMServer, Reply

    async with FakeLLMServer() as server:
        server.script(Reply.slow(0.5, Reply.text("first")), "second")
        provider = OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
        )
        async with Gateway(settings, channels=[channel], provider=provider) as gw:
            await gw.accept(inbound("one", "m1"))
            await gw.accept(inbound("two", "m2"))
            await gw.settle()
        second_request = server.completions[1].json["messages"]
    assert [m.text for m in channel.sent] == ["first", "second"]
    # The second turn was asked only after the first was stored: it sees it.
    assert [m["content"] for m in second_request if m["role"] == "assistant"] == ["first"]
