"""Recurring times: "every Monday at 9am" as an RFC 5545 RRULE, anchored by clockcore's rules.

Duckling does not read "every" (for "every Monday at 9am" it reads "Monday at
9am"), so the *frame* is read here by a small grammar ("every", "every other",
"each", "daily", "weekdays", "the first/last Monday of every month", "every
year on March 5", "every 3 hours", "until <date>", "for 5 days", "10 times"),
and the time of day inside it by `parse_anchored_time` (Duckling where
installed). What is left over is asked about, as for single times.

Occurrences keep their wall-clock time across DST (RFC 5545 §3.3.5): a time
the clocks skip takes the offset before the gap (02:30 on a spring-forward
night is 03:30 new time), and a time that happens twice is its first
occurrence; `zoneinfo` gives exactly that with ``fold=0``. Hours and minutes
("every 90 minutes") are exact elapsed time, so they are stepped in UTC.

A rule whose text names no zone is *floating*: it follows the person's zone
(``tz``), and moves with it when that changes. A named zone fixes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Literal

from dateutil.rrule import rrulestr

from clockcore.clock import as_utc
from clockcore.geo.zones import get_zone, require_zone, to_iso
from clockcore.geo.zonetext import Anchor, zone_asked
from clockcore.message import primary_language
from clockcore.parsing import cues, recurrence_words, weekdays
from clockcore.parsing.grammar import (
    DATE_KINDS,
    MONTHS,
    NUMBER_WORDS,
    WEEKDAYS,
    ZONE_KINDS,
    scan_text,
)
from clockcore.parsing.time_mentions import locate_time
from clockcore.parsing.timeparse import parse_anchored_time
from clockcore.questions import Asking, Question

__all__ = ["RecurrenceResult", "occurrences", "parse_recurrence"]

NEXT_COUNT = 10
"""How many next occurrences a result lists."""
_DAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_SHORT_DAYS = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
    "sat": 5, "sun": 6,
}  # fmt: skip
_DAYS = {**WEEKDAYS, **{f"{name}s": n for name, n in WEEKDAYS.items()}, **_SHORT_DAYS}
_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "last": -1, "second last": -2, "second to last": -2,
}  # fmt: skip
_UNITS = {
    "minute": "MINUTELY", "minutes": "MINUTELY", "min": "MINUTELY", "mins": "MINUTELY",
    "hour": "HOURLY", "hours": "HOURLY", "hr": "HOURLY", "hrs": "HOURLY",
    "day": "DAILY", "days": "DAILY", "week": "WEEKLY", "weeks": "WEEKLY",
    "month": "MONTHLY", "months": "MONTHLY", "year": "YEARLY", "years": "YEARLY",
}  # fmt: skip
_ADVERBS = {
    "hourly": "HOURLY", "daily": "DAILY", "nightly": "DAILY", "weekly": "WEEKLY",
    "fortnightly": "WEEKLY", "monthly": "MONTHLY", "yearly": "YEARLY", "annually": "YEARLY",
}  # fmt: skip
_ELAPSED = {"MINUTELY", "HOURLY"}

_DAY_RE = "|".join(sorted(_DAYS, key=len, reverse=True))
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_ORD_RE = "|".join(sorted(_ORDINALS, key=len, reverse=True))
# Days of the month written as words: "on the fifteenth of each month".
_DAY_WORDS = {
    word: day
    for day, word in enumerate(
        re.findall(
            r"\S+",
            "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
            "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
            "twentieth twenty-first twenty-second twenty-third twenty-fourth twenty-fifth "
            "twenty-sixth twenty-seventh twenty-eighth twenty-ninth thirtieth thirty-first",
        ),
        start=1,
    )
}
_MDAY_RE = (
    r"(?:\d{1,2}(?:st|nd|rd|th)?|" + "|".join(sorted(_DAY_WORDS, key=len, reverse=True)) + ")"
)
_NUM_RE = r"\d+|" + "|".join(sorted((w for w in NUMBER_WORDS if w not in ("a", "an")), key=len))
_UNIT_RE = "|".join(sorted(_UNITS, key=len, reverse=True))

# One frame per pattern, tried in order; each names what it sets.
_FRAMES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        (
            "nth_weekday",
            rf"\b(?:on\s+)?the\s+(?P<ord>{_ORD_RE})\s+(?P<day>{_DAY_RE})\.?\s+"
            rf"(?:of\s+)?(?:every|each)\s+month\b",
        ),
        (
            "month_day",
            rf"\b(?:on\s+)?the\s+(?P<mday>{_MDAY_RE})\s+"
            r"(?:of\s+)?(?:every|each)\s+month\b"
            rf"|\b(?:every|each)\s+month\s+on\s+the\s+(?P<mday2>{_MDAY_RE})\b",
        ),
        (
            "year_day",
            rf"\b(?:every|each)\s+year\s+on\s+(?P<month>{_MONTH_RE})\.?\s+"
            rf"(?P<yday>\d{{1,2}})(?:st|nd|rd|th)?\b"
            rf"|\b(?:every|each)\s+(?P<month2>{_MONTH_RE})\.?\s+"
            rf"(?P<yday2>\d{{1,2}})(?:st|nd|rd|th)?\b"
            rf"|\b(?:every|each)\s+year\s+on\s+the\s+(?P<yday3>{_MDAY_RE})\s+of\s+"
            rf"(?P<month3>{_MONTH_RE})\b"
            rf"|\b(?:on\s+)?the\s+(?P<yday4>{_MDAY_RE})\s+of\s+(?P<month4>{_MONTH_RE})"
            r"\s+(?:every|each)\s+year\b",
        ),
        (
            "weeks_on",
            rf"\b(?:every|each)\s+(?:(?P<wother>other)\s+|(?P<wn>{_NUM_RE})\s*)?weeks?"
            rf"\s+on\s+(?P<wdays>(?:{_DAY_RE})\.?(?:\s*(?:,|and|&)\s*(?:{_DAY_RE})\.?)*)\b",
        ),
        # "weekdays", "every weekend", "on weekends"; a bare "weekend" is one ("in het weekend")
        (
            "weekdays",
            r"\b(?:(?:every|each|on)\s+|(?=week(?:day|end)s\b))"
            r"(?P<which>weekday|weekend)s?\b"
            r"(?:\s+(?:day|morning|evening)s?)?",
        ),
        (
            "days",
            rf"\b(?:every|each)\s+(?P<other>other\s+)?(?P<days>(?:{_DAY_RE})\.?"
            rf"(?:\s*(?:,|and|&)\s*(?:{_DAY_RE})\.?)*)\b"
            rf"|\bon\s+(?P<plural>(?:{_DAY_RE.replace('|', 's|')}s))\b",
        ),
        (
            "interval",
            rf"\b(?:every|each)\s+(?P<other2>other\s+)?(?:(?P<n>{_NUM_RE})\s*)?"
            rf"(?P<unit>{_UNIT_RE})\b",
        ),
        (
            "adverb",
            rf"\b(?P<adverb>{'|'.join(_ADVERBS)})\b"
            r"|\bevery\s+(?P<night>night|morning|evening)\b",
        ),
    )
)
_UNTIL = re.compile(
    r"\b(?:until|till|through|thru)\s+(?P<until>.+?)(?=$|[.,;!?]|\s+(?:at|to|and)\s)", re.I
)
_COUNT = re.compile(
    rf"\b(?:for\s+(?P<for_n>{_NUM_RE})\s+(?P<for_unit>days|weeks|months|years|times)"
    rf"|(?P<times>{_NUM_RE})\s+times)\b",
    re.IGNORECASE,
)
_TIME_WORDS = re.compile(
    rf"\d|\b(?:{_DAY_RE}|{_MONTH_RE}|noon|midnight|morning|afternoon|evening|night|tonight|"
    r"half|quarter|past|every|each|daily|weekly|monthly|yearly|hourly|nightly|fortnightly|"
    r"annually|weekdays?|weekends?|am|pm)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class RecurrenceResult:
    """A recurring time, or why it is not one.

    Attributes:
        kind: ``recurring``, ``floating`` (a rule, but no zone to compute it
            in: `needs_clarification`) or ``invalid`` (no recurrence in the text).
        rrule: the RFC 5545 RRULE value ("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;…").
        dtstart: the first occurrence as naive local wall time (DTSTART);
            UTC for elapsed rules ("every 3 hours").
        zone: the IANA zone the text named; None for a floating rule.
        floating: the rule follows the person's zone (none named in the text).
        elapsed: steps are exact elapsed time (hours, minutes), computed in UTC.
        next_occurrences: the next `NEXT_COUNT` instants, aware UTC.
        needs_clarification: the text cannot become one rule without asking.
        clarification_question: the question to ask, in English (`question.english`
            when it was asked as a value).
        matched_text: the part of the text read as the recurrence.
        reason: why `kind` is ``invalid``.
    """

    kind: Literal["recurring", "floating", "invalid"]
    rrule: str | None = None
    dtstart: datetime | None = None
    zone: str | None = None
    floating: bool = False
    elapsed: bool = False
    next_occurrences: tuple[datetime, ...] = field(default=())
    needs_clarification: bool = False
    clarification_question: str | None = None
    matched_text: str = ""
    reason: str | None = None
    question: Question | None = None

    def __post_init__(self) -> None:
        if self.question is not None:
            object.__setattr__(self, "clarification_question", self.question.english)

    def to_dict(self, *, zone: str | None = None) -> dict[str, object]:
        """JSON-ready; occurrences as ISO-8601 in `zone` (default: the rule's, else UTC)."""
        shown = zone or self.zone or "UTC"
        return {
            "kind": self.kind,
            "rrule": self.rrule,
            "dtstart": self.dtstart.isoformat() if self.dtstart else None,
            "zone": self.zone,
            "floating": self.floating,
            "elapsed": self.elapsed,
            "next_occurrences": [to_iso(at, shown) for at in self.next_occurrences],
            "needs_clarification": self.needs_clarification,
            "clarification_question": self.clarification_question,
            "matched_text": self.matched_text,
            "reason": self.reason,
        }


def occurrences(
    rule: str, dtstart: datetime, zone: str | tzinfo, *, after: datetime, count: int
) -> list[datetime]:
    """The next `count` instants of `rule` after `after`, aware UTC.

    Args:
        rule: an RRULE value.
        dtstart: its first occurrence, naive local wall time in `zone`.
        zone: where the wall times are read; for a floating rule, the
            person's zone now (so it follows them when they move).
        after: exclusive lower bound, aware.
        count: how many.
    """
    tz = get_zone(zone) if isinstance(zone, str) else zone
    after = as_utc(after)
    found: list[datetime] = []
    # A wall time past `after` by a DST shift at most: start the scan a day early.
    start_wall = after.astimezone(tz).replace(tzinfo=None) - timedelta(days=1)
    parsed = rrulestr(rule, dtstart=dtstart, cache=False)
    for wall in parsed.xafter(max(start_wall, dtstart), inc=True):
        instant = wall.replace(tzinfo=tz, fold=0).astimezone(UTC)
        if instant > after and (not found or instant > found[-1]):
            found.append(instant)
            if len(found) >= count:
                break
    return found


def occurrences_between(
    rule: str,
    dtstart: datetime,
    zone: str | tzinfo,
    *,
    after: datetime,
    before: datetime,
    most: int,
) -> list[datetime]:
    """The instants of `rule` after `after` and before `before` (both exclusive), aware UTC,
    at most `most`: one pass over the rule, where asking `occurrences` one at a time would
    start the rule afresh for each (a minutely rule paused for days took seconds)."""
    tz = get_zone(zone) if isinstance(zone, str) else zone
    after, before = as_utc(after), as_utc(before)
    found: list[datetime] = []
    start_wall = after.astimezone(tz).replace(tzinfo=None) - timedelta(days=1)
    parsed = rrulestr(rule, dtstart=dtstart, cache=False)
    for wall in parsed.xafter(max(start_wall, dtstart), inc=True):
        instant = wall.replace(tzinfo=tz, fold=0).astimezone(UTC)
        if instant >= before or len(found) >= most:
            break
        if instant > after and (not found or instant > found[-1]):
            found.append(instant)
    return found


def parse_recurrence(
    text: str, tz: str | None, reference_instant: datetime, *, language: str | None = None
) -> RecurrenceResult:
    """Read a recurring time ("every Monday at 9am", "every 90 minutes") out of `text`.

    Args:
        text: what the person wrote; words around it are fine.
        tz: the person's IANA zone, or None when unknown.
        reference_instant: "now", aware.
        language: the person's language (ISO 639-1): "cada lunes a las 9",
            "jeden Montag um 9 Uhr" are read in es, de, fr, pt, it and nl
            (`clockcore.parsing.recurrence_words`), and English always.

    Raises:
        UnknownTimezoneError: `tz` is not an IANA id.
        NaiveDatetimeError: `reference_instant` is naive.
    """
    reference = as_utc(reference_instant)
    if tz is not None:
        tz = require_zone(tz)
    language = primary_language(language)
    text = recurrence_words.in_english(text, language)
    frame = _frame(text)
    if frame is None:
        return RecurrenceResult("invalid", reason="no recurrence found")
    match, extra, parts = frame
    rest = text
    for found in (match, *extra):
        rest = rest[: found.start()] + " " * (found.end() - found.start()) + rest[found.end() :]
    parts, rest, question = _ends(parts, rest, tz, reference, language)
    if question is not None:
        return _ask(question, text)
    anchor, rest = _named_zone(rest)
    if isinstance(anchor, Question):
        return _ask(anchor, text)
    zone = anchor.label if anchor is not None else tz
    clock, rest, asked = _time_of_day(rest, reference, language, parts.pop("_period", None))
    if asked is not None:
        return _ask(asked, text)
    leftover = _TIME_WORDS.search(rest)  # glue ("at", "on", "from") is no time word
    if leftover is None and language not in (None, "en"):
        leftover = _unread_word(rest, language)
    if leftover is not None:
        return _ask(REPEAT_LEFTOVER.ask(text=text.strip(), word=leftover.group()), text)
    freq = parts["FREQ"]
    if freq in _ELAPSED:
        if clock is not None:
            return _ask("Every few hours starting at a time of day: from when exactly?", text)
        return _elapsed(parts, reference, match.group().strip(), anchor)
    if clock is None:
        return _ask(f"At what time of day should {match.group().strip()!r} be?", text)
    if zone is None:
        return RecurrenceResult(
            "floating",
            needs_clarification=True,
            floating=True,
            rrule=_rrule({**parts, **clock}),
            clarification_question="Which timezone should I use? Name a city or an IANA zone.",
            matched_text=match.group().strip(),
        )
    rule = _rrule({**parts, **clock})
    tzinfo_ = anchor.tz if anchor is not None else get_zone(zone)
    local_now = reference.astimezone(tzinfo_).replace(tzinfo=None, second=0, microsecond=0)
    provisional = datetime.combine(local_now.date(), time(clock["BYHOUR"], clock["BYMINUTE"]))
    # "every other Tuesday" said on a Wednesday starts next Tuesday: the first occurrence is
    # found without the interval, which then counts from it.
    opening = _rrule({k: v for k, v in {**parts, **clock}.items() if k != "INTERVAL"})
    try:
        first = occurrences(opening, provisional, tzinfo_, after=reference, count=1)
    except (ValueError, OverflowError) as exc:
        return RecurrenceResult("invalid", reason=str(exc), matched_text=text.strip())
    if not first:
        return RecurrenceResult("invalid", reason="the rule has no occurrence after now")
    dtstart = first[0].astimezone(tzinfo_).replace(tzinfo=None)
    if dtstart.time() != provisional.time():  # moved by a gap: keep the written wall time
        dtstart = datetime.combine(dtstart.date(), provisional.time())
    nexts = occurrences(rule, dtstart, tzinfo_, after=reference, count=NEXT_COUNT)
    return RecurrenceResult(
        "recurring",
        rrule=rule,
        dtstart=dtstart,
        zone=anchor.label if anchor is not None else None,
        floating=anchor is None,
        next_occurrences=tuple(nexts),
        matched_text=match.group().strip(),
    )


REPEAT_LEFTOVER = Asking(
    "repeat_leftover",
    "I can read a repeating time in {text!r}, but not the {word!r} in it. "
    "Could you write it as, say, 'every Monday at 9am'?",
)
"""A time word left over once the repeat and its time of day are read."""


def _ask(question: str | Question, text: str) -> RecurrenceResult:
    if isinstance(question, Question):
        return RecurrenceResult(
            "recurring", needs_clarification=True, question=question, matched_text=text.strip()
        )
    return RecurrenceResult(
        "recurring",
        needs_clarification=True,
        clarification_question=question,
        matched_text=text.strip(),
    )


def _number(raw: str) -> int:
    return int(raw) if raw.isdigit() else NUMBER_WORDS[raw.lower()]


def _month_day(raw: str) -> int:
    """15 from "15", "15th" or "fifteenth"."""
    raw = raw.lower()
    return _DAY_WORDS[raw] if raw in _DAY_WORDS else int(re.sub(r"\D", "", raw))


def _frame(text: str) -> tuple[re.Match[str], list[re.Match[str]], dict[str, object]] | None:
    """The first frame the text holds, the other matches it absorbed, and its RRULE parts."""
    for name, pattern in _FRAMES:
        match = pattern.search(text)
        if match is None:
            continue
        g = match.groupdict()
        parts: dict[str, object]
        if name == "nth_weekday":
            code = _DAY_CODES[_DAYS[g["day"].lower()]]
            parts = {"FREQ": "MONTHLY", "BYDAY": f"{_ORDINALS[g['ord'].lower()]:+d}{code}"}
        elif name == "month_day":
            parts = {"FREQ": "MONTHLY", "BYMONTHDAY": _month_day(g["mday"] or g["mday2"])}
        elif name == "year_day":
            month = MONTHS[(g["month"] or g["month2"] or g["month3"] or g["month4"]).lower()]
            day = _month_day(g["yday"] or g["yday2"] or g["yday3"] or g["yday4"])
            parts = {"FREQ": "YEARLY", "BYMONTH": month, "BYMONTHDAY": day}
        elif name == "weekdays":
            days = "MO,TU,WE,TH,FR" if g["which"].lower() == "weekday" else "SA,SU"
            parts = {"FREQ": "WEEKLY", "BYDAY": days}
        elif name == "days":
            names = re.findall(_DAY_RE, g["days"] or g["plural"], re.IGNORECASE)
            codes = sorted({_DAYS[n.lower()] for n in names})
            parts = {"FREQ": "WEEKLY", "BYDAY": ",".join(_DAY_CODES[c] for c in codes)}
            if g["other"]:
                parts["INTERVAL"] = 2
        elif name == "weeks_on":  # "every 2 weeks on Friday", "every other week on Mon and Thu"
            names = re.findall(_DAY_RE, g["wdays"], re.IGNORECASE)
            codes = sorted({_DAYS[n.lower()] for n in names})
            parts = {"FREQ": "WEEKLY", "BYDAY": ",".join(_DAY_CODES[c] for c in codes)}
            step = 2 if g["wother"] else _number(g["wn"]) if g["wn"] else 1
            if step != 1:
                parts["INTERVAL"] = step
        elif name == "interval":
            parts = {"FREQ": _UNITS[g["unit"].lower()]}
            step = _number(g["n"]) if g["n"] else 1
            if g["other2"]:
                step *= 2
            if step != 1:
                parts["INTERVAL"] = step
        else:
            adverb = (g["adverb"] or "").lower()
            parts = {"FREQ": _ADVERBS.get(adverb, "DAILY")}
            if adverb == "fortnightly":
                parts["INTERVAL"] = 2
            if g["night"]:
                parts["_period"] = g["night"].lower()
                return match, [], parts
        if parts.get("BYMONTHDAY") is not None and not 1 <= int(str(parts["BYMONTHDAY"])) <= 31:
            continue
        extra = []
        if name == "days" and "INTERVAL" not in parts and (every := _FORTNIGHT.search(text)):
            parts["INTERVAL"] = 2  # "fortnightly on Fridays", "every other week on Monday"
            extra.append(every)
        return match, extra, parts
    return None


_FORTNIGHT = re.compile(
    r"\bfortnightly\b|\bevery\s+(?:other|2|two)\s+weeks?\b(?:\s+on\b)?", re.IGNORECASE
)


def _unread_word(rest: str, language: str) -> re.Match[str] | None:
    """A time word of `language` left in `rest` once the frame and the time are read."""
    for word in re.finditer(r"[^\W\d_]+", rest):
        if cues.fold(word.group()) in cues.WORDS.get(language, frozenset()):
            return word
    return None


def _shown(text: str) -> str:
    """Words of the rest quoted in a question: the parts already read are blanked to spaces
    (so offsets hold), and the person should see "next friday of at 10", not the gap."""
    return repr(" ".join(text.split()))


def _ends(
    parts: dict[str, object],
    rest: str,
    tz: str | None,
    reference: datetime,
    language: str | None = None,
) -> tuple[dict[str, object], str, str | None]:
    """COUNT and UNTIL from "10 times", "for 5 days", "until March 1"; the rest; a question."""
    if found := _COUNT.search(rest):
        raw = found["for_n"] or found["times"]
        count = _number(raw)
        unit = (found["for_unit"] or "times").lower()
        if unit != "times" and _UNITS[unit] != parts["FREQ"]:
            return (
                parts,
                rest,
                f"How many times in all should it repeat over {_shown(found.group())}?",
            )
        parts = {**parts, "COUNT": count}
        rest = rest[: found.start()] + " " * len(found.group()) + rest[found.end() :]
    if found := _UNTIL.search(rest):
        end = parse_anchored_time(found["until"], tz or "UTC", reference, language=language)
        if end.needs_clarification or end.end_instant is None:
            return parts, rest, f"Until when exactly? I could not read {_shown(found['until'])}."
        zone = get_zone(tz or "UTC")
        last = end.end_instant.astimezone(zone).replace(tzinfo=None)
        if end.end_instant != end.start_instant:
            last -= timedelta(seconds=1)  # a whole day: through its last second
        parts = {**parts, "UNTIL": last.strftime("%Y%m%dT%H%M%S")}
        rest = rest[: found.start()] + " " * len(found.group()) + rest[found.end() :]
    return parts, rest, None


def _named_zone(rest: str) -> tuple[Anchor | Question | None, str]:
    """A zone the text names (fixing the rule), or a question, or None; the rest without it."""
    for token in scan_text(rest):
        if token.kind in ZONE_KINDS:
            found = zone_asked(token, rest)
            blanked = rest[: token.start] + " " * (token.end - token.start) + rest[token.end :]
            return found, blanked
    return None, rest


def _time_of_day(
    rest: str, reference: datetime, language: str | None = None, period: object = None
) -> tuple[dict[str, int] | None, str, str | Question | None]:
    """BYHOUR/BYMINUTE from the time inside the frame ("at 9am"); the rest; a question.

    `period` is the part of the day the frame named ("every evening"): it
    settles a bare hour as it would beside the time ("at 8" in the evening is
    20:00). A date inside ("every year at 9 on the 3rd of March" written in an
    order the frame does not know) is never dropped: it is a question.
    """
    where = locate_time(rest, language=language)
    if where is None:
        return None, rest, None
    # Read at 06:00 so a bare hour is the waking hour, as in English ("a las 5" is 17:00).
    waking = datetime.combine(reference.date(), time(6), UTC)
    read = parse_anchored_time(rest[where.start : where.end], "UTC", waking, language=language)
    if read.needs_clarification:
        return None, rest, read.question or read.clarification_question
    if read.start_instant is None or read.start_instant != read.end_instant:
        return None, rest, f"At what time of day exactly? {_shown(where.text)} is not one time."
    if any(t.kind in DATE_KINDS for t in scan_text(where.text)) or weekdays.names_a_date(
        _NO_CLOCK.sub(" ", where.text)
    ):
        return (
            None,
            rest,
            f"Which days should it repeat on? I read {_shown(where.text)} as one date.",
        )
    wall = read.start_instant
    if wall.second:
        return None, rest, "Repeating times run to the minute: which minute?"
    hour = wall.hour
    evening = period == "evening" or (period == "night" and hour >= 6)
    if evening and 1 <= hour < 12 and not _AM.search(where.text):
        hour += 12  # "every evening at 8", "every night at 11"
    if period == "morning" and hour >= 12 and not _PM.search(where.text):
        return None, rest, f"Every morning at {_shown(where.text)}: which time exactly?"
    blanked = rest[: where.start] + " " * (where.end - where.start) + rest[where.end :]
    return {"BYHOUR": hour, "BYMINUTE": wall.minute}, blanked, None


_AM = re.compile(r"\d\s*a\.?m\b|\d{2}:\d{2}", re.IGNORECASE)
_PM = re.compile(r"\d\s*p\.?m\b|\b(?:1[3-9]|2[0-3]):\d{2}", re.IGNORECASE)
_NO_CLOCK = re.compile(
    r"\d{1,2}(?:[:.h]\d{2})?\s*(?:[ap]\.?m\b\.?|h\b|uhr\b|uur\b|o'clock)|\d{1,2}[:.h]\d{2}",
    re.IGNORECASE,
)


def _rrule(parts: dict[str, object]) -> str:
    order = ("FREQ", "INTERVAL", "COUNT", "UNTIL", "BYMONTH", "BYMONTHDAY", "BYDAY", "BYHOUR")
    fields = [f"{key}={parts[key]}" for key in order if key in parts]
    if "BYHOUR" in parts:
        fields += [f"BYMINUTE={parts['BYMINUTE']}", "BYSECOND=0"]
    return ";".join(fields)


def _elapsed(
    parts: dict[str, object], reference: datetime, matched: str, anchor: Anchor | None
) -> RecurrenceResult:
    """Every N minutes or hours: exact steps from now, in UTC."""
    rule = _rrule(parts)
    start = reference.replace(second=0, microsecond=0).astimezone(UTC).replace(tzinfo=None)
    step = int(str(parts.get("INTERVAL", 1)))
    unit = timedelta(minutes=step) if parts["FREQ"] == "MINUTELY" else timedelta(hours=step)
    dtstart = start + unit
    nexts = occurrences(rule, dtstart, UTC, after=reference, count=NEXT_COUNT)
    return RecurrenceResult(
        "recurring",
        rrule=rule,
        dtstart=dtstart,
        zone="UTC",
        elapsed=True,
        next_occurrences=tuple(nexts),
        matched_text=matched,
    )
