"""A weekday that may be this week's or next week's is a question (docs/time-rules.md).

"next Wednesday" said on a Tuesday is tomorrow to some and a week later to
others; "this Tuesday" said on a Tuesday is today or a week today. Readers
pick one of the two silently: `which_week` asks instead, with both days as
the candidates. "Tuesday" alone said on a Tuesday is a week today, the next
occurrence after today (docs/time-rules.md), whichever reader read it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, tzinfo

from clockcore.geo.anchoring import day_start
from clockcore.geo.zones import zone_from_label
from clockcore.parse_result import ParseResult
from clockcore.parsing import weekdays
from clockcore.questions import Asking
from clockcore.reading.leftover import folded, phrases

__all__ = ["WHICH_WEEK_QUESTION", "which_week"]

WHICH_WEEK_QUESTION = Asking("which_week", "{written!r}: do you mean {first} or {second}?")

_NEXT = phrases("NEXT_WORDS")
_THIS = phrases("THIS_WORDS")
_WEEK = phrases("WEEK_WORDS")
_WORD = re.compile(r"[^\W\d_]+")
# Words a weekday may stand with and still leave the week open: articles, "on", the
# words of a clock time.
_PLAIN = frozenset({
    "on", "at", "the", "am", "pm", "a", "p", "m", "um", "uhr", "h", "heures", "heure", "las",
    "la", "le", "el", "il", "lo", "al", "alle", "om", "uur", "o", "as", "op", "de", "das", "den",
    "der", "oclock", "clock", "feira", "na", "no", "ao", "en", "kommenden", "nachsten",
})  # fmt: skip


def which_week(
    text: str, found: ParseResult, reference: datetime, languages: tuple[str, ...]
) -> ParseResult:
    """`found`, or a question when its one weekday may be this week's or next week's."""
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found
    start, end = found.span
    named = weekdays.named_weekdays(text, start, end, languages)
    if len(named) != 1 or not found.zone:
        return found
    if weekdays.names_a_date(text[start:end]) or weekdays.named_day_offset(text, start, end):
        return found
    low = folded(text[start:end])
    if _WEEK.search(low):  # "Thursday next week": the week is named
        return found
    word_start, word_end, _ = named[0]
    rest = folded(text[start:word_start] + " " + text[word_end:end])
    if any(word not in _PLAIN for word in _WORD.findall(_NEXT.sub(" ", _THIS.sub(" ", rest)))):
        return found  # "the Sunday after next", "vendredi en huit": more than which week
    tz = zone_from_label(found.zone)
    today = reference.astimezone(tz).date()
    local = found.start_instant.astimezone(tz)
    weekday = named[0][2]
    this_week = today + timedelta(days=(weekday - today.weekday()) % 7)
    if local.date() not in (this_week, this_week + timedelta(days=7)):
        return found  # "last Tuesday", "Tuesday in two weeks"
    point = found.end_instant == found.start_instant
    coming = weekday < today.weekday() and _NEXT.search(low) and not _THIS.search(low)
    if coming or (weekday == today.weekday() and _NEXT.search(low)):
        # "next Monday" said on a Tuesday is the coming Monday, "next Tuesday" on a Tuesday
        # a week today, in every language (Duckling reads "lunedì prossimo", "el lunes que
        # viene" a week later): the documented day, the wall time kept.
        day = this_week if weekday != today.weekday() else this_week + timedelta(days=7)
        return found if local.date() == day else _moved(found, local, day, tz)
    if weekday == today.weekday():
        if not _THIS.search(low):  # a weekday alone is its next occurrence after today
            return found if local.date() != today else _week_on(found, local, tz)
        if point and local.date() != today and local - timedelta(days=7) <= reference:
            return found  # today's is past: only a week today is ahead
    elif weekday < today.weekday() or not _NEXT.search(low) or _THIS.search(low):
        return found  # a weekday alone, or "this Monday" said on a Tuesday
    wall = local.replace(tzinfo=None).time()
    first, second = (
        datetime.combine(day, wall, tz).astimezone(UTC)
        for day in (this_week, this_week + timedelta(days=7))
    )
    shape = "%a %b %-d %H:%M" if point else "%a %b %-d"
    question = WHICH_WEEK_QUESTION.ask(
        written=found.matched_text,
        first=first.astimezone(tz).strftime(shape),
        second=second.astimezone(tz).strftime(shape),
    )
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        question=question, candidates=(first, second),
    )  # fmt: skip


def _week_on(found: ParseResult, local: datetime, tz: tzinfo) -> ParseResult:
    """`found` a week later, wall time kept: "Dienstag" said on a Tuesday, read as today."""
    return _moved(found, local, local.date() + timedelta(days=7), tz)


def _moved(found: ParseResult, local: datetime, day: date, tz: tzinfo) -> ParseResult:
    """`found` on `day`, its wall time and length kept."""
    if found.end_instant == found.start_instant:
        moved = datetime.combine(day, local.replace(tzinfo=None).time(), tz).astimezone(UTC)
        return replace(found, start_instant=moved, end_instant=moved)
    assert found.end_instant is not None
    days = (found.end_instant.astimezone(tz).date() - local.date()).days
    return replace(
        found,
        start_instant=day_start(day, tz),
        end_instant=day_start(day + timedelta(days=days), tz),
    )
