"""The context budget: a 4K-context server, 40 turns, compaction before the limit, an overflow
recovered by compacting, a message too big for any compaction answered once, not retried.

The real agent, turns and OpenAI provider (behind the cache watcher, which records what the
server counted) against the fake server, which enforces ``context_limit`` as llama.cpp
does: 400 ``exceeds the available context size``. The window is found as the gateway finds
it, from the server's ``/props``.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.agent import SUMMARY_PROMPT, Agent
from bot.app.cache_watch import WatchedProvider
from bot.cli.chat import chat as console_chat
from bot.config.settings import LLMSettings, Settings
from bot.llm import OpenAIProvider
from bot.llm.context import discover, known_window
from bot.llm.errors import LLMContextOverflow, LLMTemplateError, error_for_status
from bot.replies import TOO_LONG_FOR_MODEL
from bot.turns.lifecycle import Turns
from channels.base import Inbound
from clockcore import DEFAULT_CONTACT_WINDOW, SettableClock
from clockcore.envelope import RUNTIME_BLOCK_START
from tests.support.fake_llm import FakeLLMServer, Reply
from wrapper import InteractionWrapper
from wrapper.turns.history import EARLIER

START = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)
LIMIT = 4096
ANSWER = (
    "Noted; "
    + " ".join(
        f"here is part {n} of a long answer that fills the context a little more." for n in range(6)
    )
)  # each sentence once: one sentence over and over is a loop, said once (bot.agent.model_words._unlooped)


class Chat:
    def __init__(self, wrapper: InteractionWrapper, server: FakeLLMServer, context: int) -> None:
        self.wrapper, self.server = wrapper, server
        self.clock = SettableClock(START)
        provider = OpenAIProvider(base_url=server.openai_base_url, model="m", api_key="k")
        self.provider = WatchedProvider(provider, wrapper=wrapper, clock=self.clock, model="m")
        agent = Agent(
            wrapper=wrapper, provider=self.provider, clock=self.clock,
            contact_window=DEFAULT_CONTACT_WINDOW, context_tokens=context,
        )  # fmt: skip
        self.turns = Turns(wrapper=wrapper, agent=agent, clock=self.clock, worker="w", channels={})
        self.sent = 0

    async def say(self, text: str) -> None:
        self.clock.advance(timedelta(minutes=2))
        self.sent += 1
        await self.turns.intake(
            Inbound(
                channel="telegram", thread_id="dm:9", user_id="9", text=text,
                message_id=str(self.sent), received_at=self.clock.now(),
            )
        )  # fmt: skip
        await self.turns.drain()

    async def replies(self) -> list[str]:
        items = await self.wrapper.outbox.listing(limit=500)
        return [i.text for i in sorted(items, key=lambda i: i.id)]


@contextlib.asynccontextmanager
async def _chat_in(database_url: str, limit: int) -> AsyncIterator[Chat]:
    """A chat with the fake server's window at `limit` tokens, found from its `/props`."""
    wrapper = await InteractionWrapper.open(database_url, clock=SettableClock(START))
    try:
        async with FakeLLMServer(default_text=ANSWER, context_limit=limit) as server:
            settings = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
            found = await discover(settings)
            assert found == (limit, "llama.cpp /props")
            chat = Chat(wrapper, server, found[0])
            yield chat
            await chat.provider.aclose()
    finally:
        await wrapper.close()


@pytest.fixture
async def chat(database_url: str) -> AsyncIterator[Chat]:
    async with _chat_in(database_url, LIMIT) as chat:
        yield chat


async def test_forty_turns_in_a_4k_context_never_stick(chat: Chat) -> None:
    for n in range(40):
        if n == 25:
            chat.server.overflow_next()  # the estimate missed once: compact and retry
        await chat.say(f"message {n}: " + "a plain sentence about my day and my plans. " * 5)
    replies = await chat.replies()
    assert len(replies) == 40
    assert all(text == ANSWER.strip() or text == ANSWER for text in replies), replies[-3:]
    assert chat.server.overflows == 1  # only the injected one: compaction came first
    bodies = [r.json for r in chat.server.completions]
    summaries = [b for b in bodies if _asks_for_summary(b)]
    assert summaries, "compaction asked for a summary"
    compacted = [
        b for b in bodies
        if b.get("tools") and EARLIER in str(b["messages"][1].get("content", ""))
    ]  # fmt: skip
    assert compacted, "turns went out with a compacted history"
    assert await chat.wrapper.waiting.count() == 0  # nothing left to retry


async def test_a_message_no_compaction_can_fit_is_answered_once(chat: Chat) -> None:
    await chat.say("hello")
    await chat.say("x" * 20_000)  # ~5,000 tokens by the server's count, alone
    replies = await chat.replies()
    assert replies[-1] == TOO_LONG_FOR_MODEL.en
    assert await chat.wrapper.waiting.count() == 0  # nothing left to retry


async def test_a_window_too_small_for_the_last_exchange_keeps_its_words(database_url: str) -> None:
    """A fixed prefix over half the window (the eval's 6,144 tokens beside ~3,100 of prompt and
    tools): kept word for word, the last exchange made every turn compact again. Its words are
    kept after the summary instead, so turns go out between compactions."""
    async with _chat_in(database_url, 5_120) as chat:
        for n in range(16):
            await chat.say(f"message {n}: " + "a plain sentence about my day and my plans. " * 5)
        replies = await chat.replies()
    bodies = [r.json for r in chat.server.completions if r.json.get("tools")]
    compacted = [b["messages"] for b in bodies if EARLIER in str(b["messages"][1]["content"])]
    assert compacted, "turns went out with a compacted history"
    first = compacted[0]
    assert [m["role"] for m in first[1:6]] == ["user", "assistant", "user", "assistant", "user"]
    assert first[2]["content"] == "Noted."
    kept = first[3]["content"]  # the person's last line before it, without its runtime block
    assert kept.startswith("message ") and RUNTIME_BLOCK_START not in kept, kept
    answer = first[4]["content"]  # the answer's words, cut to 300 characters
    assert ANSWER.startswith(answer.rstrip("…")) and len(answer) <= 300, answer
    # Some turns after a compaction went out on the same summary: not one compaction a turn.
    assert len({m[1]["content"] for m in compacted}) < len(compacted)
    assert len(replies) == 16


def test_overflow_and_template_errors_are_read_from_every_provider() -> None:
    overflow = (
        "request (8544 tokens) exceeds the available context size (8192 tokens)",
        "This model's maximum context length is 8192 tokens. However, your messages resulted "
        "in 9000 tokens.",
        "prompt is too long: 210000 tokens > 200000 maximum",
    )
    for detail in overflow:
        assert isinstance(error_for_status("x", 400, detail, {}, secret=None), LLMContextOverflow)
    refused = error_for_status(
        "x", 400, "Conversation roles must alternate user/assistant/user/assistant/...", {},
        secret=None,
    )  # fmt: skip
    assert isinstance(refused, LLMTemplateError)
    assert not isinstance(
        error_for_status("x", 400, "invalid model", {}, secret=None),
        LLMContextOverflow | LLMTemplateError,
    )
    assert known_window("gpt-4o-mini") == 128_000
    assert known_window("claude-sonnet-4-5") == 200_000
    assert known_window("gemma3") is None


def _asks_for_summary(body: Any) -> bool:
    """Whether a request asks for a compaction's summary: behind the turn's prefix (the prompt
    in its last message) or alone (its system prompt; `bot.agent._summarise`)."""
    messages = body.get("messages") or [{}]
    return any(SUMMARY_PROMPT in str(m.get("content", "")) for m in (messages[0], messages[-1]))


class _OverflowAt:
    """Answers every request with `ANSWER`; as line `at` - 1 is answered, the next request
    is set to overflow (the estimate missing once, as a real server's count can)."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.server: FakeLLMServer | None = None

    def plan(self, body: Any, now: float) -> tuple[Reply, None]:
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        newest = str(users[-1].get("content", "")) if users else ""
        if self.server is not None and newest.rstrip().endswith(f"(line {self.at - 1})"):
            self.server.overflow_next()
        return Reply.text(ANSWER), None


async def test_forty_piped_lines_in_a_small_window_are_all_answered_with_one_system_prompt(
    tmp_path: Path,
) -> None:
    """Issue 36, as an operator tried it: 40 long lines piped into `clockbot chat` in runs of
    15, 15 and 10 against a 6,144-token window, one overflow injected at line 25."""
    planner = _OverflowAt(25)
    async with FakeLLMServer(responder=planner, context_limit=6144) as server:
        planner.server = server
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
        settings = Settings(home=tmp_path, llm=llm)  # the default turn limits
        line = "a long line about my day, my plans and the people I will see this week. " * 6
        out = io.StringIO()
        for first, last in ((0, 15), (15, 30), (30, 40)):
            lines = "".join(f"{line}(line {n})\n" for n in range(first, last))
            await console_chat(settings, stdin=io.StringIO(lines), stdout=out, poll_interval=0.01)
        assert server.overflows == 1
        bodies = [r.json for r in server.completions]
    replies = out.getvalue().splitlines()
    assert len(replies) == 40
    assert all(reply.strip() == f"clockbot> {ANSWER.strip()}" for reply in replies), replies[-3:]
    summaries = [b for b in bodies if _asks_for_summary(b)]
    assert summaries, "compaction asked for a summary"
    turns = [b for b in bodies if b.get("tools") and not _asks_for_summary(b)]
    assert len({json.dumps(b["messages"][0], sort_keys=True) for b in turns}) == 1
    compacted = [b for b in turns if EARLIER in str(b["messages"][1].get("content", ""))]
    assert compacted, "turns went out with a compacted history"
