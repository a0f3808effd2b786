"""The grammar's pieces as values: amounts, durations, clock times, dates, and their sum.

`clockcore.parsing.grammar` finds the tokens of an English time expression; this module
says what they mean (docs/time-rules.md): "3pm" with "evening" and a date with
or without its year, combined by `combine` into one anchored reading or a
question. Nothing here reads the clock: "today" is always passed in.
"""

from __future__ import annotations

import calendar
from datetime import date, datetime, time, timedelta

from clockcore.clock import as_utc
from clockcore.geo.anchoring import (
    FLOATING_QUESTION,
    AmbiguousText,
    NotATime,
    add_months,
    calendar_step,
    day_start,
    local_boundary,
    localize,
    point,
    result,
)
from clockcore.geo.zones import fixed_offset_label
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.parsing.grammar import (
    AMOUNT_PARTS,
    CLOCK_KINDS,
    DATE_KINDS,
    DAY_WORDS,
    MONTHS,
    NUMBER_WORDS,
    PERIODS,
    UNITS,
    WEEKDAYS,
    Token,
)
from clockcore.questions import Asking

__all__ = [
    "combine",
    "span_minutes",
]

DAY_OR_MONTH = Asking("day_or_month", "Does {written} mean {a} {b_month} or {b} {a_month}?")
"""Day and month both 12 or under, in no known order: day `a` of month `b`, or `b` of `a`."""
WHICH_CENTURY = Asking("which_century", "Does {written} mean the year {first} or {second}?")


def _amount(text: str) -> float:
    text = text.lower()
    return float(NUMBER_WORDS[text]) if text in NUMBER_WORDS else float(text)


def _duration(text: str) -> tuple[timedelta, dict[str, int]]:
    """Split "2 days and 3 hours" into exact elapsed time and calendar steps."""
    exact = timedelta()
    steps = {"days": 0, "weeks": 0, "months": 0, "years": 0}
    for part in AMOUNT_PARTS.finditer(text):
        if part["hm_h"]:
            exact += timedelta(hours=int(part["hm_h"]), minutes=int(part["hm_m"]))
        elif part["half"]:
            exact += timedelta(minutes=30)
        elif part["andhalf"]:
            exact += timedelta(minutes=90)
        else:
            unit, amount = UNITS[part["unit"].lower()], _amount(part["n"])
            if unit in ("months", "years") and amount != int(amount):
                raise NotATime(f"use whole {unit}: {part.group()!r} has no exact length")
            if unit in steps and amount == int(amount):
                steps[unit] += int(amount)
            else:  # seconds to hours, and "1.5 days": exact elapsed time
                exact += timedelta(**{unit: amount})
    if exact > timedelta(days=366 * 100) or sum(steps.values()) > 100 * 366:
        raise NotATime("that is too far away")
    return exact, steps


def span_minutes(text: str) -> int | None:
    """Whole minutes in a span as written ("two hours", "1h30", "3 days"); None when it has
    none exact (months, years), is under a minute, or is too long."""
    try:
        exact, steps = _duration(text)
    except NotATime:
        return None
    if steps["months"] or steps["years"]:
        return None
    exact += timedelta(days=steps["days"], weeks=steps["weeks"])
    minutes = int(exact.total_seconds() // 60)
    return minutes or None


_LATER_PERIODS = frozenset({"afternoon", "evening", "night"})


def _clock(token: Token, text: str, period: str | None) -> time:
    """The local time a clock piece names; `period` ("morning", "evening"...) settles a bare hour.

    A bare hour ("at 5", "9 o'clock") is read as the waking hour people mean in
    chat: 7–11 in the morning, 12 at noon, 1–6 in the afternoon or evening,
    unless a period word says otherwise. 0 and 13–23 are 24-hour times.
    """
    g = token.groups
    kind = token.kind
    second = 0
    if kind == "named":
        return time(12) if token.text(text).lower() in ("noon", "midday") else time(0)
    if kind == "clock12":
        hour, minute = int(g["h12"] or 0), int(g["m12"] or 0)
        second = int(g["s12"] or 0)
        if not 1 <= hour <= 12:
            raise NotATime(f"{token.text(text)!r} is not a time: a 12-hour clock runs 1–12")
        pm = (g["ampm"] or "").lower().startswith("p")
        hour = hour % 12 + (12 if pm else 0)
    elif kind == "clock24":
        hour, minute, second = int(g["h24"] or 0), int(g["m24"] or 0), int(g["s24"] or 0)
        if hour > 23:
            raise NotATime(f"{token.text(text)!r} is not a time: hours run 00–23")
        if 1 <= hour < 12 and period in _LATER_PERIODS:  # "3:15 in the afternoon"
            hour += 12
    else:
        hour, minute = int(g["hoc"] or g["hat"] or 0), 0
        if hour > 23:
            raise NotATime(f"{token.text(text)!r} is not a time: hours run 00–23")
        if 1 <= hour < 12 and (period in _LATER_PERIODS or (period is None and hour <= 6)):
            hour += 12
    if minute > 59 or second > 59:
        raise NotATime(f"{token.text(text)!r} is not a time: minutes and seconds run 00–59")
    return time(hour, minute, second)


def _iso_clock(token: Token, text: str) -> time:
    g = token.groups
    hour, minute, second = int(g["iso_h"] or 0), int(g["iso_min"] or 0), int(g["iso_s"] or 0)
    if hour > 23 or minute > 59 or second > 59:
        raise NotATime(f"{token.text(text)!r} is not a time")
    return time(hour, minute, second)


def _valid_date(year: int, month: int, day: int, shown: str) -> date:
    if year < 100:  # "January 1 0001": no instant that far back (a clock time is read later)
        raise NotATime(f"{shown!r} is not a date")
    try:
        return date(year, month, day)
    except ValueError as exc:
        raise NotATime(f"{shown!r} is not a date") from exc


def _next_month_day(today: date, month: int, day: int, shown: str) -> date:
    if not 1 <= month <= 12 or not 1 <= day <= 31 or day > _MAX_DAYS[month]:
        raise NotATime(f"{shown!r} is not a date")
    for year in range(today.year, today.year + 9):
        if day <= calendar.monthrange(year, month)[1] and date(year, month, day) >= today:
            return date(year, month, day)
    raise NotATime(f"{shown!r} is not a date")  # pragma: no cover - Feb 29 recurs within 8 years


_MAX_DAYS = {1: 31, 2: 29, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}


def _numeric_date(
    g: dict[str, str | None], shown: str, today: date, day_first: bool | None
) -> date:
    """ "31/12", "12/31", "3/4/2026": the order is clear when one number exceeds 12.

    Otherwise it is the person's (`day_first`, docs/time-rules.md "Numbers follow
    the person's language"), and a question when that is not known.
    """
    a, b = int(g["nd_a"] or 0), int(g["nd_b"] or g["nd_dot_b"] or 0)
    year_text = g["nd_y"] or g["nd_dot_y"]
    if a <= 12 and b <= 12 and a != b and day_first is not None:
        day, month = (a, b) if day_first else (b, a)
    elif a > 12 and b <= 12:
        day, month = a, b
    elif b > 12 and a <= 12:
        month, day = a, b
    elif a == b:
        day = month = a
    elif a <= 12 and b <= 12:
        raise AmbiguousText(
            DAY_OR_MONTH.ask(
                written=shown,
                a=a,
                b=b,
                a_month=calendar.month_name[a],
                b_month=calendar.month_name[b],
            )
        )
    else:
        raise NotATime(f"{shown!r} is not a date")
    if not year_text:
        return _next_month_day(today, month, day, shown)
    year = int(year_text)
    if len(year_text) == 2:
        year += 2000
        if abs(year - today.year) > _NEAR_CENTURY:  # "28/05/83": 1983 or 2083?
            raise AmbiguousText(WHICH_CENTURY.ask(written=shown, first=year - 100, second=year))
    return _valid_date(year, month, day, shown)


_NEAR_CENTURY = 20
"""How near now 20yy must be for a two-digit year to read as it (docs/time-rules.md)."""


def _date(token: Token, text: str, today: date, day_first: bool | None = None) -> date:
    g, kind, shown = token.groups, token.kind, token.text(text).strip()
    if kind == "isodate":
        return _valid_date(int(g["iso_y"] or 0), int(g["iso_m"] or 0), int(g["iso_d"] or 0), shown)
    if kind in ("monthday", "daymonth"):
        prefix = "md" if kind == "monthday" else "dm"
        month = MONTHS[(g[f"{prefix}_month"] or "").lower()]
        day = int(g[f"{prefix}_day"] or 0)
        year = g[f"{prefix}_year"]
        if year:
            return _valid_date(int(year), month, day, shown)
        return _next_month_day(today, month, day, shown)
    if kind == "ordinal":
        day = int(g["ord"] or 0)
        if not 1 <= day <= 31:
            raise NotATime(f"{shown!r} is not a day of the month")
        month_start = today.replace(day=1)
        for step in range(13):
            first = add_months(month_start, step)
            if day <= calendar.monthrange(first.year, first.month)[1]:
                candidate = first.replace(day=day)
                if candidate >= today:
                    return candidate
        raise NotATime(f"{shown!r} is not a day of the month")  # pragma: no cover
    if kind == "numdate":
        return _numeric_date(g, shown.split()[-1], today, day_first)
    if kind == "dayword":
        words = " ".join(shown.lower().split())
        return today + timedelta(days=DAY_WORDS[words])
    # weekday
    target = WEEKDAYS[(g["wd"] or "").lower()]
    modifier = (g["wd_mod"] or "").lower()
    if modifier == "last":
        return today - timedelta(days=(today.weekday() - target - 1) % 7 + 1)
    ahead = (target - today.weekday()) % 7
    if modifier == "this":
        return today + timedelta(days=ahead)
    return today + timedelta(days=ahead or 7)


def combine(
    text: str,
    group: list[Token],
    anchor: Anchor | None,
    reference: datetime,
    *,
    day_first: bool | None = None,
) -> ParseResult:
    matched = text[group[0].start : group[-1].end].strip()
    span = (group[0].start, group[-1].end)
    by_kind: dict[str, Token] = {}
    for token in group:
        category = (
            "date"
            if token.kind in DATE_KINDS
            else "clock"
            if token.kind in CLOCK_KINDS
            else token.kind
        )
        by_kind.setdefault(category, token)
    base: dict[str, object] = {"matched_text": matched, "span": span}
    if anchor is not None:
        base |= {"zone": anchor.label, "zone_source": anchor.source}

    if "stamp" in by_kind:
        token = by_kind["stamp"]
        raw = token.text(text).replace(" ", "T", 1).replace(" ", "")
        try:
            instant = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        except ValueError as exc:
            raise NotATime(f"{token.text(text)!r} is not a timestamp") from exc
        offset = instant.utcoffset()
        assert offset is not None
        label = fixed_offset_label(offset)
        start = as_utc(instant)
        base |= {"zone": label, "zone_source": "text"}
        return result("absolute", start_instant=start, end_instant=start, **base)

    date_tok, clock_tok = by_kind.get("date"), by_kind.get("clock")
    rel_tok, period_tok = by_kind.get("relative"), by_kind.get("period")
    relative: tuple[timedelta, dict[str, int], int] | None = None
    if rel_tok is not None:
        body = rel_tok.groups["rel_in"] or rel_tok.groups["rel_post"] or ""
        sign = -1 if (rel_tok.groups["rel_dir"] or "").lower() == "ago" else 1
        exact, steps = _duration(body)
        relative = (exact, steps, sign)
        if clock_tok is None and date_tok is None and not any(steps.values()):
            start = reference + sign * exact
            return result("relative", start_instant=start, end_instant=start, **base)

    period = (period_tok.groups["per"] or "").lower() if period_tok is not None else None
    if period is None and date_tok is not None and date_tok.text(text).strip().lower() == "tonight":
        period = "evening"
    clock = _clock(clock_tok, text, period) if clock_tok is not None else None
    if clock is None and date_tok is not None and date_tok.groups.get("iso_h") is not None:
        clock = _iso_clock(date_tok, text)

    if anchor is None:
        if date_tok is not None:  # "February 30" is invalid before it is floating
            _date(date_tok, text, reference.date(), day_first)
        return result(
            "floating",
            needs_clarification=True,
            question=FLOATING_QUESTION.ask(what=matched),
            **base,
        )

    tz = anchor.tz
    local_now = reference.astimezone(tz)
    today = local_now.date()

    if relative is not None and date_tok is None:
        exact, steps, sign = relative
        if clock is None:
            wall = calendar_step(local_now.replace(tzinfo=None), steps, sign)
            return point(wall, tz, anchor, base, "relative", shift=sign * exact)
        stepped = calendar_step(local_now.replace(tzinfo=None), steps, sign)
        day = (stepped.replace(tzinfo=tz) + sign * exact).date() if exact else stepped.date()
        return point(datetime.combine(day, clock), tz, anchor, base, "absolute")

    if date_tok is not None:
        day = _date(date_tok, text, today, day_first)
        if clock is not None:
            return point(datetime.combine(day, clock), tz, anchor, base, "absolute")
        if period is not None:
            first, last = PERIODS[period]
            start = day_start(day, tz) if first == 0 else local_boundary(day, first, tz)
            end = (
                day_start(day + timedelta(days=1), tz)
                if last == 24
                else local_boundary(day, last, tz)
            )
            return result("absolute", start_instant=start, end_instant=end, **base)
        start, end = day_start(day, tz), day_start(day + timedelta(days=1), tz)
        return result("absolute", start_instant=start, end_instant=end, **base)

    this = period_tok is not None and period_tok.text(text).strip().lower().startswith("this")
    if period is not None and clock is None and this:
        # "this afternoon": today's; its hour is the part of the day's
        # (clockcore.reading.parts_of_day, docs/time-rules.md)
        first, last = PERIODS[period]
        start = day_start(today, tz) if first == 0 else local_boundary(today, first, tz)
        end = (
            day_start(today + timedelta(days=1), tz)
            if last == 24
            else local_boundary(today, last, tz)
        )
        return result("absolute", start_instant=start, end_instant=end, **base)

    if clock is not None:
        day = today
        wall = datetime.combine(day, clock)
        found, candidates = localize(wall, tz)
        if (found or candidates[-1]) <= reference:
            day += timedelta(days=1)
        return point(datetime.combine(day, clock), tz, anchor, base, "absolute")

    raise NotATime("no date or time found")  # a lone period or zone
