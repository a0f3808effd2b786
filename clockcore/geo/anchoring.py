"""From local wall-clock times to instants, honest about DST gaps and folds."""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from clockcore.geo.zones import to_iso
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.questions import Asking, Question

__all__ = [
    "FLOATING_QUESTION",
    "AmbiguousText",
    "NotATime",
    "add_months",
    "asked",
    "calendar_step",
    "day_start",
    "dst_question",
    "in_gap",
    "local_boundary",
    "localize",
    "point",
    "result",
]


class NotATime(Exception):
    """Raised inside the combiner; turned into ``kind="invalid"``."""


class AmbiguousText(Exception):
    def __init__(self, question: Question) -> None:
        super().__init__(question.english)
        self.question = question


def localize(wall: datetime, zone: tzinfo) -> tuple[datetime | None, tuple[datetime, ...]]:
    """Turn a wall-clock time into an instant; (None, candidates) in a DST gap or fold."""
    first = wall.replace(tzinfo=zone, fold=0)
    second = wall.replace(tzinfo=zone, fold=1)
    if first.utcoffset() == second.utcoffset():
        return first.astimezone(UTC), ()
    candidates = tuple(sorted({first.astimezone(UTC), second.astimezone(UTC)}))
    return None, candidates


def in_gap(wall: datetime, zone: tzinfo) -> bool:
    instant = wall.replace(tzinfo=zone).astimezone(UTC)
    return instant.astimezone(zone).replace(tzinfo=None) != wall


def day_start(day: date, zone: tzinfo) -> datetime:
    """The first instant of a local day, even when midnight is skipped or repeated."""
    wall = datetime.combine(day, time())
    instant, candidates = localize(wall, zone)
    if instant is not None:
        return instant
    return candidates[-1] if in_gap(wall, zone) else candidates[0]


def add_months(day: date, months: int) -> date:
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    if not 1 <= year <= 9999:
        raise NotATime("that date is out of range")
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def calendar_step(local: datetime, steps: dict[str, int], sign: int) -> datetime:
    day = add_months(local.date(), sign * (steps["months"] + 12 * steps["years"]))
    try:
        day += timedelta(days=sign * (steps["days"] + 7 * steps["weeks"]))
    except OverflowError as exc:
        raise NotATime("that date is out of range") from exc
    return datetime.combine(day, local.time())


def local_boundary(day: date, hour: int, tz: tzinfo) -> datetime:
    instant, candidates = localize(datetime.combine(day, time(hour)), tz)
    return instant if instant is not None else candidates[-1]


def _describe_wall(wall: datetime) -> str:
    return wall.strftime("%H:%M on %A %d %B %Y").replace(" 0", " ")


CLOCKS_SKIP = Asking(
    "clocks_skip", "{said} does not exist in {zone}: the clocks skip it. Did you mean {options}?"
)
CLOCKS_BACK = Asking(
    "clocks_back", "{said} happens twice in {zone}: the clocks go back. Did you mean {options}?"
)
"""A wall time the clocks skip or pass twice; the instants offered are the candidates."""


def dst_question(
    wall: datetime, zone_label: str, candidates: Iterable[datetime], tz: tzinfo
) -> Question:
    options = " or ".join(to_iso(c, tz) for c in candidates)
    asking = CLOCKS_SKIP if in_gap(wall, tz) else CLOCKS_BACK
    return asking.ask(
        said=_describe_wall(wall), zone=zone_label, options=options, wall=f"{wall:%H:%M}"
    )


FLOATING_QUESTION = Asking(
    "floating",
    "Which timezone should I read {what!r} in? Name a city or an IANA zone such as Europe/Berlin.",
)


def result(kind: str, **fields: object) -> ParseResult:
    return ParseResult(kind=kind, **fields)  # type: ignore[arg-type]


def asked(base: dict[str, object], question: str | Question) -> ParseResult:
    """A reading that asks `question` instead of naming a time (read whole or ask)."""
    if isinstance(question, Question):
        return result("absolute", needs_clarification=True, question=question, **base)
    return result("absolute", needs_clarification=True, clarification_question=question, **base)


def point(
    wall: datetime,
    tz: tzinfo,
    anchor: Anchor,
    base: dict[str, object],
    kind: str,
    *,
    shift: timedelta = timedelta(),
) -> ParseResult:
    instant, candidates = localize(wall, tz)
    if instant is None:
        candidates = tuple(c + shift for c in candidates)
        return result(
            kind,
            needs_clarification=True,
            candidates=candidates,
            question=dst_question(wall, anchor.label, candidates, tz),
            **base,
        )
    instant += shift
    return result(kind, start_instant=instant, end_instant=instant, **base)
