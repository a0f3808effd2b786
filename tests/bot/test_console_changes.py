"""A change to a reminder does what its words say, and says what is true.

Issue 61 (the third fresh user's findings): through the console with no LLM, on a
settable clock and a real SQLite store, checking what was said and what was stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.console import rows, say, waiting

TUESDAY = datetime(2026, 12, 1, 20, tzinfo=UTC)  # 15:00 in New York, 21:00 in Berlin


@pytest.mark.parametrize(
    ("zone", "lines", "told", "stored"),
    [
        (
            "America/New_York",
            ("remind me tomorrow at 3pm to call the plumber", "move it to Thursday",
             "actually make that 11"),
            "Moved: call the plumber, to Thursday 3 Dec, 11:00",
            ("call the plumber", "2026-12-03 16:00:00.000000"),
        ),
        (
            "Europe/Berlin",
            ("erinnere mich morgen um 15 Uhr an den Klempner", "verschiebe den Klempner auf 11"),
            "Verschoben: den Klempner, auf Mittwoch 2 Dez., 11:00",
            ("den Klempner", "2026-12-02 10:00:00.000000"),
        ),
        (
            "America/New_York",
            ("remind me tomorrow at 3pm to call the plumber", "move the 3pm one to 4"),
            "Moved: call the plumber, to Wednesday 2 Dec, 16:00",
            ("call the plumber", "2026-12-02 21:00:00.000000"),
        ),
    ],
)  # fmt: skip
async def test_a_bare_hour_in_a_change_is_the_waking_hour(
    tmp_path: Path, zone: str, lines: tuple[str, ...], told: str, stored: tuple[str, str]
) -> None:
    """ "make that 11" at 15:00, of a 15:00 reminder, set 23:00 without a question."""
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), f"clock: home tz {zone}", *lines
    )
    assert said[-1].startswith(f"clockbot> {told}"), said[-1]
    assert waiting(tmp_path) == [stored]


@pytest.mark.parametrize(
    ("zone", "lines", "told", "stored"),
    [
        (
            "Europe/Madrid",
            ("recuérdame mañana a las 15 llamar al fontanero", "muévelo al jueves",
             "mejor a las 11"),
            ("Movido: llamar al fontanero, al jueves 3 dic, 15:00.",
             "Movido: llamar al fontanero, al jueves 3 dic, 11:00."),
            ("llamar al fontanero", "2026-12-03 10:00:00.000000"),
        ),
        (
            "Europe/Madrid",
            ("recuérdame mañana a las 15 llamar al fontanero", "mueve lo del fontanero al viernes"),
            ("Movido: llamar al fontanero, al viernes 4 dic, 15:00.",),
            ("llamar al fontanero", "2026-12-04 14:00:00.000000"),
        ),
        (
            "Europe/Berlin",
            ("erinnere mich morgen um 15 Uhr an den Klempner", "verschiebe es auf Donnerstag",
             "eigentlich lieber um 11"),
            ("Verschoben: den Klempner, auf Donnerstag 3 Dez., 15:00.",
             "Verschoben: den Klempner, auf Donnerstag 3 Dez., 11:00."),
            ("den Klempner", "2026-12-03 10:00:00.000000"),
        ),
    ],
)  # fmt: skip
async def test_it_moves_to_a_weekday_and_an_hour_in_the_persons_language(
    tmp_path: Path,
    zone: str,
    lines: tuple[str, ...],
    told: tuple[str, ...],
    stored: tuple[str, str],
) -> None:
    """ "muévelo al jueves", "mueve lo de Juan al martes" got the no-model paragraph."""
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), f"clock: home tz {zone}", *lines
    )
    assert said[2:] == [f"clockbot> {line}" for line in told]
    assert waiting(tmp_path) == [stored]


async def test_resuming_what_is_not_paused_says_so(tmp_path: Path) -> None:
    """ "resume r2" of a reminder never paused said "Your reminders are back on"."""
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin",
        "remind me tomorrow at 9 to call the bank", "resume r2", "setze meine Erinnerungen fort",
        "pause my reminders until friday", "resume r2",
    )  # fmt: skip
    assert said[2] == "clockbot> Nothing to resume: that is not paused."
    assert said[3] == "clockbot> Nichts fortzusetzen: das ist nicht pausiert."
    assert said[-1] == "clockbot> Your reminders are back on."
    assert waiting(tmp_path) == [("call the bank", "2026-12-02 08:00:00.000000")]


async def test_a_no_to_which_place_asks_for_another(tmp_path: Path) -> None:
    """ "nein" after "Meinst du Atlantis, ZA?" got the no-model paragraph, in English."""
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin",
        "wie spät ist es in Atlantis", "nein", "what time is it in Atlantis", "no",
    )  # fmt: skip
    assert said[1].startswith("clockbot> Meinst du Atlantis"), said[1]
    assert said[2] == (
        "clockbot> Gut. Nenne eine größere Stadt in der Nähe oder eine IANA-Zone wie Europe/Berlin."
    )
    assert said[4] == (
        "clockbot> All right. Name a bigger city near it, or an IANA zone such as Europe/Lisbon."
    )
    assert rows(tmp_path, "SELECT default_tz FROM users") == [("Europe/Berlin",)]


@pytest.mark.parametrize(
    ("line", "stored"),
    [
        ("remind me every other week on tuesday at 10am to water the plants",
         ("water the plants", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=10;BYMINUTE=0;BYSECOND=0")),
        ("erinnere mich jede zweite Woche am Freitag um 17 Uhr an das Putzen",
         ("das Putzen", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=17;BYMINUTE=0;BYSECOND=0")),
        ("recuérdame cada dos semanas el viernes a las 17 limpiar",
         ("limpiar", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=17;BYMINUTE=0;BYSECOND=0")),
    ],
)  # fmt: skip
async def test_every_other_week_on_a_day_is_set_without_a_question(
    tmp_path: Path, line: str, stored: tuple[str, str]
) -> None:
    """ "every other week on tuesday at 10am" asked "Which days should it repeat on?"; the
    Spanish one lost its Friday."""
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin", line
    )
    assert "?" not in said[1], said[1]
    assert rows(tmp_path, "SELECT text, rrule FROM schedules") == [stored]
