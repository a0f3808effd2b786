"""The time reader's questions in the person's language (docs/languages.md, issue 61).

clockcore returns each question as a value (`ParseResult.question`: its kind and
what it was asked with, `clockcore.questions`); a tool says it in the
conversation's language from the catalog, its choices as local times ("06:00
oder 18:00?", "Freitag 11 Dez., 15:00"). English, and a question with no value,
stay as the tool words them. The answer is read from the choices the tool result
carries, never from these words (`bot.llm.rules_agent`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime

from bot.catalog import LANGUAGES, Said
from clockcore import ParseResult
from clockcore.geo.zones import get_zone, zone_from_label
from clockcore.message import primary_language
from clockcore.questions import Question

__all__ = ["question_in", "said_in"]

ASK_WHICH_DAY = Said("“{written}”: {first} or {second}?")
ASK_SMALL_HOURS = Said("“{written}”, said at {now}: {first} or {second}?")
ASK_APPROXIMATE = Said("“{part}”: in the morning or in the evening, {am} or {pm}?")
ASK_CLOCKS_SKIP = Said(
    "On {day} there is no {wall} in {zone}: the clocks skip that hour. {first} or {second}?"
)
ASK_CLOCKS_BACK = Said(
    "On {day}, {wall} comes twice in {zone}: the clocks go back. The first {wall} or the "
    "second, an hour later?"
)
ASK_LEFTOVER = Said(
    "I can read “{read}”, but not “{left}” next to it: what time do you mean exactly?"
)
ASK_TWELVE = Said("“{text}”: noon (12:00) or midnight (00:00)?")
ASK_HOUR = Said(
    "“{written}” reads as {read} here, not as written: what time do you mean? "
    "Write it as, say, 09:30 or 21:30."
)
ASK_DAY = Said("“{text}” reads as {read}, not the day {day} written there: which date do you mean?")
ASK_HOLIDAY = Said("“{name}” is no holiday I know in {country}: which date do you mean?")
ASK_HOLIDAY_NO_COUNTRY = Said(
    "Holidays differ from country to country and I don't know yours: which date is “{name}”?"
)
ASK_WHICH_YEAR = Said("“{written}”: the year {first} or {second}?")
ASK_PLACE_SPANS = Said("{place} spans several time zones. Which do you mean: {options}?")
ASK_PLACE_WHICH = Said("Which {place} do you mean: {options}?")
ASK_PLACE_ONE = Said("Did you mean {options}?")
ASK_WEAK_CUE = Said("Do you mean “{text}” as a time? If so, write it as, say, 10:00.")
ASK_PAST = Said("“{text}” reads as {day}, which has passed: which date do you mean?")
ASK_RANGE = Said("I'm not sure how to read “{text}”: which time do you mean exactly?")
ASK_LONE_YEAR = Said("In “{text}”, is {digits} really the year? Which date do you mean?")
ASK_YEAR_OR_CLOCK = Said("In “{text}”, is {digits} the year {digits} or the time {clock}?")
ASK_PASSED = Said(
    "It's already {now}, and “{words}” has no time left that I could pick: which time do you mean?"
)
ASK_TYPO = Said(
    "I read “{read}”, but is “{word}” next to it meant to be “{guess}”? Write the day "
    "again so I get it right."
)
ASK_FLOATING = Said(
    "Which time zone should I read “{what}” in? Name a city, or an IANA zone such as Europe/Berlin."
)
ASK_UNREAD_NUMBER = Said(
    "I can read a day in “{text}”, but not what {number} means there. Could you write the "
    "time as, say, 09:00?"
)
ASK_CONFLICT = Said("“{written}”: {day} is not a {named}. {near} or {on}?")
ASK_TWO_DATES = Said("“{name}” is {day}, but the message also says “{other}”: which date is it?")
ASK_OFFSET = Said("I can't use {shown} as a UTC offset: they run from UTC-12 to UTC+14.")
ASK_MEAL = Said(
    "I read “{read}” as {time}, but the message says “{meal}”: which time do you mean? "
    "Write it as, say, 07:00 or 19:00."
)
ASK_WHICH_DAY_BY = Said("Which day do you mean by “{text}”?")
ASK_WHICH_TIME_BY = Said("Which time do you mean by “{text}”?")
ASK_ABBREVIATION = Said("Which time zone do you mean by {shown}? For example: {options}.")
ASK_REPEAT_LEFTOVER = Said(
    "I can read a repeating time in “{text}”, but not the “{word}” in it. Could you write "
    "it as, say, “every Monday at 9am”?"
)


Saying = Callable[[Question, tuple[datetime, ...], str], str]
"""How one kind of question is said: the question, the instants it offers (local), the locale."""


def _locale(language: str | None) -> str:
    primary = primary_language(language)
    return primary if primary in LANGUAGES else "en"


def _on(at: datetime | date, locale: str, *, clock: bool = True) -> str:
    """A local day (and time) as the person reads it: "Freitag 11 Dez., 15:00"."""
    from babel.dates import format_date, format_datetime

    if isinstance(at, datetime):
        return format_datetime(at, "EEEE d MMM, HH:mm" if clock else "EEEE d MMM", locale=locale)
    return format_date(at, "EEEE d MMM", locale=locale)


def _plain(said: Said) -> Saying:
    """A question with no choices to format: its values as clockcore asked with them."""

    def say(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
        del offered
        return said.in_(locale, **dict(question.values))

    return say


def _two_days(said: Said) -> Saying:
    """A question offering two days (at one time): its choices as local times."""

    def say(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
        if len(offered) != 2:
            return ""
        clock = ":" in question.text("first")
        first, second = (_on(c, locale, clock=clock) for c in offered)
        return said.in_(locale, **(dict(question.values) | {"first": first, "second": second}))

    return say


def _approximate(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
    del offered
    part = question.text("part")
    hour = re.search(r"\d{1,2}", part)
    if hour is None or not 1 <= int(hour[0]) <= 12:
        return ""
    morning = int(hour[0]) % 12
    return ASK_APPROXIMATE.in_(
        locale, part=part, am=f"{morning:02d}:00", pm=f"{morning + 12:02d}:00"
    )


def _day_or_month(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
    """ "9/5": 9 May or 5 September, the months in `locale`."""
    from babel.dates import format_skeleton

    del offered
    a, b = int(question.text("a")), int(question.text("b"))
    first, second = (
        format_skeleton("MMMMd", date(2000, month, day), locale=locale)
        for day, month in ((a, b), (b, a))
    )
    return ASK_WHICH_DAY.in_(locale, written=question.text("written"), first=first, second=second)


def _day(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
    """The day it read, said as a local day and time, beside the day written."""
    del offered
    at = dict(question.values).get("at")
    read = _on(at, locale) if isinstance(at, datetime) else question.text("read")
    return ASK_DAY.in_(locale, text=question.text("text"), read=read, day=question.text("day"))


def _past(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
    """A day that has passed, said as a local day."""
    del offered
    day = dict(question.values).get("date")
    if not isinstance(day, date):
        return ""
    return ASK_PAST.in_(locale, text=question.text("text"), day=_on(day, locale))


def _two_dates(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
    """A holiday's day beside another date the message names."""
    del offered
    day = dict(question.values).get("date")
    if not isinstance(day, date):
        return ""
    return ASK_TWO_DATES.in_(
        locale, name=question.text("name"), day=_on(day, locale), other=question.text("other")
    )


def _conflict(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
    """A weekday and a date that disagree: both readings as local days."""
    from babel.dates import format_date, format_skeleton

    del offered
    values = dict(question.values)
    day, near = values.get("date"), values.get("near_date")
    if not isinstance(day, date) or not isinstance(near, date):
        return ""
    return ASK_CONFLICT.in_(
        locale,
        written=question.text("written"),
        day=format_skeleton("MMMd", day, locale=locale),
        named=format_date(near, "EEEE", locale=locale),
        near=_on(near, locale),
        on=_on(day, locale),
    )


def _place(said: Said) -> Saying:
    """A place question: its options ("Portland, Oregon, US (America/Los_Angeles)") kept,
    a semicolon between them, as `bot.llm.rules_agent` lists them."""

    def say(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
        del offered
        options = dict(question.values)["options"]
        assert isinstance(options, tuple)
        return said.in_(locale, place=question.text("place"), options="; ".join(options))

    return say


def _clocks(question: Question, offered: tuple[datetime, ...], locale: str) -> str:
    """The clocks skip or go back: the day in `locale`, the two wall times offered."""
    from babel.dates import format_date

    if len(offered) != 2:
        return ""
    first, second = offered
    day = format_date(first.date(), "full", locale=locale)
    wall, zone = question.text("wall"), question.text("zone")
    if question.kind == "clocks_back":
        return ASK_CLOCKS_BACK.in_(locale, day=day, wall=wall, zone=zone)
    return ASK_CLOCKS_SKIP.in_(
        locale, day=day, wall=wall, zone=zone, first=f"{first:%H:%M}", second=f"{second:%H:%M}"
    )


_SAYINGS: dict[str, Saying] = {
    "place_spans": _place(ASK_PLACE_SPANS),
    "place_which": _place(ASK_PLACE_WHICH),
    "place_one": _place(ASK_PLACE_ONE),
    "day_or_month": _day_or_month,
    "which_century": _plain(ASK_WHICH_YEAR),
    "holiday": _plain(ASK_HOLIDAY),
    "unknown_country": _plain(ASK_HOLIDAY_NO_COUNTRY),
    "leftover": _plain(ASK_LEFTOVER),
    "twelve": _plain(ASK_TWELVE),
    "hour": _plain(ASK_HOUR),
    "day": _day,
    "which_week": _two_days(ASK_WHICH_DAY),
    "small_hours": _two_days(ASK_SMALL_HOURS),
    "approximate": _approximate,
    "clocks_skip": _clocks,
    "clocks_back": _clocks,
    "weak_cue": _plain(ASK_WEAK_CUE),
    "past": _past,
    "range": _plain(ASK_RANGE),
    "lone_year": _plain(ASK_LONE_YEAR),
    "year_or_clock": _plain(ASK_YEAR_OR_CLOCK),
    "passed": _plain(ASK_PASSED),
    "typo": _plain(ASK_TYPO),
    "floating": _plain(ASK_FLOATING),
    "unread_number": _plain(ASK_UNREAD_NUMBER),
    "conflict": _conflict,
    "two_dates": _two_dates,
    "offset": _plain(ASK_OFFSET),
    "meal": _plain(ASK_MEAL),
    "which_day": _plain(ASK_WHICH_DAY_BY),
    "which_time": _plain(ASK_WHICH_TIME_BY),
    "abbreviation": _plain(ASK_ABBREVIATION),
    "repeat_leftover": _plain(ASK_REPEAT_LEFTOVER),
}
"""How each kind of question (`clockcore.questions`) is said."""


def question_in(parsed: ParseResult, zone: str, language: str | None, english: str) -> str:
    """`parsed`'s question in `language`; `english` (its English, as the tool words it) else."""
    if parsed.question is None:
        return english
    tz = zone_from_label(parsed.zone) if parsed.zone else get_zone(zone)
    offered = tuple(c.astimezone(tz) for c in parsed.candidates)
    return said_in(parsed.question, language, offered=offered) or english


def said_in(
    question: Question, language: str | None, *, offered: tuple[datetime, ...] = ()
) -> str | None:
    """`question` in `language` from the catalog, `offered` its choices as local times; None
    for English or a kind this module does not say (then its English is said)."""
    locale = _locale(language)
    if locale == "en" or (say := _SAYINGS.get(question.kind)) is None:
        return None
    return say(question, offered, locale) or None
