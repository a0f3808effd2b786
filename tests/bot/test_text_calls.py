"""A reply that is nothing but a tool call written as text is that call (issue 36); a call
shown inside prose never runs and is never shown (issue 59, rows 6 and 7;
`bot.llm.text_calls`).

The shapes are the ones Qwen2.5-Coder-1.5B wrote behind ``llama-server --jinja`` when
asked for everyday reminders; each was sent to the person as the reply before.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.app.gateway import Gateway
from bot.config.settings import LLMSettings, Settings
from bot.llm import text_calls
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
        # seen in the scenario eval (docs/eval.md): a stray tag before the call
        "<tools/> {" + json.dumps(CALL) + "}",
        f"\n<tool_call>{json.dumps(CALL)}</tool_call>\n",
    ],
)
def test_each_shape_is_read_as_the_call(text: str) -> None:
    found = read_calls(text, KNOWN)
    assert [(c.name, json.loads(c.arguments)) for c in found.calls] == [
        ("remember", CALL["arguments"])
    ]
    assert found.unknown == ()
    assert "remember" not in found.text and "{" not in found.text


@pytest.mark.parametrize(
    "text",
    [
        f"Sure! <tool_call>{json.dumps(CALL)}</tool_call>",
        f"{json.dumps(CALL)} Note: if you would rather wait, I can defer it.",
        f"Sure! {json.dumps(CALL)} Done.",
        "I could cancel it: " + json.dumps(CALL) + " – shall I?",
        "I could do this:\n```json\n" + json.dumps(CALL) + "\n```\nShall I?",
        "Use {braces. I could cancel it: " + json.dumps(CALL) + " - shall I?",  # a stray {
    ],
)
def test_a_call_shown_in_prose_never_runs_and_is_cut_from_the_text(text: str) -> None:
    found = read_calls(text, KNOWN)
    assert found.calls == ()
    assert found.not_run == ("remember",)
    assert "remember" not in found.text and '"name"' not in found.text and "```" not in found.text


def test_where_text_calls_are_off_a_whole_call_is_cut_not_run() -> None:
    found = read_calls(f"```json\n{json.dumps(CALL)}\n```", KNOWN, run=False)
    assert (found.calls, found.text, found.not_run) == ((), "", ("remember",))


def test_the_text_call_setting_is_on_for_local_servers_only() -> None:
    local = LLMSettings(provider="openai", base_url="http://127.0.0.1:8080/v1", model="m")
    hosted = LLMSettings(provider="openai", model="m", api_key="k")
    anthropic = LLMSettings(provider="anthropic", model="m", api_key="k")
    chosen = LLMSettings(provider="openai", model="m", api_key="k", text_calls=True)
    assert [s.reads_text_calls for s in (local, hosted, anthropic, chosen)] == [
        True,
        False,
        False,
        True,
    ]


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


@asynccontextmanager
async def model_gateway(
    server: FakeLLMServer, home: Path
) -> AsyncIterator[tuple[Gateway, RecordingChannel]]:
    """A gateway whose model is `server`, at a base_url (so text calls are read)."""
    llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
    channel = RecordingChannel()
    async with Gateway(Settings(home=home, http_port=0, llm=llm), channels=[channel]) as gw:
        yield gw, channel


async def test_a_written_call_runs_and_never_reaches_the_person(tmp_path: Path) -> None:
    async with FakeLLMServer() as server:
        server.script(
            Reply.text(f"<tool_call>\n{json.dumps(CALL)}\n</tool_call>"),
            Reply.text("Done: I'll remind you to call mum in 2 hours."),
            Reply.text('```json\n{"name": "book_flight", "arguments": {"to": "Lisbon"}}\n```'),
        )
        async with model_gateway(server, tmp_path) as (gw, channel):
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


# --- by construction: properties over random text (issue 59, rows 6 and 7) -----------------------

_PROSE = st.lists(
    st.sampled_from([*"abc xyz{}[]\"':,.\\`<>/\n", "name", "```", "<tool_call>", "</tool_call>"]),
    max_size=400,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    before=st.text(min_size=0, max_size=200),
    after=st.text(min_size=0, max_size=200),
    shape=st.sampled_from(
        ["{call}", "{{call}}", "<tool_call>{call}</tool_call>", "```json\n{call}\n```"]
    ),
)
def test_prose_that_contains_a_call_never_yields_one(before: str, after: str, shape: str) -> None:
    call = (
        shape.replace("{call}", json.dumps(CALL))
        if "{{" not in shape
        else "{" + json.dumps(CALL) + "}"
    )
    assume((before + after).strip())  # some words beside the call: it is shown, not made
    assume(not _only_calls_and_space(before) or not _only_calls_and_space(after))
    found = read_calls(before + call + after, KNOWN)
    assert found.calls == ()


def _only_calls_and_space(text: str) -> bool:
    return read_calls(text, KNOWN).calls != () or not text.strip()


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(max_size=16_000)
    | _PROSE
    | st.builds(lambda n: "{{" * n + "}}" * n, st.integers(0, 4_000))
    | st.builds(lambda n: '{"name": "x", "arguments": ' * n, st.integers(0, 2_000))
    | st.builds(lambda n: '{{"name": ' * n + "}}" * n, st.integers(0, 300))
)
def test_the_scan_is_linear_in_the_text(text: str) -> None:
    """Every character is decoded a bounded number of times (a scan that tried each closing
    brace took 466 s on 8 KB of doubled braces)."""
    decoded: list[int] = []
    real = json.loads

    def counting(value: str, *args: Any, **kwargs: Any) -> Any:
        decoded.append(len(value))
        return real(value, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(text_calls.json, "loads", counting)
        read_calls(text, KNOWN)
    assert sum(decoded) <= 4 * len(text) + 8


# --- end to end: the fake OpenAI server as the model (row 6) -------------------------------------


async def test_a_cancel_shown_in_a_question_cancels_nothing(tmp_path: Path) -> None:
    """ "I could cancel it: {"name": "cancel_reminder", …} – shall I?" cancelled it."""
    async with FakeLLMServer() as server:
        server.script(
            Reply.text(f"<tool_call>\n{json.dumps(CALL)}\n</tool_call>"),
            Reply.text("Done: I'll remind you to call mum in 2 hours."),
        )
        async with model_gateway(server, tmp_path) as (gw, channel):
            assert channel.sink is not None
            await channel.sink(inbound("remind me in 2 hours to call mum", "m1"))
            await gw.settle()
            [item] = await gw.wrapper.recall(user_key="test:7", query="mum")
            cancel = {"name": "forget", "arguments": {"memory_id": item.id}}
            server.script(Reply.text(f"I could cancel it: {json.dumps(cancel)} – shall I?"))
            await channel.sink(inbound("hmm, should I drop the mum reminder?", "m2"))
            await gw.settle()
            still = await gw.wrapper.recall(user_key="test:7", query="mum")
        replies = [sent.text for sent in channel.sent]
    assert [i.content for i in still] == ["call mum"]
    assert replies[-1] == "I could cancel it: – shall I?"
