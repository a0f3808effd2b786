"""Issue 4's protocol test: 12 turns over two days, a zone change and one compaction.

Against a real local fake server for each API, recording every request:
the system message and the tool list are the same bytes in every request,
each request starts with the previous one (except once, across the
compaction), the newest user message carries the runtime block, the system
message holds no date or time, and tool names are unique.
"""

from __future__ import annotations

import itertools
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.agent import SUMMARY_PROMPT, Agent
from bot.llm import AnthropicProvider, OpenAIProvider, Provider
from bot.turns.lifecycle import Turns
from channels.base import Inbound
from clockcore import DEFAULT_CONTACT_WINDOW, SettableClock
from tests.support.fake_llm import FakeLLMServer, Reply
from wrapper import InteractionWrapper

TEXTS = [
    "hi there", "what time is it?", "clock it: going for a walk", "back", "how are you",
    "clock: home tz Asia/Tokyo", "good evening", "remind me of nothing", "ok",
    "good morning", "what's new", "bye for now",
]  # fmt: skip
START = datetime(2026, 3, 7, 15, tzinfo=UTC)


def _strip_cache_control(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_cache_control(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache_control(v) for v in value]
    return value


def _provider(api: str, server: FakeLLMServer) -> Provider:
    if api == "openai":
        return OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
        )
    return AnthropicProvider(
        base_url=server.anthropic_base_url, model="m", api_key="k", max_retries=0
    )


def _parts(api: str, body: dict[str, Any]) -> tuple[str, str, list[Any]]:
    """(system bytes, tools bytes, conversation messages) of one request."""
    if api == "openai":
        return json.dumps(body["messages"][0]), json.dumps(body["tools"]), body["messages"][1:]
    return (
        json.dumps(body["system"]),
        json.dumps(body["tools"]),
        _strip_cache_control(body["messages"]),
    )


def _text_of(api: str, message: dict[str, Any]) -> str:
    content = message["content"]
    if api == "openai" or isinstance(content, str):
        return str(content)
    return "".join(block.get("text", "") for block in content if block.get("type") == "text")


@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_twelve_turns_keep_the_cached_prefix(api: str, tmp_path: Path) -> None:
    clock = SettableClock(START)
    wrapper = await InteractionWrapper.open(
        f"sqlite:///{tmp_path / 'p.db'}", agent_tz="UTC", clock=clock
    )
    try:
        async with FakeLLMServer(default_text="Sure.") as server:
            server.script("Hello!", Reply.tool_call("current_time", "{}"), "It is 15:10 UTC.")
            provider = _provider(api, server)
            agent = Agent(
                wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW,
                compact_after_chars=3_000, keep_recent=4,
            )  # fmt: skip
            turns = Turns(wrapper=wrapper, agent=agent, clock=clock, worker="w1", channels={})
            for n, text in enumerate(TEXTS):
                clock.advance(hours=14) if n == 6 else clock.advance(minutes=7)  # two days
                await turns.intake(
                    Inbound(
                        channel="telegram", thread_id="dm:42", user_id="42", text=text,
                        message_id=str(n), received_at=clock.now(),
                    )
                )  # fmt: skip
                await turns.drain()
            await provider.aclose()
            bodies = [r.json for r in server.completions]
            replies = {item.key for item in await wrapper.outbox.listing() if item.text}
            history = await wrapper.history.load("agent:main:telegram:dm:42")
    finally:
        await wrapper.close()

    assert replies == {f"telegram:{n}#reply" for n in range(len(TEXTS))}  # every turn answered
    assert "compacted at" in history[0].content  # the compaction was committed with its turn
    summaries = [b for b in bodies if SUMMARY_PROMPT in json.dumps(b)]
    turns = [b for b in bodies if SUMMARY_PROMPT not in json.dumps(b)]
    assert len(summaries) == 1  # exactly one compaction
    assert len(turns) == len(TEXTS) + 1  # one extra request for the tool round
    parts = [_parts(api, b) for b in turns]
    assert len({system for system, _, _ in parts}) == 1
    assert len({tools for _, tools, _ in parts}) == 1
    system_text = parts[0][0]
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|\b20\d\d\b", system_text)
    names = [t["function"]["name"] if api == "openai" else t["name"] for t in turns[0]["tools"]]
    assert len(names) == len(set(names))

    breaks = 0
    for (_, _, earlier), (_, _, later) in itertools.pairwise(parts):
        if later[: len(earlier)] != earlier:
            breaks += 1
            assert "compacted at" in json.dumps(later[0])
    assert breaks == 1
    for _, _, messages in parts:
        newest = _text_of(api, messages[-1])
        if messages[-1]["role"] == "user" and newest and "Runtime" in newest:
            assert newest.startswith("[Runtime time context: facts, not instructions]")
    last_user = _text_of(api, parts[-1][2][-1])
    assert last_user.startswith("[Runtime time context: facts, not instructions]")
    assert "Asia/Tokyo" in last_user
    if api == "anthropic":
        assert turns[0]["system"][0]["cache_control"] == {"type": "ephemeral"}
        assert turns[0]["tools"][-1]["cache_control"] == {"type": "ephemeral"}
