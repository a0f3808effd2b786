"""A flood from one person over the fake Bot API: journaled whole, answered within the limit.

The real gateway, the Telegram adapter polling the fake server, a scripted model
(`FakeLLMServer`) whose requests are counted, SQLite. The clock is settable and stands
still while the flood comes in, so the person's bucket (5 turns, 6 a minute) refills only
when the test moves it.
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from bot.app.gateway import Gateway
from bot.config.settings import LimitSettings, Settings
from bot.llm import OpenAIProvider
from bot.replies import OVER_LIMIT
from channels.telegram import TelegramChannel
from clockcore import SettableClock
from tests.support.fake_llm import FakeLLMServer
from tests.support.fake_telegram import FakeTelegram
from wrapper.store import tables as t

FLOOD = 500
LIMIT = LimitSettings(turns_per_minute=6, burst=5, channel_turns_per_minute=0)


def _asked_about(llm: FakeLLMServer, words: str) -> int:
    """Turns the model was asked: requests whose newest message is a person's, ending in `words`.

    (A request to summarise a long history for compaction is not one.)
    """
    found = 0
    for request in llm.completions:
        newest = request.json["messages"][-1]
        content = newest.get("content")
        if newest["role"] == "user" and isinstance(content, str) and "[/Runtime" in content:
            found += words in content.rstrip().splitlines()[-1]
    return found


def _flood_seen(llm: FakeLLMServer) -> set[int]:
    """The flood messages the model saw in any request: as a turn, in a history, in a summary."""
    text = " ".join(json.dumps(r.json["messages"]) for r in llm.completions)
    return {int(n) for n in re.findall(r"flood (\d+)\b", text)}


async def test_a_flood_costs_the_limit_is_kept_whole_and_nobody_else_waits(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    clock = SettableClock(datetime.now(UTC))
    alice, bob = tg.user(11, "alice"), tg.user(22, "bob")
    async with FakeLLMServer(default_text="Noted.") as llm:
        provider = OpenAIProvider(base_url=llm.openai_base_url, model="m", api_key="k")
        gateway = Gateway(
            Settings(home=tmp_path, http_port=0, limit=LIMIT),
            channels=[TelegramChannel(tg.token, api_url=tg.api_url, clock=clock)],
            clock=clock,
            provider=provider,
            poll_interval=0.1,
        )
        async with gateway:
            for n in range(FLOOD):  # 500 messages in about 10 s
                tg.private(alice, f"flood {n}")
                if n == FLOOD // 2:
                    tg.private(bob, "hello, a quick question")
                await asyncio.sleep(0.02)
            # Bob, writing in the middle of it, is answered while the clock stands still.
            await tg.wait_until(lambda: any(m.chat_id == bob.id for m in tg.sent), "Bob's answer")
            await tg.wait_until(lambda: not tg.updates, "every update confirmed", timeout=30)
            await gateway.settle(timeout=30)

            def journaled(conn: Connection) -> int:
                query = select(func.count()).where(t.journal.c.user_key == f"telegram:{alice.id}")
                return int(conn.execute(query).scalar_one())

            assert await gateway.wrapper.database.run(journaled) == FLOOD
            to_alice = [m.plain for m in tg.sent if m.chat_id == alice.id]
            assert _asked_about(llm, "flood") == LIMIT.burst, "the burst, and no more"
            assert to_alice.count(OVER_LIMIT.en) == 1, "one notice"
            assert len(to_alice) == LIMIT.burst + 1
            assert _asked_about(llm, "a quick question") == 1
            assert [m.plain for m in tg.sent if m.chat_id == bob.id] == ["Noted."]

            # A turn comes back: the newest message is answered, the rest folded before it.
            clock.advance(timedelta(seconds=11))
            await tg.wait_until(
                lambda: len([m for m in tg.sent if m.chat_id == alice.id]) > len(to_alice),
                "the answer after the hold",
                timeout=30,
            )
            await gateway.settle(timeout=30)
            to_alice = [m.plain for m in tg.sent if m.chat_id == alice.id]

    assert _asked_about(llm, "flood") == LIMIT.burst + 1
    assert len(to_alice) == LIMIT.burst + 2
    assert _asked_about(llm, f"flood {FLOOD - 1}") == 1, "the newest message is the one answered"
    # Nothing was lost on the way: every message reached the model, as a turn of its own,
    # in the history before the answer, or in the summary of that history.
    assert _flood_seen(llm) == set(range(FLOOD))
