"""The reader's last checks, which read the text again where they must (docs/time-rules.md).

`nothing_left` is the safety net every reading passes last: anything time-like
left beside it, a 24-hour form read as another hour, or an approximate hour
that may be morning or evening makes it a question. `open_range` reads "ab 18
Uhr" as its start; `clock_not_year` reads "7 Jan 1045" as 10:45. `Reader` is
the reading pipeline, handed in by `clockcore.parsing.timeparse`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from clockcore.geo.zones import zone_from_label
from clockcore.parse_result import ParseResult
from clockcore.parsing import cues
from clockcore.parsing.grammar import ZONE_KINDS, scan_text
from clockcore.questions import WHICH_TIME, Asking
from clockcore.reading import leftover, typos
from clockcore.reading.words import table

__all__ = ["YEAR_OR_CLOCK_QUESTION", "Reader", "clock_not_year", "nothing_left", "open_range"]

LEFTOVER_QUESTION = Asking(
    "leftover",
    "I read {read!r} as the time, but the message also says {left!r}, so I'd rather ask: "
    "which time do you mean exactly?",
)

HOUR_QUESTION = Asking(
    "hour",
    "{written!r} reads as {read} here, not as written: which time do you mean? "
    "Write it as, say, '09:30' or '21:30'.",
)
DAY_QUESTION = Asking(
    "day", "{text!r} reads as {read}, not the day {day} written there: which date do you mean?"
)
TWELVE_QUESTION = Asking("twelve", "{text!r}: do you mean 12:00 noon or 00:00 midnight?")
APPROXIMATE_QUESTION = Asking(
    "approximate",
    "{part!r} could be in the morning or in the evening: which do you mean? "
    "Write it as, say, '6am' or '18:00'.",
)

MEAL_QUESTION = Asking(
    "meal",
    "I read {read!r} as {time}, but the message says {meal!r}: which time do you mean? "
    "Write it as, say, '7am' or '19:00'.",
)

Reader = Callable[[str], ParseResult]
"""Reads a text (the same length as the message) as `parse_anchored_time` would."""


def open_range(
    text: str,
    found: ParseResult,
    starts: list[tuple[tuple[int, int], tuple[int, int]]],
    read: Reader,
    marker: str = "at",
) -> ParseResult:
    """ "ab 18 Uhr", "à partir de 18h", "from 6pm": an open range reads as its start.

    The text is read again with the start words blanked; the reading stands, widened
    to the start word, when it holds the number the word stood before
    (docs/time-rules.md). A bare number left ("domani dalle 18") is read again with
    `marker`, the person's word for "at" ("alle"), in the start word's place. Otherwise
    the first reading stays, and the leftover rule asks about the start word.
    """
    if found.start_instant is not None and not found.needs_clarification and found.span:
        begin, end = found.span
        if all(begin <= word and number <= end for (word, _), (_, number) in starts):
            return found  # "from 4 to 6 of May": read whole, start word and all
    blank, held = _without_start_words(text, found, starts, read, " ")
    if held:
        return blank
    # "domani dalle 18" without "dalle" leaves a bare "18", which no reader reads as a
    # time: the start word marked it as one, as "at" does.
    marked, held = _without_start_words(text, found, starts, read, marker)
    return marked if held else blank


def _without_start_words(
    text: str,
    found: ParseResult,
    starts: list[tuple[tuple[int, int], tuple[int, int]]],
    read: Reader,
    instead: str,
) -> tuple[ParseResult, bool]:
    """`text` read again with each start word replaced by `instead`, and whether that
    reading holds the number after a start word (then it is widened to the word).

    `found` stands when the text read again reads nothing, or another hour.
    """
    chars = list(text)
    for (word_start, word_end), _ in starts:
        if len(instead) > word_end - word_start:
            return found, False  # "às" does not fit where "a" stood: the spans would move
        chars[word_start:word_end] = instead.ljust(word_end - word_start)
    again = read("".join(chars))
    if again.start_instant is None or again.needs_clarification or again.span is None:
        return found, False
    begin, end = again.span
    local = again.start_instant.astimezone(zone_from_label(again.zone or "UTC"))
    held = False
    for (word_start, _), (number_start, number_end) in starts:
        if begin <= number_start and number_end <= end:
            hour = re.match(r"\d{1,2}(?!\d)", text[number_start:number_end])
            if hour and int(hour.group()) not in (local.hour, local.hour % 12 or 12):
                return found, False  # "from 9 to 5" read again as 04:51: not the start
            begin, held = min(begin, word_start), True
    if instead.strip() and not held:
        return found, False  # the marker was not written: only a reading it completes
    return replace(again, span=(begin, end), matched_text=text[begin:end]), held


def nothing_left(text: str, found: ParseResult) -> ParseResult:
    """The safety net: anything time-like left beside a reading makes it a question.

    Every reading passes here last, whoever read it (docs/time-rules.md,
    "Nothing time-like left over"): "Donnerstag ab 9:30" read as 9:30 leaves
    "Donnerstag" and "ab 9:30", and is asked about, naming both.
    """
    if found.start_instant is None and not found.needs_clarification:
        return _approximate_unread(text, found)
    if found.start_instant is None or found.needs_clarification:
        return found
    span = found.span
    if span is None:
        at = text.find(found.matched_text) if found.matched_text else -1
        span = (at, at + len(found.matched_text)) if at >= 0 else (0, 0)
    chars = list(cues.masked(text))
    for token in scan_text(text):
        if token.kind in ZONE_KINDS:  # a zone is not a time: clockcore reads it itself
            chars[token.start : token.end] = " " * (token.end - token.start)
    scanned = "".join(chars)
    if found.start_instant == found.end_instant and leftover.counted_after(scanned, span):
        return ParseResult(kind="invalid", reason="a count, not a time", matched_text="")
    if leftover.fraction_at(scanned, span):  # "3/4 cup": an amount, not 3 April
        return ParseResult(kind="invalid", reason="a fraction, not a date", matched_text="")
    local = found.start_instant.astimezone(zone_from_label(found.zone or "UTC"))
    if (left := leftover.left_beside(scanned, span)) is not None:
        question = LEFTOVER_QUESTION.ask(read=found.matched_text, left=left)
    elif (
        found.end_instant is not None
        and found.end_instant - found.start_instant >= _MOST_OF_A_DAY
        and (dropped := leftover.time_in_a_day(scanned, span)) is not None
    ):
        question = LEFTOVER_QUESTION.ask(read=found.matched_text, left=dropped)
    elif (
        found.end_instant is not None
        and found.end_instant - found.start_instant <= _MOST_OF_A_DAY + _HOUR
        and (written := leftover.day_not_as_written(scanned, span, local.day)) is not None
    ):
        question = DAY_QUESTION.ask(text=written, read=f"{local:%Y-%m-%d %H:%M}", at=local,
                                    day=re.sub(r"\D", "", written))  # fmt: skip
    elif (
        found.end_instant is not None
        and found.end_instant - found.start_instant < _MOST_OF_A_DAY
        and (edge := leftover.part_edge(scanned, span))
    ):
        question = WHICH_TIME.ask(text=edge)
    elif found.start_instant == found.end_instant and (
        noon := leftover.number_after_noon(scanned, span)
    ):
        question = WHICH_TIME.ask(text=noon)
    elif found.start_instant == found.end_instant and leftover.twelve_beside_part(text, span):
        question = TWELVE_QUESTION.ask(text=found.matched_text)
    elif found.start_instant == found.end_instant and (
        half := leftover.pm_not_as_written(scanned, span, local.hour)
    ):
        question = HOUR_QUESTION.ask(written=half, read=f"{local:%H:%M}")
    elif found.start_instant == found.end_instant and (
        other := leftover.hour_not_as_written(
            scanned, (span[0], leftover.clock_word_after(scanned, span[1])), local.hour
        )
    ):
        question = HOUR_QUESTION.ask(written=other, read=f"{local:%H:%M}")
    elif found.start_instant == found.end_instant and (
        meal := leftover.meal_against_hour(scanned, span, local.hour)
    ):
        question = MEAL_QUESTION.ask(read=found.matched_text, time=f"{local:%H:%M}", meal=meal)
    elif (unclear := leftover.unclear_approximation(scanned)) is not None:
        question = APPROXIMATE_QUESTION.ask(part=unclear)
    elif (typo := typos.misspelt_day(scanned, span)) is not None:
        question = typos.TYPO_QUESTION.ask(read=found.matched_text, word=typo[0], guess=typo[1])
    else:
        return found
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        question=question,
    )  # fmt: skip


def _approximate_unread(text: str, found: ParseResult) -> ParseResult:
    """ "5ish", "a eso de las 5", "por volta das 5", which no reader reads: asked about
    (morning or evening?) rather than passed over (docs/time-rules.md)."""
    part = leftover.approximate_hour(cues.masked(text))
    if part is None:
        return found
    at = text.find(part)
    return ParseResult(
        kind="absolute", needs_clarification=True,
        question=APPROXIMATE_QUESTION.ask(part=part), matched_text=part,
        span=(at, at + len(part)) if at >= 0 else None,
    )  # fmt: skip


_MOST_OF_A_DAY = timedelta(hours=23)
_HOUR = timedelta(hours=1)  # a whole day, even one that loses an hour to DST

# Four digits right after a date: "7 Jan 1045", "am 3.2. 0930".
_FOUR_AFTER_DATE = re.compile(
    r"(?:(?<![^\W\d_])[^\W\d_]{3,}\.?|\d{1,2}[./]\d{1,2}\.?|\d{1,2}(?:st|nd|rd|th|\.)?),?\s+(\d{4})(?!\d)"
)
_NEAR_YEARS = 10
_MONTH = timedelta(days=28)
"""How far from now a year must be before four digits that are a clock time read as one."""


_PLAUSIBLE_YEARS = (1900, 2099)
"""Four digits in this range may be a year as well as a clock time: then clockbot asks."""
LONE_YEAR_QUESTION = Asking(
    "lone_year", "In {text!r}, is {digits} really the year {digits}? Which date do you mean?"
)
_MONTH_OR_DATE = re.compile(
    r"\d{1,2}[./-]\d{1,2}|(?<![^\W_])(?:"
    + "|".join(
        sorted(
            {leftover.folded(w) for w in table("MONTHS") + table("LOOSE")}, key=len, reverse=True
        )
    )
    + r")(?![^\W\d_])",
)
YEAR_OR_CLOCK_QUESTION = Asking(
    "year_or_clock", "In {text!r}, is {digits} the year {digits} or the time {clock}?"
)


def clock_not_year(text: str, found: ParseResult, reference: datetime, read: Reader) -> ParseResult:
    """Four digits after a date are a clock time when they are one, not a year long past.

    "dentist 7 Jan 1045" is 7 January at 10:45, never the year 1045 (docs/time-rules.md,
    "Numbers follow the person's language"). A year near now stays a year ("7 Jan 2027").
    """
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found
    start, end = found.span
    year = found.start_instant.astimezone(zone_from_label(found.zone or "UTC")).year
    narrow = found.end_instant is not None and found.end_instant - found.start_instant < _MONTH
    if (
        narrow
        and abs(year - reference.year) > _NEAR_YEARS
        and not _MONTH_OR_DATE.search(leftover.folded(text), start, end)
    ):  # a day or a time in a year long past or far ahead, with no month written
        lone = re.search(rf"(?<![\d.,:/-]){year}(?![\d.,:/-])", text[start:end])
        if lone is not None:  # "sala 1045 giovedì alle 15": a room, not Thursday of 1045
            return replace(
                found, start_instant=None, end_instant=None, needs_clarification=True,
                question=LONE_YEAR_QUESTION.ask(text=found.matched_text,
                                                                 digits=lone.group()),
            )  # fmt: skip
    for match in _FOUR_AFTER_DATE.finditer(text, start, end):
        digits = match.group(1)
        hour, minute = int(digits[:2]), int(digits[2:])
        leading_zero = digits.startswith("0")  # "0930": no year is written so
        if not leading_zero and (int(digits) != year or abs(year - reference.year) <= _NEAR_YEARS):
            continue
        if hour > 23 or minute > 59:
            continue
        if not leading_zero and _PLAUSIBLE_YEARS[0] <= int(digits) <= _PLAUSIBLE_YEARS[1]:
            # "3. Okt 1950": the year 1950 or 19:50? Both read whole; ask.
            return replace(
                found, start_instant=None, end_instant=None, needs_clarification=True,
                question=YEAR_OR_CLOCK_QUESTION.ask(
                    text=found.matched_text, digits=digits, clock=f"{hour:02d}:{minute:02d}"),
            )  # fmt: skip
        at = match.start(1)
        again = read(f"{text[:at]}{hour}:{minute:02d}{text[at + 4 :]}")
        if again.start_instant is None or again.needs_clarification:
            return again
        return replace(again, span=found.span, matched_text=found.matched_text)
    return found
