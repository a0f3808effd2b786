"""Reading time out of what people type, anchored to a zone (docs/clock-spec.md §4.3, §4.4).

The fast path is the English grammar in `clockcore.grammar`; this module gives
its pieces meaning under the anchoring rules of docs/time-rules.md. Text the grammar does not
know ("8. März 2026", "le 3 mars à 14h") falls back to dateparser
(`clockcore.fallback`), anchored by the same rules. `find_time_expressions`
never takes that fallback: it runs on every chat message, and a message without
time words stops at one regex search.

Nothing here reads the clock: the reference instant is always passed in.
"""

from __future__ import annotations

import calendar
import itertools
import re
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta

from clockcore import clockforms, cues, duckling_reader, modifiers, relative, weekdays
from clockcore.anchoring import (
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
from clockcore.clock import as_utc
from clockcore.fallback import library_fallback
from clockcore.grammar import (
    AMOUNT_PARTS,
    CLOCK_KINDS,
    DATE_KINDS,
    DAY_WORDS,
    MAX_TEXT,
    MONTHS,
    NUMBER_WORDS,
    PERIODS,
    TIME_KINDS,
    UNITS,
    WEEKDAYS,
    ZONE_KINDS,
    Token,
    group_tokens,
    has_time_words,
    scan_text,
)
from clockcore.message import primary_language
from clockcore.parse_result import ParseResult, TimeExpression
from clockcore.zones import fixed_offset_label, get_zone, require_zone, to_iso, zone_from_label
from clockcore.zonetext import Anchor, zone_of

__all__ = [
    "find_time_expressions",
    "locate_time",
    "mentions_time",
    "parse_anchored_time",
    "without_time",
]


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


def _numeric_date(g: dict[str, str | None], shown: str, today: date) -> date:
    """ "31/12", "12/31", "3/4/2026": the order is clear only when one number exceeds 12."""
    a, b = int(g["nd_a"] or 0), int(g["nd_b"] or 0)
    year_text = g["nd_y"]
    if a > 12 and b <= 12:
        day, month = a, b
    elif b > 12 and a <= 12:
        month, day = a, b
    elif a == b:
        day = month = a
    elif a <= 12 and b <= 12:
        first, second = f"{a} {calendar.month_name[b]}", f"{b} {calendar.month_name[a]}"
        raise AmbiguousText(f"Does {shown} mean {first} or {second}?")
    else:
        raise NotATime(f"{shown!r} is not a date")
    if not year_text:
        return _next_month_day(today, month, day, shown)
    year = int(year_text) + (2000 if len(year_text) == 2 else 0)
    return _valid_date(year, month, day, shown)


def _date(token: Token, text: str, today: date) -> date:
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
        return _numeric_date(g, shown.split()[-1], today)
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


def _combine(
    text: str, group: list[Token], anchor: Anchor | None, reference: datetime
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
            _date(date_tok, text, reference.date())
        return result(
            "floating",
            needs_clarification=True,
            clarification_question=FLOATING_QUESTION.format(what=matched),
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
        day = _date(date_tok, text, today)
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

    if clock is not None:
        day = today
        wall = datetime.combine(day, clock)
        found, candidates = localize(wall, tz)
        if (found or candidates[-1]) <= reference:
            day += timedelta(days=1)
        return point(datetime.combine(day, clock), tz, anchor, base, "absolute")

    raise NotATime("no date or time found")  # a lone period or zone


def parse_anchored_time(
    text: str, tz: str | None, reference_instant: datetime, *, language: str | None = None
) -> ParseResult:
    """Read the time `text` names, anchored per docs/time-rules.md.

    A zone named in the text wins over `tz`; with neither, calendar times are
    ``floating`` and need a question. Bad text never raises: it answers
    ``kind="invalid"`` with a `reason`.

    Args:
        text: what the person wrote; words around the expression are fine.
        tz: the session's IANA zone, or None when nothing is known.
        reference_instant: "now" for this decision, aware.
        language: the person's language (ISO 639-1, "es"), as their platform
            reports it: times are read in it and in English. None: English.

    Raises:
        UnknownTimezoneError: `tz` is not an IANA id.
        NaiveDatetimeError: `reference_instant` is naive.
    """
    reference = as_utc(reference_instant)
    caller = Anchor(get_zone(tz), require_zone(tz), "caller") if tz is not None else None
    text = text[:MAX_TEXT]
    languages = _languages(language)
    try:
        return _parse_whole(text, caller, reference, languages)
    except duckling_reader.ReaderTimeout:
        # Read whole or ask: a reading cut short is no reading (duckling_reader.isolate).
        return ParseResult(
            kind="invalid",
            reason="this took too long to read as a time; write the time on its own",
            matched_text="",
        )


def _parse_whole(
    text: str, caller: Anchor | None, reference: datetime, languages: tuple[str, ...]
) -> ParseResult:
    found = _located(text, _parse(text, caller, reference, languages))
    found = _weekday_agrees(text, found, caller, reference, languages)
    found = _day_word_agrees(text, found, reference)
    found, settled = _modified(text, found, reference, languages)
    if not settled:
        found = _read_whole(text, found, languages)
    return _weak_cue_asks(text, found, languages)


def _day_word_agrees(text: str, found: ParseResult, reference: datetime) -> ParseResult:
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
    if found.start_instant != found.end_instant or offset == 0:
        return replace(
            found, start_instant=None, end_instant=None, needs_clarification=True,
            clarification_question=f"Which day do you mean by {found.matched_text!r}?",
        )  # fmt: skip
    base = {k: getattr(found, k) for k in ("matched_text", "span", "zone", "zone_source", "reader")}
    anchor = Anchor(tz, found.zone, found.zone_source)
    return point(
        datetime.combine(day, local.time().replace(tzinfo=None)), tz, anchor, base, found.kind
    )


def _modified(
    text: str, found: ParseResult, reference: datetime, languages: tuple[str, ...]
) -> tuple[ParseResult, bool]:
    """A part of the day after a time ("um 11 Uhr nachts"), "the end of" a day.

    (`clockcore.modifiers`.) Returns the reading and whether "the end of" was
    read into it. Anything these rules cannot settle is left for `_read_whole`
    to ask about.
    """
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found, False
    if not found.zone or found.zone_source is None:
        return found, False
    tz = zone_from_label(found.zone)
    anchor = Anchor(tz, found.zone, found.zone_source)
    start, end = found.span
    local = found.start_instant.astimezone(tz)
    compound = modifiers.compound_day_before(text, start)
    dated = _dated(text, start, end, languages)
    if found.start_instant == found.end_instant and compound and not dated:
        return _compound_day(text, found, compound, anchor, reference), True
    if found.start_instant == found.end_instant and (
        after := modifiers.part_of_day_after(text, end)
    ):
        part, word_end = after
        hour = modifiers.settle_hour(local.hour, part)
        if hour is None:
            return found, False
        base: dict[str, object] = {
            "matched_text": text[start:word_end], "span": (start, word_end), "zone": found.zone,
            "zone_source": found.zone_source, "reader": found.reader,
        }  # fmt: skip
        wall = datetime.combine(local.date(), time(hour, local.minute))
        if not dated:  # an undated time is its next occurrence
            wall = datetime.combine(reference.astimezone(tz).date(), wall.time())
            instant, _ = localize(wall, tz)
            if instant is not None and instant <= reference:
                wall += timedelta(days=1)
        return point(wall, tz, anchor, base, found.kind), False
    begins = modifiers.end_of(text, start, end)
    if begins is not None and found.end_instant is not None:
        last = found.end_instant.astimezone(tz)
        if last.time() == time() and found.end_instant - found.start_instant <= timedelta(days=8):
            day = last.date() - timedelta(days=1)  # "by the end of Friday": Friday evening
            first, _ = modifiers.END_OF_DAY
            span = (min(begins, start), end)
            return replace(
                found, start_instant=local_boundary(day, first, tz),
                end_instant=day_start(day + timedelta(days=1), tz),
                span=span, matched_text=text[span[0] : span[1]],
            ), True  # fmt: skip
    return found, False


def _compound_day(
    text: str,
    found: ParseResult,
    compound: tuple[int, str, int],
    anchor: Anchor,
    reference: datetime,
) -> ParseResult:
    """ "Freitagabend um 7": the next Friday, 19:00 (a weekday alone is its next occurrence)."""
    weekday, part, begins = compound
    assert found.start_instant is not None
    assert found.span is not None
    local = found.start_instant.astimezone(anchor.tz)
    start, end = found.span
    # The hour as written: "um 8" (which a reader may have made 20:00) is 8, "um 19:00" is 19.
    written = local.hour if _HOUR_13_TO_23.search(text, start, end) else local.hour % 12 or 12
    hour = modifiers.settle_hour(written, part)
    base: dict[str, object] = {
        "matched_text": text[begins:end], "span": (begins, end), "zone": found.zone,
        "zone_source": found.zone_source, "reader": found.reader,
    }  # fmt: skip
    if hour is None:
        return _asked(base, f"Which time do you mean by {text[begins:end]!r}?")
    today = reference.astimezone(anchor.tz).date()
    day = today + timedelta(days=(weekday - today.weekday()) % 7 or 7)
    wall = datetime.combine(day, time(hour, local.minute))
    return point(wall, anchor.tz, anchor, base, found.kind)


_HOUR_13_TO_23 = re.compile(r"(?<!\d)(?:1[3-9]|2[0-3])(?:[:.h]\d{2}|\s*(?:uhr|uur|h)\b)", re.I)


def _dated(text: str, start: int, end: int, languages: tuple[str, ...]) -> bool:
    """Whether `text[start:end]` names a day: a day word, a weekday or a date."""
    return (
        weekdays.named_day_offset(text, start, end) is not None
        or bool(weekdays.named_weekdays(text, start, end, languages))
        or weekdays.names_a_date(text[start:end])
    )


def _read_whole(text: str, found: ParseResult, languages: tuple[str, ...]) -> ParseResult:
    """A confident reading with a time word left beside it becomes a question.

    In every language: "a las 15:00 hora de Nueva York" read as 15:00 in the
    session's zone drops the zone; "the end of the month" read as the month
    drops "end" (`cues.time_word_beside`).
    """
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found
    left = cues.time_word_beside(text, *found.span, languages)
    if left is None:
        return found
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        clarification_question=LEFTOVER_QUESTION.format(read=found.matched_text, left=left),
    )  # fmt: skip


def _located(text: str, found: ParseResult) -> ParseResult:
    """`found` with its span, where only its matched text was known."""
    if found.span is None and found.matched_text and (at := text.find(found.matched_text)) >= 0:
        return replace(found, span=(at, at + len(found.matched_text)))
    return found


def _weekday_agrees(
    text: str,
    found: ParseResult,
    caller: Anchor | None,
    reference: datetime,
    languages: tuple[str, ...],
) -> ParseResult:
    """A weekday beside a date must be that date's weekday, or the answer is a question.

    The date is read again without the weekday: "Friday Dec 4" is Dec 4 (a
    Friday) even where a reader kept only "Friday"; "Thu Nov 28" is a question,
    never Thursday Nov 28, 2030 (`clockcore.weekdays`).
    """
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found
    start, end = found.span
    named = weekdays.named_weekdays(text, start, end, languages)
    if not named:
        return found
    rest = list(text)
    for word_start, word_end, _ in named:
        rest[word_start:word_end] = " " * (word_end - word_start)
    without = "".join(rest)
    if not weekdays.names_a_date(without[start:end]):
        return found
    again = _located(without, _parse(without, caller, reference, languages))
    tz = zone_from_label(found.zone) if found.zone else UTC
    wanted = {weekday for _, _, weekday in named}
    if again.start_instant is None or again.needs_clarification:
        question = (
            again.clarification_question or f"Which date do you mean by {found.matched_text!r}?"
        )
        return replace(
            found, start_instant=None, end_instant=None, needs_clarification=True,
            clarification_question=question,
        )  # fmt: skip
    day = again.start_instant.astimezone(tz).date()
    if day.weekday() in wanted:
        if day == found.start_instant.astimezone(tz).date():
            return found
        return replace(again, matched_text=found.matched_text, span=found.span)
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        clarification_question=weekdays.conflict_question(
            found.matched_text, min(wanted), day),
    )  # fmt: skip


WEAK_CUE_QUESTION = "Do you mean {text!r} as a time? If so, write it as, say, '10:00' or 'at 10am'."


def _weak_cue_asks(text: str, found: ParseResult, languages: tuple[str, ...]) -> ParseResult:
    """Duckling's reading of a bare number after "a", "in", "between"… becomes a question.

    "a 10 minutos andando" may be "at 10"; it may be "10 minutes' walk". The
    reading stands only with a stronger cue (docs/time-cues.md).
    """
    if found.reader != "duckling" or found.needs_clarification or found.span is None:
        return found
    if cues.cue(text, *found.span, languages) != "weak":
        return found
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        clarification_question=WEAK_CUE_QUESTION.format(text=found.matched_text),
    )  # fmt: skip


def _languages(language: str | None) -> tuple[str, ...]:
    """The languages to read in: the person's (when Duckling knows it), then English."""
    primary = primary_language(language)
    return (primary, "en") if primary in DUCKLING_LANGUAGES and primary != "en" else ("en",)


# Languages Duckling reads times in that clockcore passes on (the issue's list and a few more).
DUCKLING_LANGUAGES = frozenset({"en", "es", "de", "fr", "pt", "it", "nl", "sv", "da", "nb", "pl"})


def _parse(
    text: str, caller: Anchor | None, reference: datetime, languages: tuple[str, ...]
) -> ParseResult:
    tokens = scan_text(text)
    groups = group_tokens(text, tokens)
    time_groups = [g for g in groups if any(t.kind in TIME_KINDS for t in g)]
    try:
        zone_tokens = [t for t in tokens if t.kind in ZONE_KINDS]
        if time_groups:
            group = _pick(time_groups)
            own = [t for t in group if t.kind in ZONE_KINDS]
            anchor_or_question = zone_of((own or zone_tokens)[0], text) if zone_tokens else caller
            if isinstance(anchor_or_question, str):
                return result(
                    "floating",
                    needs_clarification=True,
                    matched_text=_span(text, group),
                    clarification_question=anchor_or_question,
                )
            if group[0].kind == "relative" and cues.measured_before(text, group[0].start):
                # "I ran 5 km in 25 minutes": a pace, not a time.
                return result("invalid", reason="a measure, not a time", matched_text="")
            read = _combine(text, group, anchor_or_question, reference)
            return _second_reader(
                text, tokens, group, read, anchor_or_question, reference, languages
            )
        if zone_tokens and zone_tokens[0].kind == "abbr":
            question = zone_of(zone_tokens[0], text)
            assert isinstance(question, str)
            return result(
                "floating",
                needs_clarification=True,
                clarification_question=question,
                matched_text=zone_tokens[0].text(text),
            )
        anchor = zone_of(zone_tokens[0], text) if zone_tokens else caller
        if not isinstance(anchor, str) and (
            found := _duration_elsewhere(text, tokens, anchor, reference, languages)
        ):
            return found
        if isinstance(anchor, Anchor) and (
            found := _duckling_only(text, tokens, anchor, reference, languages)
        ):
            return found
        fallback = library_fallback(
            text, anchor if isinstance(anchor, Anchor) else caller, reference
        )
        if fallback is not None:
            return fallback
    except AmbiguousText as ambiguous:
        return result(
            "absolute",
            needs_clarification=True,
            clarification_question=ambiguous.question,
            matched_text=text.strip(),
        )
    except NotATime as invalid:
        return result("invalid", reason=str(invalid), matched_text=text.strip())
    return result("invalid", reason="no date or time found", matched_text="")


# Words that join a time expression without adding to what it says.
_GLUE = frozenset({"at", "on", "by", "around", "about", "@", "in", "the", "of", "is", "for"})
_WORDS = re.compile(r"[^\W_]+|[^\w\s,.!?;:'\"()]+")
# Tokens clockcore reads itself: exact elapsed time, timestamps, zones.
_OWN_KINDS = frozenset({"relative", "stamp", "abbr"})
_DIGIT = re.compile(r"\d")


def _masked(text: str, tokens: list[Token]) -> str:
    """`text` with its zone names blanked (same length): the zone is clockcore's to read.

    Greetings, addresses, file names, versions and IDs are blanked too
    (`clockcore.cues.masked`): they look like times and are not.
    """
    chars = list(cues.masked(text))
    for token in tokens:
        if token.kind in ZONE_KINDS:
            chars[token.start : token.end] = " " * (token.end - token.start)
    return "".join(chars)


def _readings(
    text: str,
    tokens: list[Token],
    anchor: Anchor,
    reference: datetime,
    languages: tuple[str, ...] = ("en",),
) -> list[duckling_reader.Reading]:
    """Duckling's readings in each language, the first language's where spans repeat."""
    if any(t.kind in _OWN_KINDS for t in tokens) or not duckling_reader.available():
        return []
    local = reference.astimezone(anchor.tz).replace(tzinfo=None, microsecond=0)
    masked = _masked(text, tokens)
    found: dict[tuple[int, int], duckling_reader.Reading] = {}
    for language, (start, end) in itertools.product(languages, cues.windows(masked, languages)):
        for proposal in duckling_reader.read(masked[start:end], local, language=language):
            reading = replace(proposal, start=proposal.start + start, end=proposal.end + start)
            # A proposal without a time cue ("$4.50", "2-3 people") is no reading at all.
            if (
                not reading.latent
                and cues.cue(text, reading.start, reading.end, languages) != "none"
            ):
                found.setdefault((reading.start, reading.end), reading)
    spans = list(found.values())
    # A reading inside another ("9h" in "demain à 9h") is a part of it, not a second time.
    outer = [
        r
        for r in spans
        if not any(o is not r and o.start <= r.start and r.end <= o.end for o in spans)
    ]
    return sorted(outer, key=lambda r: (r.start, -r.end))


def _reads_more(text: str, reading: duckling_reader.Reading, group: list[Token]) -> bool:
    """Whether `reading` covers every piece the grammar read, and words beyond glue besides.

    The grammar's pieces may have holes between them ("today at quarter past
    7am" is "today" and "7am"): a word in a hole is a word it did not read.
    """
    if reading.start > group[0].start or reading.end < group[-1].end:
        return False
    chars = list(text[reading.start : reading.end])
    for token in group:
        for index in range(token.start - reading.start, token.end - reading.start):
            chars[index] = " "
    return any(word.lower() not in _GLUE for word in _WORDS.findall("".join(chars)))


def _second_reader(
    text: str,
    tokens: list[Token],
    group: list[Token],
    read: ParseResult,
    anchor: Anchor | None,
    reference: datetime,
    languages: tuple[str, ...] = ("en",),
) -> ParseResult:
    """The grammar's reading, unless Duckling read more of the same expression.

    "at half past 3pm": the grammar reads "3pm", Duckling the whole of it. A
    reading that covers the grammar's and more than glue words beyond it
    replaces it; anything else leaves the grammar's (its rules are the spec).
    """
    if read.kind == "relative" and (half := _AND_A_HALF.match(text, group[-1].end)):
        return replace(
            read, start_instant=None, end_instant=None, needs_clarification=True,
            clarification_question=LEFTOVER_QUESTION.format(
                read=read.matched_text, left=half.group().strip()),
        )  # fmt: skip
    if anchor is None or read.kind in ("relative", "floating", "invalid"):
        return read
    start, end = group[0].start, group[-1].end
    readings = _readings(text, tokens, anchor, reference, languages)
    near = [r for r in readings if r.start < end and r.end > start]
    clash = _clash(near)
    if clash is not None:
        return _conflict(clash, anchor, reference)
    wider = [r for r in near if _reads_more(text, r, group)]
    if wider:
        widest = max(wider, key=lambda r: r.end - r.start)
        start, end = widest.start, widest.end
        theirs = _anchored(widest, anchor, reference)
        # "at 10 to 7 pm", which Duckling reads as a range: `_anchored` read it as 18:50.
        counted = widest.end_wall is not None and clockforms.minutes_to(widest.text) is not None
        if _clock_disagrees(read, theirs, anchor) and not counted:
            # "quarter to 12pm": the grammar's 12pm is noon, Duckling's reading 23:45.
            return _disagreement(read, theirs, anchor)
        read = theirs
    left = _leftover(text, start, end)
    if left is None or read.needs_clarification:
        return read
    return replace(
        read, start_instant=None, end_instant=None, needs_clarification=True,
        clarification_question=LEFTOVER_QUESTION.format(read=read.matched_text, left=left),
    )  # fmt: skip


LEFTOVER_QUESTION = (
    "I can read {read!r}, but not the {left!r} next to it, so I'd rather ask: "
    "what time do you mean exactly?"
)
# Words that say something about time when they stand next to a time expression.
_TEMPORAL = frozenset(
    {*MONTHS, *WEEKDAYS, *PERIODS, *(w for p in DAY_WORDS for w in p.split())}
    | {"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"}
    | {"every", "each", "half", "quarter", "past", "between", "until", "till", "through"}
    | {"am", "pm", "noon", "midday", "midnight", "weekday", "weekdays", "weekend", "weekends"}
    | {"daily", "weekly", "monthly", "yearly", "hourly", "fortnightly"}
    | {w for w in NUMBER_WORDS if w not in ("a", "an")}
) - {"the", "after", "before", "day"}
# Words that join a range's end to it: temporal only before a number ("9 to 5", not "to call").
_RANGE_JOINERS = frozenset({"to", "and", "-", "–", "—"})


_AND_A_HALF = re.compile(r"\s*and\s+a\s+half\b", re.IGNORECASE)


def _leftover(text: str, start: int, end: int) -> str | None:
    """The first temporal word next to `text[start:end]` (across glue words), or None."""
    if half := _AND_A_HALF.match(text, end):  # "in a day and a half": not "in a day"
        return half.group().strip()
    words = [(m.start(), m.end(), m.group().lower()) for m in _WORDS.finditer(text)]
    before = [w for w in words if w[1] <= start][::-1]
    after = [w for w in words if w[0] >= end]
    for side in (before, after):
        for index, (_, _, word) in enumerate(side):
            if word in _GLUE:
                continue
            following = side[index - 1][2] if side is before and index else None
            if side is after and index + 1 < len(side):
                following = side[index + 1][2]
            if word in _TEMPORAL or _DIGIT.search(word):
                return word
            if word in _RANGE_JOINERS and following and _DIGIT.search(following):
                return word
            break
    return None


_NEAR = timedelta(hours=1)
"""How far "half past", "quarter to" and the like move the hour the grammar read."""


def _clock_disagrees(ours: ParseResult, theirs: ParseResult, anchor: Anchor) -> bool:
    """Both read a point in time, but hours apart on the clock: one of them misread the hour."""
    if ours.start_instant is None or theirs.start_instant is None:
        return False
    if ours.start_instant != ours.end_instant or theirs.start_instant != theirs.end_instant:
        return False
    mine = ours.start_instant.astimezone(anchor.tz)
    other = theirs.start_instant.astimezone(anchor.tz)
    minutes = abs((mine.hour * 60 + mine.minute) - (other.hour * 60 + other.minute))
    return min(minutes, 24 * 60 - minutes) > _NEAR.total_seconds() // 60


def _disagreement(ours: ParseResult, theirs: ParseResult, anchor: Anchor) -> ParseResult:
    options = " or ".join(
        to_iso(found.start_instant, anchor.tz) for found in (ours, theirs) if found.start_instant
    )
    return replace(
        theirs, start_instant=None, end_instant=None, needs_clarification=True,
        clarification_question=f"I can read {theirs.matched_text!r} as {options}. Which is it?",
    )  # fmt: skip


def _clash(readings: list[duckling_reader.Reading]) -> tuple[duckling_reader.Reading, ...] | None:
    """Two readings that overlap without one containing the other ("in 1h30")."""
    for first, second in itertools.combinations(readings, 2):
        inside = (first.start <= second.start and second.end <= first.end) or (
            second.start <= first.start and first.end <= second.end
        )
        if not inside:
            return first, second
    return None


def _conflict(
    readings: tuple[duckling_reader.Reading, ...], anchor: Anchor, reference: datetime
) -> ParseResult:
    options = []
    for reading in readings:
        found = _anchored(reading, anchor, reference)
        when = to_iso(found.start_instant, anchor.tz) if found.start_instant else "?"
        options.append(f"{reading.text.strip()!r} ({when})")
    text = " or ".join(options)
    return result(
        "absolute",
        needs_clarification=True,
        matched_text=" / ".join(r.text.strip() for r in readings),
        zone=anchor.label,
        zone_source=anchor.source,
        clarification_question=f"I can read that two ways: {text}. Which do you mean?",
        reader="duckling",
    )


def _duckling_only(
    text: str,
    tokens: list[Token],
    anchor: Anchor,
    reference: datetime,
    languages: tuple[str, ...] = ("en",),
) -> ParseResult | None:
    """Duckling's reading where the grammar found no time ("first tuesday of october").

    Only a reading that leaves no number outside it: "le 3 mars 2027 à 14h" is
    read by Duckling as "14h" alone, and goes to the written-date fallback.
    """
    readings = _readings(text, tokens, anchor, reference, languages)
    clash = _clash(readings)
    if clash is not None:
        return _conflict(clash, anchor, reference)
    if len(readings) != 1:
        return None
    (reading,) = readings
    outside = text[: reading.start] + " " + text[reading.end :]
    if _DIGIT.search(outside):
        return None
    return _anchored(reading, anchor, reference)


def _duration_elsewhere(
    text: str,
    tokens: list[Token],
    anchor: Anchor | None,
    reference: datetime,
    languages: tuple[str, ...],
) -> ParseResult | None:
    """A duration from now in the person's language ("dentro de una hora"), read as English is.

    Hours and minutes are elapsed time; days and weeks calendar steps that keep
    the wall time (`clockcore.relative`). Another time beside it is a question.
    """
    for language in languages:
        found = relative.find_duration(text, language)
        if found is None:
            continue
        if cues.measured_before(text, found.start):  # "corrí 5 km en 25 minutos"
            return result("invalid", reason="a measure, not a time", matched_text="")
        matched = text[found.start : found.end]
        base: dict[str, object] = {"matched_text": matched, "span": (found.start, found.end)}
        rest = text[: found.start] + " " * len(matched) + text[found.end :]
        if anchor is not None and (others := _readings(rest, tokens, anchor, reference, languages)):
            return result(
                "relative", needs_clarification=True, **base,
                clarification_question=LEFTOVER_QUESTION.format(
                    read=matched, left=others[0].text.strip()),
            )  # fmt: skip
        if not any(found.steps.values()):
            start = reference + found.sign * found.exact
            return result("relative", start_instant=start, end_instant=start, **base)
        if anchor is None:
            return result(
                "floating", needs_clarification=True, **base,
                clarification_question=FLOATING_QUESTION.format(what=matched),
            )  # fmt: skip
        base |= {"zone": anchor.label, "zone_source": anchor.source}
        local = reference.astimezone(anchor.tz).replace(tzinfo=None)
        wall = calendar_step(local, found.steps, found.sign)
        return point(wall, anchor.tz, anchor, base, "relative", shift=found.sign * found.exact)
    return None


_SPANS = {"week": (0, 7), "month": (1, 0), "quarter": (3, 0), "year": (12, 0)}


def _anchored(
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
                return _asked(base, RANGE_QUESTION.format(text=reading.text.strip()))
            begin += _HALF_DAY  # "between 2 and 4pm"
        if not clockforms.range_is_written(reading.text):
            return _asked(base, RANGE_QUESTION.format(text=reading.text.strip()))
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
            return _asked(base, PAST_QUESTION.format(
                text=reading.text.strip(), day=walls[0].date().isoformat()))  # fmt: skip
        return point(walls[0], tz, anchor, base, "absolute")
    if reading.grain == "month" and _DAY_NUMBER.search(reading.text):
        # "30 de fevereiro" read as February: the day was dropped.
        return _asked(base, f"Which day do you mean by {reading.text.strip()!r}?")
    day = reading.walls[0].date()
    months, days = _SPANS.get(reading.grain, (0, 1))
    after = add_months(day, months) + timedelta(days=days)
    if day_start(after, tz) <= reference and not _PAST_OR_YEAR.search(reading.text):
        # "first tuesday of october" on October 31st: Duckling answers this year's.
        return (again and _next_year(reading, anchor, reference)) or result(
            "absolute", needs_clarification=True, clarification_question=PAST_QUESTION.format(
                text=reading.text.strip(), day=day.isoformat()), **base,
        )  # fmt: skip
    return result(
        "absolute", start_instant=day_start(day, tz), end_instant=day_start(after, tz), **base
    )


PAST_QUESTION = "{text!r} reads as {day}, which has passed. Which date do you mean?"
RANGE_QUESTION = "I'm not sure how to read {text!r}. Which time do you mean exactly?"
_HALF_DAY = timedelta(hours=12)
_DAY_NUMBER = re.compile(r"(?<![\d.,:])(?:[1-9]|[12]\d|3[01])(?![\d.,:])")


def _asked(base: dict[str, object], question: str) -> ParseResult:
    return result("absolute", needs_clarification=True, clarification_question=question, **base)


# A reading that may lie in the past: it names a year, or says it looks back.
_PAST_OR_YEAR = re.compile(
    r"\d{4}|\b(?:yesterday|last|ago|previous|past|ayer|anteayer|anoche|pasad[oa]|hace|gestern|"
    r"vorgestern|letzte[nmrs]?|vorige[nmrs]?|vergangene[nmrs]?|hier|avant-hier|derni[eè]re?|"
    r"pass[ée]e?|ontem|anteontem|passad[oa]|[uú]ltim[oa]|h[aá]|ieri|scors[oa]|fa|gisteren|"
    r"eergisteren|afgelopen|geleden)\b",
    re.IGNORECASE,
)


def _next_year(
    reading: duckling_reader.Reading, anchor: Anchor, reference: datetime
) -> ParseResult | None:
    """The same words read from next January 1st: the next occurrence of a yearly date."""
    local = reference.astimezone(anchor.tz)
    january = datetime.combine(date(local.year + 1, 1, 1), time())  # naive: a wall time
    reread = [
        r
        for r in duckling_reader.read(reading.text, january)
        if (r.start, r.end) == (0, len(reading.text)) and r.end_wall is None
    ]
    if len(reread) != 1 or reread[0].grain != reading.grain:
        return None
    moved = replace(reread[0], start=reading.start, end=reading.end)
    found = _anchored(moved, anchor, reference, again=False)
    return found if (found.start_instant or reference) > reference else None


def _stripped(part: str, start: int) -> tuple[int, int]:
    """The span of `part` (found at `start`) without its surrounding whitespace."""
    lead = len(part) - len(part.lstrip())
    return start + lead, start + len(part.rstrip())


def locate_time(text: str, *, language: str | None = None) -> TimeExpression | None:
    """Where `text` names the time a parse would read, zone aside; None if it names none.

    For taking the time out of a message ("remind me at half past 3pm to call
    mom"): the span is the one `parse_anchored_time` reads, Duckling's where it
    reads more than the grammar. `language` as for `parse_anchored_time`.
    """
    found = parse_anchored_time(text, "UTC", _LOCATE_AT, language=language)
    if found.span is None:
        return None
    start, end = found.span
    whole = not (found.needs_clarification and _leftover(text, start, end) is not None)
    return TimeExpression(start=start, end=end, text=text[start:end], whole=whole)


_LOCATE_AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
"""Any instant will do: where an expression stands does not depend on when it is read."""
# Glue that belongs to the time rather than to what is left: "at", "on", "by" 9am.
_TIME_GLUE = re.compile(r"(?:\b(?:at|on|by|around|about|@)\s*)+$", re.IGNORECASE)


def without_time(text: str, expression: TimeExpression) -> str:
    """`text` minus `expression` and the glue words that tied it in, spaces collapsed.

    "remind me at half past 3pm to call mom" → "remind me to call mom".
    """
    before = _TIME_GLUE.sub("", text[: expression.start].rstrip())
    rest = f"{before} {text[expression.end :]}"
    return " ".join(rest.split()).replace(" ,", ",").strip(" ,")


def _span(text: str, group: list[Token]) -> str:
    return text[group[0].start : group[-1].end].strip()


def _pick(groups: list[list[Token]]) -> list[Token]:
    """The expression to read: the first, plus pieces from later groups it lacks.

    "On Friday, can we meet at 3pm?" names one time in two places; "9am or
    10am" names two, and then only the first is read.
    """
    first = list(groups[0])

    def categories(group: list[Token]) -> set[str]:
        return {
            "date" if t.kind in DATE_KINDS else "clock" if t.kind in CLOCK_KINDS else t.kind
            for t in group
            if t.kind not in ZONE_KINDS
        }

    seen = categories(first)
    for group in groups[1:]:
        extra = categories(group)
        if extra & seen or "stamp" in seen | extra or "relative" in seen | extra:
            break
        first.extend(group)
        seen |= extra
    return first


def find_time_expressions(text: str, *, language: str | None = None) -> list[TimeExpression]:
    """Where `text` talks about time: each expression's span, in order.

    A cheap first look runs on every message: without a digit or a time word
    (in English or the person's `language`) it stops at one word-set test. The
    grammar's expressions come next; only where the message holds a digit or a
    time word the grammar did not read ("Thurs", "half past", "1h30", "mañana a
    las 9") does the reader behind `parse_anchored_time` run, so the spans are
    the ones a parse reads.
    """
    text = text[:MAX_TEXT]
    languages = _languages(language)
    if not has_time_words(text) and not _time_words(text, languages, english=True):
        return []
    found = _grammar_expressions(text)
    unread = list(text)
    for expression in found:
        unread[expression.start : expression.end] = " " * (expression.end - expression.start)
    rest = "".join(unread)
    # Two pieces may be one expression the grammar did not join ("entre las 14:00 y las
    # 16:00", "op 10 december om 8:30"); a digit or a time word it left may widen one.
    if len(found) > 1 or _DIGIT.search(rest) or _time_words(rest, languages, english=True):
        found = _with_the_reader(text, found, language)
    return found


def _time_words(text: str, languages: tuple[str, ...], *, english: bool) -> bool:
    """Whether `text` holds a time word of `languages` (English's only if `english`)."""
    if text.isascii():  # most chat: nothing to fold but the case
        words = set(_WORDS.findall(text.lower())) - _LOOSE_WORDS
    else:
        words = {cues.fold(w) for w in _WORDS.findall(text)} - _LOOSE_WORDS
    return any(
        words & (cues.WORDS.get(language, frozenset()) | _WIDENING.get(language, frozenset()))
        for language in languages
        if english or language != "en"
    )


# Words that may widen what the grammar read: weekday abbreviations, "-ish", meals, and
# "the end of", per language.
_WIDENING = {
    "en": frozenset(
        {"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "ish"}
        | {"lunch", "dinner", "breakfast", "end"}
    ),
    "es": frozenset({"final", "fin"}),
    "de": frozenset({"ende"}),
    "fr": frozenset({"fin"}),
    "pt": frozenset({"fim", "final"}),
    "it": frozenset({"fine"}),
    "nl": frozenset({"eind", "einde"}),
}
# Words too common to send a message to the reader on their own ("a nice day", "new").
_LOOSE_WORDS = frozenset({"h", "min", "am", "pm", "new", "eve", "day", "days"})


_MOST_EXPRESSIONS = 4
"""How many expressions the reader looks for in one message."""


def _with_the_reader(
    text: str, found: list[TimeExpression], language: str | None
) -> list[TimeExpression]:
    """`found` widened, and added to, by what `locate_time` reads in `text`."""
    remaining = text
    spans = [(e.start, e.end, e.parts, e.whole) for e in found]
    for _ in range(_MOST_EXPRESSIONS):
        read = locate_time(remaining, language=language)
        if read is None:
            break
        start, end, whole = read.start, read.end, read.whole
        parts: tuple[str, ...] = ("reader",)
        for other in [s for s in spans if s[0] < end and start < s[1]]:
            spans.remove(other)
            start, end = min(start, other[0]), max(end, other[1])
            parts, whole = (*other[2], "reader"), whole and other[3]
        spans.append((start, end, parts, whole))
        remaining = remaining[: read.start] + " " * (read.end - read.start) + remaining[read.end :]
    return [
        TimeExpression(start=s, end=e, text=text[s:e], parts=p, whole=w)
        for s, e, p, w in sorted(spans)
    ]


def _grammar_expressions(text: str) -> list[TimeExpression]:
    """The expressions clockcore's own grammar finds, widened by ranges and recurrences."""
    tokens = scan_text(text)
    spans: list[tuple[int, int, tuple[str, ...]]] = []
    for group in group_tokens(text, tokens):
        if not any(t.kind in TIME_KINDS for t in group):
            continue
        start, kinds = group[0].start, tuple(t.kind for t in group)
        # Only the few words before the expression can widen it: never rescan the message.
        window = max(0, start - _LEAD_WINDOW)
        if lead := _RANGE_START.search(text, window, start):  # "9-10am", "between 2 and 4pm"
            start, kinds = lead.start(), ("range", *kinds)
        if lead := _FRAME_START.search(text, max(0, start - _LEAD_WINDOW), start):  # "every"
            start, kinds = lead.start(), ("recurrence", *kinds)
        spans.append((start, group[-1].end, kinds))
    for match in _REPEAT.finditer(text):  # "every 90 minutes", "daily"
        if all(match.end() <= s or match.start() >= e for s, e, _ in spans):
            spans.append((match.start(), match.end(), ("recurrence",)))
    merged: list[tuple[int, int, tuple[str, ...]]] = []
    for start, end, kinds in sorted(spans):
        if merged and _JOINED.fullmatch(text[merged[-1][1] : start]):
            first, _, earlier = merged.pop()
            start, kinds = first, (*earlier, *kinds)
        merged.append((start, end, kinds))
    return [TimeExpression(start=s, end=e, text=text[s:e], parts=k) for s, e, k in merged]


# What widens a grammar expression in find_time_expressions: a range's start before it,
# a recurrence's frame before it, and recurrences the grammar has no piece of.
_LEAD_WINDOW = 48
"""Characters before an expression searched for its range start or recurrence frame."""
_RANGE_START = re.compile(
    r"(?:\b(?:from|between)\s+)?\b\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?\s*"
    r"(?:[-–—]|\bto\b|\band\b|\buntil\b|\btill\b)\s*$",
    re.IGNORECASE,
)
_FRAME_START = re.compile(
    r"\b(?:every(?:\s+other)?|each|(?:on\s+)?the\s+(?:first|second|third|fourth|last))\s+$",
    re.IGNORECASE,
)
_REPEAT = re.compile(
    r"\b(?:every|each)\s+(?:other\s+)?(?:\d+\s*|[a-z]+\s+)?"
    r"(?:minutes?|hours?|days?|weeks?|months?|years?|weekdays?|night|morning|evening)\b"
    r"|\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|yearly|annually|weekdays)\b",
    re.IGNORECASE,
)
_JOINED = re.compile(r"[\s,]*(?:(?:at|on|from|of|the|in)[\s,]+)*[\s,]*", re.IGNORECASE)


def mentions_time(text: str, *, language: str | None = None) -> bool:
    """True when `text` holds a time expression (a docs/clock-spec.md §5.1 relevance fact).

    As `find_time_expressions`, but a grammar expression settles it: the
    reader runs only for a message the grammar found nothing in.
    """
    text = text[:MAX_TEXT]
    languages = _languages(language)
    if not has_time_words(text) and not _time_words(text, languages, english=True):
        return False
    return bool(_grammar_expressions(text)) or locate_time(text, language=language) is not None
