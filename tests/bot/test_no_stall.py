"""A message that is slow to read does not hold up anybody else's answer (issue 35, row 6).

Duckling's native parse holds the GIL and grows faster than its input on digit-heavy text:
one 4,090-character "remind me 1.1.1…" message stalled every other chat for 5 s. Now the
gateway reads in Duckling's child processes (`bot.app.duckling_pool`) with a time
limit, and long texts are read on a worker thread. The measure is the issue's: how long
another chat's answer takes while the worst messages are read, against a normal turn
measured in the same run (a ratio, not a fixed duration).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest

from bot.app.gateway import Gateway
from bot.config.settings import LLMSettings, Settings
from channels.base import Inbound, Outgoing
from clockcore.parsing import duckling_reader
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support.fake_llm import FakeLLMServer

WORST = [
    "remind me " + "1.1." * 1_000,
    "tomorrow at 9 " * 300,
    "9:00 " * 800,
    "1." * 2_000,
]


class _Channel(RecordingChannel):
    """The recording channel, telling waiters when something was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = asyncio.Event()

    async def send(self, message: Outgoing) -> None:
        await super().send(message)
        self.arrived.set()


async def _answered(channel: _Channel, user: str, count: int) -> None:
    while sum(1 for sent in channel.sent if sent.user_id == user) < count:
        channel.arrived.clear()
        await channel.arrived.wait()


async def _turn_time(gw: Gateway, channel: _Channel, user: str, n: int) -> float:
    """Seconds from a person's message to its answer."""
    assert channel.sink is not None
    before = sum(1 for sent in channel.sent if sent.user_id == user)
    started = time.perf_counter()
    await channel.sink(
        inbound("what time is it in Tokyo?", f"{user}-{n}", user_id=user, thread_id=f"dm:{user}",
                route={"chat": user})
    )  # fmt: skip
    await asyncio.wait_for(_answered(channel, user, before + 1), 60)
    return time.perf_counter() - started


async def beside_the_worst(tmp_path: Path, worst: str) -> tuple[float, float, _Channel]:
    """A normal turn's seconds (the slowest of five), another chat's turn while `worst` is
    being read, and the channel with everything sent."""
    channel = _Channel()
    settings = Settings(home=tmp_path, http_port=0)
    async with Gateway(settings, channels=[channel], poll_interval=0.05) as gw:
        assert duckling_reader.isolated()
        await _turn_time(gw, channel, "8", 0)  # the first turn starts what later ones reuse
        normal = max([await _turn_time(gw, channel, "8", n) for n in range(1, 6)])
        sink = channel.sink
        assert sink is not None
        slow = asyncio.create_task(
            sink(inbound(worst, "worst", user_id="7", thread_id="dm:7", route={"chat": "7"}))
        )
        await asyncio.sleep(0.005)  # the worst message is being read
        meanwhile = await _turn_time(gw, channel, "9", 0)
        await slow
        await asyncio.wait_for(_answered(channel, "7", 1), 60)
        await gw.settle()
    return normal, meanwhile, channel


@pytest.mark.skipif(not duckling_reader.available(), reason="Duckling has no wheel here")
@pytest.mark.parametrize("worst", WORST, ids=lambda text: repr(text[:12]))
async def test_a_worst_message_and_another_chats_are_each_answered_once(
    tmp_path: Path, worst: str
) -> None:
    normal, meanwhile, channel = await beside_the_worst(tmp_path, worst)
    print(f"normal turn {normal * 1000:.0f} ms; beside the worst message {meanwhile * 1000:.0f} ms")
    answers = {user: [m.text for m in channel.sent if m.user_id == user] for user in ("7", "9")}
    assert len(answers["7"]) == 1 and len(answers["9"]) == 1, answers
    assert "Tokyo" in answers["9"][0]
    # How long the other chat waited, against a normal turn, is bench/no_stall_bench.py's
    # figure (before the reader moved off the loop: 0.2 to 5 s; now within a normal turn).


SLOW_TIME = "remind me " + "tomorrow at nine, " * 6
"""108 characters Duckling took 26 s to read whole: six day words, and hours written as words."""


async def _healthz_waits(gw: Gateway, until: asyncio.Future[object]) -> list[float]:
    """Seconds each `/healthz` took, asked every 50 ms until `until` is done (90 s at most)."""
    url = f"http://127.0.0.1:{gw.http_port}/healthz"
    waits: list[float] = []
    async with aiohttp.ClientSession() as session, asyncio.timeout(90):
        while not until.done():
            started = time.perf_counter()
            async with session.get(url) as response:
                await response.read()
            waits.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)
        await until
    return waits


def _message(text: str, person: str) -> Inbound:
    return inbound(text, f"m-{person}", user_id=person, thread_id=f"dm:{person}",
                   route={"chat": person})  # fmt: skip


@pytest.mark.skipif(not duckling_reader.available(), reason="Duckling has no wheel here")
async def test_healthz_answers_within_a_second_while_three_slow_time_texts_are_read(
    tmp_path: Path,
) -> None:
    """Issue 59, row 2: three at once once held `/healthz` 26 s (the third read in-process)."""
    channel = _Channel()
    settings = Settings(home=tmp_path, http_port=0)
    async with Gateway(settings, channels=[channel], poll_interval=0.05) as gw:
        sink = channel.sink
        assert sink is not None
        people = ("1", "2", "3")
        reads = [asyncio.create_task(sink(_message(SLOW_TIME, p))) for p in people]
        answered = asyncio.gather(*(_answered(channel, p, 1) for p in people))
        waits = await _healthz_waits(gw, answered)
        await asyncio.gather(*reads)
        await gw.settle()
    assert max(waits) < 1.0, f"/healthz waited {max(waits):.2f} s"


BRACE_REPLY = '{{"name": ' * 200 + "}}" * 200
"""2,000 characters of doubled braces: the written-call scan took 9 s on them, on the loop."""


async def test_healthz_answers_within_a_second_while_a_brace_reply_is_scanned(
    tmp_path: Path,
) -> None:
    """Issue 59, row 7, black-box: the model answers three people with `BRACE_REPLY`."""
    channel = _Channel()
    async with FakeLLMServer(default_text=BRACE_REPLY) as server:
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
        settings = Settings(home=tmp_path, http_port=0, llm=llm)
        async with Gateway(settings, channels=[channel], poll_interval=0.05) as gw:
            sink = channel.sink
            assert sink is not None
            people = ("1", "2", "3")
            for person in people:
                await sink(_message("what do you make of this?", person))
            answered = asyncio.gather(*(_answered(channel, p, 1) for p in people))
            waits = await _healthz_waits(gw, answered)
            await gw.settle()
        assert server.completions, "the model was asked"
    assert len(waits) >= 1
    assert max(waits) < 1.0, f"/healthz waited {max(waits):.2f} s"
