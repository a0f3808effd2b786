"""Constrained steps (issue 63, item 4; `llm.mode: constrained`, `bot.llm.constrained`).

Through the fake OpenAI server and the real gateway: each request carries one JSON schema
(a reply, or one call to one of our tools with its arguments' schema) as
``response_format``, no native tools, and the tools in the system prompt; both answer
forms are read back, a call that runs and a reply that goes to the person.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.agent.tools.toolbox import TOOLS
from bot.app.gateway import Gateway
from bot.config.settings import LimitSettings, LLMSettings, Settings
from bot.llm.constrained import STEP_NAME, read_step
from clockcore import SettableClock
from tests.bot.test_claim_fallback import NEW_YORK, WEDNESDAY, World
from tests.bot.test_gateway import RecordingChannel
from tests.support.fake_llm import FakeLLMServer


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    clock = SettableClock(WEDNESDAY)
    channel = RecordingChannel()
    async with FakeLLMServer() as server:
        llm = LLMSettings(
            provider="openai", base_url=server.openai_base_url, model="m", mode="constrained"
        )
        no_limit = LimitSettings(turns_per_minute=0, burst=0)
        settings = Settings(home=tmp_path, http_port=0, llm=llm, limit=no_limit)
        async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gw:
            w = World(gw, channel, clock, server)
            await w.say("clock: home tz America/New_York", '{"reply": "Done."}')
            yield w


async def test_each_step_is_one_schema_and_both_forms_are_read_back(world: World) -> None:
    before = len(world.server.completions)
    call = {"tool": "remind", "arguments": {"text": "call the dentist", "when": "tomorrow at 9am"}}
    reply = await world.say(
        "remind me tomorrow at 9am to call the dentist",
        json.dumps(call),
        '{"reply": "I\'ll remind you tomorrow at 9am to call the dentist."}',
    )
    assert reply == "I'll remind you tomorrow at 9am to call the dentist."
    (repeats, at) = (await world.reminders())["call the dentist"]
    assert not repeats and at.astimezone(NEW_YORK).hour == 9
    requests = [r.json for r in world.server.completions[before:]]
    assert len(requests) == 2
    for body in requests:
        assert "tools" not in body
        form = body["response_format"]
        assert form["type"] == "json_schema"
        assert form["json_schema"]["name"] == STEP_NAME
        branches = form["json_schema"]["schema"]["anyOf"]
        assert branches[0]["required"] == ["reply"]
        by_tool = {b["properties"]["tool"]["const"]: b for b in branches[1:]}
        assert set(by_tool) == {t.name for t in TOOLS}
        remind = next(t for t in TOOLS if t.name == "remind")
        assert by_tool["remind"]["properties"]["arguments"] == remind.schema()
        system = body["messages"][0]
        assert system["role"] == "system" and '{"tool": "<tool name>"' in system["content"]
    # The call ran as a call: its result follows it in the second request.
    second = requests[1]["messages"]
    assert second[-2]["tool_calls"][0]["function"]["name"] == "remind"
    assert second[-1]["role"] == "tool" and "call the dentist" in second[-1]["content"]


def test_a_text_that_is_no_step_stays_as_it_is() -> None:
    assert read_step("Hello there.", TOOLS).content == "Hello there."
    assert read_step('{"tool": "no_such_tool", "arguments": {}}', TOOLS).tool_calls == ()
    assert read_step('{"reply": "Hi", "extra": 1}', TOOLS).content == '{"reply": "Hi", "extra": 1}'
    [call] = read_step('{"tool": "list_reminders", "arguments": {}}', TOOLS).tool_calls
    assert (call.name, json.loads(call.arguments)) == ("list_reminders", {})


def test_the_constrained_mode_needs_an_openai_compatible_server() -> None:
    with pytest.raises(ValidationError, match="constrained mode needs an OpenAI-compatible"):
        LLMSettings(provider="anthropic", model="m", api_key="k", mode="constrained")
