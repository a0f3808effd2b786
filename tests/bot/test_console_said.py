"""Every confirmation is said, and clockbot's own advice works, on the console (issue 61).

Items 7 and 4: "delete my data: yes" prints its confirmation (the console has no
route, and the erasure's last word skips the outbox); ids work wherever a person can
type them; "cancel all my reminders" asks first; a reminder set twice says so. Each
runs through `bot.chat.chat` with no LLM on a real SQLite store, and checks what was
said and what was stored.
"""

from __future__ import annotations

import io
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.chat import chat
from bot.config import Settings
from bot.my_data import ERASE_ASK_REPLY, ERASED_REPLY
from clockcore import SettableClock

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York


async def _say(settings: Settings, clock: SettableClock, *lines: str) -> list[str]:
    out = io.StringIO()
    await chat(
        settings, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out,
        clock=clock, poll_interval=0.01, linger=timedelta(seconds=0.2),
    )  # fmt: skip
    return out.getvalue().splitlines()


def _rows(home: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(home / "clockbot.sqlite3") as db:
        return db.execute(sql).fetchall()


async def test_deleting_my_data_is_confirmed_on_the_console(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await _say(
        settings, clock, "clock: home tz America/New_York",
        "remind me tomorrow at 3pm to call the bank", "delete my data", "delete my data: yes",
    )  # fmt: skip
    assert said[-2:] == [f"clockbot> {ERASE_ASK_REPLY}", f"clockbot> {ERASED_REPLY}"]
    assert _rows(tmp_path, "SELECT * FROM memory_items") == []
    assert _rows(tmp_path, "SELECT * FROM users") == []
    assert _rows(tmp_path, "SELECT * FROM outbox WHERE status IN ('pending', 'deferred')") == []
