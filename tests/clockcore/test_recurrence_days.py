"""Repeats with two weekdays, every other week on a weekday, and working days, in seven languages.

docs/time-rules.md, "Repeating times": each is one rule, never a one-shot or a
rule that dropped a day; a date with a month and "am Wochenende" are once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from clockcore import parse_recurrence

pytestmark = pytest.mark.usefixtures("needs_duckling")

ZONE = "Europe/Berlin"
NOW = datetime(2026, 11, 26, 10, tzinfo=ZoneInfo(ZONE)).astimezone(UTC)

TWO_DAYS = {
    "en": "every Tuesday and Thursday at 7pm",
    "de": "jeden Dienstag und Donnerstag um 19 Uhr",
    "es": "cada martes y jueves a las 19:00",
    "fr": "tous les mardis et jeudis à 19h",
    "pt": "todas as terças e quintas às 19h",
    "it": "ogni martedì e giovedì alle 19",
    "nl": "elke dinsdag en donderdag om 19 uur",
}
OTHER_WEEK = {
    "en": "every two weeks on Friday at 9am",
    "de": "alle zwei Wochen am Freitag um 9 Uhr",
    "es": "cada dos semanas el viernes a las 9:00",
    "fr": "toutes les deux semaines le vendredi à 9h",
    "pt": "a cada duas semanas na sexta às 9h",
    "it": "ogni due settimane il venerdì alle 9:00",
    "nl": "om de week op vrijdag om 9 uur",
}
WORKING_DAYS = {
    "en": "every weekday at 7:30",
    "de": "jeden Werktag um 7:30",
    "es": "cada día laborable a las 7:30",
    "fr": "tous les jours ouvrables à 7h30",
    "pt": "todos os dias úteis às 7:30",
    "it": "ogni giorno feriale alle 7:30",
    "nl": "elke werkdag om 7:30",
}
ONCE = {
    "de": ("am 31. Oktober 2027 um 14:30", "am Wochenende"),
    "es": ("el 31 de octubre a las 9:00",),
    "fr": ("le 31 octobre à 9h", "le week-end"),
    "pt": ("no dia 31 de outubro às 9h",),
    "it": ("il 31 ottobre alle 9:00",),
    "nl": ("op 31 oktober om 9 uur", "in het weekend"),
}


def _rule(text: str, language: str) -> str:
    found = parse_recurrence(text, ZONE, NOW, language=language)
    assert not found.needs_clarification, found.clarification_question
    assert found.rrule is not None, found.reason
    return found.rrule


@pytest.mark.parametrize("language", list(TWO_DAYS))
def test_two_weekdays_keep_both(language: str) -> None:
    rule = _rule(TWO_DAYS[language], language)
    assert "FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=19;BYMINUTE=0" in rule


@pytest.mark.parametrize("language", list(OTHER_WEEK))
def test_every_other_week_keeps_its_weekday(language: str) -> None:
    rule = _rule(OTHER_WEEK[language], language)
    assert "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0" in rule


@pytest.mark.parametrize("language", list(WORKING_DAYS))
def test_working_days_are_monday_to_friday(language: str) -> None:
    rule = _rule(WORKING_DAYS[language], language)
    assert "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=30" in rule


@pytest.mark.parametrize(
    ("language", "text"), [(lang, text) for lang, said in ONCE.items() for text in said]
)
def test_a_date_or_one_weekend_is_no_repeat(language: str, text: str) -> None:
    found = parse_recurrence(text, ZONE, NOW, language=language)
    assert found.kind == "invalid", found
