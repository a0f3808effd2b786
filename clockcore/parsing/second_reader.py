"""Duckling as the second reader, and what happens when the two readers disagree.

The grammar reads English first (`clockcore.parsing.timeparse`); Duckling
(`clockcore.parsing.duckling_reader`) reads what it leaves, and every language the
grammar does not know. A reading is taken only whole: text left over that
names time, two readers that disagree on the clock, or a value that lands in
the past or across a range are asked about, never guessed (docs/time-rules.md,
"read whole or ask"). Duckling's values are anchored here under our rules
(`anchored`): its own defaults (the next year, the half day) are not ours.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from datetime import datetime, timedelta

from clockcore.geo.anchoring import (
    FLOATING_QUESTION,
    calendar_step,
    point,
    result,
)
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.parsing import clockforms, cues, duckling_reader, relative
from clockcore.parsing.duckling_values import anchored
from clockcore.parsing.grammar import (
    DAY_WORDS,
    MONTHS,
    NUMBER_WORDS,
    PERIODS,
    WEEKDAYS,
    ZONE_KINDS,
    Token,
)
from clockcore.questions import Asking
from clockcore.reading import number_order
from clockcore.reading.day_beside import day_beside

__all__ = [
    "DIGIT",
    "LEFTOVER_QUESTION",
    "WORDS",
    "duckling_only",
    "duration_elsewhere",
    "leftover",
    "readings",
    "second_reader",
]


# Words that join a time expression without adding to what it says.
_GLUE = frozenset({"at", "on", "by", "around", "about", "@", "in", "the", "of", "is", "for"})
WORDS = re.compile(r"[^\W_]+|[^\w\s,.!?;:'\"()]+")
# Tokens clockcore reads itself: exact elapsed time, timestamps, zones.
_OWN_KINDS = frozenset({"relative", "stamp", "abbr"})
DIGIT = re.compile(r"\d")


def _masked(text: str, tokens: list[Token]) -> str:
    """`text` with its zone names blanked (same length): the zone is clockcore's to read.

    Greetings, addresses, file names, versions and IDs are blanked too
    (`clockcore.parsing.cues.masked`): they look like times and are not.
    """
    chars = list(cues.masked(text))
    for token in tokens:
        if token.kind in ZONE_KINDS:
            chars[token.start : token.end] = " " * (token.end - token.start)
    return "".join(chars)


def _numbers_kept(text: str, reading: duckling_reader.Reading, day_first: bool | None) -> bool:
    """Whether `reading` keeps the day and month of the numeric dates it touches: Duckling's
    Dutch read "1.1." said on 2 January as 1 February, and "3.1." as "3.1" beside a day
    "1." (`number_order.keeps_numbers`); a reading that does not is dropped."""
    wall = reading.walls[0]
    span = (reading.start, reading.end)
    return number_order.keeps_numbers(text, span, (wall.day, wall.month), day_first)


def _date_core(text: str, token: Token) -> tuple[int, int]:
    """Where the numbers of a numeric date the grammar scanned stand ("3.2." of "on 3.2.")."""
    return token.end - len(token.text(text).split()[-1]), token.end


def _cuts(reading: duckling_reader.Reading, date: tuple[int, int]) -> bool:
    """Whether `reading` holds a piece of the numeric date at `date` but not all of it:
    Duckling's Dutch reads "op 3.2." as "op 3.2" and "13.12." as "12." (a day) beside
    "13"; a piece of a date read alone is no reading of it."""
    start, end = date
    return (
        reading.start < end
        and start < reading.end
        and not (reading.start <= start and end <= reading.end)
    )


def readings(
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
    order = number_order.day_first(languages[0], anchor.label)
    dates = [_date_core(text, t) for t in tokens if t.kind == "numdate"]
    spans = [
        r
        for r in found.values()
        if _numbers_kept(text, r, order) and not any(_cuts(r, date) for date in dates)
    ]
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
    return any(word.lower() not in _GLUE for word in WORDS.findall("".join(chars)))


def second_reader(
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
            question=LEFTOVER_QUESTION.ask(
                read=read.matched_text, left=half.group().strip()),
        )  # fmt: skip
    if anchor is None or read.kind in ("relative", "floating", "invalid"):
        return read
    start, end = group[0].start, group[-1].end
    proposals = readings(text, tokens, anchor, reference, languages)
    near = [r for r in proposals if r.start < end and r.end > start]
    clash = _clash(near)
    if clash is not None:
        return _conflict(clash, anchor, reference)
    for same in (r for r in near if r.start <= start and end <= r.end):
        theirs = anchored(same, anchor, reference)
        if not _reads_more(text, same, group) and _unsettled(read, theirs, anchor, reference):
            return _disagreement(read, theirs, anchor)  # "1/1 0:00" said at 00:30 on 1 Jan
    wider = [r for r in near if _reads_more(text, r, group)]
    if wider:
        widest = max(wider, key=lambda r: r.end - r.start)
        start, end = widest.start, widest.end
        theirs = anchored(widest, anchor, reference)
        # "at 10 to 7 pm", which Duckling reads as a range: `anchored` read it as 18:50.
        counted = widest.end_wall is not None and clockforms.minutes_to(widest.text) is not None
        if (
            _clock_disagrees(read, theirs, anchor, half_day_open=_bare_hour(group)) and not counted
        ) or _past_and_ahead(read, theirs, anchor, reference):
            # "quarter to 12pm": the grammar's 12pm is noon, Duckling's reading 23:45.
            return _disagreement(read, theirs, anchor)
        read = theirs
    elif (dated := day_beside(text, group, read, proposals, anchor, reference)) is not None:
        read = dated
        start, end = dated.span or (start, end)
    left = leftover(text, start, end)
    if left is None or read.needs_clarification:
        return read
    return replace(
        read, start_instant=None, end_instant=None, needs_clarification=True,
        question=LEFTOVER_QUESTION.ask(read=read.matched_text, left=left),
    )  # fmt: skip


LEFTOVER_QUESTION = Asking(
    "leftover",
    "I can read {read!r}, but not the {left!r} next to it, so I'd rather ask: "
    "what time do you mean exactly?",
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


def leftover(text: str, start: int, end: int) -> str | None:
    """The first temporal word next to `text[start:end]` (across glue words), or None."""
    if half := _AND_A_HALF.match(text, end):  # "in a day and a half": not "in a day"
        return half.group().strip()
    words = [(m.start(), m.end(), m.group().lower()) for m in WORDS.finditer(text)]
    before = [w for w in words if w[1] <= start][::-1]
    after = [w for w in words if w[0] >= end]
    for side in (before, after):
        for index, (_, _, word) in enumerate(side):
            if word in _GLUE:
                continue
            following = side[index - 1][2] if side is before and index else None
            if side is after and index + 1 < len(side):
                following = side[index + 1][2]
            if word in _TEMPORAL or DIGIT.search(word):
                return word
            if word in _RANGE_JOINERS and following and DIGIT.search(following):
                return word
            break
    return None


_NEAR = timedelta(hours=1)
"""How far "half past", "quarter to" and the like move the hour the grammar read."""


def _bare_hour(group: list[Token]) -> bool:
    """Whether the grammar's clock is a bare hour ("at 5", "um 5") that nothing in its group
    puts in a half of the day: the half was the grammar's choice (the waking hour), and a
    reading of more words ("morgen um 5", "alle 9 di sera") may settle it."""
    return any(t.kind == "atclock" for t in group) and not any(t.kind == "period" for t in group)


def _clock_disagrees(
    ours: ParseResult, theirs: ParseResult, anchor: Anchor, *, half_day_open: bool = False
) -> bool:
    """Both read a point in time, but hours apart on the clock: one of them misread the hour.

    `half_day_open`: ours is a bare hour whose half of the day was a guess; then only the
    hour on a 12-hour clock counts.
    """
    if ours.start_instant is None or theirs.start_instant is None:
        return False
    if ours.start_instant != ours.end_instant or theirs.start_instant != theirs.end_instant:
        return False
    mine = ours.start_instant.astimezone(anchor.tz)
    other = theirs.start_instant.astimezone(anchor.tz)
    minutes = abs((mine.hour * 60 + mine.minute) - (other.hour * 60 + other.minute))
    turn = 12 * 60 if half_day_open else 24 * 60
    minutes %= turn
    return min(minutes, turn - minutes) > _NEAR.total_seconds() // 60


def _unsettled(ours: ParseResult, theirs: ParseResult, anchor: Anchor, reference: datetime) -> bool:
    """Two readings of the same words at different instants that no rule of ours settles.

    docs/time-rules.md, "Two readers agree": the grammar's reading stands where
    the difference is one our rules decide (a 24-hour form read 12 hours off, a
    day and month in the person's order, a weekday a week on); any other
    difference, or ours already past where theirs is ahead, is a question.
    """
    if theirs.needs_clarification or ours.start_instant is None or theirs.start_instant is None:
        return False
    if ours.start_instant == theirs.start_instant or _same_part_of_day(ours, theirs):
        return False
    if ours.start_instant <= reference < theirs.start_instant:
        return True
    mine = ours.start_instant.astimezone(anchor.tz)
    other = theirs.start_instant.astimezone(anchor.tz)
    if mine.time() != other.time():  # a 24-hour or am/pm form read 12 hours off is settled
        return abs(mine.hour - other.hour) != 12 or mine.minute != other.minute
    swapped = mine.year == other.year and (mine.day, mine.month) == (other.month, other.day)
    return not (swapped or abs((mine.date() - other.date()).days) == 7)


def _same_part_of_day(ours: ParseResult, theirs: ParseResult) -> bool:
    """Both read a span and the spans overlap: "tomorrow morning" is our 06:00-12:00 and
    Duckling's 00:00-12:00; the part-of-day hours are ours (docs/time-rules.md)."""
    a, b = ours.start_instant, theirs.start_instant
    a_end, b_end = ours.end_instant, theirs.end_instant
    if a is None or b is None or a_end is None or b_end is None:
        return False
    return a < a_end and b < b_end and a < b_end and b < a_end


def _past_and_ahead(
    ours: ParseResult, theirs: ParseResult, anchor: Anchor, reference: datetime
) -> bool:
    """The same clock time, ours already past and theirs a later day ("el 1/1 0:00" at noon)."""
    if ours.start_instant is None or theirs.start_instant is None:
        return False
    mine = ours.start_instant.astimezone(anchor.tz)
    other = theirs.start_instant.astimezone(anchor.tz)
    return mine.time() == other.time() and ours.start_instant <= reference < theirs.start_instant


def _disagreement(ours: ParseResult, theirs: ParseResult, anchor: Anchor) -> ParseResult:
    options = " or ".join(
        _in_words(found.start_instant, anchor) for found in (ours, theirs) if found.start_instant
    )
    return replace(
        theirs, start_instant=None, end_instant=None, needs_clarification=True,
        question=None,
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
        found = anchored(reading, anchor, reference)
        when = _in_words(found.start_instant, anchor) if found.start_instant else "?"
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


def duckling_only(
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
    proposals = readings(text, tokens, anchor, reference, languages)
    clash = _clash(proposals)
    if clash is not None:
        return _conflict(clash, anchor, reference)
    if len(proposals) != 1:
        return None
    (reading,) = proposals
    outside = text[: reading.start] + " " + text[reading.end :]
    if DIGIT.search(outside):
        return None
    return anchored(reading, anchor, reference)


def duration_elsewhere(
    text: str,
    tokens: list[Token],
    anchor: Anchor | None,
    reference: datetime,
    languages: tuple[str, ...],
) -> ParseResult | None:
    """A duration from now in the person's language ("dentro de una hora"), read as English is.

    Hours and minutes are elapsed time; days and weeks calendar steps that keep
    the wall time (`clockcore.parsing.relative`). Another time beside it is a question.
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
        if anchor is not None and (others := readings(rest, tokens, anchor, reference, languages)):
            return result(
                "relative", needs_clarification=True, **base,
                question=LEFTOVER_QUESTION.ask(
                    read=matched, left=others[0].text.strip()),
            )  # fmt: skip
        if not any(found.steps.values()):
            start = reference + found.sign * found.exact
            return result("relative", start_instant=start, end_instant=start, **base)
        if anchor is None:
            return result(
                "floating", needs_clarification=True, **base,
                question=FLOATING_QUESTION.ask(what=matched),
            )  # fmt: skip
        base |= {"zone": anchor.label, "zone_source": anchor.source}
        local = reference.astimezone(anchor.tz).replace(tzinfo=None)
        wall = calendar_step(local, found.steps, found.sign)
        return point(wall, anchor.tz, anchor, base, "relative", shift=found.sign * found.exact)
    return None


def _in_words(instant: datetime, anchor: Anchor) -> str:
    """Words a person reads ("Wed 2 Dec 2026, 03:00"), never an ISO stamp (docs/talking.md)."""
    local = instant.astimezone(anchor.tz)
    return f"{local:%a} {local.day} {local:%b} {local.year}, {local:%H:%M}"
