"""The adapter alone, with a recording sink: ack order, zone cache, access, send errors, start-up."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from datetime import UTC, datetime, timedelta

import pytest
from aiohttp import ClientSession, web
from aiohttp.test_utils import TestServer

from channels.base import ChannelError, Inbound, InMemoryStateStore, Outgoing
from channels.slack import REFUSED_DM, SlackChannel
from clockcore import SettableClock
from tests.channels.slack.conftest import Collected, socket_channel
from tests.support.fake_slack import (
    FakeSlack,
    app_mention_event,
    dm_event,
    event_body,
    signed_headers,
)


def outgoing(text: str, *, key: str = "outbox-1", route: dict[str, str] | None = None) -> Outgoing:
    return Outgoing(
        kind="reply",
        thread_id="dm:T0CLOCK:D1",
        user_id="U1",
        text=text,
        route={"channel": "D1"} if route is None else route,
        key=key,
    )


async def test_an_event_is_acked_only_after_the_sink_returns(
    slack: FakeSlack, state: InMemoryStateStore
) -> None:
    entered, release = asyncio.Event(), asyncio.Event()
    seen: list[Inbound] = []

    async def slow_sink(inbound: Inbound) -> None:
        entered.set()
        await release.wait()
        seen.append(inbound)

    channel = socket_channel(slack)
    await channel.start(slow_sink, state)
    try:
        envelope = await slack.push_event(dm_event("hello"))
        await asyncio.wait_for(entered.wait(), 10)
        await asyncio.sleep(0.3)  # room for an early ack to arrive, if there were one
        assert slack.acks == []
        release.set()
        await slack.wait_acked(envelope)
        assert len(seen) == 1
    finally:
        await channel.stop()


async def test_a_failing_sink_leaves_the_event_unacked(
    slack: FakeSlack, state: InMemoryStateStore
) -> None:
    calls = 0

    async def broken_sink(inbound: Inbound) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("store down")

    channel = socket_channel(slack)
    await channel.start(broken_sink, state)
    try:
        await slack.push_event(dm_event("hello"))
        for _ in range(100):
            if calls:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        assert calls == 1
        assert slack.acks == []  # Slack will deliver it again
    finally:
        await channel.stop()


async def test_the_zone_is_asked_once_a_day_and_follows_travel(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    clock = SettableClock(datetime(2026, 3, 1, 12, tzinfo=UTC))
    channel = socket_channel(slack, clock=clock)
    await channel.start(collected, state)
    try:
        for text in ("one", "two"):
            await slack.wait_acked(await slack.push_event(dm_event(text, user="U1")))
        assert [i.user_zone for i in collected.inbound] == ["Asia/Tokyo", "Asia/Tokyo"]
        assert len(slack.calls_to("users.info")) == 1

        slack.zones["U1"] = "America/New_York"  # they flew
        clock.advance(hours=23)
        await slack.wait_acked(await slack.push_event(dm_event("three", user="U1")))
        clock.advance(hours=2)
        await slack.wait_acked(await slack.push_event(dm_event("four", user="U1")))
        assert [i.user_zone for i in collected.inbound[2:]] == ["Asia/Tokyo", "America/New_York"]
        assert len(slack.calls_to("users.info")) == 2
    finally:
        await channel.stop()


async def test_the_profile_name_is_the_sender_name(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    slack.names["U1"] = "Ana Lima"
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        await slack.wait_acked(await slack.push_event(dm_event("hi", user="U1")))
        await slack.wait_acked(await slack.push_event(dm_event("hola", user="U2")))
        assert [i.ref.sender_name for i in collected.inbound] == ["Ana Lima", None]
    finally:
        await channel.stop()


async def test_the_profile_locale_is_the_language_hint(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    slack.locales["U1"] = "es-ES"
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        await slack.wait_acked(await slack.push_event(dm_event("mañana a las 9", user="U1")))
        await slack.wait_acked(await slack.push_event(dm_event("hola", user="U2")))
        assert [i.ref.language for i in collected.inbound] == ["es", None]
        assert all(str(c.params.get("include_locale")).lower() in ("1", "true")
                   for c in slack.calls_to("users.info"))  # fmt: skip
    finally:
        await channel.stop()


async def test_a_failed_users_info_still_hands_the_message_over(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    slack.fail_next("users.info", status=200, retry_after=None, error="user_not_found")
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        await slack.wait_acked(await slack.push_event(dm_event("hello", user="U1")))
        assert [(i.text, i.user_zone) for i in collected.inbound] == [("hello", None)]
    finally:
        await channel.stop()


async def test_people_and_channels_outside_the_allow_lists_reach_nothing(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    channel = socket_channel(slack, allowed_users=["U1"], allowed_channels=["C1"])
    await channel.start(collected, state)
    try:
        events = [
            dm_event("hi", user="U1"),  # allowed
            app_mention_event("hi", user="U1", channel="C1"),  # allowed
            app_mention_event("hi", user="U1", channel="C2"),  # channel not allowed
            dm_event("hi", user="U3", channel="D3"),  # person not allowed: one note
            dm_event("hi again", user="U3", channel="D3"),  # no second note
            app_mention_event("hi", user="U3", channel="C1"),  # person not allowed
        ]
        for event in events:
            await slack.wait_acked(await slack.push_event(event))
        posts = await slack.wait_posts(1)
        await asyncio.sleep(0.2)
        assert [(i.user_id, i.route["channel"]) for i in collected.inbound] == [
            ("U1", "D1"),
            ("U1", "C1"),
        ]
        assert [(p["channel"], p["text"]) for p in slack.posts] == [("D3", REFUSED_DM)]
        assert posts[0]["channel"] == "D3"
    finally:
        await channel.stop()


async def test_an_unreadable_event_is_acked_and_skipped(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        weird = {"type": "message", "channel_type": "im", "channel": ["D1"], "ts": 5}
        await slack.wait_acked(await slack.push_event(weird))
        await slack.wait_acked(await slack.push_event(dm_event("still here")))
        assert [i.text for i in collected.inbound] == ["still here"]
    finally:
        await channel.stop()


async def test_send_posts_mrkdwn_parts_into_the_route(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        await channel.send(outgoing("**Done** <3", route={"channel": "C1", "thread_ts": "1.2"}))
        long = "\n\n".join(f"Paragraph {n}. " + "text " * 300 for n in range(8))
        await channel.send(outgoing(long, key="outbox-2"))
        first, *rest = slack.posts
        assert (first["channel"], first["thread_ts"], first["text"]) == (
            "C1",
            "1.2",
            "*Done* &lt;3",
        )
        assert len(rest) > 1
        assert all(p["channel"] == "D1" and len(p["text"]) <= 4000 for p in rest)
    finally:
        await channel.stop()


async def test_a_retried_multi_part_send_skips_the_parts_already_posted(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        long = "\n\n".join(f"Paragraph {n}. " + "text " * 300 for n in range(8))
        slack.fail_next("chat.postMessage", status=200, error="internal_error", after=1)
        with pytest.raises(ChannelError):
            await channel.send(outgoing(long, key="outbox-9"))
        assert len(slack.posts) == 1  # the first part went out, the second failed

        await channel.send(outgoing(long, key="outbox-9"))  # the dispatcher's retry
        texts = [post["text"] for post in slack.posts]
        assert len(texts) > 2
        assert len(texts) == len(set(texts))  # no part posted twice
        joined = "\n\n".join(texts)
        assert [joined.count(f"Paragraph {n}.") for n in range(8)] == [1] * 8
    finally:
        await channel.stop()


LONG = "\n\n".join(f"Paragraph {n}. " + "text " * 300 for n in range(8))


def again(message: Outgoing, *, attempt: int = 2) -> Outgoing:
    """`message` as the dispatcher hands over a job claimed again (after a worker died)."""
    return dataclasses.replace(
        message, attempt=attempt, queued_at=datetime.now(UTC) - timedelta(seconds=5)
    )


@pytest.mark.parametrize("route", [{"channel": "D1"}, {"channel": "C1", "thread_ts": "1.2"}])
async def test_a_job_claimed_again_after_a_worker_died_is_not_posted_twice(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore, route: dict[str, str]
) -> None:
    """The first worker posted every part and died before marking the job sent: a new
    adapter (another worker, no memory of it) finds the parts by their metadata."""
    first, second = socket_channel(slack), socket_channel(slack)
    await first.start(collected, state)
    await second.start(collected, state)
    try:
        message = outgoing(LONG, key="outbox-7", route=route)
        posted = await first.send(message)
        assert len(posted) > 2
        assert [p["metadata"]["event_payload"] for p in slack.posts] == [
            {"key": "outbox-7", "part": n} for n in range(len(posted))
        ]
        assert await second.send(again(message)) == posted  # found, not posted
        assert len(slack.posts) == len(posted)
        method = "conversations.replies" if "thread_ts" in route else "conversations.history"
        assert len(slack.calls_to(method)) == 1
    finally:
        await first.stop()
        await second.stop()


async def test_a_job_claimed_again_posts_only_the_parts_still_missing(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    first, second = socket_channel(slack), socket_channel(slack)
    await first.start(collected, state)
    await second.start(collected, state)
    try:
        message = outgoing(LONG, key="outbox-8")
        slack.fail_next("chat.postMessage", status=200, error="internal_error", after=2)
        with pytest.raises(ChannelError):
            await first.send(message)
        assert len(slack.posts) == 2
        await first.send(outgoing("another job's reply", key="outbox-other"))
        await second.send(again(message))
        texts = [
            p["text"]
            for p in slack.posts
            if p["metadata"]["event_payload"]["key"] != "outbox-other"
        ]
        joined = "\n\n".join(texts)
        assert [joined.count(f"Paragraph {n}.") for n in range(8)] == [1] * 8
    finally:
        await first.stop()
        await second.stop()


async def test_a_first_attempt_posts_without_looking_back(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        await channel.send(outgoing("hi", key="outbox-1"))
        await channel.send(outgoing("hi", key="outbox-1"))  # the same job, attempt 1 each time
        assert len(slack.posts) == 2
        assert not slack.calls_to("conversations.history")
    finally:
        await channel.stop()


async def test_without_the_history_scope_a_job_claimed_again_is_posted_again(
    slack: FakeSlack,
    collected: Collected,
    state: InMemoryStateStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At least once, as before, and the log says which scope would make it exactly once."""
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        message = outgoing("hi", key="outbox-3")
        await channel.send(message)
        slack.unreadable.add("D1")
        await channel.send(again(message))
        assert [p["text"] for p in slack.posts] == ["hi", "hi"]
        assert "history scope" in caplog.text and "missing_scope" in caplog.text
        assert slack.bot_token not in caplog.text
    finally:
        await channel.stop()


async def test_a_rate_limited_look_back_retries_later_instead_of_posting(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        message = outgoing("hi", key="outbox-4")
        await channel.send(message)
        for _ in range(2):  # slack_sdk's handler sleeps through the first 429
            slack.fail_next("conversations.history", status=429, retry_after=7 if _ else 1)
        with pytest.raises(ChannelError) as caught:
            await channel.send(again(message))
        assert caught.value.retry_after == 7
        assert len(slack.posts) == 1
    finally:
        await channel.stop()


@pytest.mark.parametrize(
    ("error", "permanent"),
    [("channel_not_found", True), ("not_in_channel", True), ("internal_error", False)],
)
async def test_slack_errors_become_channel_errors(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore, error: str, permanent: bool
) -> None:
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        slack.fail_next("chat.postMessage", status=200, retry_after=None, error=error)
        with pytest.raises(ChannelError) as caught:
            await channel.send(outgoing("hi"))
        assert caught.value.permanent is permanent
        assert error in str(caught.value)
        assert slack.bot_token not in str(caught.value)
    finally:
        await channel.stop()


async def test_a_second_429_carries_slacks_retry_after(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    channel = socket_channel(slack)
    await channel.start(collected, state)
    try:
        slack.fail_next("chat.postMessage", status=429, retry_after=1)
        slack.fail_next("chat.postMessage", status=429, retry_after=7)
        with pytest.raises(ChannelError) as caught:
            await channel.send(outgoing("hi"))
        assert caught.value.retry_after == 7
        assert not caught.value.permanent
        assert slack.posts == []
    finally:
        await channel.stop()


async def test_a_bad_bot_token_fails_start_without_naming_it(slack: FakeSlack) -> None:
    channel = SlackChannel(
        "xoxb-wrong-secret-value", app_token=slack.app_token, api_url=slack.api_url
    )
    with pytest.raises(ChannelError, match="invalid_auth") as caught:
        await channel.start(Collected(), InMemoryStateStore())
    assert "wrong-secret" not in str(caught.value)


async def test_a_bad_app_token_fails_start(slack: FakeSlack) -> None:
    channel = SlackChannel(slack.bot_token, app_token="xapp-nope", api_url=slack.api_url)
    with pytest.raises(ChannelError, match=r"apps\.connections\.open.*invalid_auth"):
        await channel.start(Collected(), InMemoryStateStore())
    assert slack.connections == 0


async def test_an_unreachable_api_fails_start() -> None:
    channel = SlackChannel("xoxb-t", app_token="xapp-t", api_url="http://127.0.0.1:9/api/")
    with pytest.raises(ChannelError, match="could not reach"):
        await channel.start(Collected(), InMemoryStateStore())


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"mode": "socket"}, "app_token"),
        ({"mode": "http"}, "signing_secret"),
        ({"mode": "http", "signing_secret": "  "}, "signing_secret"),
        ({"mode": "webhook", "app_token": "x"}, "mode"),
        ({"app_token": "x", "api_url": "ftp://x"}, "api_url"),
    ],
)
def test_missing_settings_are_named(options: dict[str, str], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        SlackChannel("xoxb-t", **options)  # type: ignore[arg-type]


def test_http_mode_serves_slack_events_and_socket_mode_nothing() -> None:
    http = SlackChannel("xoxb-t", mode="http", signing_secret="s")
    assert [(r.method, r.path) for r in http.http_routes()] == [("POST", "/slack/events")]
    assert SlackChannel("xoxb-t", app_token="xapp-t").http_routes() == ()


async def test_stale_means_older_than_five_minutes_by_the_injected_clock(
    slack: FakeSlack, collected: Collected, state: InMemoryStateStore
) -> None:
    """The signature check reads the adapter's clock, not the host's."""
    start = datetime(2030, 1, 1, tzinfo=UTC)
    clock = SettableClock(start)
    channel = SlackChannel(
        slack.bot_token, mode="http", signing_secret="s", api_url=slack.api_url, clock=clock
    )
    await channel.start(collected, state)
    app = web.Application()
    for route in channel.http_routes():
        app.router.add_route(route.method, route.path, route.handler)
    raw = json.dumps(event_body(dm_event("hi"))).encode()
    headers = signed_headers(raw, "s", int(start.timestamp()))
    try:
        async with TestServer(app, host="127.0.0.1", port=0) as server, ClientSession() as http:

            async def status_at(offset: timedelta) -> int:
                clock.set(start + offset)
                url = server.make_url("/slack/events")
                async with http.post(url, data=raw, headers=headers) as response:
                    return response.status

            assert await status_at(timedelta(minutes=6)) == 401
            assert await status_at(timedelta(minutes=-6)) == 401
            assert collected.inbound == []
            assert await status_at(timedelta(minutes=4)) == 200
            assert len(collected.inbound) == 1
    finally:
        await channel.stop()
