"""The misreads a new user found (issue 34's table), each read as the right column says.

Session zone Europe/Berlin, Thursday 2026-11-26 10:00.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from clockcore import parse_anchored_time, parse_recurrence

pytestmark = pytest.mark.usefixtures("needs_duckling")

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 26, 10, 0, tzinfo=BERLIN)


def _at(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=BERLIN).astimezone(UTC)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "the fix costs $4.50"),
        ("en", "battery is at 7.30 percent"),
        ("en", "we need three to five volunteers"),
        ("de", "guten Morgen zusammen"),
        ("pt", "bom dia a todos"),
    ],
)
def test_no_time(language: str, text: str) -> None:
    found = parse_anchored_time(text, "Europe/Berlin", NOW, language=language)
    assert found.start_instant is None
    assert not found.needs_clarification


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("en", "remind me in 3 hours and 20 minutes to move the car", _at(11, 26, 13, 20)),
        ("en", "call me at 0800", _at(11, 27, 8)),
        ("en", "at 10 to 7 pm", _at(11, 26, 18, 50)),
        ("de", "um 11 Uhr nachts", _at(11, 26, 23)),
        ("de", "Freitagabend um 7", _at(11, 27, 19)),
        ("de", "Montagmorgen um 8", _at(11, 30, 8)),
        ("nl", "maandagochtend om 7:30", _at(11, 30, 7, 30)),
    ],
)
def test_the_time_meant(language: str, text: str, expected: datetime) -> None:
    found = parse_anchored_time(text, "Europe/Berlin", NOW, language=language)
    assert not found.needs_clarification, found.clarification_question
    assert found.start_instant == expected


@pytest.mark.parametrize(
    ("language", "text", "named"),
    [
        ("en", "Thu Nov 28", "Did you mean Thursday Nov 26 or Saturday Nov 28?"),
        ("es", "lunes 3 de diciembre", "Did you mean Monday Nov 30 or Thursday Dec 3?"),
        ("en", "Wednesday 12/3", "12/3"),
    ],
)
def test_a_question(language: str, text: str, named: str) -> None:
    found = parse_anchored_time(text, "Europe/Berlin", NOW, language=language)
    assert found.needs_clarification
    assert found.start_instant is None
    assert named in (found.clarification_question or "")


def test_the_end_of_friday_is_friday_evening() -> None:
    found = parse_anchored_time("by the end of Friday", "Europe/Berlin", NOW)
    assert not found.needs_clarification, found.clarification_question
    assert (found.start_instant, found.end_instant) == (_at(11, 27, 18), _at(11, 28, 0))


@pytest.mark.parametrize(
    ("language", "text", "rule"),
    [
        ("en", "on the fifteenth of each month at 7pm", "FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=19"),
        (
            "en",
            "every year on the 3rd of March at 9",
            "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=9",
        ),
        ("en", "every evening at 8", "FREQ=DAILY;BYHOUR=20"),
        ("es", "cada lunes a las 9", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9"),
        ("de", "jeden Montag um 9 Uhr", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9"),
    ],
)
def test_the_repeating_rule(language: str, text: str, rule: str) -> None:
    found = parse_recurrence(text, "Europe/Berlin", NOW, language=language)
    assert not found.needs_clarification, found.clarification_question
    assert found.rrule == f"{rule};BYMINUTE=0;BYSECOND=0"
