"""Tool calls a model wrote as text are still tool calls (issue 36; `bot.llm.text_calls`).

The shapes are the ones Qwen2.5-Coder-1.5B wrote behind ``llama-server --jinja`` when
asked for everyday reminders; each was sent to the person as the reply before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.config import LLMSettings, Settings
from bot.gateway import Gateway
from bot.llm.text_calls import read_calls
from bot.replies import NOT_A_TOOL
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support.fake_llm import FakeLLMServer, Reply

KNOWN = ("remember", "current_time", "remind")
CALL = {"name": "remember", "arguments": {"content": "call mum", "due_at": "in 2 hours"}}
ARGS = json.dumps(CALL["arguments"])


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(CALL),
        f"```json\n{json.dumps(CALL)}\n```",
        f"```\n{json.dumps(CALL)}\n```",
        f"<tool_call>\n{json.dumps(CALL)}\n</tool_call>",
        f"<tools>{json.dumps(CALL)}</tools>",
        "{" + json.dumps(CALL) + "}",  # doubled braces, as a template escapes them
        json.dumps({"name": "remember", "parameters": CALL["arguments"]}),
        f"Sure! <tool_call>{json.dumps(CALL)}</tool_call>",
        # seen in the scenario eval (docs/eval.md): a stray tag, a call inside prose
        "<tools/> {" + json.dumps(CALL) + "}",
        f"{json.dumps(CALL)} Note: if you would rather wait, I can defer it.",
        f"Sure! {json.dumps(CALL)} Done.",
    ],
)
def test_each_shape_is_read_as_the_call(text: str) -> None:
    found = read_calls(text, KNOWN)
    assert [(c.name, json.loads(c.arguments)) for c in found.calls] == [
        ("remember", CALL["arguments"])
    ]
    assert found.unknown == ()
    assert "remember" not in found.text and "{" not in found.text


def test_several_calls_keep_their_order() -> None:
    both = [CALL, {"name": "current_time", "arguments": {"zone": "Asia/Tokyo"}}]
    found = read_calls(f"```json\n{json.dumps(both)}\n```", KNOWN)
    assert [c.name for c in found.calls] == ["remember", "current_time"]
    assert len({c.id for c in found.calls}) == 2


@pytest.mark.parametrize(
    "text",
    [
        "It is 9:00 in Tokyo.",
        'Set "name" to your full name in the form.',
        '{"name": "Ana", "age": 31}',  # JSON with other keys: not a call
        '```json\n{"name": "Ana", "city": "Lisbon"}\n```',
    ],
)
def test_prose_and_other_json_are_left_alone(text: str) -> None:
    found = read_calls(text, KNOWN)
    assert (found.calls, found.unknown) == ((), ())
    assert found.text == text.strip()


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('<tool_call>{"name": "send_email", "arguments": {}}</tool_call>', "send_email"),
        ('```json\n{"name": "lookup"}\n```', "lookup"),  # a name alone is a call too
    ],
)
def test_a_call_to_a_tool_we_do_not_have_is_not_prose(text: str, name: str) -> None:
    found = read_calls(text, KNOWN)
    assert found.calls == ()
    assert found.unknown == (name,)
    assert found.text == ""


async def test_a_written_call_runs_and_never_reaches_the_person(tmp_path: Path) -> None:
    async with FakeLLMServer() as server:
        server.script(
            Reply.text(f"<tool_call>\n{json.dumps(CALL)}\n</tool_call>"),
            Reply.text("Done: I'll remind you to call mum in 2 hours."),
            Reply.text('```json\n{"name": "book_flight", "arguments": {"to": "Lisbon"}}\n```'),
        )
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
        channel = RecordingChannel()
        settings = Settings(home=tmp_path, http_port=0, llm=llm)
        async with Gateway(settings, channels=[channel]) as gw:
            assert channel.sink is not None
            await channel.sink(inbound("remind me in 2 hours to call mum", "m1"))
            await gw.settle()
            await channel.sink(inbound("and book me a flight to Lisbon", "m2"))
            await gw.settle()
            found = await gw.wrapper.recall(user_key="test:7", query="mum")
        replies = [sent.text for sent in channel.sent]
        tool_results = [
            m for r in server.completions for m in r.json["messages"] if m.get("role") == "tool"
        ]
    assert [item.content for item in found] == ["call mum"]
    # "remind me": the due note the written call made is the reminder they asked for
    assert json.loads(tool_results[0]["content"])["scheduled"] is True
    assert replies == ["Done: I'll remind you to call mum in 2 hours.", NOT_A_TOOL.en]
