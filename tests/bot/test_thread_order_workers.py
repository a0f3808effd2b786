"""Two workers on one PostgreSQL, one thread: its turns run one at a time, in arrival order.

Two gateways share a real PostgreSQL store and a fake OpenAI-compatible model (the real SDK).
Worker A takes message 1 of a thread and the model is slow; worker B takes message 2 of the
same thread a moment later (webhooks behind a load balancer do this). B's turn waits for A's,
so B's request to the model already holds A's answer, and the thread's history is in order.
Issue 14, "Turn order across workers".
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from bot.llm import OpenAIProvider
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support.fake_llm import FakeLLMServer, Reply


def _worker(home: Path, postgres_url: str, server: FakeLLMServer) -> Gateway:
    home.mkdir()
    provider = OpenAIProvider(
        base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
    )
    settings = Settings(home=home, database_url=postgres_url, http_port=0)
    return Gateway(settings, channels=[RecordingChannel()], provider=provider, poll_interval=0.05)


@pytest.mark.peer("postgres")
async def test_a_second_workers_turn_waits_for_the_first_and_sees_its_answer(
    tmp_path: Path, postgres_url: str
) -> None:
    async with FakeLLMServer() as server:
        server.script(Reply.slow(1.5, Reply.text("answer one")), Reply.text("answer two"))
        first = _worker(tmp_path / "a", postgres_url, server)
        second = _worker(tmp_path / "b", postgres_url, server)
        async with first, second:
            sent = datetime.now(UTC)
            await first.accept(inbound("message one", "m1", received_at=sent))
            await asyncio.sleep(0.3)  # the first turn is with the model
            later = sent + timedelta(seconds=1)
            await second.accept(inbound("message two", "m2", received_at=later))
            await first.settle(timeout=20)
            await second.settle(timeout=20)
            history = await second.wrapper.history.load("agent:main:test:dm:7")
    requests = [r.json for r in server.completions]
    assert len(requests) == 2
    second_request = str(requests[1]["messages"])
    assert "message one" in second_request and "answer one" in second_request
    words = ("message one", "answer one", "message two", "answer two")
    said = [
        next(w for w in words if w in m.content)
        for m in history
        if any(w in m.content for w in words)
    ]
    assert said == list(words)
