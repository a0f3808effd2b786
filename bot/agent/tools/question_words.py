"""The time reader's questions in the person's language (docs/languages.md, issue 61).

clockcore asks in English (`ParseResult.clarification_question`, built from the
templates below); a tool re-says each question it knows in the conversation's
language from the catalog, its choices as local times ("06:00 oder 18:00?",
"Freitag 11 Dez., 15:00"). A question it does not know, and English, stay as
clockcore wrote them. The answer is read from the choices the tool result carries,
never from these words (`bot.llm.rules_agent`).
"""

from __future__ import annotations

import ast
import calendar
import re
import string
from collections.abc import Callable
from datetime import date

from bot.catalog import LANGUAGES, Said
from clockcore import ParseResult
from clockcore.geo.zones import get_zone
from clockcore.message import primary_language
from clockcore.parsing import second_reader
from clockcore.reading import holiday_days, safety
from clockcore.reading.day_words import SMALL_HOURS_QUESTION
from clockcore.reading.safety import APPROXIMATE_QUESTION
from clockcore.reading.which_week import WHICH_WEEK_QUESTION

__all__ = ["question_in"]

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

_PLACES = (
    (re.compile(r"^(?P<place>.+?) spans several time zones; which do you mean: (?P<options>.+)\?$"),
     ASK_PLACE_SPANS),
    (re.compile(r"^Which (?P<place>.+?) do you mean: (?P<options>.+\))\?$"), ASK_PLACE_WHICH),
    (re.compile(r"^Did you mean (?P<options>.+\))\?$"), ASK_PLACE_ONE),
)  # fmt: skip
"""`PlaceMatch.question` (clockcore/geo/places.py), each option ending in its zone: "(Zone/Id)"."""

_DAY_OR_MONTH = re.compile(
    r"^Does (?P<written>.+?) mean (?P<a>\d{1,2}) (?P<ma>[A-Z][a-z]+) "
    r"or (?P<b>\d{1,2}) (?P<mb>[A-Z][a-z]+)\?$"
)
_WHICH_CENTURY = re.compile(
    r"^Does (?P<written>.+?) mean the year (?P<first>\d+) or (?P<second>\d+)\?$"
)

_DST = re.compile(
    r"^(?P<hour>\d{1,2}):(?P<minute>\d\d) on .+? (?P<how>does not exist|happens twice) "
    r"in (?P<zone>\S+):"
)


def _pattern(template: str) -> re.Pattern[str]:
    """A clockcore question template as a regex: each field a group, `!r` ones quoted."""
    parts = []
    for literal, name, _, conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is not None:
            quoted = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
            parts.append(f"(?P<{name}>{quoted if conversion == 'r' else '.+?'})")
    return re.compile("".join(parts) + "$", re.DOTALL)


def _unquoted(value: str) -> str:
    """A `!r` field back to the words it quoted."""
    if value[:1] in "'\"":
        words = ast.literal_eval(value)
        return words if isinstance(words, str) else value
    return value


def _locale(language: str | None) -> str:
    primary = primary_language(language)
    return primary if primary in LANGUAGES else "en"


def _choices(parsed: ParseResult, zone: str, locale: str, *, at: bool) -> tuple[str, str]:
    """The two candidates as the person reads them: "Freitag 11 Dez., 15:00"."""
    from babel.dates import format_datetime

    tz = get_zone(parsed.zone or zone)
    pattern = "EEEE d MMM, HH:mm" if at else "EEEE d MMM"
    first, second = (
        format_datetime(c, pattern, tzinfo=tz, locale=locale) for c in parsed.candidates
    )
    return first, second


def _two_days(said: Said) -> Callable[[ParseResult, str, str, dict[str, str]], str]:
    """How a question offering two days (at one time) is said: its choices as local times."""

    def say(parsed: ParseResult, zone: str, locale: str, fields: dict[str, str]) -> str:
        if len(parsed.candidates) != 2:
            return ""
        first, second = _choices(parsed, zone, locale, at=":" in fields["first"])
        values = {k: _unquoted(v) for k, v in fields.items()}
        return said.in_(locale, **(values | {"first": first, "second": second}))

    return say


def _approximate(parsed: ParseResult, zone: str, locale: str, fields: dict[str, str]) -> str:
    del parsed, zone
    part = _unquoted(fields["part"])
    hour = re.search(r"\d{1,2}", part)
    if hour is None or not 1 <= int(hour[0]) <= 12:
        return ""
    morning = int(hour[0]) % 12
    am, pm = f"{morning:02d}:00", f"{morning + 12:02d}:00"
    return ASK_APPROXIMATE.in_(locale, part=part, am=am, pm=pm)


def _plain(said: Said) -> Callable[[ParseResult, str, str, dict[str, str]], str]:
    """How a question with no choices to format is said: its fields as clockcore quoted them."""

    def say(parsed: ParseResult, zone: str, locale: str, fields: dict[str, str]) -> str:
        del parsed, zone
        return said.in_(locale, **{k: _unquoted(v) for k, v in fields.items()})

    return say


def _day_or_month(parsed: ParseResult, zone: str, locale: str, fields: dict[str, str]) -> str:
    """ "Does 9/5 mean 9 May or 5 September?": the two days with the month in `locale`."""
    from babel.dates import format_skeleton

    del parsed, zone
    months = list(calendar.month_name)
    if fields["ma"] not in months or fields["mb"] not in months:
        return ""
    first, second = (
        format_skeleton("MMMMd", date(2000, months.index(m), int(d)), locale=locale)
        for d, m in ((fields["a"], fields["ma"]), (fields["b"], fields["mb"]))
    )
    return ASK_WHICH_DAY.in_(locale, written=fields["written"], first=first, second=second)


def _places(said: Said) -> Callable[[ParseResult, str, str, dict[str, str]], str]:
    """A place question: its options ("Portland, Oregon, US (America/Los_Angeles)") kept,
    the English "or" between them a semicolon, as `bot.llm.rules_agent` lists them."""

    def say(parsed: ParseResult, zone: str, locale: str, fields: dict[str, str]) -> str:
        del parsed, zone
        options = "; ".join(re.split(r"(?<=\))(?:, | or )", fields["options"]))
        return said.in_(locale, **(fields | {"options": options}))

    return say


_ASKED = (
    *((pattern, _places(said)) for pattern, said in _PLACES),
    (_DAY_OR_MONTH, _day_or_month),
    (_WHICH_CENTURY, _plain(ASK_WHICH_YEAR)),
    (_pattern(holiday_days.HOLIDAY_QUESTION), _plain(ASK_HOLIDAY)),
    (_pattern(holiday_days.UNKNOWN_COUNTRY_QUESTION), _plain(ASK_HOLIDAY_NO_COUNTRY)),
    (_pattern(second_reader.LEFTOVER_QUESTION), _plain(ASK_LEFTOVER)),
    (_pattern(safety.LEFTOVER_QUESTION), _plain(ASK_LEFTOVER)),
    (_pattern(safety.TWELVE_QUESTION), _plain(ASK_TWELVE)),
    (_pattern(safety.HOUR_QUESTION), _plain(ASK_HOUR)),
    (_pattern(safety.DAY_QUESTION), _plain(ASK_DAY)),
    (_pattern(WHICH_WEEK_QUESTION), _two_days(ASK_WHICH_DAY)),
    (_pattern(SMALL_HOURS_QUESTION), _two_days(ASK_SMALL_HOURS)),
    (_pattern(APPROXIMATE_QUESTION), _approximate),
)
"""The reader's questions this module re-says: its template, then how."""


def question_in(parsed: ParseResult, zone: str, language: str | None, english: str) -> str:
    """`parsed`'s question in `language`; `english` (its English, as the tool words it) else."""
    locale = _locale(language)
    question = parsed.clarification_question or ""
    if locale == "en" or not question:
        return english
    if (dst := _DST.match(question)) and len(parsed.candidates) == 2:
        return _dst(parsed, zone, locale, dst)
    for pattern, say in _ASKED:
        if (found := pattern.match(question)) and (
            words := say(parsed, zone, locale, found.groupdict())
        ):
            return words
    return english


def _dst(parsed: ParseResult, zone: str, locale: str, found: re.Match[str]) -> str:
    from babel.dates import format_date

    tz = get_zone(parsed.zone or zone)
    first, second = (c.astimezone(tz) for c in parsed.candidates)
    day = format_date(first.date(), "full", locale=locale)
    wall = f"{int(found['hour']):02d}:{found['minute']}"
    if found["how"] == "happens twice":
        return ASK_CLOCKS_BACK.in_(locale, day=day, wall=wall, zone=found["zone"])
    return ASK_CLOCKS_SKIP.in_(
        locale,
        day=day,
        wall=wall,
        zone=found["zone"],
        first=f"{first:%H:%M}",
        second=f"{second:%H:%M}",
    )
