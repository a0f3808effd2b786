"""Issue 6's acceptance, end to end: the real slack-bolt, the gateway, the rules agent, a fake Slack.

Replies come from the built-in rules agent ("It is <time> in <zone>."), so a test can tell a
Tokyo answer from a UTC one without any LLM.
"""

from __future__ import annotations

import json
import time
from typing import Any

import aiohttp

from bot.app.gateway import Gateway
from tests.channels.slack.conftest import SECRET, Post
from tests.support.fake_slack import (
    FakeSlack,
    app_mention_event,
    dm_event,
    event_body,
    signed_headers,
)

# --- HTTP mode -----------------------------------------------------------------------------------


async def test_a_signed_dm_is_answered_in_the_dm(
    http_gateway: Gateway, post_event: Post, slack: FakeSlack
) -> None:
    status, _ = await post_event(dm_event("what time is it in Tokyo", channel="D7"))
    assert status == 200
    await http_gateway.settle()

    [reply] = await slack.wait_posts(1)
    assert reply["channel"] == "D7"
    assert "thread_ts" not in reply  # a DM is answered in the DM itself
    assert "in Tokyo (Asia/Tokyo)" in reply["text"]


async def test_a_channel_mention_is_answered_in_its_thread(
    http_gateway: Gateway, post_event: Post, slack: FakeSlack
) -> None:
    mention = app_mention_event("what time is it in Tokyo", channel="C9")
    status, _ = await post_event(mention)
    assert status == 200
    await http_gateway.settle()

    [reply] = await slack.wait_posts(1)
    assert reply["channel"] == "C9"
    assert reply["thread_ts"] == mention["ts"]
    assert "Asia/Tokyo" in reply["text"]


async def test_a_mention_inside_a_thread_is_answered_in_that_thread(
    http_gateway: Gateway, post_event: Post, slack: FakeSlack
) -> None:
    mention = app_mention_event("what time is it", channel="C9", thread_ts="1700000000.000100")
    await post_event(mention)
    await http_gateway.settle()

    [reply] = await slack.wait_posts(1)
    assert reply["thread_ts"] == "1700000000.000100"


async def _stored(gw: Gateway) -> tuple[Any, Any]:
    return await gw.wrapper.export_state(), await gw.outbox.listing()


async def test_forged_stale_and_unsigned_requests_get_401_and_change_nothing(
    http_gateway: Gateway, post_event: Post, slack: FakeSlack
) -> None:
    before = await _stored(http_gateway)
    forged = await post_event(dm_event("remind me in 1 minute to stretch"), secret="not-the-secret")
    stale = await post_event(
        dm_event("remind me in 1 minute to stretch"), timestamp=int(time.time()) - 6 * 60
    )
    unsigned = await post_event(dm_event("remind me in 1 minute to stretch"), signed=False)
    # The right signature over other bytes is forged too.
    tampered = await post_event(
        dm_event("what's coming up"),
        headers={"X-Slack-Signature": "v0=" + "0" * 64},
    )
    # A timestamp that is not a number was a 500 with a traceback in the log (issue 35, row 13).
    garbled = [
        await post_event(dm_event("hi"), headers={"X-Slack-Request-Timestamp": stamp})
        for stamp in ("abc", "1e9", "", "١٧٠٠٠٠٠٠٠٠", "9" * 400)
    ]
    await http_gateway.settle()

    assert [forged[0], stale[0], unsigned[0], tampered[0]] == [401, 401, 401, 401]
    assert [status for status, _ in garbled] == [401] * len(garbled)
    assert await _stored(http_gateway) == before
    assert await http_gateway.outbox.listing() == []
    assert slack.posts == []
    assert slack.calls_to("users.info") == []  # refused before the adapter looked at anything


async def test_a_body_that_is_not_slacks_shape_is_refused_without_a_crash(
    http_gateway: Gateway, slack: FakeSlack
) -> None:
    url = f"http://127.0.0.1:{http_gateway.http_port}/slack/events"
    async with aiohttp.ClientSession() as session:
        for raw in (b"not json", b"[]", b"{bad"):
            headers = signed_headers(raw, SECRET, int(time.time()))
            async with session.post(url, data=raw, headers=headers) as response:
                assert response.status == 400
    # and the adapter goes on
    status, _ = await _post_signed(http_gateway, dm_event("what time is it in Tokyo"))
    assert status == 200
    await http_gateway.settle()
    assert len(await slack.wait_posts(1)) == 1


async def _post_signed(gw: Gateway, event: dict[str, Any]) -> tuple[int, str]:
    raw = json.dumps(event_body(event)).encode()
    url = f"http://127.0.0.1:{gw.http_port}/slack/events"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=raw, headers=signed_headers(raw, SECRET, int(time.time()))) as r,
    ):
        return r.status, await r.text()


async def test_a_request_signed_just_inside_five_minutes_is_taken(
    http_gateway: Gateway, post_event: Post, slack: FakeSlack
) -> None:
    status, _ = await post_event(
        dm_event("what time is it in Tokyo"), timestamp=int(time.time()) - 4 * 60
    )
    assert status == 200
    await http_gateway.settle()
    assert len(await slack.wait_posts(1)) == 1


async def test_slacks_url_verification_is_answered_when_signed(
    http_gateway: Gateway, post_event: Post
) -> None:
    challenge = {"type": "url_verification", "challenge": "c-123", "token": "t"}
    status, text = await post_event({}, body=challenge)
    assert status == 200
    assert "c-123" in text
    status, _ = await post_event({}, body=challenge, secret="wrong")
    assert status == 401


async def test_a_retried_event_is_answered_once(
    http_gateway: Gateway, post_event: Post, slack: FakeSlack
) -> None:
    event = dm_event("what time is it in Tokyo")
    body = event_body(event)
    first = await post_event(event, body=body)
    retry = await post_event(
        event, body=body, headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "timeout"}
    )
    await http_gateway.settle()

    assert first[0] == retry[0] == 200
    assert len(slack.posts) == 1
    assert len(await http_gateway.outbox.listing()) == 1


async def test_a_message_and_app_mention_pair_for_one_post_is_answered_once(
    http_gateway: Gateway, post_event: Post, slack: FakeSlack
) -> None:
    mention = app_mention_event("what time is it in Tokyo", channel="C5")
    # Slack also sends the channel's `message` event for the same post (message.channels).
    message = {**mention, "type": "message", "channel_type": "channel"}
    await post_event(message)
    await post_event(mention)
    # And a DM delivered as both `message` (message.im) and `app_mention`.
    dm = dm_event(f"<@{slack.bot_user_id}> what time is it in Tokyo", channel="D5")
    await post_event(dm)
    await post_event({**dm, "type": "app_mention", "channel_type": None})
    await http_gateway.settle()

    posts = await slack.wait_posts(2)
    assert sorted(post["channel"] for post in posts) == ["C5", "D5"]
    assert next(p for p in posts if p["channel"] == "C5")["thread_ts"] == mention["ts"]


async def test_plain_channel_messages_bots_and_edits_are_not_answered(
    http_gateway: Gateway, post_event: Post, slack: FakeSlack
) -> None:
    plain = {**app_mention_event("what time is it"), "type": "message", "channel_type": "channel"}
    plain["text"] = "what time is it"
    own = {**dm_event("It is noon."), "user": slack.bot_user_id, "bot_id": slack.bot_id}
    other_bot = {**dm_event("what time is it"), "bot_id": "B0THER", "subtype": "bot_message"}
    edit = {
        **dm_event("what time is it"),
        "subtype": "message_changed",
        "message": {"text": "what time is it in Tokyo"},
    }
    for event in (plain, own, other_bot, edit):
        status, _ = await post_event(event)
        assert status == 200  # acked, so Slack does not retry them
    await http_gateway.settle()

    assert slack.posts == []
    assert await http_gateway.outbox.listing() == []


# --- Socket Mode ---------------------------------------------------------------------------------


async def test_an_envelope_is_acked_and_answered(socket_gateway: Gateway, slack: FakeSlack) -> None:
    envelope = await slack.push_event(dm_event("what time is it in Tokyo"))
    await slack.wait_acked(envelope)
    await socket_gateway.settle()

    [reply] = await slack.wait_posts(1)
    assert "Asia/Tokyo" in reply["text"]
    assert slack.acks == [envelope]


async def test_a_redelivered_envelope_is_answered_once(
    socket_gateway: Gateway, slack: FakeSlack
) -> None:
    event = dm_event("what time is it in Tokyo")
    first = await slack.push_event(event)
    await slack.wait_acked(first)
    again = await slack.push_event(event)  # Slack's retry: a new envelope, same event
    await slack.wait_acked(again)
    await socket_gateway.settle()

    assert len(slack.posts) == 1


async def test_a_dropped_websocket_reconnects_and_loses_no_event(
    socket_gateway: Gateway, slack: FakeSlack
) -> None:
    before = await slack.push_event(dm_event("what time is it in Tokyo", channel="D1"))
    await slack.wait_acked(before)
    await slack.drop_connection()
    # Sent while no socket is open: Slack keeps it and delivers it on the next connection.
    during = await slack.push_event(dm_event("what time is it in Tokyo", channel="D2"))
    await slack.wait_connections(2)
    await slack.wait_acked(during)
    await socket_gateway.settle()

    posts = await slack.wait_posts(2)
    assert sorted(post["channel"] for post in posts) == ["D1", "D2"]
    assert len(slack.calls_to("apps.connections.open")) == 2  # a fresh URL for the new socket
    assert await socket_gateway.channels["slack"].health() is None


# --- the person's zone ---------------------------------------------------------------------------


async def test_slacks_profile_zone_is_used_until_the_person_sets_their_own(
    socket_gateway: Gateway, slack: FakeSlack
) -> None:
    first = await slack.push_event(dm_event("what time is it", user="U1"))
    await slack.wait_acked(first)
    await socket_gateway.settle()

    [reply] = await slack.wait_posts(1)
    assert reply["text"].endswith("in Tokyo (Asia/Tokyo).")
    assert await socket_gateway.wrapper.people.user_timezone("slack:U1") == "Asia/Tokyo"

    setting = await slack.push_event(dm_event("clock: home tz Europe/Berlin", user="U1"))
    await slack.wait_acked(setting)
    await socket_gateway.settle()
    again = await slack.push_event(dm_event("what time is it", user="U1"))
    await slack.wait_acked(again)
    await socket_gateway.settle()

    posts = await slack.wait_posts(3)
    assert posts[2]["text"].endswith("in Berlin (Europe/Berlin).")
    assert await socket_gateway.wrapper.people.user_timezone("slack:U1") == "Europe/Berlin"


async def test_a_person_without_a_profile_zone_gets_none(
    socket_gateway: Gateway, slack: FakeSlack
) -> None:
    envelope = await slack.push_event(dm_event("what time is it", user="U2"))
    await slack.wait_acked(envelope)
    await socket_gateway.settle()

    assert await socket_gateway.wrapper.people.user_timezone("slack:U2") is None
    [reply] = await slack.wait_posts(1)
    assert "Asia/Tokyo" not in reply["text"]


# --- rate limits ---------------------------------------------------------------------------------


async def test_a_429_with_retry_after_delays_the_reply_and_does_not_drop_it(
    socket_gateway: Gateway, slack: FakeSlack
) -> None:
    slack.fail_next("chat.postMessage", status=429, retry_after=1)
    envelope = await slack.push_event(dm_event("what time is it in Tokyo"))
    await slack.wait_acked(envelope)
    await socket_gateway.settle(timeout=20)

    [reply] = await slack.wait_posts(1)
    assert "Asia/Tokyo" in reply["text"]
    limited, delivered = slack.calls_to("chat.postMessage")
    assert (limited.status, delivered.status) == (429, 200)
    assert delivered.at - limited.at >= 1.0  # Slack's Retry-After was waited out
    [item] = await socket_gateway.outbox.listing()
    assert item.status == "sent"


async def test_two_429s_go_back_to_the_dispatcher_and_still_deliver(
    socket_gateway: Gateway, slack: FakeSlack
) -> None:
    slack.fail_next("chat.postMessage", status=429, retry_after=1)
    slack.fail_next("chat.postMessage", status=429, retry_after=1)
    envelope = await slack.push_event(dm_event("what time is it in Tokyo"))
    await slack.wait_acked(envelope)

    posts = await slack.wait_posts(1, timeout=30)
    await socket_gateway.settle(timeout=20)
    assert len(posts) == 1
    calls = slack.calls_to("chat.postMessage")
    assert [call.status for call in calls] == [429, 429, 200]
    assert calls[2].at - calls[1].at >= 1.0
