"""Duckling's readings anchored under our rules, not its own (docs/time-rules.md).

Duckling resolves what it reads against its own defaults. `anchored` takes a
reading back to the person's zone and clockcore's rules: an hour past 23 is not
a time; "10 to 7 pm" is 18:50, not a range; a range is kept only when it is
written as one and spans at most half a day; "at 0800" keeps its hour; a time
that has passed is asked about unless the text names a year or looks back; a
month whose day Duckling dropped ("30 de fevereiro") is asked about; a date that
has passed is read a year on when that reads the same, else asked about.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time, timedelta

from clockcore.geo.anchoring import (
    NotATime,
    add_months,
    asked,
    day_start,
    point,
    result,
)
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.parsing import clockforms, duckling_reader
from clockcore.questions import WHICH_DAY, Asking

__all__ = ["PAST_QUESTION", "RANGE_QUESTION", "anchored"]


_SPANS = {"week": (0, 7), "month": (1, 0), "quarter": (3, 0), "year": (12, 0)}


def anchored(
    reading: duckling_reader.Reading, anchor: Anchor, reference: datetime, *, again: bool = True
) -> ParseResult:
    """A Duckling reading as clockcore anchors it: DST questions, whole days, next occurrences."""
    tz = anchor.tz
    base: dict[str, object] = {
        "matched_text": reading.text.strip(),
        "span": _stripped(reading.text, reading.start),
        "zone": anchor.label,
        "zone_source": anchor.source,
        "reader": "duckling",
    }
    if (late := clockforms.impossible_hour(reading.text)) is not None:
        raise NotATime(f"{late!r} is not a time: hours run 00–23")
    if reading.open_range:  # "bis 10 Uhr", "nach 15 Uhr": a limit, not one time (read or ask)
        return asked(base, RANGE_QUESTION.ask(text=reading.text.strip()))
    if reading.end_wall is not None and (to := clockforms.minutes_to(reading.text)) is not None:
        # "at 10 to 7 pm": 18:50 at its next occurrence, not a range from 10 to 7.
        wall = datetime.combine(reference.astimezone(tz).date(), time(*to))
        found = point(wall, tz, anchor, base, "absolute")
        if found.start_instant is not None and found.start_instant <= reference:
            found = point(wall + timedelta(days=1), tz, anchor, base, "absolute")
        return found
    if reading.end_wall is not None:
        begin = reading.walls[0]
        if reading.end_wall - begin > _HALF_DAY and reading.grain in ("minute", "hour"):
            if not clockforms.start_is_pm(reading.text) or begin + _HALF_DAY >= reading.end_wall:
                return asked(base, RANGE_QUESTION.ask(text=reading.text.strip()))
            begin += _HALF_DAY  # "between 2 and 4pm"
        if not clockforms.range_is_written(reading.text) or not _start_written(reading, begin):
            return asked(base, RANGE_QUESTION.ask(text=reading.text.strip()))
        first = point(begin, tz, anchor, base, "absolute")
        last = point(reading.end_wall, tz, anchor, base, "absolute")
        if first.needs_clarification:
            return first
        if last.needs_clarification:
            return last
        return result(
            "absolute", start_instant=first.start_instant, end_instant=last.start_instant, **base
        )
    if reading.grain in ("second", "minute", "hour"):
        walls = reading.walls
        if (written := clockforms.military(reading.text)) is not None:
            # "at 0800": 08:00, never 20:00.
            walls = tuple(w for w in walls if (w.hour, w.minute) == written) or walls
        elif clockforms.noon_written(reading.text):  # "às 12h15" is 12:15, not 00:15
            walls = (
                tuple(w for w in walls if w.hour == 12)
                or tuple(w + timedelta(hours=12) for w in walls if w.hour == 0)
                or walls
            )
        for wall in walls:
            found = point(wall, tz, anchor, base, "absolute")
            if found.needs_clarification or (found.start_instant or reference) > reference:
                return found
        if not _PAST_OR_YEAR.search(reading.text):
            # "um 3 Uhr nachmittags am Dienstag" read as last Tuesday: not what was written.
            return asked(base, PAST_QUESTION.ask(text=reading.text.strip(),
                day=walls[0].date().isoformat(), date=walls[0].date()))  # fmt: skip
        return point(walls[0], tz, anchor, base, "absolute")
    if reading.grain == "month" and _DAY_NUMBER.search(reading.text):
        # "30 de fevereiro" read as February: the day was dropped.
        return asked(base, WHICH_DAY.ask(text=reading.text.strip()))
    day = reading.walls[0].date()
    months, days = _SPANS.get(reading.grain, (0, 1))
    after = add_months(day, months) + timedelta(days=days)
    if day_start(after, tz) <= reference and not _PAST_OR_YEAR.search(reading.text):
        # "first tuesday of october" on October 31st: Duckling answers this year's.
        return (again and _next_year(reading, anchor, reference)) or result(
            "absolute", needs_clarification=True, question=PAST_QUESTION.ask(
                text=reading.text.strip(), day=day.isoformat(), date=day), **base,
        )  # fmt: skip
    return result(
        "absolute", start_instant=day_start(day, tz), end_instant=day_start(after, tz), **base
    )


PAST_QUESTION = Asking("past", "{text!r} reads as {day}, which has passed. Which date do you mean?")
RANGE_QUESTION = Asking(
    "range", "I'm not sure how to read {text!r}. Which time do you mean exactly?"
)
_HALF_DAY = timedelta(hours=12)
_DAY_NUMBER = re.compile(r"(?<![\d.,:])(?:[1-9]|[12]\d|3[01])(?![\d.,:])")


# A reading that may lie in the past: it names a year, or says it looks back.
_PAST_OR_YEAR = re.compile(
    r"\d{4}|\b(?:yesterday|last|ago|previous|past|ayer|anteayer|anoche|pasad[oa]|hace|gestern|"
    r"vorgestern|letzte[nmrs]?|vorige[nmrs]?|vergangene[nmrs]?|hier|avant-hier|derni[eè]re?|"
    r"pass[ée]e?|ontem|anteontem|passad[oa]|[uú]ltim[oa]|h[aá]|ieri|scors[oa]|fa|gisteren|"
    r"eergisteren|afgelopen|geleden)\b",
    re.IGNORECASE,
)


def _start_written(reading: duckling_reader.Reading, begin: datetime) -> bool:
    """Whether a range of hours that starts at midnight says midnight.

    Duckling reads "from 9 to 5 tomorrow" as 00:00-05:00: a start no one wrote.
    A range written in words ("this evening", "from nine to eleven") passes.
    """
    numbers = {int(n) for n in re.findall(r"(?<![\d:.])\d{1,2}(?!\d)", reading.text)}
    if reading.grain not in ("minute", "hour") or not numbers or begin.hour != 0:
        return True
    return bool({0, 12, 24} & numbers) or _MIDNIGHT.search(reading.text) is not None


_MIDNIGHT = re.compile(
    r"midnight|mitternacht|minuit|medianoche|meia-noite|mezzanotte|middernacht|night|nacht|"
    r"nuit|noche|noite|notte",
    re.IGNORECASE,
)


def _next_year(
    reading: duckling_reader.Reading, anchor: Anchor, reference: datetime
) -> ParseResult | None:
    """The same words read from next January 1st: the next occurrence of a yearly date.

    Only a reading in the same month is one: words relative to now ("this month",
    "this week") read from January name another day, not next year's.
    """
    local = reference.astimezone(anchor.tz)
    january = datetime.combine(date(local.year + 1, 1, 1), time())  # naive: a wall time
    reread = [
        r
        for r in duckling_reader.read(reading.text, january)
        if (r.start, r.end) == (0, len(reading.text)) and r.end_wall is None
    ]
    if len(reread) != 1 or reread[0].grain != reading.grain:
        return None
    if reread[0].walls[0].month != reading.walls[0].month:
        return None  # "the first Monday of this month" read from January is January's
    moved = replace(reread[0], start=reading.start, end=reading.end)
    found = anchored(moved, anchor, reference, again=False)
    return found if (found.start_instant or reference) > reference else None


def _stripped(part: str, start: int) -> tuple[int, int]:
    """The span of `part` (found at `start`) without its surrounding whitespace."""
    lead = len(part) - len(part.lstrip())
    return start + lead, start + len(part.rstrip())
