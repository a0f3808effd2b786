"""One am/pm pattern for every check (`clockcore.reading.leftover.AM_PM`).

The leftover scanner's clock shapes, the approximate-hour check and the
waking-hour rule each had their own, and they disagreed: German "am" before a
day ("gegen 5 am Freitag") settled an approximate hour as the morning there,
while the waking-hour rule knew it for the German "on".
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from clockcore import parse_anchored_time
from clockcore.reading.leftover import AM_PM, time_like_parts, unclear_approximation

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
_AFTER_A_NUMBER = re.compile(rf"\d{{1,2}}\s*{AM_PM}")


@pytest.mark.parametrize("text", ["7pm", "7 pm", "7 p.m.", "7 a.m.", "7p", "7a", "11 am"])
def test_am_or_pm_after_a_number(text: str) -> None:
    assert _AFTER_A_NUMBER.fullmatch(text)


@pytest.mark.parametrize("text", ["5 am freitag", "5 am 3.12.", "12 a las", "7 p", "5 am dezember"])
def test_no_am_or_pm(text: str) -> None:
    """German "am" before a day or a date, the Spanish "a", a lone letter after a space."""
    assert _AFTER_A_NUMBER.match(text) is None


@pytest.mark.parametrize(
    "text", ["gegen 5 am Freitag", "so gegen 5 am Freitag", "Treffen gegen 5 am 3.12."]
)
def test_an_approximate_hour_before_a_german_day_is_asked(text: str) -> None:
    """It read as 05:00 before: the "am" of "am Freitag" was taken for the morning."""
    assert unclear_approximation(text) is not None
    found = parse_anchored_time(text, "Europe/Berlin", NOW, language="de")
    assert found.needs_clarification
    assert found.start_instant is None


def test_the_scanner_and_the_checks_agree_on_pm() -> None:
    assert unclear_approximation("around 4pm") is None
    assert unclear_approximation("around 4p") is None
    assert any(p.written_form for p in time_like_parts("call at 7p"))
