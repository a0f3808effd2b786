"""A part of the day without a clock time is one hour a person would pick (docs/time-rules.md).

Readers return a part of the day as a span ("tomorrow morning" 06:00–12:00,
"demain matin" 04:00–12:00, "morgen früh" 03:00–12:00), and a reminder set
from it fires at the span's edge. `one_hour` reads it as the part's hour
(`HOURS`), in every language (`clockcore.reading.words`, the ``*_WORDS``
tables), moved into the person's contact window when the caller knows it.
A part of today already past its hour ("tonight" said at 21:10) is the next
full hour still inside that part, or a question; never a time gone by.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time, timedelta

from clockcore.geo.anchoring import asked, localize, point
from clockcore.geo.zones import zone_from_label
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.questions import Asking
from clockcore.reading.leftover import folded
from clockcore.reading.words import table
from clockcore.window import ContactWindow

__all__ = ["HOURS", "PASSED_QUESTION", "one_hour", "part_named", "small_hours_of_night"]

HOURS = {
    "morning": time(9),
    "afternoon": time(15),
    "evening": time(19),
    "tonight": time(20),
    "night": time(22),
}
"""The hour each part of the day reads as (docs/time-rules.md, "Parts of the day")."""

PASSED_QUESTION = Asking(
    "passed",
    "It is already {now} and {words!r} has no time left I could pick: which time do you mean? "
    "Write it as, say, '21:30' or 'tomorrow evening'.",
)

_LONGEST_PART = timedelta(hours=18)
_DAWN = 5
# Compound words end with the part: "Freitagabend", "morgenochtend", "zondagavond".
_SUFFIXES = ("abend", "avond", "ochtend", "middag", "nachmittag", "morgen", "nacht")


_WORD_PART = {
    folded(word): part
    for part in ("morning", "afternoon", "evening", "night", "tonight")
    for word in table(f"{part.upper()}_WORDS")
}


def _pattern() -> re.Pattern[str]:
    ordered = sorted(_WORD_PART, key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)
    suffixes = "|".join(_SUFFIXES)
    return re.compile(
        rf"(?<![^\W_])(?P<word>{alternatives})(?![^\W\d_])"
        rf"|(?<![^\W_])[^\W\d_]{{3,}}?(?P<suffix>{suffixes})(?![^\W\d_])"
    )


_PART = _pattern()
_SUFFIX_PART = {
    "abend": "evening", "avond": "evening", "ochtend": "morning", "middag": "afternoon",
    "nachmittag": "afternoon", "morgen": "morning", "nacht": "night",
}  # fmt: skip
# A clock time written in the reading: the part only settles its hour
# (`clockcore.parsing.modifiers`).
_CLOCK = re.compile(
    r"\d|(?<![^\W_])(?:" + "|".join(sorted({folded(w) for w in table("HOUR_WORDS")} -
                                           {"een", "une", "una", "uma", "eins"},
                                           key=len, reverse=True)) + r")(?![^\W\d_])"
)  # fmt: skip


def part_named(text: str, span: tuple[int, int]) -> str | None:
    """The part of the day `text[span]` names ("morning", "tonight"…) without a clock time."""
    start, end = span
    low = folded(text)
    if _CLOCK.search(low, start, end):
        return None
    found = None
    for match in _PART.finditer(low, start, end):
        if match.group("word"):
            part = _WORD_PART[re.sub(r"\s+", " ", match.group("word"))]
        else:
            part = _SUFFIX_PART[match.group("suffix")]
        if part == "tonight" or found is None:
            found = part
    return found


def small_hours_of_night(text: str, span: tuple[int, int], first: datetime) -> bool:
    """Whether a reading of `text[span]` is a night's small hours ("domani notte" as 00:00–
    04:00 after tomorrow): then the day its words name is the evening before."""
    return first.hour < _DAWN and part_named(text, span) in ("night", "tonight")


def one_hour(
    text: str, found: ParseResult, reference: datetime, window: ContactWindow | None
) -> ParseResult:
    """A confident reading of a part of the day as a span becomes its hour (`HOURS`)."""
    if found.start_instant is None or found.end_instant is None or found.needs_clarification:
        return found
    if found.span is None or not found.zone or found.zone_source is None:
        return found
    length = found.end_instant - found.start_instant
    if not timedelta(0) < length <= _LONGEST_PART:
        return found
    part = part_named(text, found.span)
    if part is None:
        return found
    tz = zone_from_label(found.zone)
    first = found.start_instant.astimezone(tz)
    if part in ("night", "tonight") and first.hour < _DAWN:  # "stanotte" 00:00–04:00
        if found.end_instant <= reference:  # "heute Nacht" said at 10:00 read as last night
            now = reference.astimezone(tz)
            return replace(
                found, start_instant=None, end_instant=None, needs_clarification=True,
                question=PASSED_QUESTION.ask(
                    now=f"{now:%H:%M}", words=found.matched_text),
            )  # fmt: skip
        return found
    # "tonight" is today's, whatever span a reader gave it ("stanotte": 00:00–04:00 tomorrow)
    today = reference.astimezone(tz).date()
    day = today if part == "tonight" else first.date()
    if part == "evening" and day == today:  # today's evening is tonight ("à noite", "abends")
        part = "tonight"
    hour = _inside(HOURS[part], window)
    anchor = Anchor(tz, found.zone, found.zone_source)
    base: dict[str, object] = {
        "matched_text": found.matched_text, "span": found.span, "zone": found.zone,
        "zone_source": found.zone_source, "reader": found.reader,
    }  # fmt: skip
    wall = datetime.combine(day, hour)
    instant, _ = localize(wall, tz)
    if instant is not None and instant <= reference:
        # Said after the part's hour: the next full hour still inside the part, or ask.
        now = reference.astimezone(tz)
        later = now.replace(minute=0, second=0, microsecond=0, tzinfo=None) + timedelta(hours=1)
        if later.date() != day or later >= found.end_instant.astimezone(tz).replace(tzinfo=None):
            return asked(base, PASSED_QUESTION.ask(now=f"{now:%H:%M}", words=found.matched_text))
        if window is not None and not window.contains(later.time()):
            return asked(base, PASSED_QUESTION.ask(now=f"{now:%H:%M}", words=found.matched_text))
        wall = later
    return replace(point(wall, tz, anchor, base, found.kind), matched_text=found.matched_text)


def _inside(hour: time, window: ContactWindow | None) -> time:
    """`hour` moved into the contact window: its first hour, or its last full hour."""
    if window is None or window.contains(hour):
        return hour
    if window.start < window.end:
        last = (datetime.combine(date.min, window.end) - timedelta(hours=1)).time()
        return window.start if hour < window.start else max(last, window.start)
    # A window across midnight (22:00–06:00): its start is the nearest hour it holds.
    return window.start
