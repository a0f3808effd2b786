"""The holidays library's calendars, loaded only when a message names a holiday.

`clockcore.reading.holiday_days` reads the names; this module asks the library which
day a holiday falls on. Importing `holidays` costs about 60 ms, so nothing imports this
module at start-up (docs/time-rules.md, holidays by name).
"""

from __future__ import annotations

from datetime import date
from functools import cache

import holidays
from holidays.groups.christian import ChristianHolidays
from holidays.groups.international import InternationalHolidays
from holidays.holiday_base import HolidayBase

__all__ = ["country_days", "feasts"]


class _EuropeanFeasts(HolidayBase, ChristianHolidays, InternationalHolidays):
    """The feasts kept across Europe, on the Gregorian calendar, named by their keys."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        ChristianHolidays.__init__(self)
        InternationalHolidays.__init__(self)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def _populate_public_holidays(self) -> None:
        self._add_new_years_day("new_year")
        self._add_epiphany_day("epiphany")
        self._add_good_friday("good_friday")
        self._add_easter_sunday("easter_sunday")
        self._add_easter_monday("easter_monday")
        self._add_ascension_thursday("ascension")
        self._add_pentecost("whit_sunday")
        self._add_pentecost_monday("whit_monday")
        self._add_corpus_christi_day("corpus_christi")
        self._add_assumption_of_mary_day("assumption")
        self._add_all_saints_day("all_saints")
        self._add_christmas_eve("christmas_eve")
        self._add_christmas_day("christmas")
        self._add_christmas_day_two("boxing_day")
        self._add_new_years_eve("new_years_eve")
        self._add_carnival_tuesday("shrove_tuesday")
        self._add_ash_wednesday("ash_wednesday")
        self._add_palm_sunday("palm_sunday")
        self._add_holy_thursday("maundy_thursday")
        self._add_holy_saturday("holy_saturday")
        self._add_trinity_sunday("trinity_sunday")


@cache
def feasts(year: int) -> tuple[tuple[date, str], ...]:
    """The European feasts of one year, by key, in date order."""
    return tuple(sorted(_EuropeanFeasts(years=year).items()))


@cache
def country_days(country: str, year: int) -> tuple[tuple[date, tuple[str, ...]], ...]:
    """A country's holidays of one year, every category, by their English names."""
    try:
        kind = holidays.country_holidays(country)
    except NotImplementedError:  # a country the library does not know
        return ()
    language = "en_US" if "en_US" in kind.supported_languages else None
    calendar = holidays.country_holidays(
        country, years=year, language=language, categories=kind.supported_categories
    )
    return tuple(
        (day, tuple(n for n in names.split("; ") if "(observed)" not in n))
        for day, names in sorted(calendar.items())
    )
