"""A meeting poll on Slack: its blocks, and which presses are an answer (`channels.slack.poll`).

Pure functions over Slack's payload shape; the whole path (the real slack-bolt against the
fake Slack, through the gateway) is in tests/bot/test_meeting_time.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from channels.base import Poll
from channels.poll_votes import read_vote
from channels.slack.poll import answer_note, poll_blocks, read_answer

TEAM = "T0CLOCK"
POLL = Poll("When can we meet? (45 min)", ("Mon 30 Nov: 13:00 Lisbon", "Tue <b> & co", "x" * 120))


def _body(action_id: str, *ticked: Any, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "block_actions",
        "team": {"id": TEAM},
        "user": {"id": "U1", "team_id": TEAM},
        "channel": {"id": "C1"},
        "message": {"ts": "1795000000.000200", "thread_ts": "1795000000.000100"},
        "state": {"values": {"vote": {"vote:tick": {
            "type": "checkboxes", "selected_options": [{"value": v} for v in ticked]}}}},
        "actions": [{"action_id": action_id, "type": "button", "action_ts": "1795000001.1"}],
    }  # fmt: skip
    body.update(changes)
    return body


def test_the_blocks_hold_every_slot_whole_above_the_boxes_and_escape_slacks_markup() -> None:
    section, actions = poll_blocks(POLL)
    lines = section["text"]["text"].splitlines()
    assert lines[:4] == [
        "*When can we meet? (45 min)*", "1. Mon 30 Nov: 13:00 Lisbon",
        "2. Tue &lt;b&gt; &amp; co", f"3. {'x' * 120}",
    ]  # fmt: skip
    boxes, send, none = actions["elements"]
    assert [o["value"] for o in boxes["options"]] == ["1", "2", "3"]
    assert max(len(o["text"]["text"]) for o in boxes["options"]) == 75  # Slack's limit
    assert boxes["options"][2]["text"]["text"].endswith("…")
    assert (send["text"]["text"], none["text"]["text"]) == ("Send my answer", "None of these")


def test_send_is_the_ticked_slots_read_whole() -> None:
    answer = read_answer(_body("vote:send", "3", "1", "1"), default_team=TEAM)
    assert answer is not None
    assert (answer.channel, answer.user, answer.choices) == ("C1", "U1", (1, 3))
    assert (answer.message_ts, answer.thread_ts) == ("1795000000.000200", "1795000000.000100")
    assert read_vote(answer.words) == ((1, 3), False)
    assert answer_note(answer.choices) == "Noted: 1 and 3 work for you."


@pytest.mark.parametrize("values", [("0",), ("11",), ("2x",), ("",), (" 2",), (2,), (None,)])
def test_a_box_that_is_no_slot_number_is_left_out_never_guessed(values: tuple[Any, ...]) -> None:
    answer = read_answer(_body("vote:send", "1", *values), default_team=TEAM)
    assert answer is not None and answer.choices == (1,)


def test_none_of_these_is_an_answer_whatever_is_ticked() -> None:
    answer = read_answer(_body("vote:none", "1", "2"), default_team=TEAM)
    assert answer is not None and answer.choices == () and answer.words == "vote none"
    assert answer_note(()) == "Noted: none of these times work for you."


def test_send_with_nothing_ticked_is_none_of_these() -> None:
    answer = read_answer(_body("vote:send", state={}), default_team=TEAM)
    assert answer is not None and answer.choices == ()


@pytest.mark.parametrize(
    "changes",
    [
        {"actions": [{"action_id": "vote:tick", "action_ts": "1795000001.1"}]},  # a tick
        {"actions": [{"action_id": "vote:send"}]},  # no action_ts: no way to tell presses apart
        {"user": {"id": " "}},
        {"user": "U1"},
        {"channel": None, "container": {}},
        {"message": {}, "container": {"channel_id": "C1"}},
        {"type": "view_submission"},
        {"actions": []},
    ],
)
def test_anything_else_is_no_answer(changes: dict[str, Any]) -> None:
    assert read_answer(_body("vote:send", "1", **changes), default_team=TEAM) is None


def test_the_team_and_the_message_may_come_from_the_container() -> None:
    body = _body("vote:send", "2", team=None, message=None,
                 container={"channel_id": "C1", "message_ts": "1795000000.000300"})  # fmt: skip
    answer = read_answer(body, default_team=TEAM)
    assert answer is not None
    assert (answer.team, answer.message_ts, answer.thread_ts) == (TEAM, "1795000000.000300", None)
