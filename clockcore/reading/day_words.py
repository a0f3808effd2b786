"""The day a reading's day word names ("mañana", "morgen", "demain"), and whether a span is dated.

A check stage of the reader (`clockcore.parsing.timeparse`): Duckling reads "a las 9:50
mañana" as today, since "mañana" and "morgen" are also "morning"; the day word
decides the day, and anything else that disagrees is a question.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, time, timedelta

from clockcore.geo.anchoring import point
from clockcore.geo.zones import zone_from_label
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.parsing import weekdays
from clockcore.questions import WHICH_DAY, Asking
from clockcore.reading import parts_of_day

__all__ = ["SMALL_HOURS_QUESTION", "dated", "day_word_agrees", "small_hours"]


def day_word_agrees(text: str, found: ParseResult, reference: datetime) -> ParseResult:
    """A day word in the reading ("mañana", "morgen", "demain") names its day.

    Duckling reads "a las 9:50 mañana" and "om 9:50 morgen" as today (mañana
    and morgen are also "morning"): a time of day moves to the day the word
    names; anything else that disagrees is a question.
    """
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found
    offset = weekdays.named_day_offset(text, *found.span)
    if offset is None or not found.zone or found.zone_source is None:
        return found
    tz = zone_from_label(found.zone)
    day = reference.astimezone(tz).date() + timedelta(days=offset)
    local = found.start_instant.astimezone(tz)
    if local.date() == day:
        return found
    if local.date() == day + timedelta(days=1) and parts_of_day.small_hours_of_night(
        text, found.span, local
    ):
        return found  # "domani notte": the small hours after tomorrow evening, not before it
    if (
        found.end_instant is not None
        and found.end_instant != found.start_instant
        and offset != 0
        and parts_of_day.part_named(text, found.span) is not None
    ):  # "mañana por la mañana" read as this morning: the part of the day the word names
        moved = datetime.combine(day, local.time()) - local.replace(tzinfo=None)
        return replace(
            found, start_instant=found.start_instant + moved, end_instant=found.end_instant + moved
        )
    if found.start_instant != found.end_instant or offset == 0:
        return replace(
            found, start_instant=None, end_instant=None, needs_clarification=True,
            question=WHICH_DAY.ask(text=found.matched_text),
        )  # fmt: skip
    base = {k: getattr(found, k) for k in ("matched_text", "span", "zone", "zone_source", "reader")}
    anchor = Anchor(tz, found.zone, found.zone_source)
    return point(
        datetime.combine(day, local.time().replace(tzinfo=None)), tz, anchor, base, found.kind
    )


def dated(text: str, start: int, end: int, languages: tuple[str, ...]) -> bool:
    """Whether `text[start:end]` names a day: a day word, a weekday or a date."""
    return (
        weekdays.named_day_offset(text, start, end) is not None
        or bool(weekdays.named_weekdays(text, start, end, languages))
        or weekdays.names_a_date(text[start:end])
    )


SMALL_HOURS_QUESTION = Asking(
    "small_hours", "{written!r}, said at {now}: do you mean {first} or {second}?"
)
_NIGHT_ENDS = time(1)
"""Until then the day before goes on: "tomorrow" said at 00:20 may be the day that just
began. One hour: later in the night people count from the new day (docs/time-rules.md)."""


def small_hours(text: str, found: ParseResult, reference: datetime) -> ParseResult:
    """ "tomorrow at 9" said at 00:20: the day that began 20 minutes ago, or the next?

    Said between midnight and 01:00, a day word counted from today ("tomorrow",
    "morgen", "mañana", "übermorgen") is a question naming both days, with them as
    the candidates (docs/time-rules.md, "Day words in the small hours").
    """
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found
    offset = weekdays.named_day_offset(text, *found.span)
    if offset is None or offset < 1 or not found.zone:
        return found
    tz = zone_from_label(found.zone)
    now = reference.astimezone(tz)
    local = found.start_instant.astimezone(tz)
    if now.time() >= _NIGHT_ENDS or local.date() != now.date() + timedelta(days=offset):
        return found
    point_in_time = found.end_instant == found.start_instant
    wall = local.replace(tzinfo=None).time()
    first, second = (
        datetime.combine(now.date() + timedelta(days=days), wall, tz).astimezone(UTC)
        for days in (offset - 1, offset)
    )
    shape = "%a %b %-d %H:%M" if point_in_time else "%a %b %-d"
    question = SMALL_HOURS_QUESTION.ask(
        written=found.matched_text, now=f"{now:%H:%M}",
        first=first.astimezone(tz).strftime(shape), second=second.astimezone(tz).strftime(shape),
    )  # fmt: skip
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        question=question, candidates=(first, second),
    )  # fmt: skip
