"""The reader's last checks, which read the text again where they must (docs/time-rules.md).

`nothing_left` is the safety net every reading passes last: anything time-like
left beside it, a 24-hour form read as another hour, or an approximate hour
that may be morning or evening makes it a question. `open_range` reads "ab 18
Uhr" as its start; `clock_not_year` reads "7 Jan 1045" as 10:45. `Reader` is
the reading pipeline, handed in by `clockcore.timeparse`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from clockcore import cues
from clockcore.grammar import ZONE_KINDS, scan_text
from clockcore.parse_result import ParseResult
from clockcore.reading import leftover
from clockcore.zones import zone_from_label

__all__ = ["Reader", "clock_not_year", "nothing_left", "open_range"]

Reader = Callable[[str], ParseResult]
"""Reads a text (the same length as the message) as `parse_anchored_time` would."""


def open_range(
    text: str,
    found: ParseResult,
    starts: list[tuple[tuple[int, int], tuple[int, int]]],
    read: Reader,
) -> ParseResult:
    """ "ab 18 Uhr", "à partir de 18h", "from 6pm": an open range reads as its start.

    The text is read again with the start words blanked; the reading stands, widened
    to the start word, when it holds the number the word stood before
    (docs/time-rules.md). Otherwise the first reading stays, and the leftover rule
    asks about the start word.
    """
    chars = list(text)
    for (word_start, word_end), _ in starts:
        chars[word_start:word_end] = " " * (word_end - word_start)
    again = read("".join(chars))
    if again.start_instant is None or again.needs_clarification or again.span is None:
        return found
    begin, end = again.span
    for (word_start, _), (number_start, number_end) in starts:
        if begin <= number_start and number_end <= end:
            begin = min(begin, word_start)
    return replace(again, span=(begin, end), matched_text=text[begin:end])


def nothing_left(text: str, found: ParseResult) -> ParseResult:
    """The safety net: anything time-like left beside a reading makes it a question.

    Every reading passes here last, whoever read it (docs/time-rules.md,
    "Nothing time-like left over"): "Donnerstag ab 9:30" read as 9:30 leaves
    "Donnerstag" and "ab 9:30", and is asked about, naming both.
    """
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
    local = found.start_instant.astimezone(zone_from_label(found.zone or "UTC"))
    if (left := leftover.left_beside(scanned, span)) is not None:
        question = leftover.LEFTOVER_QUESTION.format(read=found.matched_text, left=left)
    elif found.start_instant == found.end_instant and (
        other := leftover.hour_not_as_written(scanned, span, local.hour)
    ):
        question = leftover.HOUR_QUESTION.format(written=other, read=f"{local:%H:%M}")
    elif (unclear := leftover.unclear_approximation(scanned)) is not None:
        question = leftover.APPROXIMATE_QUESTION.format(part=unclear)
    else:
        return found
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        clarification_question=question,
    )  # fmt: skip


# Four digits right after a date: "7 Jan 1045", "am 3.2. 0930".
_FOUR_AFTER_DATE = re.compile(
    r"(?:[^\W\d_]{3,}\.?|\d{1,2}[./]\d{1,2}\.?|\d{1,2}(?:st|nd|rd|th|\.)?),?\s+(\d{4})(?!\d)"
)
_NEAR_YEARS = 10
"""How far from now a year must be before four digits that are a clock time read as one."""


def clock_not_year(text: str, found: ParseResult, reference: datetime, read: Reader) -> ParseResult:
    """Four digits after a date are a clock time when they are one, not a year long past.

    "dentist 7 Jan 1045" is 7 January at 10:45, never the year 1045 (docs/time-rules.md,
    "Numbers follow the person's language"). A year near now stays a year ("7 Jan 2027").
    """
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found
    start, end = found.span
    year = found.start_instant.astimezone(zone_from_label(found.zone or "UTC")).year
    for match in _FOUR_AFTER_DATE.finditer(text, start, end):
        digits = match.group(1)
        hour, minute = int(digits[:2]), int(digits[2:])
        leading_zero = digits.startswith("0")  # "0930": no year is written so
        if not leading_zero and (int(digits) != year or abs(year - reference.year) <= _NEAR_YEARS):
            continue
        if hour > 23 or minute > 59:
            continue
        at = match.start(1)
        again = read(f"{text[:at]}{hour}:{minute:02d}{text[at + 4 :]}")
        if again.start_instant is None or again.needs_clarification:
            return again
        return replace(again, span=found.span, matched_text=found.matched_text)
    return found
