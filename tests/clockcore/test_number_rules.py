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
from clockcore.reading.number_order import day_first, keeps_numbers

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


@pytest.mark.parametrize(
    ("text", "said", "meant"),
    [
        ("1.1.", datetime(2027, 1, 2, 0, 30, tzinfo=UTC), (1, 1)),  # test_agreement[nl] found it
        ("3.1.", datetime(2026, 12, 2, 12, 30, tzinfo=UTC), (3, 1)),
        ("5.3.", datetime(2026, 12, 2, 12, 30, tzinfo=UTC), (5, 3)),
        ("1.12.", datetime(2026, 12, 2, 12, 30, tzinfo=UTC), (1, 12)),
        ("op 5.3. om 9 uur", datetime(2026, 12, 2, 12, 30, tzinfo=UTC), (5, 3)),
    ],
)
def test_a_dutch_numeric_date_is_never_another_date(
    text: str, said: datetime, meant: tuple[int, int]
) -> None:
    """Duckling's and dateparser's Dutch read "3.1." as 1 March and "1.1." said on 2 January
    as 1 February: a reading is the day-first date or no reading (asked, never wrong)."""
    found = parse_anchored_time(text, "Europe/Amsterdam", said, language="nl")
    if found.start_instant is not None and not found.needs_clarification:
        local = found.start_instant.astimezone(ZoneInfo("Europe/Amsterdam"))
        assert (local.day, local.month) == meant


def test_keeps_numbers_reads_the_persons_order() -> None:
    assert keeps_numbers("am 3.1.", (3, 7), (3, 1), day_first=True)
    assert not keeps_numbers("am 3.1.", (3, 7), (1, 3), day_first=True)
    assert keeps_numbers("on 3/1", (3, 6), (1, 3), day_first=False)
    assert keeps_numbers("on 3/1", (3, 6), (1, 3), day_first=None)  # either, where not known
    assert not keeps_numbers("op 3.1.", (5, 7), (1, 1), day_first=True)  # "1." of "3.1."
    assert keeps_numbers("om 13.30.", (3, 9), (13, 1), day_first=True)  # no date either way
