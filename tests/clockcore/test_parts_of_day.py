"""A part of the day without a clock time is one documented hour, in every language.

docs/time-rules.md, "Parts of the day": morning 09:00, afternoon 15:00, evening
19:00, tonight 20:00, night 22:00, moved into the person's contact window; a
part of today said after its hour is the next full hour inside it, or a question.
"""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest

from clockcore import ContactWindow, parse_anchored_time
from clockcore.reading.parts_of_day import HOURS

pytestmark = pytest.mark.usefixtures("needs_duckling")

ZONE = "Europe/Berlin"


def _at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, 26, hour, minute, tzinfo=ZoneInfo(ZONE)).astimezone(UTC)


def _local(found: datetime | None) -> str | None:
    return None if found is None else f"{found.astimezone(ZoneInfo(ZONE)):%m-%d %H:%M}"


# Said on Thursday 26 November at 10:00: "tomorrow" is 27 November.
TOMORROW = {
    "en": ("tomorrow morning", "tomorrow afternoon", "tomorrow evening", "tomorrow night"),
    "de": ("morgen früh", "morgen Nachmittag", "morgen Abend", None),
    "es": ("mañana por la mañana", "mañana por la tarde", "mañana por la noche", None),
    "fr": ("demain matin", "demain après-midi", "demain soir", None),
    "pt": ("amanhã de manhã", "amanhã à tarde", "amanhã à noite", None),
    "it": ("domani mattina", "domani pomeriggio", "domani sera", None),
    "nl": ("morgenochtend", "morgen middag", "morgen avond", None),
}
TONIGHT = {
    "en": "tonight",
    "de": "heute Abend",
    "es": "esta noche",
    "fr": "ce soir",
    "pt": "hoje à noite",
    "it": "stasera",
    "nl": "vanavond",
}
PARTS = ("morning", "afternoon", "evening", "night")


@pytest.mark.parametrize(
    ("language", "index"),
    [(lang, i) for lang, said in TOMORROW.items() for i, words in enumerate(said) if words],
)
def test_a_part_of_tomorrow_is_its_hour(language: str, index: int) -> None:
    words = TOMORROW[language][index]
    assert words is not None
    found = parse_anchored_time(words, ZONE, _at(10), language=language)
    hour = HOURS[PARTS[index]]
    assert not found.needs_clarification, found.clarification_question
    assert _local(found.start_instant) == f"11-27 {hour:%H:%M}"
    assert found.end_instant == found.start_instant


@pytest.mark.parametrize("language", list(TONIGHT))
def test_tonight_is_the_tonight_hour(language: str) -> None:
    found = parse_anchored_time(TONIGHT[language], ZONE, _at(10), language=language)
    assert _local(found.start_instant) == "11-26 20:00"


@pytest.mark.parametrize("language", list(TONIGHT))
def test_tonight_said_after_its_hour_is_the_next_full_hour(language: str) -> None:
    found = parse_anchored_time(TONIGHT[language], ZONE, _at(20, 40), language=language)
    assert _local(found.start_instant) == "11-26 21:00"


@pytest.mark.parametrize("language", list(TONIGHT))
def test_tonight_said_too_late_is_a_question_never_a_passed_time(language: str) -> None:
    found = parse_anchored_time(TONIGHT[language], ZONE, _at(23, 10), language=language)
    assert found.needs_clarification
    assert found.start_instant is None
    assert "23:10" in (found.clarification_question or "")


@pytest.mark.parametrize(
    ("window", "words", "expected"),
    [
        (ContactWindow(time(10), time(21)), "tomorrow morning", "11-27 10:00"),
        (ContactWindow(time(7), time(21)), "tomorrow night", "11-27 20:00"),
        (ContactWindow(time(8), time(23)), "tomorrow evening", "11-27 19:00"),
    ],
)
def test_the_hour_moves_into_the_contact_window(
    window: ContactWindow, words: str, expected: str
) -> None:
    found = parse_anchored_time(words, ZONE, _at(10), language="en", window=window)
    assert _local(found.start_instant) == expected


def test_a_clock_time_with_a_part_keeps_the_clock_time() -> None:
    found = parse_anchored_time("demain matin à 7h", ZONE, _at(10), language="fr")
    assert _local(found.start_instant) == "11-27 07:00"
