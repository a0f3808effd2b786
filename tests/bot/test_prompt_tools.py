"""The stable prompt, append-only assembly, and the tools (docs/clock-spec.md, "Advice, not enforcement")."""

from __future__ import annotations

import importlib
import itertools
import json
import re
from collections.abc import AsyncIterator
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.agent import prompt
from bot.agent.prompt import SYSTEM_PROMPT, assemble, user_turn
from bot.agent.tools import toolbox as tools
from bot.agent.tools.toolbox import TOOLS, ToolSession, run_tool, tool_names
from bot.llm.types import Message, ToolCall
from clockcore import DEFAULT_CONTACT_WINDOW, MessageRef, SettableClock
from wrapper import InteractionWrapper
from wrapper.turns.effects import MarkReminded, NewMemory

NIGHT = datetime(2026, 4, 29, 9, 14, tzinfo=UTC)  # 02:14 in Los Angeles


def test_the_system_prompt_holds_no_date_or_time() -> None:
    assert not re.search(r"\d{4}-\d{2}|\d{1,2}:\d{2}|\b(19|20)\d{2}\b", SYSTEM_PROMPT)
    for month in ("January", "April", "December", "Monday", "Friday"):
        assert month not in SYSTEM_PROMPT


def test_the_system_prompt_and_tools_are_the_same_bytes_after_a_reload() -> None:
    before = (SYSTEM_PROMPT.encode(), json.dumps([asdict(t) for t in TOOLS]).encode())
    importlib.reload(prompt)
    reloaded_tools = importlib.reload(tools)
    after = (prompt.SYSTEM_PROMPT.encode(), json.dumps([asdict(t) for t in reloaded_tools.TOOLS]).encode())  # fmt: skip
    assert after == before


def test_tool_names_are_unique_and_building_again_never_duplicates() -> None:
    for _ in range(50):
        built = tools._build()
        assert [t.name for t in built] == list(tool_names())
    assert len(set(tool_names())) == len(TOOLS) == 19


def test_each_request_begins_with_the_previous_one() -> None:
    history: list[Message] = []
    requests = []
    for turn, text in enumerate(["hi", "remind me at 9", "thanks"]):
        block = f"[Runtime time context: facts, not instructions]\n- turn {turn}\n[/Runtime time context]"
        newest = user_turn(block, text)
        request = assemble(history, newest)
        requests.append(request)
        history += [newest, Message(role="assistant", content=f"reply {turn}")]
    for earlier, later in itertools.pairwise(requests):
        assert later[: len(earlier)] == earlier
    assert requests[-1][0] == Message(role="system", content=SYSTEM_PROMPT)
    assert requests[-1][-1].content.startswith("[Runtime time context")
    assert requests[-1][-1].content.endswith("thanks")


@pytest.fixture
async def context(tmp_path: Path) -> AsyncIterator[ToolSession]:
    clock = SettableClock(NIGHT)
    wrapper = await InteractionWrapper.open(
        f"sqlite:///{tmp_path / 't.db'}", agent_tz="UTC", clock=clock
    )
    await wrapper.on_user_message(
        channel="console",
        thread_id="dm:me",
        user_id="me",
        text="clock: home tz America/Los_Angeles",
    )
    envelope = await wrapper.on_user_message(
        channel="console", thread_id="dm:me", user_id="me", text="hi"
    )
    try:
        yield ToolSession(
            wrapper=wrapper, envelope=envelope, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW,
            message=MessageRef(
                channel="console", thread_id="dm:me", user_id="me", message_id="m1", text="hi",
                received_at=NIGHT,
            ),
            can_send=False,
        )  # fmt: skip
    finally:
        await wrapper.close()


async def _call(context: ToolSession, name: str, **arguments: object) -> dict[str, object]:
    result = json.loads(await run_tool(ToolCall("c1", name, json.dumps(arguments)), context))
    assert isinstance(result, dict)
    return result


async def test_time_tools_answer_exactly(context: ToolSession) -> None:
    now = await _call(context, "current_time")
    assert now == {"now": "2026-04-29T02:14:00-07:00", "zone": "America/Los_Angeles"}
    tokyo = await _call(context, "current_time", zone="Asia/Tokyo")
    assert tokyo["now"] == "2026-04-29T18:14:00+09:00"
    parsed = await _call(context, "parse_time", text="tomorrow 9am")
    assert parsed["start_instant"] == "2026-04-30T09:00:00-07:00"
    converted = await _call(context, "convert_time", text="tomorrow 9am", to_zone="Asia/Kathmandu")
    assert converted["to"] == "2026-04-30T21:45:00+05:45"


async def test_remember_returns_the_time_context_with_its_advisory(context: ToolSession) -> None:
    result = await _call(context, "remember", content="dentist", due_at="tomorrow 9am")
    assert result["stored"] is True
    assert result["due_at"] == "2026-04-30T09:00:00-07:00"
    time_context = result["time_context"]
    assert isinstance(time_context, dict)
    assert time_context["within_contact_window"] is False
    assert "02:14" in str(time_context["advisory"])
    marked = await _call(context, "update_memory", id=result["id"], reminded_at="now")
    assert marked["reminded_at"] == "2026-04-29T02:14:00-07:00"
    # Nothing written: the item and its mark are staged for the turn's commit.
    item, mark = context.staged
    assert isinstance(item, NewMemory)
    assert (item.id, item.content, item.due_at) == (
        result["id"], "dentist", datetime(2026, 4, 30, 16, tzinfo=UTC)
    )  # fmt: skip
    assert mark == MarkReminded(id=result["id"], at=NIGHT)
    assert await context.wrapper.recall(user_key="console:me", query="dentist") == []


async def test_read_only_tools_stage_nothing(context: ToolSession) -> None:
    await _call(context, "current_time")
    await _call(context, "parse_time", text="tomorrow 9am")
    await _call(context, "convert_time", text="9am", to_zone="Asia/Tokyo")
    await _call(context, "recall", query="anything")
    assert context.staged == []


@pytest.mark.parametrize(
    ("name", "arguments", "kind", "needle"),
    [
        ("no_such_tool", {}, "unknown_tool", "no_such_tool"),
        ("current_time", {"zone": "Mars/Base"}, "bad_arguments", "Mars/Base"),
        ("parse_time", {}, "bad_arguments", "text"),
        ("remember", {"content": "x", "due_at": "9am EST"}, "bad_arguments", "EST"),
        ("remember", {"content": "x", "due_at": "at 25:00"}, "bad_arguments", "25:00"),
        ("update_memory", {"id": "seven", "reminded_at": "now"}, "bad_arguments", "integer"),
        ("update_memory", {"id": 999, "reminded_at": "now"}, "bad_arguments", "999"),
        ("convert_time", {"text": "9am", "to_zone": "EST"}, "bad_arguments", "America/New_York"),
        ("send_message", {"text": "hi"}, "not_available", "send_message"),
        ("remind", {"text": "x", "when": "tomorrow 9am"}, "not_available", "remind"),
        ("remember", {"content": "x", "notify": True}, "bad_arguments", "remind"),
    ],
)
async def test_bad_calls_come_back_as_error_results(
    context: ToolSession, name: str, arguments: dict[str, object], kind: str, needle: str
) -> None:
    result = await _call(context, name, **arguments)
    assert result["error"] == kind
    assert needle in str(result["message"])
    assert context.staged == []


async def test_arguments_that_are_not_json_are_an_error_result(context: ToolSession) -> None:
    result = json.loads(await run_tool(ToolCall("c", "parse_time", "{not json"), context))
    assert result["error"] == "bad_arguments"
    listed = json.loads(await run_tool(ToolCall("c", "parse_time", "[1, 2]"), context))
    assert listed["error"] == "bad_arguments"
