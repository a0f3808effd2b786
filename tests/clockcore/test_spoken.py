"""A confirmed time said back as the person reads it, in their language and zone."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from clockcore.speech.spoken import say_when

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 26, 10, 0, tzinfo=BERLIN)
SEVEN_PM = datetime(2026, 11, 26, 19, 0, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Thursday 26 Nov, 19:00 (in 9 hours)"),
        ("es", "jueves 26 nov, 19:00 (dentro de 9 horas)"),
        ("de", "Donnerstag 26 Nov., 19:00 (in 9 Stunden)"),
        ("fr", "jeudi 26 nov., 19:00 (dans 9 heures)"),
        ("pt", "quinta-feira 26 nov., 19:00 (em 9 horas)"),
        ("it", "giovedì 26 nov, 19:00 (tra 9 ore)"),
        ("nl", "donderdag 26 nov, 19:00 (over 9 uur)"),
        (None, "Thursday 26 Nov, 19:00 (in 9 hours)"),
        ("ja", "Thursday 26 Nov, 19:00 (in 9 hours)"),  # not one of the seven: English
    ],
)
def test_seven_pm_tonight_in_each_language(language: str | None, said: str) -> None:
    assert say_when(SEVEN_PM, "Europe/Berlin", now=NOW, language=language) == said


def test_the_wall_time_is_the_persons_zone_not_the_instants() -> None:
    in_utc = SEVEN_PM.astimezone(ZoneInfo("UTC"))
    assert say_when(in_utc, "America/New_York", now=NOW) == "Thursday 26 Nov, 13:00 (in 9 hours)"


def test_another_year_is_named() -> None:
    at = datetime(2027, 1, 3, 9, 0, tzinfo=BERLIN)
    assert (
        say_when(at, BERLIN, now=NOW, language="fr") == "dimanche 3 janv. 2027, 09:00 (dans 1 mois)"
    )


def test_a_past_instant_says_ago() -> None:
    at = datetime(2026, 11, 26, 8, 0, tzinfo=BERLIN)
    assert say_when(at, BERLIN, now=NOW) == "Thursday 26 Nov, 08:00 (2 hours ago)"


@pytest.mark.parametrize(
    ("minutes", "distance"),
    [
        (60, "in 1 hour"),
        (90, "in 90 minutes"),  # Babel alone: "in 2 hours", half an hour off
        (120, "in 2 hours"),
        (150, "in 150 minutes"),  # Babel alone: "in 2 hours" (2.5 rounds to even)
        (180, "in 3 hours"),
    ],
)
def test_a_part_hour_under_three_hours_is_said_in_minutes(minutes: int, distance: str) -> None:
    at = NOW + timedelta(minutes=minutes)
    assert say_when(at, "Europe/Berlin", now=NOW).endswith(f"({distance})")


@pytest.mark.parametrize(
    ("at", "language", "distance"),
    [
        (datetime(2026, 11, 27, 10, 0, tzinfo=BERLIN), "en", "in 1 day"),
        (datetime(2026, 11, 28, 2, 0, tzinfo=BERLIN), "en", "in 2 days"),  # 1 day 16 hours
        (datetime(2026, 11, 29, 1, 0, tzinfo=BERLIN), "en", "in 3 days"),  # 2 days 15 hours
        (datetime(2026, 11, 28, 23, 0, tzinfo=BERLIN), "en", "in 2 days"),  # Babel: "in 3 days"
        (datetime(2026, 11, 28, 23, 0, tzinfo=BERLIN), "de", "in 2 Tagen"),
        (datetime(2026, 11, 28, 23, 0, tzinfo=BERLIN), "nl", "over 2 dagen"),
        (datetime(2026, 12, 6, 22, 0, tzinfo=BERLIN), "en", "in 10 days"),  # Babel: "in 2 weeks"
        (datetime(2026, 11, 23, 20, 0, tzinfo=BERLIN), "en", "3 days ago"),
    ],
)
def test_days_off_are_the_days_on_the_calendar(at: datetime, language: str, distance: str) -> None:
    """Issue 61 (fresh eyes): "(in 3 days)" was said for a Saturday 2 days 13 hours off on a
    Thursday morning; the day named and the days said now agree."""
    said = say_when(at, BERLIN, now=NOW, language=language)
    assert said.endswith(f"({distance})"), said
