"""The reminders page's example lines, piped into the console with no LLM, answer as the page says.

`bot.cli.chat.chat` is what ``clockbot chat`` runs; here on a settable clock and a real SQLite
store, with `linger` so reminders that fall due after the input ends are printed. Issue 13,
acceptance "Console".
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from bot.config.settings import Settings
from bot.llm.rules_agent import ZONE_QUESTION
from clockcore import SettableClock
from tests.support.console import say

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reminders.md"
WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York


def _page_blocks() -> list[list[str]]:
    """The lines of the reminders page's two examples, without their comments."""
    section = PAGE.read_text().split("# Reminders", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```text\n(.*?)```", section, re.DOTALL)
    return [[re.sub(r"\s{2,}\(.*\)$", "", line).strip() for line in b.splitlines()] for b in blocks]


async def _session(settings: Settings, clock: SettableClock, lines: list[str]) -> list[str]:
    return await say(settings, clock, *lines)


async def test_the_reminders_page_lines_answer_correctly(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    setting_up, on_arrival = _page_blocks()
    assert on_arrival == ["snooze 20 min", "remind me again tonight", "stop this one"]
    out = await _session(settings, clock, setting_up)
    text = "\n".join(out)
    assert out[0] == "clockbot> Your home timezone is now America/New_York."
    assert out[1] == "clockbot> I'll remind you Thursday 11 Jun, 15:00 (in 1 day)."
    assert out[2].startswith(
        "clockbot> Set: submit the timesheet, repeating. Next: Thursday 11 Jun, 09:00 (in 23 "
        "hours); Friday 12 Jun, 09:00 (in 2 days); Monday 15 Jun, 09:00 (in 5 days)."
    )
    assert out[3].startswith("clockbot> Set: stretch, repeating. Next: Wednesday 10 Jun, 20:00")
    assert "clockbot> Your reminders:" in text
    assert re.search(
        r"- s\d{4}: submit the timesheet \(every weekday at 09:00\), next: Thursday 11 Jun, 09:00",
        text,
    )
    assert re.search(r"- r\d+: call the bank, next: Thursday 11 Jun, 15:00", text)
    assert "clockbot> Moved: call the bank, to Thursday 11 Jun, 16:00 (in 1 day)." in out
    # The pause says what it holds (docs/reminders.md, "Decisions").
    paused = out.index(
        "clockbot> Paused until Monday 15 Jun, 08:00 (in 5 days). These come then instead:"
    )
    assert out[paused + 1] == "- call the bank, due Thursday 11 Jun, 16:00 (in 1 day)"
    assert "clockbot> Your reminders are back on." in out
    assert re.match(r"clockbot> Canceled s\d+\.$", out[-1])
    # 20:00 in New York: the daily stretch arrives while the console lingers.
    clock.set(datetime(2026, 6, 11, 0, 0, 5, tzinfo=UTC))
    assert await _session(settings, clock, []) == ["clockbot (reminder)> Reminder: stretch"]
    snoozed = await _session(settings, clock, ["snooze 20 min"])
    assert snoozed == ["clockbot> Snoozed: stretch, until Wednesday 10 Jun, 20:20 (in 20 minutes)."]
    clock.advance(minutes=20)
    assert await _session(settings, clock, []) == ["clockbot (reminder)> Reminder: stretch"]
    (stopped,) = await _session(settings, clock, ["stop this one"])
    assert re.match(r"clockbot> Canceled s\d+\.$", stopped)
    # The moved one-shot comes at 16:00 tomorrow; the stretch never again.
    clock.set(datetime(2026, 6, 11, 20, 0, 5, tzinfo=UTC))
    assert await _session(settings, clock, []) == ["clockbot (reminder)> Reminder: call the bank"]
    clock.advance(days=3)
    assert await _session(settings, clock, []) == []


async def test_a_time_before_the_zone_is_known_is_asked_a_duration_is_set(tmp_path: Path) -> None:
    """ "tomorrow at 9am" in an unknown zone would be 9am UTC: the person is asked instead."""
    clock = SettableClock(WEDNESDAY)
    replies = await _session(
        Settings(home=tmp_path), clock,
        ["remind me tomorrow at 9am to call mum", "remind me in 10 minutes to stretch",
         "clock: home tz America/New_York", "remind me tomorrow at 9am to call mum"],
    )  # fmt: skip
    assert replies[0] == f"clockbot> {ZONE_QUESTION}"
    assert replies[1] == "clockbot> I'll remind you Wednesday 10 Jun, 14:10 (in 10 minutes)."
    assert replies[3] == "clockbot> I'll remind you Thursday 11 Jun, 09:00 (in 23 hours)."


async def test_snoozing_a_reminder_not_yet_due_moves_it_later_never_earlier(
    tmp_path: Path,
) -> None:
    """Tried as a new user (issue 61): "snooze r12 30 min" on a reminder due tomorrow at
    06:00 moved it to 30 minutes from now, ten hours earlier; "1h" read as 01:00."""
    from tests.support.console import rows

    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)  # 10:00 in New York
    said = await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me tomorrow at 6pm to water the plants", "list my reminders",
    )  # fmt: skip
    [rid] = re.findall(r"\br\d+\b", said[-1])
    said = await say(settings, clock, f"snooze {rid} 30 min", f"snooze {rid} 1h")
    assert "18:30" in said[0] and "19:30" in said[1], said
    [(due,)] = rows(tmp_path, "SELECT due_at FROM outbox WHERE kind = 'reminder'")
    assert str(due).startswith("2026-06-11 23:30")  # 19:30 in New York, the next day
