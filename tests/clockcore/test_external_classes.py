"""The misread classes public corpora showed (issue 60), in sentences of our own.

`bench/time_bench.py --external` found them on Duckling's and dateparser's
corpora (bench/README.md); the corpora are never copied here. Session zone
Europe/Berlin, Tuesday 2026-12-01 10:00 (docs/time-rules.md).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from clockcore import ParseResult, parse_anchored_time

pytestmark = pytest.mark.usefixtures("needs_duckling")

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=BERLIN)  # a Tuesday


def _read(language: str, text: str) -> ParseResult:
    return parse_anchored_time(text, "Europe/Berlin", NOW, language=language)


def _at(day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=BERLIN).astimezone(UTC)


@pytest.mark.parametrize(
    ("language", "text", "hour"),
    [
        ("en", "next thursday at 3pm", 15),
        ("en", "call the plumber next Thursday", 0),
        ("de", "am nächsten Donnerstag um 9", 9),
        ("fr", "jeudi prochain", 0),
        ("es", "el próximo jueves", 0),
        ("pt", "na próxima quinta às 9", 9),
        ("it", "giovedì prossimo alle 9", 9),
        ("nl", "volgende donderdag", 0),
    ],
)
def test_next_weekday_later_this_week_asks_with_both_days(
    language: str, text: str, hour: int
) -> None:
    found = _read(language, text)
    assert found.needs_clarification
    assert found.start_instant is None
    assert found.candidates == (_at(3, hour), _at(10, hour))
    assert "Dec 3" in (found.clarification_question or "")
    assert "Dec 10" in (found.clarification_question or "")


def test_this_weekday_on_that_weekday_asks() -> None:
    found = _read("en", "this tuesday at 6pm")
    assert found.needs_clarification
    assert found.candidates == (_at(1, 18), _at(8, 18))


@pytest.mark.parametrize(
    ("language", "text", "start", "end"),
    [
        # A weekday alone said on that weekday is a week on, whichever reader read it.
        ("de", "Dienstag um 18 Uhr", _at(8, 18), _at(8, 18)),
        ("es", "el martes", _at(8), _at(9)),
        ("en", "tuesday", _at(8), _at(9)),
        # Words that settle the week are read.
        ("en", "next monday", _at(7), _at(8)),
        ("en", "thursday next week", _at(10), _at(11)),
        ("en", "the sunday after next", _at(13), _at(14)),
        # "dopo domani" is the day after tomorrow, not tomorrow.
        ("it", "dopo domani alle 10", _at(3, 10), _at(3, 10)),
        # A decimal amount keeps its fraction.
        ("en", "1,5 hours later", _at(1, 11, 30), _at(1, 11, 30)),
    ],
)
def test_read_as_written(language: str, text: str, start: datetime, end: datetime) -> None:
    found = _read(language, text)
    assert not found.needs_clarification, found.clarification_question
    assert (found.start_instant, found.end_instant) == (start, end)


@pytest.mark.parametrize(
    ("language", "text", "named"),
    [
        ("es", "el 14/03/81", "1981"),  # a two-digit year far from now: 1981 or 2081?
        ("en", "renewal 7 Feb 1945", "19:45"),  # the year 1945, or 19:45?
        ("en", "remind me today in two hours", "in two hours"),  # not all of today
        ("en", "this morning at 12 call the vet", "noon"),
        ("es", "Sevilla, a 21 de abril de 1890", "21 de abril"),  # not 1 April 21:00
        ("fr", "rappelle-moi demain en fin de journée", "fin de"),
        ("fr", "il ya 3 heures", "il ya 3"),  # "il y a" mistyped: no 03:00
        ("fr", "moins de 10h", "moins de 10"),
        ("en", "from 8 to 4 on friday", "from 8 to 4"),  # not 00:00, not 07:52
        ("fr", "5 - 11 oct. 2027", "'5'"),  # the 11th alone dropped the 5
        ("de", "bitte bis 10 Uhr", "bis 10 Uhr"),  # a limit, not one time
        ("en", "remind me tomorrow after lunch", "after lunch"),  # not all of tomorrow
    ],
)
def test_asked_never_guessed(language: str, text: str, named: str) -> None:
    found = _read(language, text)
    assert found.needs_clarification, found
    assert found.start_instant is None
    assert named in (found.clarification_question or "")


def test_a_passed_day_of_this_month_asks_rather_than_moving_to_january() -> None:
    later = datetime(2026, 12, 20, 10, 0, tzinfo=BERLIN)
    found = parse_anchored_time("the first Monday of this month", "Europe/Berlin", later)
    assert found.needs_clarification
    assert "2026-12-07" in (found.clarification_question or "")


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "the call takes 15 min"), ("nl", "16u"), ("en", "we waited 2 hrs")],
)
def test_an_amount_without_a_direction_is_no_time(language: str, text: str) -> None:
    found = _read(language, text)
    assert found.start_instant is None


def test_an_amount_with_a_direction_is_still_read() -> None:
    found = _read("en", "in 15 min")
    assert found.start_instant == _at(1, 10, 15)
    assert found.start_instant - NOW == timedelta(minutes=15)


@pytest.mark.parametrize("language", ["it", "es", "fr"])
def test_a_word_that_abbreviates_a_weekday_and_a_month_is_asked_about(language: str) -> None:
    """ "mar 19": martedì 19 or 19 marzo (martes/marzo, mardi/mars); English "Mar" is March."""
    found = _read(language, "mar 19")
    assert found.needs_clarification
    assert found.start_instant is None
    english = _read("en", "Mar 19")
    assert english.start_instant == datetime(2027, 3, 19, tzinfo=BERLIN).astimezone(UTC)


@pytest.mark.parametrize(
    ("language", "text"),
    [("it", "domani notte"), ("it", "nella notte di domani")],
)
def test_tomorrow_night_is_the_night_after_tomorrow_evening(language: str, text: str) -> None:
    """Duckling reads the night as the small hours after midnight: tomorrow's night ends on
    the day after tomorrow, not in the small hours before tomorrow's morning."""
    found = _read(language, text)
    assert found.start_instant is not None, found
    assert found.start_instant.astimezone(BERLIN).date() == date(2026, 12, 3)


def test_an_hour_and_its_minutes_after_at_are_no_day_of_the_month() -> None:
    """ "alle 3 20" is 15:20 today by the waking hour, not 15:20 on the day the minutes name."""
    found = _read("it", "alle 3 20")
    assert found.start_instant == _at(1, 15, 20)
