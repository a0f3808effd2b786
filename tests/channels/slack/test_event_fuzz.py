"""Slack events and button presses, generated: no request fails, and a person's DM is stored once.

Hypothesis builds Events API bodies and ``block_actions`` payloads of Slack's shape with
hostile parts: texts with Slack markup half-closed, lone surrogates and NULs; ``ts`` values
that are not numbers, or are numbers past the year 9999; ids of the wrong type; subtypes,
bot messages and events of other types; button values that are not ours; a ``user`` or
``message`` that is a string instead of an object; and, in some examples, a field dropped or
given the wrong type. Each is signed with the signing secret and POSTed to the real adapter's
``/slack/events`` on a real HTTP server, through slack-bolt (against the fake Web API), whose
sink journals into a SQLite store through `InteractionWrapper.receive`. For every request:

- the answer is never a 5xx: a 5xx makes Slack retry a request that cannot succeed;
- every answer other than 200 comes with a warning saying why;
- a well-formed DM, and a press of one of our buttons, is journaled exactly once, also when
  Slack retries it.

1,000 examples of each in CI (`FUZZ_EXAMPLES` changes it).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from channels.base import storable
from channels.reminder_buttons import read_button
from channels.slack import SlackChannel
from tests.support.fake_slack import BOT_USER, TEAM, FakeSlack, signed_headers
from tests.support.fuzz_store import broken, fuzz_store, served
from wrapper.core import InteractionWrapper
from wrapper.store import tables as t

pytestmark = [
    pytest.mark.slow,  # fuzz: `make test-fast` leaves it out
    # A hang guard, not a speed check: a thousand examples took 130 s beside the kill tests
    # on two loaded cores (the default bound is 120 s), and about half that alone.
    pytest.mark.timeout(600),
]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1000"))
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
SECRET = "fuzz-signing-secret-0123456789abcdef"
_FRESH = itertools.count(1)

_text = st.one_of(
    st.text(max_size=60),
    st.builds("{}{}{}".format, st.text(max_size=20),
              st.sampled_from(["\ud800", "\x00", "<@U1|", "<!here>", "<http://x|y", "&lt;&amp",
                               f"<@{BOT_USER}>", "<#C1|general>", "\r\n"]),
              st.text(max_size=20)),
)  # fmt: skip
_wrong = st.one_of(st.none(), st.integers(), st.floats(), st.lists(st.integers(), max_size=2),
                   st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))  # fmt: skip
_ts = st.one_of(
    st.builds("{}.{:06d}".format, st.integers(1_600_000_000, 1_900_000_000),
              st.integers(0, 999_999)),
    st.sampled_from(["", "abc", "1.2.3", "-5.0", "99999999999999999999.1", "1e9", " 1.0"]),
)  # fmt: skip
_channel = st.one_of(st.sampled_from(["D1", "D2", "C1", "G1"]), _text)
_user = st.one_of(st.sampled_from(["U1", "U2", "U3", BOT_USER]), _text)


@st.composite
def events_body(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["message", "message", "app_mention", "reaction_added", "x"]))
    channel = draw(_channel)
    payload: dict[str, Any] = {"type": kind, "channel": channel, "user": draw(_user),
                               "text": draw(_text), "ts": draw(_ts)}  # fmt: skip
    if draw(st.integers(0, 4)):
        payload["channel_type"] = draw(st.sampled_from(["im", "im", "im", "channel", "mpim", ""]))
    if draw(st.integers(0, 5)) == 0:
        payload["subtype"] = draw(st.sampled_from(["message_changed", "bot_message",
                                                   "file_share", "thread_broadcast", "x"]))  # fmt: skip
    if draw(st.integers(0, 5)) == 0:
        payload["bot_id"] = "B1"
    if draw(st.booleans()):
        payload["thread_ts"] = draw(_ts)
    body: dict[str, Any] = {"type": draw(st.sampled_from(["event_callback"] * 4 + ["app_rate_limited", "x"])),
                            "team_id": draw(st.one_of(st.just(TEAM), _text)),
                            "api_app_id": "A0CLOCK", "event": payload,
                            "event_id": f"Ev{draw(st.integers(0, 10**8))}",
                            "event_time": 1_700_000_000}  # fmt: skip
    if draw(st.integers(0, 4)) == 0:
        body = broken(draw, body, _wrong)
    return body


@st.composite
def press_payload(draw: st.DrawFn) -> dict[str, Any]:
    value = draw(st.one_of(
        st.builds("rem:{}:r{}".format, st.sampled_from(["done", "10m", "1h", "1d", "noop", "x"]),
                  st.integers(0, 10**20)),
        st.builds("rem:done:{}".format, _text),
        _text,
    ))  # fmt: skip
    channel = draw(_channel)
    payload: dict[str, Any] = {
        "type": draw(st.sampled_from(["block_actions"] * 4 + ["view_submission", "x"])),
        "team": {"id": TEAM},
        "user": {"id": draw(_user), "team_id": TEAM},
        "channel": {"id": channel},
        "container": {"type": "message", "channel_id": channel, "message_ts": draw(_ts)},
        "message": {"ts": draw(_ts), "text": draw(_text),
                    "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": draw(_text)}}]},
        "actions": [{"action_id": draw(st.sampled_from(
                         ["rem:done", "rem:1h", "other", "vote:send", "vote:none", "vote:tick"])),
                     "value": value, "type": "button", "action_ts": draw(_ts)}],
    }  # fmt: skip
    if draw(st.booleans()):  # a meeting poll's ticks (`channels.slack.poll`)
        ticked = st.fixed_dictionaries({"value": st.one_of(_text, st.integers(-1, 12).map(str))})
        boxes = {"type": "checkboxes", "selected_options": draw(st.lists(ticked, max_size=4))}
        payload["state"] = {"values": {"vote": {"vote:tick": boxes}}}
    if draw(st.booleans()):
        payload["message"]["thread_ts"] = draw(_ts)
    if draw(st.integers(0, 4)) == 0:
        payload = broken(draw, payload, _wrong)
    return payload


@dataclass
class Endpoint:
    runner: asyncio.Runner
    wrapper: InteractionWrapper
    url: str


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    """The adapter in HTTP mode behind a real HTTP server, journaling into a real store."""
    with fuzz_store(tmp_path_factory, "slack", now=NOW) as (runner, wrapper):
        fake = FakeSlack(zones={"U1": "Asia/Tokyo"})
        runner.run(fake.__aenter__())
        channel = SlackChannel(fake.bot_token, mode="http", signing_secret=SECRET,
                               api_url=fake.api_url)  # fmt: skip

        try:
            with served(runner, wrapper, channel) as port:
                yield Endpoint(runner, wrapper, f"http://127.0.0.1:{port}/slack/events")
        finally:
            runner.run(fake.__aexit__(None, None, None))


async def _post(url: str, raw: bytes, content_type: str, retry: int | None = None) -> int:
    headers = signed_headers(raw, SECRET, int(time.time()))
    headers["Content-Type"] = content_type
    if retry is not None:
        headers |= {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
    async with aiohttp.ClientSession() as session, session.post(url, data=raw,
                                                                headers=headers) as response:  # fmt: skip
        return response.status


def _rows(ep: Endpoint, message_id: str | None = None) -> int:
    def count(conn: Any) -> int:
        query = select(func.count()).select_from(t.journal)
        if message_id is not None:
            query = query.where(t.journal.c.channel == "slack",
                                t.journal.c.message_id == message_id)  # fmt: skip
        return int(conn.execute(query).scalar_one())

    return ep.runner.run(ep.wrapper.database.run(count))


def _deliver_twice(
    ep: Endpoint, caplog: pytest.LogCaptureFixture, raw: bytes, content_type: str
) -> int:
    """POST `raw`, then again as Slack's retry; both answers agree, none is a 5xx."""
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        status = ep.runner.run(_post(ep.url, raw, content_type))
        again = ep.runner.run(_post(ep.url, raw, content_type, retry=1))
    event(f"HTTP {status}")
    assert status < 500 and again < 500, (status, again)
    if status != 200:
        assert any(r.levelno >= logging.WARNING for r in caplog.records), status
    return status


def _is_str(*values: object) -> bool:
    return all(isinstance(value, str) and value.strip() for value in values)


SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@SETTINGS
@given(body=events_body())
def test_any_event_is_acked_or_refused_and_a_dm_is_journaled_once(
    endpoint: Endpoint, caplog: pytest.LogCaptureFixture, body: dict[str, Any]
) -> None:
    payload = body.get("event")
    well_formed = (
        body.get("type") == "event_callback"
        and isinstance(payload, dict)
        and payload.get("type") == "message"
        and payload.get("channel_type") == "im"
        and "subtype" not in payload
        and "bot_id" not in payload
        and _is_str(payload.get("channel"), payload.get("user"), payload.get("ts"))
        and payload.get("user") != BOT_USER
    )
    if well_formed:
        assert isinstance(payload, dict)
        payload["ts"] = f"17{next(_FRESH):08d}.000100"  # a generated ts can repeat
    before = _rows(endpoint)
    status = _deliver_twice(endpoint, caplog, json.dumps(body).encode(), "application/json")
    assert _rows(endpoint) - before <= 1
    if well_formed:
        assert isinstance(payload, dict)
        event("a person's DM")
        assert status == 200
        assert _rows(endpoint, storable(f"{payload['channel']}:{payload['ts']}")) == 1


@SETTINGS
@given(payload=press_payload())
def test_any_press_is_acked_or_refused_and_our_button_is_journaled_once(
    endpoint: Endpoint, caplog: pytest.LogCaptureFixture, payload: dict[str, Any]
) -> None:
    actions, message = payload.get("actions"), payload.get("message")
    ours = (
        payload.get("type") == "block_actions"
        and isinstance(actions, list)
        and actions
        and isinstance(actions[0], dict)
        and str(actions[0].get("action_id", "")).startswith("rem:")
        and (button := read_button(actions[0].get("value"))) is not None
        and button[0] != "noop"
        and isinstance(payload.get("team", {}), dict)  # bolt refuses a team of another type
        and isinstance(payload.get("user"), dict)
        and _is_str(payload["user"].get("id"))
        and isinstance(payload.get("channel"), dict)
        and _is_str(payload["channel"].get("id"))
        and isinstance(message, dict)
        and _is_str(message.get("ts"))
    )
    if ours:
        assert isinstance(message, dict)
        message["ts"] = f"17{next(_FRESH):08d}.000200"
    before = _rows(endpoint)
    raw = urlencode({"payload": json.dumps(payload)}).encode()
    status = _deliver_twice(endpoint, caplog, raw, "application/x-www-form-urlencoded")
    assert _rows(endpoint) - before <= 1
    if ours:
        event("our button")
        assert status == 200
        assert _rows(endpoint) - before == 1
