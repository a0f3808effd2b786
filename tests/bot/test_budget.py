"""Requests answered without the model count against the person's budget (issue 35, row 7).

"/mydata" (an export of every row of theirs), "dashboard" (a sign-in link) and the erasure
ran before the per-person limit: one account could ask for exports without end. The real
gateway with the rules agent and a tight limit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import LimitSettings, Settings
from bot.replies import OVER_LIMIT
from tests.bot.test_gateway import RecordingChannel, inbound

LIMIT = LimitSettings(turns_per_minute=0.01, burst=2, channel_turns_per_minute=0)


@pytest.mark.parametrize("ask", ["/mydata", "what do you know about me", "dashboard"])
async def test_asking_for_ones_data_over_and_over_stops_at_the_budget(
    tmp_path: Path, ask: str
) -> None:
    channel = RecordingChannel()
    settings = Settings(
        home=tmp_path, http_port=0, limit=LIMIT, public_url="https://clock.example.org"
    )
    async with Gateway(settings, channels=[channel]) as gw:
        assert channel.sink is not None
        for n in range(6):
            await channel.sink(inbound(ask, f"ask-{n}"))
            await gw.settle()
    answers = [sent.text for sent in channel.sent]
    served = [a for a in answers if a.startswith(("Here is what I keep", "Here is your page"))]
    assert len(served) == LIMIT.burst
    assert OVER_LIMIT.en in answers
