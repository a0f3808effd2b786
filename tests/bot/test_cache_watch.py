"""The prompt cache made visible: usage recorded per call, prefix changes and evictions caught.

The real agent and turns on a SQLite store, the real OpenAI and Anthropic providers against
the fake servers (`FakeLLMServer`), which report the cached tokens each test scripts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bot.agent.prompt
from bot.agent import Agent
from bot.app.cache_watch import WatchedProvider
from bot.cli.main import app
from bot.llm import AnthropicProvider, OpenAIProvider, Provider
from bot.turns.lifecycle import Turns
from channels.base import Inbound
from clockcore import DEFAULT_CONTACT_WINDOW, SettableClock
from tests.support.fake_llm import FakeLLMServer, Reply
from wrapper import InteractionWrapper

START = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


def _provider(api: str, server: FakeLLMServer) -> Provider:
    if api == "openai":
        return OpenAIProvider(base_url=server.openai_base_url, model="m", api_key="k")
    return AnthropicProvider(base_url=server.anthropic_base_url, model="m", api_key="k")


class World:
    """A store, the agent behind a watched provider, the turns, and a settable clock."""

    def __init__(
        self, wrapper: InteractionWrapper, clock: SettableClock, server: FakeLLMServer, api: str
    ) -> None:
        self.wrapper, self.clock, self.server = wrapper, clock, server
        self.provider = WatchedProvider(
            _provider(api, server), wrapper=wrapper, clock=self.clock, model="m"
        )
        self.agent = Agent(
            wrapper=wrapper, provider=self.provider, clock=self.clock,
            contact_window=DEFAULT_CONTACT_WINDOW, compact_after_chars=2_500, keep_recent=2,
        )  # fmt: skip
        self.turns = Turns(
            wrapper=wrapper, agent=self.agent, clock=self.clock, worker="w1", channels={}
        )
        self._ids = 0

    async def say(self, thread: str, text: str) -> None:
        self.clock.advance(timedelta(minutes=3))
        self._ids += 1
        await self.turns.intake(
            Inbound(
                channel="telegram", thread_id=f"dm:{thread}", user_id=thread, text=text,
                message_id=str(self._ids), received_at=self.clock.now(),
            )
        )  # fmt: skip
        await self.turns.drain()

    async def prefixes(self, thread: str) -> list[tuple[str, bool]]:
        from sqlalchemy import select

        from wrapper.turns.model_calls import model_calls

        key = f"agent:main:telegram:dm:{thread}"

        def rows(conn: object) -> list[tuple[str, bool]]:
            query = (
                select(model_calls.c.prefix, model_calls.c.evicted)
                .where(model_calls.c.thread_key == key, model_calls.c.purpose == "turn")
                .order_by(model_calls.c.id)
            )
            return [(r.prefix, bool(r.evicted)) for r in conn.execute(query)]  # type: ignore[attr-defined]

        return await self.wrapper.database.run(rows)


@pytest.fixture(params=["openai", "anthropic"])
async def world(request: pytest.FixtureRequest, database_url: str) -> AsyncIterator[World]:
    clock = SettableClock(START)
    wrapper = await InteractionWrapper.open(database_url, clock=clock)
    try:
        async with FakeLLMServer(default_text="Sure.") as server:
            world = World(wrapper, clock, server, request.param)
            yield world
            await world.provider.aclose()
    finally:
        await wrapper.close()


async def test_hit_ratio_and_an_eviction_are_recorded_and_shown_by_stats(
    world: World, tmp_path: Path, database_url: str
) -> None:
    world.server.script(
        Reply.text("One.", prompt_tokens=2_000, cached_tokens=0),
        Reply.text("Two.", prompt_tokens=2_100, cached_tokens=1_900),
        Reply.text("Three.", prompt_tokens=2_200, cached_tokens=100),  # prefix same: evicted
    )
    for text in ("hello", "how are you", "and now"):
        await world.say("42", text)
    assert await world.prefixes("42") == [("first", False), ("same", False), ("same", True)]

    stats = await world.wrapper.calls.stats(since=START)
    assert (stats.calls, stats.prompt_tokens, stats.cached_tokens) == (3, 6_300, 2_000)
    assert stats.evictions == 1 and stats.prefix_changes == 0
    assert stats.hit_ratio == pytest.approx(2_000 / 6_300)

    days = (datetime.now(UTC) - START).days + 2  # the CLI's window ends at the real now
    result = await asyncio.to_thread(
        CliRunner().invoke, app,
        ["stats", "--since", f"{days}d", "--price-input", "3", "--price-cached", "0.3",
         "--price-output", "15"],
        env={"CLOCKBOT_DATABASE_URL": database_url, "CLOCKBOT_HOME": str(tmp_path)},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "model calls: 3" in result.output
    assert "hit rate 31.7%" in result.output
    assert "evictions: 1" in result.output
    # 4,300 uncached at $3, 2,000 cached at $0.30, 15 completion tokens at $15, per million
    assert "$0.0137" in result.output


async def test_a_changed_system_prompt_warns_once_per_thread_and_compaction_never(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    long = "tell me more about the weather and the time " * 20
    for thread in ("1", "2"):
        await world.say(thread, "hello")
    monkeypatch.setattr(
        bot.agent.prompt, "SYSTEM_PROMPT", bot.agent.prompt.SYSTEM_PROMPT + "\nBe brief."
    )
    with caplog.at_level(logging.WARNING, logger="bot.app.cache_watch"):
        for thread in ("1", "2"):
            await world.say(thread, "still there?")
            await world.say(thread, "good")
        for n in range(4):  # past 2,500 characters: the history is compacted
            await world.say("1", f"{long} {n}")
    warnings = [r.getMessage() for r in caplog.records if "prefix changed" in r.getMessage()]
    assert len(warnings) == 2, warnings
    assert all("the system prompt or the tools" in w for w in warnings)
    one = await world.prefixes("1")
    assert one.count(("changed", False)) == 1 and one[1] == ("changed", False)
    assert ("compacted", False) in one, "the compaction is seen and not counted as a break"
    assert (await world.prefixes("2"))[1:] == [("changed", False), ("same", False)]
    stats = await world.wrapper.calls.stats(since=START)
    assert stats.prefix_changes == 2


@pytest.mark.parametrize("since", ["", "7", "d", "1w", "-1d", "1.5h"])
def test_stats_refuses_a_window_it_cannot_read(since: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["stats", "--since", since],
                                env={"CLOCKBOT_HOME": str(tmp_path)})  # fmt: skip
    assert result.exit_code == 2
    assert "write a number and m, h or d" in result.output


@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_cache_writes_and_llama_cpp_timings_are_recorded(api: str, database_url: str) -> None:
    """Anthropic's ``cache_creation_input_tokens`` are kept apart; llama.cpp's ``timings.cache_n``
    stands for the cached share where it reports no ``prompt_tokens_details``."""
    clock = SettableClock(START)
    wrapper = await InteractionWrapper.open(database_url, clock=clock)
    try:
        async with FakeLLMServer(default_text="Sure.") as server:
            world = World(wrapper, clock, server, api)
            if api == "anthropic":
                server.script(
                    Reply.text("One.", prompt_tokens=2_000, cached_tokens=0,
                               cache_write_tokens=1_800),
                    Reply.text("Two.", prompt_tokens=2_100, cached_tokens=1_800,
                               cache_write_tokens=250),
                )  # fmt: skip
            else:
                server.script(
                    Reply.text("One.", prompt_tokens=2_000, cached_tokens=0, llama_timings=True),
                    Reply.text("Two.", prompt_tokens=2_100, cached_tokens=1_950,
                               llama_timings=True),
                )  # fmt: skip
            await world.say("5", "hello")
            await world.say("5", "again")
            await world.provider.aclose()
    finally:
        stats = await wrapper.calls.stats(since=START)
        recent = await wrapper.calls.recent(limit=5)
        await wrapper.close()
    assert (stats.calls, stats.prompt_tokens) == (2, 4_100)
    if api == "anthropic":
        assert (stats.cached_tokens, stats.cache_write_tokens) == (1_800, 2_050)
        assert [c.cache_write_tokens for c in recent] == [250, 1_800]
    else:
        assert (stats.cached_tokens, stats.cache_write_tokens) == (1_950, 0)
        assert [c.cached_tokens for c in recent] == [1_950, 0]
        assert recent[0].hit_ratio == pytest.approx(1_950 / 2_100)
