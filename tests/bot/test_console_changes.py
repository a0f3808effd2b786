"""A change touches only what its words name; "make that 11" changes the reminder just set.

Issue 61, item 6 (docs/reminders.md, "Decisions"): through the console with no LLM, on a
settable clock and a real SQLite store, checking what was said and what was stored.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.config import Settings
from clockcore import SettableClock
from tests.support.console import say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York


def _waiting(home: Path) -> list[tuple[object, ...]]:
    """(id, text, due_at) of every reminder job still to go out."""
    with sqlite3.connect(home / "clockbot.sqlite3") as db:
        return db.execute(
            "SELECT id, text, due_at FROM outbox WHERE kind = 'reminder' "
            "AND status IN ('pending', 'deferred') ORDER BY due_at"
        ).fetchall()


async def test_a_move_to_a_day_keeps_its_time(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(
        settings, clock, "clock: home tz America/New_York", "remind me tomorrow at 10 to buy bread"
    )
    [(job, _, _)] = _waiting(tmp_path)
    said = await say(settings, clock, "move the bread reminder to Saturday")
    assert said == ["clockbot> Moved: buy bread, to Saturday 13 Jun, 10:00 (in 3 days)."]
    said = await say(settings, clock, "move the bread reminder to June 20")
    assert said == ["clockbot> Moved: buy bread, to Saturday 20 Jun, 10:00 (in 1 week)."]
    # A time named is that time on its own day.
    said = await say(settings, clock, "move the bread reminder to 4pm")
    assert said == ["clockbot> Moved: buy bread, to Saturday 20 Jun, 16:00 (in 1 week)."]
    assert _waiting(tmp_path) == [(job, "buy bread", "2026-06-20 20:00:00.000000")]


async def test_make_that_changes_the_reminder_just_set(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me tomorrow at 10 to buy bread", "remind me friday at 3pm to call mum",
        "actually make that 4", "move it to Saturday",
    )  # fmt: skip
    assert said[3:] == [
        "clockbot> Moved: call mum, to Friday 12 Jun, 16:00 (in 2 days).",
        "clockbot> Moved: call mum, to Saturday 13 Jun, 16:00 (in 3 days).",
    ]
    waiting = _waiting(tmp_path)
    assert [(text, at) for _, text, at in waiting] == [
        ("buy bread", "2026-06-11 14:00:00.000000"),
        ("call mum", "2026-06-13 20:00:00.000000"),
    ]
    said = await say(settings, clock, "remind me tomorrow at 8am to water the plants")
    assert await say(settings, clock, "make it 9") == [
        "clockbot> Moved: water the plants, to Thursday 11 Jun, 09:00 (in 23 hours)."
    ]
    assert len(_waiting(tmp_path)) == 3
    # A bare 12 is noon, never the midnight before (issue 61: an 11:00 one went to 00:00).
    assert await say(settings, clock, "move it to 12") == [
        "clockbot> Moved: water the plants, to Thursday 11 Jun, 12:00 (in 1 day)."
    ]


async def test_a_pause_says_what_it_holds(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me tomorrow at 10 to buy bread", "remind me on June 20 at 9am to pay rent",
        "pause my reminders until Saturday",
    )  # fmt: skip
    assert said[3:] == [
        "clockbot> Paused until Saturday 13 Jun, 08:00 (in 3 days). These come then instead:",
        "- buy bread, due Thursday 11 Jun, 10:00 (in 1 day)",
    ]
    assert [(text, at) for _, text, at in _waiting(tmp_path)] == [
        ("buy bread", "2026-06-13 12:00:00.000000"),  # Saturday, 08:00 in New York
        ("pay rent", "2026-06-20 13:00:00.000000"),
    ]
