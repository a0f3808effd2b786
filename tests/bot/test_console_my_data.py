""" "What do you know about me" on the console: true, complete in its counts, in a person's words.

Tried as a new user (issue 61): the listing showed ISO stamps with offsets and stopped after
ten items with no word of the rest (the store held about fifty reminders).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from bot.config import Settings
from clockcore import SettableClock
from tests.support.console import say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 16:00 in Berlin


async def test_what_it_keeps_is_listed_in_local_words_and_the_rest_is_counted(
    tmp_path: Path,
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    asks = [f"remind me tomorrow at {hour}:00 to do task {hour}" for hour in range(8, 20)]
    await say(settings, clock, "clock: home tz Europe/Berlin", *asks)
    said = "\n".join(await say(settings, clock, "what do you know about me"))
    to_send = re.findall(r"^- to send you on (.+): do task (\d+)$", said, re.MULTILINE)
    assert len(to_send) == 10
    assert to_send[0] == ("Thursday 11 Jun 2026, 08:00", "8")
    assert "- and 2 more to send" in said
    assert not re.search(r"\d{4}-\d\d-\d\dT|[+-]\d\d:\d\d\b", said), said  # no ISO, no offset
