"""A bare hour is the waking hour people mean, in every language (docs/time-rules.md).

English has read "at 5" as 17:00 and "at 9" as 09:00 since the start
(`clockcore.parsing.grammar_values._clock`): 7–11 in the morning, 12 at noon, 1–6 in
the afternoon or evening. Duckling reads "a las 5", "um halb drei", "om 9" as
the next such hour on either half of the day, so the same words meant 05:00
at one in the night and 17:00 at ten in the morning. `waking_hour` gives a
Duckling reading of a bare hour the English rule: the hour as the rule reads
it, on the day the words name, or its next occurrence when they name none.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

from clockcore.geo.anchoring import localize, point
from clockcore.geo.zones import zone_from_label
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.reading.leftover import AM_PM, folded, phrases
from clockcore.reading.words import table

__all__ = ["bare_hour", "hour_as_written", "waking_hour"]

_PREPOSITIONS = "|".join(
    re.escape(w).replace(r"\ ", r"\s+")
    for w in sorted({folded(w) for w in table("TIME_PREPOSITIONS")}, key=len, reverse=True)
)
_HOUR_WORDS = "|".join(sorted({folded(w) for w in table("HOUR_WORDS")}, key=len, reverse=True))
_CLOCK_WORDS = "|".join(
    re.escape(w) for w in sorted({folded(w) for w in table("CLOCK_WORDS")}, key=len, reverse=True)
)
# Being woken is in the morning: "wake me at 6", "weck mich um 6", "svegliami alle 6".
_WAKE = re.compile(
    r"(?<![^\W_])(?:wake|waken|woken|weck|aufwecken|despiert|despertar|reveill|acord|desperta|"
    r"svegli|wek)[^\W\d_]*"
)
# A time word, up to three words (the "halb", "Viertel vor", "las" of it), then the first number.
_BARE = re.compile(
    rf"(?<![^\W_])(?:{_PREPOSITIONS})(?![^\W\d_])\s*(?:[^\W\d_]+\s+){{0,3}}?"
    rf"(?:(?P<digits>\d{{1,2}})(?![\d:.,/]|\s*h|\s*{AM_PM}"
    rf"|\s*(?:{_CLOCK_WORDS})(?![^\W\d_]))|(?P<word>{_HOUR_WORDS})(?![^\W\d_]))"
)
# Words that settle the half of the day or the hour: then the reading stands as it is.
_SETTLED = phrases(
    "PARTS_OF_DAY", "MORNING_WORDS", "AFTERNOON_WORDS", "EVENING_WORDS", "TONIGHT_WORDS",
    "NIGHT_WORDS",
)  # fmt: skip
_SETTLED_TOO = re.compile(
    rf"(?:\d|(?<![^\W_])(?:{_HOUR_WORDS}))\s*{AM_PM}|"
    r"(?<![^\W_])(?:noon|midnight|mittag|mitternacht|midi|minuit|"
    r"mediodia|medianoche|meio-dia|meia-noite|mezzogiorno|mezzanotte|middernacht|stasera|"
    r"stamattina|stanotte|vanavond|vannacht|vanmiddag|vanochtend|vanmorgen|tonight)(?![^\W\d_])"
    r"|(?<=[^\W\d_])(?<!uber)(?:abend|avond|morgen|middag|nacht|ochtend|mittag)(?![^\W\d_])"
)


def bare_hour(
    written: int, minute: int = 0, *, woken: bool = False, near: int | None = None
) -> int:
    """The hour of the day (0 to 23) a bare hour `written` (1 to 12) means: one rule for the
    reader and for a change to a reminder (docs/time-rules.md).

    `near`, the minute of the day of a time the words change ("make that 11" for a reminder
    at 09:00), picks the half of the day nearer it; equally near, or with no such time, it
    is the waking hour: 7 to 11 in the morning, 12 noon, 1 to 6 in the afternoon or
    evening, and any hour but 12 in the morning when being woken (`woken`).
    """
    if near is not None:
        early = (written % 12) * 60 + minute
        late = early + 12 * 60
        if abs(early - near) != abs(late - near):
            return (early if abs(early - near) < abs(late - near) else late) // 60
    if woken and written < 12:
        return written
    return written + 12 if written <= 6 else written


def waking_hour(text: str, found: ParseResult, reference: datetime, *, dated: bool) -> ParseResult:
    """A Duckling reading of a bare hour ("a las 5", "um halb drei") at its waking hour.

    `dated`: the reading's words name a day ("mañana", "Freitag", "3.4."), which is kept;
    otherwise the hour is its next occurrence, as "at 9" is in English.
    """
    if found.start_instant is None or found.needs_clarification:
        return found
    woken = _WAKE.search(folded(text)) is not None  # "wake me at 6": the morning
    if found.reader != "duckling" and not woken:
        return found  # clockcore's grammar reads bare hours by this rule itself
    if found.span is None or found.end_instant != found.start_instant or found.kind != "absolute":
        return found
    if not found.zone or found.zone_source is None:
        return found
    start, end = found.span
    low = folded(text)
    bare = _BARE.search(low, start, end)
    if bare is None or _SETTLED.search(low, start, end) or _SETTLED_TOO.search(low, start, end):
        return found
    if bare.group("digits") and not 1 <= int(bare.group("digits")) <= 12:
        return found
    tz = zone_from_label(found.zone)
    local = found.start_instant.astimezone(tz)
    hour = bare_hour(local.hour % 12 or 12, woken=woken)
    if hour == local.hour:
        return found
    wall = datetime.combine(local.date(), time(hour, local.minute))
    return _read_at(found, wall, reference, ahead=not dated)


def _read_at(
    found: ParseResult, wall: datetime, reference: datetime, *, ahead: bool
) -> ParseResult:
    """`found` moved to the local `wall` time in its zone; with `ahead`, to that time of
    day at its next occurrence after `reference` (no day was named)."""
    assert found.zone is not None
    assert found.zone_source is not None
    tz = zone_from_label(found.zone)
    if ahead:
        wall = datetime.combine(reference.astimezone(tz).date(), wall.time())
        instant, _ = localize(wall, tz)
        if instant is not None and instant <= reference:
            wall += timedelta(days=1)
    base: dict[str, object] = {
        "matched_text": found.matched_text, "span": found.span, "zone": found.zone,
        "zone_source": found.zone_source, "reader": found.reader,
    }  # fmt: skip
    return point(wall, tz, Anchor(tz, found.zone, found.zone_source), base, found.kind)


_HOUR_24 = re.compile(
    r"(?<![\d:.])(?P<hour>\d{1,2})(?:h(?P<minute>\d{2})?(?![^\W\d_])"
    r"|\s*(?:uhr|uur|heures?|horas?)(?![^\W\d_]))"
)


def hour_as_written(
    text: str, found: ParseResult, reference: datetime, *, dated: bool
) -> ParseResult:
    """ "à 10h" said at 10:00: the next 10:00, not 22:00 (docs/time-rules.md, "A 24-hour
    form keeps its hour").

    Duckling reads an undated "10h", "10 Uhr" as the next such hour on either half of
    the day: said at 10:00 that is 22:00. Said within the hour written, with no day
    named and nothing but the one clock form in the reading, the hour as written is
    read at its next occurrence; anything else stays for the hour check to ask about.
    """
    if dated or found.start_instant is None or found.needs_clarification:
        return found
    if found.span is None or found.end_instant != found.start_instant or found.kind != "absolute":
        return found
    if found.reader != "duckling" or not found.zone or found.zone_source is None:
        return found
    start, end = found.span
    low = folded(text)
    forms = list(_HOUR_24.finditer(low, start, end))
    if len(forms) != 1 or _SETTLED.search(low, start, end) or _SETTLED_TOO.search(low, start, end):
        return found
    hour = int(forms[0]["hour"])
    tz = zone_from_label(found.zone)
    local = found.start_instant.astimezone(tz)
    minute = int(forms[0]["minute"] or local.minute)
    if hour > 23 or hour == local.hour or (local.hour - hour) % 12 != 0:
        return found
    if reference.astimezone(tz).hour != hour:
        return found  # "3 Uhr" said at 04:30: 15:00 or 03:00? the hour check asks
    return _read_at(
        found, datetime.combine(local.date(), time(hour, minute)), reference, ahead=True
    )
