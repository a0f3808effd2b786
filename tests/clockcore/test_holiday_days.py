"""Holidays by name, read for the person's country or asked (docs/time-rules.md, "Holidays").

Said on Thursday 2026-11-26 at 10:00 local: a holiday already past this year is
next year's.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from clockcore import parse_anchored_time
from clockcore.reading import words
from clockcore.reading.holiday_days import UNKNOWN_COUNTRY_QUESTION, country_of, holiday_date


def _said(zone: str) -> datetime:
    return datetime(2026, 11, 26, 10, 0, tzinfo=ZoneInfo(zone)).astimezone(UTC)


# (language, zone, text, the local day read, the clock time read or None for the whole day)
READ = [
    ("en", "Europe/London", "remind me on Christmas Eve", "2026-12-24", None),
    ("en", "America/New_York", "Christmas Eve at 6pm", "2026-12-24", "18:00"),
    ("en", "America/New_York", "call grandma on Thanksgiving", "2026-11-26", None),
    ("en", "America/Toronto", "Thanksgiving dinner", "2027-10-11", None),
    ("en", "America/Chicago", "barbecue on Labor Day", "2027-09-06", None),
    ("en", "Europe/Dublin", "Easter Monday", "2027-03-29", None),
    ("en", "America/New_York", "costume party on Halloween at 8pm", "2027-10-31", "20:00"),
    ("en", "America/Chicago", "office closed on MLK day", "2027-01-18", None),
    ("de", "Europe/Berlin", "erinnere mich am Heiligabend", "2026-12-24", None),
    ("de", "Europe/Berlin", "am Heiligabend um 18 Uhr", "2026-12-24", "18:00"),
    ("de", "Europe/Vienna", "Pfingstmontag 10:30", "2027-05-17", "10:30"),
    ("de", "Europe/Berlin", "am Tag der Arbeit", "2027-05-01", None),
    ("es", "Europe/Madrid", "el día de Reyes", "2027-01-06", None),
    ("es", "Europe/Madrid", "en Nochebuena a las 21:00", "2026-12-24", "21:00"),
    ("fr", "Europe/Paris", "à la Toussaint", "2027-11-01", None),
    ("fr", "Europe/Paris", "lundi de Pâques à 9h", "2027-03-29", "09:00"),
    ("it", "Europe/Rome", "a Ferragosto", "2027-08-15", None),
    ("it", "Europe/Rome", "la Befana", "2027-01-06", None),
    ("pt", "America/Sao_Paulo", "no Natal", "2026-12-25", None),
    ("pt", "Europe/Lisbon", "na Sexta-feira Santa", "2027-03-26", None),
    ("nl", "Europe/Amsterdam", "op Koningsdag", "2027-04-27", None),
    ("nl", "Europe/Brussels", "tweede paasdag om 14:00", "2027-03-29", "14:00"),
    # A year after the name is that year's holiday, not the next one (issue 60).
    ("en", "Europe/London", "Christmas 2028", "2028-12-25", None),
    ("en", "Europe/London", "Christmas 2020", "2020-12-25", None),
    ("de", "Europe/Berlin", "Ostern 2029", "2029-04-01", None),
    # Feasts that move with Easter, and other calendars where the person's country keeps them.
    ("de", "Europe/Berlin", "Aschermittwoch", "2027-02-10", None),
    ("de", "Europe/Berlin", "Fastnacht", "2027-02-09", None),
    ("en", "Asia/Kolkata", "diwali party", "2027-10-29", None),
    ("en", "Asia/Kolkata", "Holi 2027", "2027-03-22", None),
    ("en", "Asia/Jerusalem", "yom kippur 2027 at 18:00", "2027-10-11", "18:00"),
    ("de", "Asia/Jerusalem", "Jom Kippur", "2027-10-11", None),
    ("en", "Asia/Kuala_Lumpur", "Eid al-Fitr", "2027-03-10", None),
]


@pytest.mark.parametrize(("language", "zone", "text", "day", "clock"), READ)
def test_a_holiday_is_read_for_the_persons_country(
    language: str, zone: str, text: str, day: str, clock: str | None
) -> None:
    found = parse_anchored_time(text, zone, _said(zone), language=language)
    assert not found.needs_clarification, found.clarification_question
    assert found.start_instant is not None and found.end_instant is not None
    start = found.start_instant.astimezone(ZoneInfo(zone))
    assert f"{start:%Y-%m-%d}" == day
    if clock is None:  # the whole day, as a date alone is read
        end = found.end_instant.astimezone(ZoneInfo(zone))
        assert (f"{start:%H:%M}", f"{end:%H:%M}", (end.date() - start.date()).days) == (
            "00:00", "00:00", 1,
        )  # fmt: skip
    else:
        assert f"{start:%H:%M}" == clock
        assert found.start_instant == found.end_instant


@pytest.mark.parametrize(
    ("language", "zone", "text"),
    [
        ("de", None, "am Heiligabend"),
        ("en", "UTC", "Christmas Eve"),
        ("fr", "Etc/GMT-3", "à la Toussaint"),
    ],
)
def test_a_holiday_with_no_known_country_is_asked(
    language: str, zone: str | None, text: str
) -> None:
    found = parse_anchored_time(text, zone, _said(zone or "UTC"), language=language)
    assert found.needs_clarification
    assert found.start_instant is None
    assert found.clarification_question == UNKNOWN_COUNTRY_QUESTION.format(name=found.matched_text)


@pytest.mark.parametrize(
    ("language", "zone", "text"),
    [
        ("en", "Europe/Berlin", "Thanksgiving"),  # the US's and Canada's, not Germany's
        ("nl", "Europe/Berlin", "op Koningsdag"),  # the Netherlands' only
        ("en", "America/Chicago", "Easter Monday"),  # no holiday in the US
        ("en", "Europe/Athens", "Easter"),  # the Orthodox date: no Western one guessed
        ("de", "Europe/Berlin", "am Muttertag"),  # in no German calendar the library keeps
        ("de", "Europe/Berlin", "Ostern am 3.4."),  # two dates
        ("it", "Europe/Rome", "Natale o Pasqua"),  # two holidays
    ],
)
def test_a_name_that_is_no_holiday_there_is_never_a_date(
    language: str, zone: str, text: str
) -> None:
    found = parse_anchored_time(text, zone, _said(zone), language=language)
    assert found.start_instant is None
    assert found.needs_clarification


def test_zones_map_to_their_country() -> None:
    assert [country_of(z) for z in ("Europe/Berlin", "America/Sao_Paulo", "UTC")] == [
        "DE", "BR", None,
    ]  # fmt: skip


def test_a_holiday_today_is_today_and_a_past_one_next_years() -> None:
    assert holiday_date("christmas", "Europe/Berlin", date(2026, 12, 25)) == date(2026, 12, 25)
    assert holiday_date("christmas", "Europe/Berlin", date(2026, 12, 26)) == date(2027, 12, 25)


def test_every_holiday_key_in_the_words_files_is_known() -> None:
    from clockcore.reading.holiday_days import _LIBRARY_NAMES

    keys = {entry.split("=", 1)[0] for entry in words.table("HOLIDAYS")}
    assert keys <= set(_LIBRARY_NAMES)
    assert all("=" in entry for entry in words.table("HOLIDAYS"))


def test_a_holidays_clock_time_already_past_on_the_day_is_next_years() -> None:
    evening = datetime(2026, 12, 24, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    found = parse_anchored_time("am Heiligabend um 18 Uhr", "Europe/Berlin", evening, language="de")
    assert found.start_instant is not None, found.clarification_question
    assert f"{found.start_instant.astimezone(ZoneInfo('Europe/Berlin')):%Y-%m-%d %H:%M}" == (
        "2027-12-24 18:00"
    )


def test_the_holidays_library_loads_only_when_a_holiday_is_named() -> None:
    """Start-up does not pay for the library (~60 ms): reading "at 9" leaves it unloaded."""
    probe = (
        "import sys\n"
        "from datetime import datetime, UTC\n"
        "from clockcore.parsing.timeparse import parse_anchored_time\n"
        "parse_anchored_time('tomorrow at 9', 'Europe/Berlin', datetime(2026, 12, 1, tzinfo=UTC))\n"
        "before = 'holidays' in sys.modules\n"
        "parse_anchored_time('on Christmas Eve at 6pm', 'Europe/Berlin',"
        " datetime(2026, 12, 1, tzinfo=UTC))\n"
        "print(before, 'holidays' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.parametrize(
    ("language", "zone", "text"),
    [
        ("en", "Etc/GMT+2", "Eid al-Fitr 2018"),  # no country
        ("en", "Asia/Dubai", "Eid al-Fitr"),  # only an estimated day in the library
        ("en", "America/New_York", "Ash Wednesday"),  # no holiday there
        ("en", "America/Chicago", "Easter Monday 2027"),  # no holiday there, that year either
        ("en", "Europe/London", "Diwali 2019"),
    ],
)
def test_a_feast_the_persons_calendar_does_not_date_is_asked(
    language: str, zone: str, text: str
) -> None:
    found = parse_anchored_time(text, zone, _said(zone), language=language)
    assert found.needs_clarification and found.start_instant is None


@pytest.mark.parametrize("language", words.LANGUAGES)
def test_every_holiday_name_is_a_mention_of_time(language: str) -> None:
    from clockcore import mentions_time

    names = [e.split("=", 1)[1] for e in words.tables(language).HOLIDAYS]
    assert [n for n in names if not mentions_time(n, language=language)] == []
