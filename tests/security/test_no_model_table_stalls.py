"""One short message that holds the event loop in the no-model table (`bot.turns.commands`).

The table's matchers run on the event loop, in `Turns._turn`, for every message
(docs/SECURITY.md, "Slow input"). Two of them take seconds on a message of a
few dozen characters or a few kilobytes, and meanwhile nothing else this worker
serves moves: `/healthz`, every other person's turn. The message stays on the
waiting list until answered, so each worker that claims it again stalls again.

Black-box, as the earlier stall findings were shown: `/healthz` is asked every
50 ms while the message's turn runs; it must answer within a second. A stall that
falls between two asks counts too (`_loop_waits`): the pause then outlasts its 50 ms.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from tests.bot.test_gateway import inbound
from tests.bot.test_no_stall import _answered, _Channel

VOTE_SHAPED = "vote 1" + "  1" * 21 + " x"
"""71 characters: `channels.poll_votes._VOTE` splits each double space three ways
(``\\s*``, separator, ``\\s*``) before the trailing "x" fails it, so the match tries
about 2^21 ways (1.8x per extra gap: 2.5 s at 20 gaps, 20 s at 24, hours at 40)."""

ZONE_LINES = "clock: tz Europe/Pariss\n" * 400
"""9,600 characters: every line is a directive with an unknown zone, and each costs a
`difflib` suggestion (about 12 ms, `clockcore.geo.zones._suggest`). `person_wide` (a group
message) and `privileged` (unproven mail) parse the whole text on the loop: 400 lines
are about 5 s; a 100 KB mail is about 50 s, a 40 KB Slack message 20 s."""


async def _loop_waits(gw: Gateway, until: asyncio.Future[object]) -> list[float]:
    """Seconds each `/healthz` and the 50 ms pause after it took beyond those 50 ms, until
    `until` is done (90 s at most): what the event loop kept anything waiting."""
    url = f"http://127.0.0.1:{gw.http_port}/healthz"
    waits: list[float] = []
    async with aiohttp.ClientSession() as session, asyncio.timeout(90):
        while not until.done():
            started = time.perf_counter()
            async with session.get(url) as response:
                assert response.status == 200
                await response.read()
            await asyncio.sleep(0.05)
            waits.append(time.perf_counter() - started - 0.05)
        await until
    return waits


async def _healthz_while_answered(tmp_path: Path, text: str, **changes: object) -> list[float]:
    channel = _Channel()
    settings = Settings(home=tmp_path, http_port=0)
    async with Gateway(settings, channels=[channel], poll_interval=0.05) as gw:
        sink = channel.sink
        assert sink is not None
        await sink(inbound(text, "evil-1", user_id="7", **changes))
        answered = asyncio.ensure_future(_answered(channel, "7", 1))
        waits = await _loop_waits(gw, answered)
        await gw.settle()
    assert waits, "/healthz was asked while the turn ran"
    return waits


@pytest.mark.timeout(240)
async def test_a_vote_shaped_reply_does_not_hold_the_loop(tmp_path: Path) -> None:
    # Any reply counts: an email's In-Reply-To, a Telegram or Slack reply to any message.
    waits = await _healthz_while_answered(tmp_path, VOTE_SHAPED, reply_to="any-message-id")
    assert max(waits) < 1.0, f"the loop held /healthz {max(waits):.2f} s"


@pytest.mark.timeout(240)
async def test_many_unknown_zone_lines_in_a_group_do_not_hold_the_loop(tmp_path: Path) -> None:
    waits = await _healthz_while_answered(
        tmp_path, ZONE_LINES, thread_id="group:1", route={"chat": "group-1"}
    )
    assert max(waits) < 1.0, f"the loop held /healthz {max(waits):.2f} s"
