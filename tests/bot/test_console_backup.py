"""A backup restores a person's reminders: what they were told before is true in the new home.

Issue 61, item 2 (docs/data.md, "A backup"). A person sets a one-shot and a repeating
reminder on the console (no LLM, a settable clock, a real SQLite store) and pauses the
repeating one; `clockbot state export` writes the home's backup, `clockbot state import`
restores it into a fresh home, and there "what's coming up" and "list my reminders" say
what they said in the old home, the outbox holds the same jobs at the same times, and the
reminders really go out.

The tests are synchronous: the CLI runs its own event loop (`asyncio.run`), as it does for
an operator, and each console session runs in one too.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli.main import app
from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York
WAITING = (
    "SELECT id, kind, text, status, due_at, schedule_id FROM outbox "
    "WHERE kind = 'reminder' AND status IN ('pending', 'deferred') ORDER BY id"
)
cli = CliRunner()


def _said(home: Path, clock: SettableClock, *lines: str) -> list[str]:
    return asyncio.run(say(Settings(home=home), clock, *lines))


def _move(old: Path, new: Path) -> str:
    """Back up `old` with the CLI and restore it into `new`; what the import said."""
    backup = old.parent / f"{old.name}-backup.json"
    exported = cli.invoke(
        app, ["state", "export", str(backup), "--database-url", f"sqlite:///{old}/clockbot.sqlite3"]
    )
    assert exported.exit_code == 0, exported.output
    new.mkdir()
    imported = cli.invoke(
        app, ["state", "import", str(backup), "--database-url", f"sqlite:///{new}/clockbot.sqlite3"]
    )
    assert imported.exit_code == 0, imported.output
    return imported.stdout.replace(str(backup), "backup.json")


def test_a_restored_home_lists_sends_and_resumes_what_the_old_one_held(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    clock = SettableClock(WEDNESDAY)
    _said(
        old, clock, "clock: home tz America/New_York",
        "remind me tomorrow at 3pm to call the bank", "remind me every day at 8pm to stretch",
    )  # fmt: skip
    listed = _said(old, clock, "list my reminders")
    found = re.search(r"- (s\d+): stretch", listed[1])
    assert found is not None, listed
    stretch = found[1]
    assert _said(old, clock, f"pause {stretch}") == ["clockbot> Paused until you resume them."]
    asked = ("what's coming up", "list my reminders")
    before = _said(old, clock, *asked)
    assert before == [
        "clockbot> Coming up:",
        "- call the bank: Thursday 11 Jun, 15:00 (in 1 day)",
        "clockbot> Your reminders:",
        f"- {stretch}: stretch (every day at 20:00), paused",
        "- r2: call the bank, next: Thursday 11 Jun, 15:00 (in 1 day)",
    ]
    waiting = rows(old, WAITING)

    told = _move(old, new)
    assert told == (
        "Imported 1 person, 2 reminders (1 repeating), 1 memory item and 1 conversation "
        "from backup.json.\n"
    )
    assert (
        rows(new, WAITING)
        == waiting
        == [(2, "reminder", "call the bank", "pending", "2026-06-11 19:00:00.000000", None)]
    )
    assert _said(new, clock, *asked) == before

    # The one-shot goes out at its time from the new home; the paused one stays quiet.
    clock.set(datetime(2026, 6, 11, 19, 0, 1, tzinfo=UTC))
    assert _said(new, clock) == ["clockbot (reminder)> Reminder: call the bank"]
    clock.set(datetime(2026, 6, 12, 0, 0, 1, tzinfo=UTC))  # 20:00 in New York
    assert _said(new, clock) == []

    # Resumed by the id the person knew, the repeating one comes at its next 8pm.
    assert _said(new, clock, f"resume {stretch}")[0].startswith("clockbot> ")
    assert _said(new, clock, "list my reminders") == [
        "clockbot> Your reminders:",
        f"- {stretch}: stretch (every day at 20:00), next: Friday 12 Jun, 20:00 (in 24 hours)",
    ]
    clock.set(datetime(2026, 6, 13, 0, 0, 1, tzinfo=UTC))
    assert _said(new, clock) == ["clockbot (reminder)> Reminder: stretch"]


@pytest.mark.parametrize(
    ("zone", "lines", "ask"),
    [
        ("Europe/Madrid", ["recuérdame mañana a las 15 llamar al banco",
                           "recuérdame todos los días a las 20 estirar"], "¿qué tengo pendiente?"),
        ("Europe/Berlin", ["erinnere mich morgen um 15 Uhr an die Bank",
                           "erinnere mich jeden Tag um 20 Uhr ans Dehnen"], "was steht an?"),
        ("America/New_York", ["remind me tomorrow at 3pm to call the bank",
                              "remind me every day at 8pm to stretch"], "what's coming up"),
    ],
    ids=["es", "de", "en"],
)  # fmt: skip
def test_what_is_coming_up_is_the_same_after_a_restore(
    tmp_path: Path, zone: str, lines: list[str], ask: str
) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    clock = SettableClock(WEDNESDAY)
    _said(old, clock, f"clock: home tz {zone}", *lines)
    before = _said(old, clock, ask)
    assert len(before) == 3, before  # the heading, the one-shot and the repeating one
    waiting = rows(old, WAITING)
    assert "2 reminders (1 repeating)" in _move(old, new)
    assert _said(new, clock, ask) == before
    assert rows(new, WAITING) == waiting
