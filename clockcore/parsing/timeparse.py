"""Reading time out of what people type, anchored to a zone (docs/clock-spec.md §4.3, §4.4).

`parse_anchored_time` reads one expression whole or asks. The fast path is the
English grammar (`clockcore.parsing.grammar`, its pieces given meaning in
`clockcore.parsing.grammar_values`); Duckling is the second reader
(`clockcore.parsing.second_reader`), and text neither knows ("8. März 2026", "le 3 mars
à 14h") falls back to dateparser (`clockcore.parsing.fallback`), anchored by the same
rules of docs/time-rules.md. Finding expressions in a message is
`clockcore.parsing.time_mentions`.

Nothing here reads the clock: the reference instant is always passed in.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from functools import partial

from clockcore.clock import as_utc
from clockcore.geo.anchoring import (
    AmbiguousText,
    NotATime,
    asked,
    day_start,
    local_boundary,
    localize,
    point,
    result,
)
from clockcore.geo.zones import get_zone, require_zone, zone_from_label
from clockcore.geo.zonetext import Anchor, zone_asked
from clockcore.message import primary_language
from clockcore.parse_result import ParseResult
from clockcore.parsing import cues, duckling_reader, modifiers, weekdays
from clockcore.parsing.fallback import library_fallback
from clockcore.parsing.grammar import (
    CLOCK_KINDS,
    DATE_KINDS,
    MAX_TEXT,
    TIME_KINDS,
    ZONE_KINDS,
    Token,
    group_tokens,
    scan_text,
)
from clockcore.parsing.grammar_values import combine
from clockcore.parsing.second_reader import (
    LEFTOVER_QUESTION,
    duckling_only,
    duration_elsewhere,
    second_reader,
)
from clockcore.questions import WHICH_DAY, WHICH_TIME, Asking, Question
from clockcore.reading import (
    day_words,
    holiday_days,
    leftover,
    number_order,
    parts_of_day,
    safety,
    words,
)
from clockcore.reading.waking_hour import hour_as_written, waking_hour
from clockcore.reading.which_week import which_week
from clockcore.window import ContactWindow

__all__ = [
    "group_span",
    "parse_anchored_time",
    "pick_group",
    "reading_languages",
]


def parse_anchored_time(
    text: str,
    tz: str | None,
    reference_instant: datetime,
    *,
    language: str | None = None,
    window: ContactWindow | None = None,
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
        window: the person's contact window, when known: a part of the day
            without a clock time ("tomorrow morning") reads as its hour moved
            into it (`clockcore.reading.parts_of_day`).

    Raises:
        UnknownTimezoneError: `tz` is not an IANA id.
        NaiveDatetimeError: `reference_instant` is naive.
    """
    reference = as_utc(reference_instant)
    caller = Anchor(get_zone(tz), require_zone(tz), "caller") if tz is not None else None
    text = text[:MAX_TEXT]
    languages = reading_languages(language)
    try:
        found = _parse_whole(text, caller, reference, languages, window)
        if found.kind == "invalid" and (at := modifiers.compound_split(text)) is not None:
            found = _compound_read(text, at, caller, reference, languages, window) or found
        return found
    except OverflowError:
        # A year read out of four digits so far back that no instant holds it ("0001").
        return ParseResult(kind="invalid", reason="that date is out of range", matched_text="")
    except duckling_reader.ReaderTimeout:
        # Read whole or ask: a reading cut short is no reading (duckling_reader.isolate).
        return ParseResult(
            kind="invalid",
            reason="this took too long to read as a time; write the time on its own",
            matched_text="",
        )


def _compound_read(
    text: str,
    at: int,
    caller: Anchor | None,
    reference: datetime,
    languages: tuple[str, ...],
    window: ContactWindow | None,
) -> ParseResult | None:
    """ "vrijdagochtend bellen", which no reader reads, read as "vrijdag ochtend bellen"; its
    span mapped back onto `text` (docs/time-rules.md, "Parts of the day")."""
    found = _parse_whole(f"{text[:at]} {text[at:]}", caller, reference, languages, window)
    if found.kind == "invalid" or found.span is None:
        return None
    start, end = (i if i <= at else i - 1 for i in found.span)
    return replace(found, span=(start, end), matched_text=text[start:end])


def _parse_whole(
    text: str,
    caller: Anchor | None,
    reference: datetime,
    languages: tuple[str, ...],
    window: ContactWindow | None = None,
) -> ParseResult:
    def read_at(again: str, at: datetime) -> ParseResult:
        read = partial(_reading, caller=caller, reference=at, languages=languages)
        found = read(again)
        if starts := leftover.open_starts(again):
            found = safety.open_range(again, found, starts, read, _marker(languages[0]))
        return found

    found = holiday_days.named(text, caller, reference, languages, read_at)
    found = found or read_at(text, reference)
    if found.span is not None:  # a bare hour is its waking hour before "which week?" offers it
        found = waking_hour(
            text, found, reference, dated=day_words.dated(text, *found.span, languages)
        )
    found = which_week(text, found, reference, languages)
    found = day_words.small_hours(text, found, reference)
    if found.span is not None:
        dated = day_words.dated(text, *found.span, languages)
        found = waking_hour(text, found, reference, dated=dated)
        found = hour_as_written(text, found, reference, dated=dated)
    found = parts_of_day.one_hour(text, found, reference, window)
    return safety.nothing_left(text, found)


def _marker(language: str) -> str:
    """The person's word for "at" before an hour ("alle", "um", "om"), or "at"."""
    try:
        return words.tables(language).TIME_PREPOSITIONS[0]  # type: ignore[no-any-return]
    except KeyError:
        return "at"


def _reading(
    text: str, caller: Anchor | None, reference: datetime, languages: tuple[str, ...]
) -> ParseResult:
    found = _located(text, _parse(text, caller, reference, languages))
    found = safety.clock_not_year(
        text, found, reference, lambda again: _parse(again, caller, reference, languages)
    )
    found = _weekday_agrees(text, found, caller, reference, languages)
    found = _month_or_weekday(text, found, languages)
    found = day_words.day_word_agrees(text, found, reference)
    found, settled = _modified(text, found, reference, languages)
    if not settled:
        found = _read_whole(text, found, languages)
    return _weak_cue_asks(text, found, languages)


def _modified(
    text: str, found: ParseResult, reference: datetime, languages: tuple[str, ...]
) -> tuple[ParseResult, bool]:
    """A part of the day after a time ("um 11 Uhr nachts"), "the end of" a day.

    (`clockcore.parsing.modifiers`.) Returns the reading and whether "the end of" was
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
    dated = day_words.dated(text, start, end, languages)
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
        return asked(base, WHICH_TIME.ask(text=text[begins:end]))
    today = reference.astimezone(anchor.tz).date()
    day = today + timedelta(days=(weekday - today.weekday()) % 7 or 7)
    wall = datetime.combine(day, time(hour, local.minute))
    return point(wall, anchor.tz, anchor, base, found.kind)


_HOUR_13_TO_23 = re.compile(r"(?<!\d)(?:1[3-9]|2[0-3])(?:[:.h]\d{2}|\s*(?:uhr|uur|h)\b)", re.I)


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
        question=LEFTOVER_QUESTION.ask(read=found.matched_text, left=left),
    )  # fmt: skip


def _located(text: str, found: ParseResult) -> ParseResult:
    """`found` with its span, where only its matched text was known."""
    if found.span is None and found.matched_text and (at := text.find(found.matched_text)) >= 0:
        return replace(found, span=(at, at + len(found.matched_text)))
    return found


def _month_or_weekday(text: str, found: ParseResult, languages: tuple[str, ...]) -> ParseResult:
    """ "mar 19" in Italian, Spanish or French: Tuesday the 19th, or 19 March? A question
    (docs/time-rules.md, "Numbers follow the person's language")."""
    if found.start_instant is None or found.needs_clarification or found.span is None:
        return found
    if weekdays.month_or_weekday(text, *found.span, languages[0]) is None:
        return found
    asked = WHICH_DAY.ask(text=found.matched_text)
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        question=asked, clarification_question=asked.english,
    )  # fmt: skip


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
    never Thursday Nov 28, 2030 (`clockcore.parsing.weekdays`).
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
        asked = again.question or WHICH_DAY.ask(text=found.matched_text)
        return replace(
            found, start_instant=None, end_instant=None, needs_clarification=True,
            question=asked, clarification_question=again.clarification_question or asked.english,
        )  # fmt: skip
    day = again.start_instant.astimezone(tz).date()
    if day.weekday() in wanted:
        if day == found.start_instant.astimezone(tz).date():
            return found
        return replace(again, matched_text=found.matched_text, span=found.span)
    return replace(
        found, start_instant=None, end_instant=None, needs_clarification=True,
        question=weekdays.conflict_question(
            found.matched_text, min(wanted), day),
    )  # fmt: skip


WEAK_CUE_QUESTION = Asking(
    "weak_cue", "Do you mean {text!r} as a time? If so, write it as, say, '10:00' or 'at 10am'."
)


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
        question=WEAK_CUE_QUESTION.ask(text=found.matched_text),
    )  # fmt: skip


def reading_languages(language: str | None) -> tuple[str, ...]:
    """The languages to read in: the person's (when Duckling knows it), then English."""
    primary = primary_language(language)
    return (primary, "en") if primary in DUCKLING_LANGUAGES and primary != "en" else ("en",)


# Languages Duckling reads times in that clockcore passes on (the list and a few more).
DUCKLING_LANGUAGES = frozenset({"en", "es", "de", "fr", "pt", "it", "nl", "sv", "da", "nb", "pl"})


def _parse(
    text: str, caller: Anchor | None, reference: datetime, languages: tuple[str, ...]
) -> ParseResult:
    tokens = scan_text(text, languages)
    groups = group_tokens(text, tokens)
    time_groups = [g for g in groups if any(t.kind in TIME_KINDS for t in g)]
    try:
        zone_tokens = [t for t in tokens if t.kind in ZONE_KINDS]
        if time_groups:
            group = pick_group(time_groups)
            own = [t for t in group if t.kind in ZONE_KINDS]
            anchor_or_question = (
                zone_asked((own or zone_tokens)[0], text) if zone_tokens else caller
            )
            if isinstance(anchor_or_question, Question):
                return result(
                    "floating",
                    needs_clarification=True,
                    matched_text=group_span(text, group),
                    question=anchor_or_question,
                )
            if group[0].kind == "relative" and cues.measured_before(text, group[0].start):
                # "I ran 5 km in 25 minutes": a pace, not a time.
                return result("invalid", reason="a measure, not a time", matched_text="")
            order = number_order.day_first(
                languages[0], anchor_or_question.label if anchor_or_question else None
            )
            read = combine(text, group, anchor_or_question, reference, day_first=order)
            return second_reader(
                text, tokens, group, read, anchor_or_question, reference, languages
            )
        if zone_tokens and zone_tokens[0].kind == "abbr":
            question = zone_asked(zone_tokens[0], text)
            assert isinstance(question, Question)
            return result(
                "floating",
                needs_clarification=True,
                question=question,
                matched_text=zone_tokens[0].text(text),
            )
        anchor = zone_asked(zone_tokens[0], text) if zone_tokens else caller
        if not isinstance(anchor, Question) and (
            found := duration_elsewhere(text, tokens, anchor, reference, languages)
        ):
            return found
        if isinstance(anchor, Anchor) and (
            found := duckling_only(text, tokens, anchor, reference, languages)
        ):
            return found
        fallback_anchor = anchor if isinstance(anchor, Anchor) else caller
        order = number_order.day_first(
            languages[0], fallback_anchor.label if fallback_anchor else None
        )
        fallback = library_fallback(text, fallback_anchor, reference, order)
        if fallback is not None:
            return fallback
    except AmbiguousText as ambiguous:
        return result(
            "absolute",
            needs_clarification=True,
            question=ambiguous.question,
            matched_text=text.strip(),
        )
    except NotATime as invalid:
        return result("invalid", reason=str(invalid), matched_text=text.strip())
    return result("invalid", reason="no date or time found", matched_text="")


def group_span(text: str, group: list[Token]) -> str:
    return text[group[0].start : group[-1].end].strip()


def pick_group(groups: list[list[Token]]) -> list[Token]:
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
