"""Numbers follow the person's language, as properties over the seven languages.

docs/time-rules.md, "Numbers follow the person's language": a numeric date is
day first in de, es, fr, pt, it and nl and in English outside a US zone, month
first in English in a US zone, and a question where the order is not known;
four digits after a date are a clock time when they are one. A confident
reading in the other order, or the year 1045, is a silent misread.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clockcore import parse_anchored_time
from clockcore.reading.number_order import day_first

pytestmark = pytest.mark.usefixtures("needs_duckling")

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
ZONES = ("Europe/Berlin", "America/Chicago", "Europe/London", "UTC", "America/Sao_Paulo")
SENTENCES = {
    "en": "dentist on {date} at {h}:{m:02d}",
    "de": "Termin am {date} um {h}:{m:02d}",
    "es": "cita el {date} a las {h}:{m:02d}",
    "fr": "rdv le {date} à {h}h{m:02d}",
    "pt": "consulta no dia {date} às {h}h{m:02d}",
    "it": "visita il {date} alle {h}:{m:02d}",
    "nl": "afspraak op {date} om {h}:{m:02d}",
}
MONTHS = {
    "en": "January February March April May June July August September October November December",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
    "dicembre",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
}
SETTINGS = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("language", sorted(SENTENCES))
@SETTINGS
@given(
    a=st.integers(1, 28),
    b=st.integers(1, 12),
    swap=st.booleans(),
    year=st.sampled_from(["", "/2027", "/2028"]),
    h=st.integers(7, 22),
    m=st.sampled_from([0, 15, 30, 45]),
    zone=st.sampled_from(ZONES),
)
def test_a_numeric_date_is_read_in_the_persons_order_or_asked(
    language: str, a: int, b: int, swap: bool, year: str, h: int, m: int, zone: str
) -> None:
    first, second = (b, a) if swap else (a, b)  # written "first/second"
    text = SENTENCES[language].format(date=f"{first}/{second}{year}", h=h, m=m)
    found = parse_anchored_time(text, zone, NOW, language=language)
    if found.needs_clarification or found.start_instant is None:
        return
    local = found.start_instant.astimezone(ZoneInfo(zone))
    order = day_first(language, zone)
    if first > 12:
        meant = {(first, second)}
    elif second > 12:
        meant = {(second, first)}
    elif first == second:
        meant = {(first, first)}
    else:
        assert order is not None, f"{text!r} in {zone}: the order is unknown, read {local}"
        meant = {(first, second) if order else (second, first)}
    assert (local.day, local.month) in meant, f"{text!r} in {zone}: read {local}"
    assert (local.hour, local.minute) == (h, m), f"{text!r} in {zone}: read {local}"


@pytest.mark.parametrize("language", sorted(SENTENCES))
@SETTINGS
@given(
    day=st.integers(1, 28),
    month=st.integers(1, 12),
    h=st.integers(0, 23),
    m=st.integers(0, 59),
    zone=st.sampled_from(ZONES),
)
def test_four_digits_after_a_date_are_its_clock_time_or_asked(
    language: str, day: int, month: int, h: int, m: int, zone: str
) -> None:
    name = MONTHS[language].split()[month - 1]
    written = f"{name} {day}" if language == "en" and day % 2 else f"{day} {name}"
    text = f"{written} {h:02d}{m:02d}"
    found = parse_anchored_time(text, zone, NOW, language=language)
    if found.needs_clarification or found.start_instant is None:
        return
    local = found.start_instant.astimezone(ZoneInfo(zone))
    if abs(h * 100 + m - NOW.year) <= 10:
        return  # "7 Jan 2027": a year near now stays a year
    assert (local.month, local.day) == (month, day), f"{text!r}: read {local}"
    assert (local.hour, local.minute) == (h, m), f"{text!r}: read {local}"
