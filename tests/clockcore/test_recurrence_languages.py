"""Repeating times in all seven languages: the RRULE, and the next 5 occurrences across DST.

Berlin moves its clocks forward on Sunday 2027-03-28; "now" is the Wednesday
before, 10:00. Each occurrence keeps its wall time (RFC 5545 §3.3.5), so the
expected instants are computed here day by day in the zone, independently of
the parser.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from clockcore import parse_recurrence

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2027, 3, 24, 10, 0, tzinfo=BERLIN)


def _next(at: time, matches: Callable[[date], bool], count: int = 5) -> list[datetime]:
    day, found = NOW.date(), []
    while len(found) < count:
        instant = datetime.combine(day, at, BERLIN).astimezone(UTC)
        if matches(day) and instant > NOW:
            found.append(instant)
        day += timedelta(days=1)
    return found


def _monday(day: date) -> bool:
    return day.weekday() == 0


def _other_tuesday(day: date) -> bool:  # from the first Tuesday after now: Mar 30
    return day.weekday() == 1 and (day - date(2027, 3, 30)).days % 14 == 0


def _first_monday(day: date) -> bool:
    return day.weekday() == 0 and day.day <= 7


def _weekday(day: date) -> bool:
    return day.weekday() < 5


def _fifteenth(day: date) -> bool:
    return day.day == 15


def _every_day(day: date) -> bool:
    return True


# (language, text, rrule, time of day, which days)
FORMS = [
    ("es", "cada lunes a las 9", "FREQ=WEEKLY;BYDAY=MO", time(9), _monday),
    ("de", "jeden Montag um 9 Uhr", "FREQ=WEEKLY;BYDAY=MO", time(9), _monday),
    ("fr", "tous les lundis à 9h", "FREQ=WEEKLY;BYDAY=MO", time(9), _monday),
    ("pt", "toda segunda-feira às 9h", "FREQ=WEEKLY;BYDAY=MO", time(9), _monday),
    ("it", "ogni lunedì alle 9", "FREQ=WEEKLY;BYDAY=MO", time(9), _monday),
    ("nl", "elke maandag om 9 uur", "FREQ=WEEKLY;BYDAY=MO", time(9), _monday),
    ("en", "every Monday at 9", "FREQ=WEEKLY;BYDAY=MO", time(9), _monday),
    ("es", "un martes sí y otro no a las 18:00", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", time(18),
     _other_tuesday),
    ("de", "jeden zweiten Dienstag um 18 Uhr", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", time(18),
     _other_tuesday),
    ("fr", "un mardi sur deux à 18h", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", time(18),
     _other_tuesday),
    ("pt", "a cada duas terças às 18h", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", time(18),
     _other_tuesday),
    ("it", "ogni due martedì alle 18", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", time(18),
     _other_tuesday),
    ("nl", "om de week op dinsdag om 18 uur", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", time(18),
     _other_tuesday),
    ("es", "el primer lunes de cada mes a las 10", "FREQ=MONTHLY;BYDAY=+1MO", time(10),
     _first_monday),
    ("de", "jeden ersten Montag im Monat um 10 Uhr", "FREQ=MONTHLY;BYDAY=+1MO", time(10),
     _first_monday),
    ("fr", "le premier lundi de chaque mois à 10h", "FREQ=MONTHLY;BYDAY=+1MO", time(10),
     _first_monday),
    ("pt", "toda primeira segunda do mês às 10h", "FREQ=MONTHLY;BYDAY=+1MO", time(10),
     _first_monday),
    ("it", "il primo lunedì di ogni mese alle 10", "FREQ=MONTHLY;BYDAY=+1MO", time(10),
     _first_monday),
    ("nl", "elke eerste maandag van de maand om 10 uur", "FREQ=MONTHLY;BYDAY=+1MO", time(10),
     _first_monday),
    ("es", "de lunes a viernes a las 8", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", time(8), _weekday),
    ("de", "werktags um 8 Uhr", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", time(8), _weekday),
    ("fr", "en semaine à 8h", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", time(8), _weekday),
    ("pt", "de segunda a sexta às 8h", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", time(8), _weekday),
    ("it", "nei giorni feriali alle 8", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", time(8), _weekday),
    ("nl", "doordeweeks om 8 uur", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", time(8), _weekday),
    ("es", "el 15 de cada mes a las 19:00", "FREQ=MONTHLY;BYMONTHDAY=15", time(19), _fifteenth),
    ("de", "jeden Monat am 15. um 19 Uhr", "FREQ=MONTHLY;BYMONTHDAY=15", time(19), _fifteenth),
    ("fr", "le 15 de chaque mois à 19h", "FREQ=MONTHLY;BYMONTHDAY=15", time(19), _fifteenth),
    ("pt", "todo dia 15 do mês às 19h", "FREQ=MONTHLY;BYMONTHDAY=15", time(19), _fifteenth),
    ("it", "il 15 di ogni mese alle 19", "FREQ=MONTHLY;BYMONTHDAY=15", time(19), _fifteenth),
    ("nl", "op de 15e van elke maand om 19 uur", "FREQ=MONTHLY;BYMONTHDAY=15", time(19),
     _fifteenth),
    ("en", "on the fifteenth of each month at 7pm", "FREQ=MONTHLY;BYMONTHDAY=15", time(19),
     _fifteenth),
    ("es", "todos los días a las 7:30", "FREQ=DAILY", time(7, 30), _every_day),
    ("de", "jeden Tag um 7:30", "FREQ=DAILY", time(7, 30), _every_day),
    ("fr", "tous les jours à 7h30", "FREQ=DAILY", time(7, 30), _every_day),
    ("pt", "todos os dias às 7h30", "FREQ=DAILY", time(7, 30), _every_day),
    ("it", "ogni giorno alle 7:30", "FREQ=DAILY", time(7, 30), _every_day),
    ("nl", "elke dag om 7:30", "FREQ=DAILY", time(7, 30), _every_day),
    ("en", "every evening at 8", "FREQ=DAILY", time(20), _every_day),
    ("de", "jeden Abend um 8", "FREQ=DAILY", time(20), _every_day),
    ("es", "todas las noches a las 11", "FREQ=DAILY", time(23), _every_day),
]  # fmt: skip


@pytest.mark.parametrize(("language", "text", "rule", "at", "days"), FORMS)
def test_the_rule_and_its_next_five(
    language: str, text: str, rule: str, at: time, days: Callable[[date], bool]
) -> None:
    found = parse_recurrence(text, "Europe/Berlin", NOW, language=language)
    assert not found.needs_clarification, found.clarification_question
    expected_rule = f"{rule};BYHOUR={at.hour};BYMINUTE={at.minute};BYSECOND=0"
    assert found.rrule == expected_rule
    assert list(found.next_occurrences[:5]) == _next(at, days)


def test_the_issues_yearly_rule() -> None:
    found = parse_recurrence("every year on the 3rd of March at 9", "Europe/Berlin", NOW)
    assert found.rrule == "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=9;BYMINUTE=0;BYSECOND=0"
    assert found.next_occurrences[0] == datetime(2028, 3, 3, 9, tzinfo=BERLIN).astimezone(UTC)


@pytest.mark.parametrize(
    ("language", "text", "rule"),
    [
        ("es", "cada lunes a las 9 hasta el 15 de abril", "UNTIL=20270415T235959"),
        ("de", "jeden Montag um 9 Uhr 5 Mal", "COUNT=5"),
        ("fr", "tous les lundis à 9h, 3 fois", "COUNT=3"),
        ("it", "ogni 3 ore", "FREQ=HOURLY;INTERVAL=3"),
        ("nl", "elke 2 uur", "FREQ=HOURLY;INTERVAL=2"),
        ("pt", "a cada 90 minutos", "FREQ=MINUTELY;INTERVAL=90"),
    ],
)
def test_ends_and_intervals(language: str, text: str, rule: str) -> None:
    found = parse_recurrence(text, "Europe/Berlin", NOW, language=language)
    assert not found.needs_clarification, found.clarification_question
    assert found.rrule is not None
    assert rule in found.rrule


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("es", "cada lunes a las 9 y los martes por la tarde"),
        ("de", "jeden Montag um 9 Uhr und nachmittags"),
        ("en", "every Monday at 9 and in the afternoon"),
    ],
)
def test_a_frame_word_left_unread_is_a_question(language: str, text: str) -> None:
    found = parse_recurrence(text, "Europe/Berlin", NOW, language=language)
    assert found.needs_clarification
