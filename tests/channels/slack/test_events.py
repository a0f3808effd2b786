"""Which events are a person's message, and the ids they get: table tests over `read_post`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from channels.slack.events import read_post, received_at, route_for_thread

TS = "1767225600.000200"  # 2026-01-01 00:00:00.000200 UTC


def body(**event: Any) -> dict[str, Any]:
    base = {"type": "message", "channel": "D1", "channel_type": "im", "user": "U1", "ts": TS}
    return {"team_id": "T1", "event": {**base, **event}}


@pytest.mark.parametrize(
    ("payload", "thread_id", "route"),
    [
        (body(), "dm:T1:D1", {"channel": "D1"}),
        (body(thread_ts="1767225500.000100"), "dm:T1:D1", {"channel": "D1"}),
        (
            body(type="app_mention", channel="C1", channel_type=None),
            f"T1:C1:{TS}",
            {"channel": "C1", "thread_ts": TS},
        ),
        (
            body(
                type="app_mention", channel="C1", channel_type=None, thread_ts="1767225500.000100"
            ),
            "T1:C1:1767225500.000100",
            {"channel": "C1", "thread_ts": "1767225500.000100"},
        ),
        (body(subtype="file_share"), "dm:T1:D1", {"channel": "D1"}),
        (body(type="app_mention", channel="D1", channel_type=None), "dm:T1:D1", {"channel": "D1"}),
    ],
)
def test_a_persons_message_gets_its_thread_and_route(
    payload: dict[str, Any], thread_id: str, route: dict[str, str]
) -> None:
    post = read_post(payload, bot_user_id="UBOT")
    assert post is not None
    assert post.thread_id == thread_id
    assert post.route == route
    assert post.message_id == f"{payload['event']['channel']}:{TS}"
    assert post.received_at == datetime(2026, 1, 1, 0, 0, 0, 200, tzinfo=UTC)


@pytest.mark.parametrize(
    "payload",
    [
        body(channel="C1", channel_type="channel"),  # a plain channel message
        body(subtype="message_changed"),
        body(subtype="message_deleted"),
        body(subtype="bot_message", bot_id="B1"),
        body(bot_id="B1"),
        body(user="UBOT"),
        body(hidden=True),
        body(type="reaction_added"),
        body(user=None),
        body(ts="yesterday"),
        body(ts=None),
        {"event": "not an object"},
        {"type": "url_verification", "challenge": "x"},
    ],
)
def test_what_is_not_a_persons_message_is_none(payload: dict[str, Any]) -> None:
    assert read_post(payload, bot_user_id="UBOT") is None


def test_the_team_falls_back_to_the_event_then_the_bots_own() -> None:
    payload = body()
    del payload["team_id"]
    payload["event"]["team"] = "T9"
    assert read_post(payload, default_team="T0") is not None
    assert read_post(payload, default_team="T0").thread_id == "dm:T9:D1"  # type: ignore[union-attr]
    del payload["event"]["team"]
    assert read_post(payload, default_team="T0").thread_id == "dm:T0:D1"  # type: ignore[union-attr]


def test_the_bots_mention_is_dropped_from_the_text() -> None:
    post = read_post(
        body(type="app_mention", channel="C1", text="<@UBOT> what time is it"), bot_user_id="UBOT"
    )
    assert post is not None
    assert post.text == "what time is it"


@pytest.mark.parametrize(
    ("ts", "expected"),
    [
        ("1767225600.000200", datetime(2026, 1, 1, 0, 0, 0, 200, tzinfo=UTC)),
        ("1767225600", datetime(2026, 1, 1, tzinfo=UTC)),
        ("1767225600.5", datetime(2026, 1, 1, 0, 0, 0, 500000, tzinfo=UTC)),
    ],
)
def test_ts_is_an_aware_utc_instant(ts: str, expected: datetime) -> None:
    assert received_at(ts) == expected


@pytest.mark.parametrize("ts", ["", "abc", "12.3.4", "-5.1"])
def test_a_malformed_ts_is_refused(ts: str) -> None:
    with pytest.raises(ValueError, match="Slack ts"):
        received_at(ts)


@pytest.mark.parametrize(
    ("thread_id", "route"),
    [
        ("dm:T1:D1", {"channel": "D1"}),
        ("T1:C1:1767225600.000200", {"channel": "C1", "thread_ts": "1767225600.000200"}),
        ("dm:T1", {}),
        ("something-else", {}),
    ],
)
def test_a_thread_id_implies_a_route(thread_id: str, route: dict[str, str]) -> None:
    assert route_for_thread(thread_id) == route
