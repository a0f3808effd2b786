"""What is due has one source of truth: every change shows at once in the block and the answer.

Issue 61, item 1 (docs/reminders.md, "What is due"). Each step runs through the console
with no LLM (`bot.cli.chat.chat`) on a settable clock and a real SQLite store; after it,
"what's coming up" is asked and the runtime block that question carried is read back
from the stored history, so the answer and the block are checked against each other.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.console import say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York


def _block(home: Path) -> list[str]:
    """The due lines of the runtime block the newest message carried."""
    with sqlite3.connect(home / "clockbot.sqlite3") as db:
        (content,) = db.execute(
            "SELECT content FROM history WHERE role = 'user' ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return re.findall(r"^- (\[(?:DUE|OVERDUE) [^\]]+\] .*)$", content, re.MULTILINE)


async def _coming_up(
    settings: Settings, clock: SettableClock, ask: str
) -> tuple[list[str], list[str]]:
    """(the answer's lines, the block's due lines) for one "what's coming up"."""
    said = await say(settings, clock, ask)
    return said, _block(settings.home)


def _id(block: list[str], what: str) -> str:
    (found,) = [re.search(r"\(id (\w+)\)$", line) for line in block if f"] {what} (id" in line]
    assert found is not None
    return found[1]


async def test_every_change_shows_at_once_in_the_block_and_the_answer(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    ask = "what's coming up"
    await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me tomorrow at 3pm to call the bank", "remind me every day at 8pm to stretch",
    )  # fmt: skip
    said, block = await _coming_up(settings, clock, ask)
    # The repeating one is there, by its next occurrence; each by its reminder's id.
    assert said == [
        "clockbot> Coming up:",
        "- stretch: Wednesday 10 Jun, 20:00 (in 10 hours)",
        "- call the bank: Thursday 11 Jun, 15:00 (in 1 day)",
    ]
    assert [re.sub(r" \(id \w+\)$", "", line) for line in block] == [
        "[DUE 2026-06-10 20:00] stretch",
        "[DUE 2026-06-11 15:00] call the bank",
    ]
    bank, stretch = _id(block, "call the bank"), _id(block, "stretch")
    assert bank.startswith("r") and stretch.startswith("s")

    # Moved: at its new time only, never overdue at its old one.
    await say(settings, clock, "move the 3pm one to 4")
    said, block = await _coming_up(settings, clock, ask)
    assert said[2] == "- call the bank: Thursday 11 Jun, 16:00 (in 1 day)"
    assert block[1] == f"[DUE 2026-06-11 16:00] call the bank (id {bank})"

    # Snoozed by its id: where the snooze put it (two hours later than it was).
    await say(settings, clock, f"snooze {bank} 2 hours")
    said, block = await _coming_up(settings, clock, ask)
    assert said[2] == "- call the bank: Thursday 11 Jun, 18:00 (in 1 day)"
    assert block[1] == f"[DUE 2026-06-11 18:00] call the bank (id {bank})"

    # Paused: each held one shows when it will come.
    await say(settings, clock, "pause my reminders until Saturday")
    said, block = await _coming_up(settings, clock, ask)
    assert said[1:] == [
        "- call the bank: Saturday 13 Jun, 08:00 (in 3 days)",
        "- stretch: Saturday 13 Jun, 20:00 (in 3 days)",
    ]
    await say(settings, clock, "resume my reminders")
    said, block = await _coming_up(settings, clock, ask)
    assert said[1] == "- stretch: Wednesday 10 Jun, 20:00 (in 10 hours)"
    assert said[2] == "- call the bank: Thursday 11 Jun, 18:00 (in 1 day)"

    # Cancelled: gone from both.
    await say(settings, clock, "cancel the bank reminder")
    said, block = await _coming_up(settings, clock, ask)
    assert said == ["clockbot> Coming up:", "- stretch: Wednesday 10 Jun, 20:00 (in 10 hours)"]
    assert block == [f"[DUE 2026-06-10 20:00] stretch (id {stretch})"]

    # Delivered: a second later nothing is overdue, and the next occurrence is shown.
    clock.set(datetime(2026, 6, 11, 0, 0, 1, tzinfo=UTC))
    assert await say(settings, clock) == ["clockbot (reminder)> Reminder: stretch"]
    clock.advance(seconds=1)
    said, block = await _coming_up(settings, clock, ask)
    assert said == ["clockbot> Coming up:", "- stretch: Thursday 11 Jun, 20:00 (in 24 hours)"]
    assert block == [f"[DUE 2026-06-11 20:00] stretch (id {stretch})"]

    # Cancelled, the repeating one too.
    await say(settings, clock, "stop the stretch reminder")
    said, block = await _coming_up(settings, clock, ask)
    assert said == ["clockbot> Nothing is due in the next 7 days."]
    assert block == []


@pytest.mark.parametrize(
    ("language", "lines", "ask", "answer"),
    [
        (
            "es", ["recuérdame mañana a las 15 llamar al banco"], "¿qué tengo pendiente?",
            ["clockbot> Próximamente:", "- llamar al banco: jueves 11 jun, 15:00 (dentro de 1 día)"],
        ),
        (
            "de", ["erinnere mich morgen um 15 Uhr an die Bank"], "was steht an?",
            ["clockbot> Als Nächstes:", "- die Bank: Donnerstag 11 Juni, 15:00 (in 1 Tag)"],
        ),
    ],
)  # fmt: skip
async def test_what_is_coming_up_in_the_persons_language(
    tmp_path: Path, language: str, lines: list[str], ask: str, answer: list[str]
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(settings, clock, "clock: home tz America/New_York", *lines)
    said, block = await _coming_up(settings, clock, ask)
    assert said == answer, language
    assert len(block) == 1 and block[0].startswith("[DUE 2026-06-11 15:00] ")
