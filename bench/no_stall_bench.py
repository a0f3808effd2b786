"""Another chat's turn while a worst-case message is read, against a normal turn (a ratio).

Duckling's native parse once held the GIL for seconds on digit-heavy text and every
other chat waited (`tests/bot/test_no_stall.py` holds that both are answered). This prints,
for each of that test's worst messages, the slowest of five normal turns, the other chat's
turn beside the worst message, and their ratio, all measured in one run. Goal: a ratio
near 1 (the other chat waits no longer than a normal turn, plus a scheduler's slack).

Then, for the inputs of issue 59's review, the worst stall of the event loop (how late a
10 ms tick came) while each is processed: three slow time texts at once through a gateway,
a 2,000-character reply of doubled braces scanned for written tool calls, and a calendar
feed of three paused every-minute reminders three days old. This half uses only what every
commit since the review has, so it runs against the code before the fixes too
(``PYTHONPATH=<old checkout>``); bench/README.md keeps both.

Run: ``.venv/bin/python bench/no_stall_bench.py`` (about a minute; ``--stalls`` for the
second half alone).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bot.test_no_stall import WORST, beside_the_worst

SLOW_TIME = "remind me " + "tomorrow at nine, " * 6
BRACES = '{{"name": ' * 200 + "}}" * 200


async def _worst_stall(work: Callable[[], Awaitable[object]]) -> float:
    """The latest a 10 ms tick of the event loop came while `work` ran, in seconds."""
    worst = 0.0
    done = asyncio.Event()

    async def tick() -> None:
        nonlocal worst
        while not done.is_set():
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - started - 0.01)

    ticker = asyncio.create_task(tick())
    try:
        await work()
    finally:
        done.set()
        await ticker
    return worst


async def _three_slow_texts(home: Path) -> float:
    """The worst stall while three slow time texts are read at once (the gateway started)."""
    from bot.app.gateway import Gateway
    from bot.config.settings import Settings
    from tests.bot.test_gateway import RecordingChannel, inbound

    channel = RecordingChannel()
    async with Gateway(Settings(home=home, http_port=0), channels=[channel]) as gw:
        assert channel.sink is not None
        sink = channel.sink
        await sink(inbound("what time is it in Tokyo?", "warm", route={"chat": "7"}))
        await gw.settle()

        async def read() -> None:
            await asyncio.gather(
                *(
                    sink(inbound(SLOW_TIME, f"s{n}", user_id=str(n), thread_id=f"dm:{n}",
                                 route={"chat": str(n)}))
                    for n in range(3)
                )
            )  # fmt: skip
            await gw.settle(timeout=300)

        return await _worst_stall(read)


async def _brace_reply() -> None:
    from bot.llm.text_calls import read_calls

    read_calls(BRACES[:2_000], ("remember", "remind"))


async def _heavy_feed(home: Path) -> None:
    import aiohttp

    from clockcore import parse_recurrence
    from tests.bot.test_web import open_site
    from wrapper.outbound.schedules import NewSchedule, new_schedule_id

    async with open_site(home, f"sqlite:///{home / 'feed.sqlite3'}") as site:
        assert site.channel.sink is not None
        now = datetime.now(UTC)
        from tests.bot.test_gateway import inbound

        await site.channel.sink(inbound("hello", "h0", route={"chat": "7"}))
        await site.gw.settle()
        for n in range(3):
            rule = parse_recurrence("every minute", "Europe/Berlin", now - timedelta(days=3))
            assert rule.rrule is not None
            assert rule.dtstart is not None
            new = NewSchedule(
                id=new_schedule_id(), user_key="test:7", thread_key="agent:main:test:dm:7",
                channel="test", thread_id="dm:7", user_id="7", text=f"stretch {n}",
                rrule=rule.rrule, dtstart=rule.dtstart, zone=None, origin_tz="Europe/Berlin",
                elapsed=rule.elapsed, missed="one",
            )  # fmt: skip
            await site.gw.wrapper.reminders.create(new, now=now)
            await site.gw.wrapper.reminders.pause(
                "test:7", new.id, now=now, until=now + timedelta(days=7)
            )
        before = len(site.channel.sent)
        await site.channel.sink(inbound("calendar", "c1", route={"chat": "7"}))
        await site.gw.settle()
        reply = site.channel.sent[before].text
        link = next(word for word in reply.split() if "/calendar/" in word)
        url = site.base + link[link.index("/calendar/") :]

        async def fetch() -> None:
            async with aiohttp.ClientSession() as client, client.get(url) as response:
                await response.read()

        print(f"{'heavy feed':<28} {await _worst_stall(fetch) * 1e3:>10.0f}")


async def stalls() -> None:
    print(f"{'input (issue 59)':<28} {'stall ms':>10}")
    with tempfile.TemporaryDirectory() as home:
        stall = await _three_slow_texts(Path(home))
    print(f"{'three slow time texts':<28} {stall * 1e3:>10.0f}")
    print(f"{'2,000-char brace reply':<28} {await _worst_stall(_brace_reply) * 1e3:>10.0f}")
    with tempfile.TemporaryDirectory() as home:
        await _heavy_feed(Path(home))


async def main() -> None:
    if "--stalls" not in sys.argv:
        print(f"{'worst message':<18} {'normal ms':>10} {'beside ms':>10} {'ratio':>6}")
        for worst in WORST:
            with tempfile.TemporaryDirectory() as home:
                normal, meanwhile, _ = await beside_the_worst(Path(home), worst)
            ratio = meanwhile / normal
            print(
                f"{worst[:12]!r:<18} {normal * 1e3:>10.0f} {meanwhile * 1e3:>10.0f} {ratio:>6.2f}"
            )
        print()
    await stalls()


if __name__ == "__main__":
    asyncio.run(main())
