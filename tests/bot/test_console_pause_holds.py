"""A pause holds what it names, says so, and sends each held one when it ends (issue 61).

"Pause my reminders until Monday" moved today's one-shots to Monday 00:00 without a
word. Through the console with no LLM, on a settable clock and a real SQLite store:
what was said, what was stored, and what was sent when the pause ended.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 12, 2, 9, tzinfo=UTC)  # 10:00 in Berlin, Madrid and Paris
MONDAY_8 = "2026-12-07 07:00:00.000000"  # 08:00 there: the contact window's start


def _waiting(home: Path) -> list[tuple[object, ...]]:
    return rows(
        home,
        "SELECT text, status, due_at, deferred_from FROM outbox WHERE kind = 'reminder' "
        "AND status IN ('pending', 'deferred') ORDER BY due_at",
    )


@pytest.mark.parametrize(
    ("zone", "lines", "told", "today", "later", "reminder"),
    [
        ("Europe/Berlin", ("remind me today at 3pm to water the plants",
                           "remind me next tuesday at 10am to call mum",
                           "pause my reminders until Monday"),
         ("Paused until Monday 7 Dec, 08:00 (in 5 days). These come then instead:",
          "- water the plants, due Wednesday 2 Dec, 15:00 (in 5 hours)"),
         "water the plants", "call mum", "Reminder"),
        ("Europe/Berlin", ("erinnere mich heute um 15 Uhr an den Klempner",
                           "erinnere mich am Dienstag um 10 Uhr an Mama",
                           "pausiere meine Erinnerungen bis Montag"),
         ("Pausiert bis Montag 7 Dez., 08:00. Diese kommen dann stattdessen:",
          "- den Klempner, fällig Mittwoch 2 Dez., 15:00 (in 5 Stunden)"),
         "den Klempner", "Mama", "Erinnerung"),
        ("Europe/Madrid", ("recuérdame hoy a las 15 llamar al fontanero",
                           "recuérdame el martes a las 10 llamar a mamá",
                           "pausa mis recordatorios hasta el lunes"),
         ("En pausa hasta el lunes 7 dic, 08:00. Estos llegan entonces:",
          "- llamar al fontanero, previsto miércoles 2 dic, 15:00 (dentro de 5 horas)"),
         "llamar al fontanero", "llamar a mamá", "Recordatorio"),
        ("Europe/Paris", ("rappelle-moi aujourd'hui à 15h d'appeler le plombier",
                          "rappelle-moi mardi à 10h d'appeler maman",
                          "mets mes rappels en pause jusqu'à lundi"),
         ("En pause jusqu'au lundi 7 déc., 08:00. Ceux-ci arriveront alors :",
          "- appeler le plombier, prévu mercredi 2 déc., 15:00 (dans 5 heures)"),
         "appeler le plombier", "appeler maman", "Rappel "),
    ],
)  # fmt: skip
async def test_today_held_until_mondays_window_a_later_one_keeps_its_time(
    tmp_path: Path,
    zone: str,
    lines: tuple[str, ...],
    told: tuple[str, str],
    today: str,
    later: str,
    reminder: str,
) -> None:
    settings, clock = Settings(home=tmp_path), SettableClock(WEDNESDAY)
    said = await say(settings, clock, f"clock: home tz {zone}", *lines)
    assert said[-2:] == [f"clockbot> {told[0]}", told[1]]
    # Held to Monday's 08:00, not its midnight, its own time kept to come back to; the
    # Tuesday one is after the pause and keeps its time.
    assert _waiting(tmp_path) == [
        (today, "deferred", MONDAY_8, "2026-12-02 14:00:00.000000"),
        (later, "pending", "2026-12-08 09:00:00.000000", None),
    ]
    # Nothing comes at its old time, nor on Monday before 08:00.
    clock.set(datetime(2026, 12, 7, 6, 59, tzinfo=UTC))
    assert await say(settings, clock) == []
    clock.set(datetime(2026, 12, 7, 7, 0, 5, tzinfo=UTC))
    # In the conversation's language: "den Klempner" alone says none (it came in English).
    assert await say(settings, clock) == [f"clockbot (reminder)> {reminder}: {today}"]
    assert [row[0] for row in _waiting(tmp_path)] == [later]
