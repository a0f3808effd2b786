"""Day and month written with dots ("3.2.", "3.2.2027"), read by clockcore's own grammar.

docs/time-rules.md, "Numbers follow the person's language": day first in de, es,
fr, pt, it and nl (and in English outside a US zone), month first in a US zone,
a question where the order is unknown. Duckling's Dutch reads "op 3.2." as
"op 3.2" and "13.12." as the day "12."; a piece of a date is no reading of it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from clockcore import parse_anchored_time

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
BERLIN = "Europe/Berlin"


def _local(text: str, zone: str = BERLIN, language: str = "nl") -> datetime | None:
    found = parse_anchored_time(text, zone, NOW, language=language)
    assert not found.needs_clarification, found.clarification_question
    return None if found.start_instant is None else found.start_instant.astimezone(ZoneInfo(zone))


@pytest.mark.parametrize(
    ("text", "language", "wall"),
    [
        ("afspraak op 3.2.", "nl", (2027, 2, 3, 0, 0)),
        ("op 3.2. om 9:30 naar de tandarts", "nl", (2027, 2, 3, 9, 30)),
        ("op 13.12.", "nl", (2026, 12, 13, 0, 0)),
        ("kerstdiner op 24.12. om 18:00", "nl", (2026, 12, 24, 18, 0)),
        ("3.2.2027", "nl", (2027, 2, 3, 0, 0)),
        ("Termin am 3.2. um 9:30", "de", (2027, 2, 3, 9, 30)),
    ],
)
def test_a_dotted_date_is_read_day_first(
    text: str, language: str, wall: tuple[int, int, int, int, int]
) -> None:
    found = _local(text, language=language)
    assert found is not None
    assert (found.year, found.month, found.day, found.hour, found.minute) == wall


def test_the_grammar_reads_it_month_first_in_a_us_zone() -> None:
    found = _local("on 3.2. at 5pm", "America/Chicago", "en")
    assert found is not None
    assert (found.month, found.day, found.hour) == (3, 2, 17)


def test_an_unknown_order_is_asked_about() -> None:
    found = parse_anchored_time("on 3.2. at 5pm", "UTC", NOW, language="en")
    assert found.needs_clarification
    assert found.start_instant is None


@pytest.mark.parametrize(
    "text",
    ["zie hoofdstuk 3.2. voor de details", "see section 3.2. for details", "see page 3/4"],
)
def test_a_numbered_place_in_a_document_is_no_date(text: str) -> None:
    found = parse_anchored_time(text, BERLIN, NOW, language="nl")
    assert found.start_instant is None
    assert not found.needs_clarification


def test_a_clock_time_with_a_dot_is_no_date() -> None:
    """ "9.30" has no last dot: the grammar scans no date in it."""
    from clockcore.parsing.grammar import scan_text

    assert [t.kind for t in scan_text("om 9.30 uur")] != ["numdate"]
    assert all(t.kind != "numdate" for t in scan_text("om 9.30 uur"))
    assert all(t.kind != "numdate" for t in scan_text("server 10.1.2.3 is down"))


@pytest.mark.parametrize("text", ["bitte auf Version 2.4.10 aktualisieren", "update to 1.2.10.4"])
def test_a_version_number_is_no_date(text: str) -> None:
    """A dotted year has four digits: "2.4.10" read as 2 April 2010 was a misread the
    property test found (tests/clockcore/test_time_property_languages.py)."""
    found = parse_anchored_time(text, BERLIN, NOW, language="de")
    assert found.start_instant is None
