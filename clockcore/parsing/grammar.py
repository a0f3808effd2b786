"""The English time grammar: one compiled scanner and how its pieces group.

The scanner finds the pieces of time expressions (dates, day words, weekdays,
clock times, durations, zone names); `groups` joins neighbouring pieces into
expressions ("tomorrow" + "at 9" + "Tokyo time"). What the pieces mean is
decided in `clockcore.parsing.timeparse`; this module only finds them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from clockcore.geo import places
from clockcore.geo.zones import ABBREVIATIONS, canonical_zone
from clockcore.parsing.cues import NUMBERED_BEFORE
from clockcore.reading import at_hour

__all__ = [
    "AMOUNT_PARTS",
    "CLOCK_KINDS",
    "DATE_KINDS",
    "DAY_WORDS",
    "DURATION_RE",
    "MAX_TEXT",
    "MONTHS",
    "NUMBER_RE",
    "NUMBER_WORDS",
    "PERIODS",
    "TIME_KINDS",
    "UNITS",
    "UNIT_RE",
    "WEEKDAYS",
    "ZONE_KINDS",
    "Token",
    "category",
    "group_tokens",
    "has_time_words",
    "scan_text",
]


MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}


WEEKDAYS = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
}


DAY_WORDS = {
    "the day after tomorrow": 2,
    "day after tomorrow": 2,
    "the day before yesterday": -2,
    "today": 0,
    "tonight": 0,
    "tomorrow": 1,
    "tmrw": 1,
    "yesterday": -1,
}


NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty-five": 45,
    "ninety": 90,
}


UNITS = {
    "s": "seconds",
    "sec": "seconds",
    "secs": "seconds",
    "second": "seconds",
    "seconds": "seconds",
    "m": "minutes",
    "min": "minutes",
    "mins": "minutes",
    "minute": "minutes",
    "minutes": "minutes",
    "h": "hours",
    "hr": "hours",
    "hrs": "hours",
    "hour": "hours",
    "hours": "hours",
    "d": "days",
    "day": "days",
    "days": "days",
    "w": "weeks",
    "wk": "weeks",
    "wks": "weeks",
    "week": "weeks",
    "weeks": "weeks",
    "month": "months",
    "months": "months",
    "mo": "months",
    "year": "years",
    "years": "years",
    "yr": "years",
    "yrs": "years",
}


# Periods of the day for "tomorrow morning", "friday evening", "tonight".
PERIODS = {"morning": (6, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 24)}


_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))


_WEEKDAY_RE = "|".join(WEEKDAYS)


_DAYWORD_RE = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in DAY_WORDS)


NUMBER_RE = r"\d+(?:\.\d+)?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))


UNIT_RE = "|".join(sorted(UNITS, key=len, reverse=True))


_AMOUNT = (
    rf"(?:half\s+an?\s+hour|an?\s+hour\s+and\s+a\s+half|\b\d{{1,3}}h\d{{2}}\b"
    rf"|\b(?:{NUMBER_RE})(?:(?<=\d)\s*|\s+)(?:{UNIT_RE})\b)"
)


_DURATION = rf"{_AMOUNT}(?:\s*(?:,|and)?\s*{_AMOUNT})*"
DURATION_RE = _DURATION
"""A span as people write it: "two hours", "1h30", "an hour and a half", "2 hours and 15 min"."""


_ABBREVIATION_RE = "|".join(sorted(ABBREVIATIONS, key=len, reverse=True))


_AMPM = r"(?P<ampm>a\.?m\.?|p\.?m\.?)(?![a-z])"


_SCANNER = re.compile(
    rf"""
    (?P<stamp>\b\d{{4}}-\d{{2}}-\d{{2}}[T\ ]\d{{1,2}}:\d{{2}}(?::\d{{2}}(?:\.\d{{1,6}})?)?
        \s?(?P<stamp_off>Z|[+-]\d{{2}}:?\d{{2}})(?![\w:]))
    | (?P<isodate>\b(?P<iso_y>\d{{4}})-(?P<iso_m>\d{{1,2}})-(?P<iso_d>\d{{1,2}})
        (?:[T\ ](?P<iso_h>\d{{1,2}}):(?P<iso_min>\d{{2}})(?::(?P<iso_s>\d{{2}}))?)?\b)
    | (?P<offset>\b(?:UTC|GMT)\s?[+\-−]\s?\d{{1,2}}(?::?\d{{2}})?\b)
    | (?P<relative>\bin\s+(?P<rel_in>{_DURATION})\b
        | (?<![\d][.,])\b(?P<rel_post>{_DURATION})\s+(?P<rel_dir>from\s+now|later|ago)\b)
    | (?P<numdate>(?:\b(?P<nd_lead>on|by|until|till|before|after|from|due)\s+)?
        \b(?<![\d.])(?P<nd_a>\d{{1,2}})
        (?:/(?P<nd_b>\d{{1,2}})(?:/(?P<nd_y>\d{{4}}|\d{{2}}))?(?![\d/])
        # "3.2." and "3.2.2027", day and month as Dutch and German write them; "9.30"
        # (no last dot) is a clock time, "2.4.10" a version number: a year has four digits
        | \.(?P<nd_dot_b>\d{{1,2}})\.(?P<nd_dot_y>\d{{4}})?(?![\d.]\d|\d)))
    | (?P<monthday>\b(?P<md_month>{_MONTH_RE})\.?\s+(?P<md_day>\d{{1,2}})(?:st|nd|rd|th)?
        (?:,?\s+(?P<md_year>\d{{4}}))?\b)
    | (?P<daymonth>\b(?P<dm_day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?
        (?P<dm_month>{_MONTH_RE})\b\.?(?:,?\s+(?P<dm_year>\d{{4}})\b)?)
    | (?P<ordinal>\bthe\s+(?P<ord>\d{{1,2}})(?:st|nd|rd|th)\b)
    | (?P<dayword>\b(?:{_DAYWORD_RE})\b)
    | (?P<weekday>\b(?:(?P<wd_mod>next|this|last|on)\s+)?(?P<wd>{_WEEKDAY_RE})\b)
    | (?P<clock12>\b(?P<h12>\d{{1,2}})(?:[:.](?P<m12>\d{{2}}))?(?::(?P<s12>\d{{2}}))?\s?{_AMPM})
    | (?P<clock24>\b(?P<h24>\d{{1,2}}):(?P<m24>\d{{2}})(?::(?P<s24>\d{{2}}))?(?![\d:]))
    | (?P<named>\b(?:noon|midday|midnight)\b)
    | (?P<oclock>\b(?:at\s+)?(?P<hoc>\d{{1,2}})\s?o'?clock\b)
    | (?P<atclock>\bat\s+(?P<hat>\d{{1,2}})\b
        (?![.,:/%]\d|\s*[%$€£]|\s+[a-z]{{2,}}s\b|\s*[ap]\.?m\.?(?![a-z])))
    | (?P<period>\b(?:this\s+|in\s+the\s+)?(?P<per>morning|afternoon|evening|night)\b)
    | (?P<utc>\b(?:UTC|GMT)\b)
    | (?P<iana>\b[A-Za-z][A-Za-z_\-]+(?:/[A-Za-z0-9_+\-]+)+\b)
    | (?P<abbr>(?-i:\b(?:{_ABBREVIATION_RE})\b))
    """,
    re.IGNORECASE | re.VERBOSE,
)


# Cheap first look: a message without any of these has no time expression.
# Cheap first look: a message with no digit and none of these words has no time
# expression. A word-set test costs a few microseconds; the scanner, far more.
_TRIGGER_WORDS = frozenset(
    {*MONTHS, *WEEKDAYS, *PERIODS, "noon", "midday", "midnight", "half", "quarter"}
    | {word for phrase in DAY_WORDS for word in phrase.split()} - {"the", "after", "before"}
    | {unit for unit in UNITS if len(unit) > 2}  # not "m", "s", "h": "I'm", "it's"
    | {"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"}
)
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[a-z]+")


TRIGGER_WORDS = _TRIGGER_WORDS
"""The words without which a message with no digit holds no time expression."""


def has_time_words(text: str) -> bool:
    """False only when `text` cannot hold a time expression: no digit, no time word."""
    if _DIGIT.search(text):
        return True
    return not _TRIGGER_WORDS.isdisjoint(_WORD.findall(text.lower()))


_PLACE_IN = re.compile(r"\bin\s+((?:[^\W\d_][\w.'’-]*)(?:,?\s+[^\W\d_][\w.'’-]*){0,4})")


# A run of word characters is entered only at its start, digits before its first letter
# skipped ("9am Tokyo time" names "am Tokyo"): entered at every letter, 10 KB of letters took
# 5 s (docs/SECURITY.md, "Slow input"). _GROUP_PLACE below is built the same way.
_PLACE_TIME = re.compile(
    r"(?<![\w.'’-])[\d_.'’-]*+((?:[^\W\d_][\w.'’-]*+,?\s++){0,4}[^\W\d_][\w.'’-]*+)\s+time\b",
    re.I,
)


# "9am their time" is the time of the one place the message names as where *they* are: "the
# New York office", "our team in Lisbon", "clients from Madrid" (docs/time-rules.md).
_THEIR_TIME = re.compile(r"\btheir\s+(?:local\s+)?time\b", re.I)
_GROUP = (
    r"(?:office|offices|team|teams|colleagues|client|clients|customer|customers|people|"
    r"branch|hq|headquarters|partner|partners|side|folks|crew|staff)"
)
_GROUP_PLACE = re.compile(
    rf"(?<![\w.'’-])[\d_.'’-]*+((?:[^\W\d_][\w.'’-]*+\s++){{0,3}}[^\W\d_][\w.'’-]*+)\s+{_GROUP}\b",
    re.I,
)
_GROUP_IN = re.compile(
    rf"\b{_GROUP}\s+(?:in|from|at)\s+((?:[^\W\d_][\w.'’-]*)(?:\s+[^\W\d_][\w.'’-]*){{0,3}})", re.I
)


# What may stand between two pieces of one expression: "tomorrow at 9", "Dec 31, 2026".
_JOINER = re.compile(r"[\s,]*(?:(?:at|on|by|around|about|@|-|in|of|the)[\s,]+)*[\s,]*", re.I)


MAX_TEXT = 4_000


DATE_KINDS = frozenset(
    {"isodate", "numdate", "monthday", "daymonth", "ordinal", "dayword", "weekday"}
)


CLOCK_KINDS = frozenset({"clock12", "clock24", "named", "oclock", "atclock"})


ZONE_KINDS = frozenset({"offset", "utc", "iana", "place", "abbr"})


TIME_KINDS = DATE_KINDS | CLOCK_KINDS | {"stamp", "relative", "period"}


AMOUNT_PARTS = re.compile(
    rf"(?P<half>half\s+an?\s+hour)|(?P<andhalf>an?\s+hour\s+and\s+a\s+half)"
    # "1h30": an hour and thirty minutes, as people write a duration.
    r"|\b(?P<hm_h>\d{1,3})h(?P<hm_m>\d{2})\b"
    # A number word needs a space before its unit: "and" is not "an" + "d" (a day).
    rf"|\b(?P<n>{NUMBER_RE})(?:(?<=\d)\s*|\s+)(?P<unit>{UNIT_RE})\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    start: int
    end: int
    groups: dict[str, str | None] = field(hash=False, compare=False)
    place: places.PlaceMatch | None = None

    def text(self, source: str) -> str:
        return source[self.start : self.end]


def _scan(text: str) -> list[Token]:
    return list(_scanned(text))


@lru_cache(maxsize=64)
def _scanned(text: str) -> tuple[Token, ...]:
    """The scanner's tokens of `text`, kept for the few texts in hand: one message is read
    by several steps (relevance, the agent's tools, the rules agent), 15 ms each at 4,000
    characters."""
    tokens: list[Token] = []
    for match in _SCANNER.finditer(text):
        kind = match.lastgroup
        assert kind is not None
        if kind == "iana" and canonical_zone(match.group()) is None:
            continue
        if kind == "numdate" and NUMBERED_BEFORE.search(
            text, max(0, match.start() - 16), match.start()
        ):
            continue  # "section 3.2.", "page 3/4": a number in a document, no date
        tokens.append(Token(kind, match.start(), match.end(), match.groupdict()))
    return tuple(tokens)


def _scan_places(text: str, taken: list[Token]) -> list[Token]:
    """Zones named as places: "in Sao Paulo", "Tokyo time", and "their time" (`_THEIR_TIME`)."""
    found: list[Token] = []

    def free(start: int, end: int) -> bool:
        return all(end <= t.start or start >= t.end for t in taken + found)

    for match in _PLACE_IN.finditer(text):
        hit, end = _leading_place(match)
        if hit is not None and free(match.start(), end):
            found.append(Token("place", match.start(), end, {}, hit))
    for match in _PLACE_TIME.finditer(text):
        hit, start = _trailing_place(match)
        if hit is not None and free(start, match.end()):
            found.append(Token("place", start, match.end(), {}, hit))
    their = _THEIR_TIME.search(text)
    if their is not None and free(their.start(), their.end()):
        hit = _their_place(text)
        if hit is not None:
            found.append(Token("place", their.start(), their.end(), {}, hit))
    return found


def _leading_place(match: re.Match[str]) -> tuple[places.PlaceMatch | None, int]:
    """The place the first words of `match`'s group 1 name ("in Sao Paulo today"), and its end."""
    words = match.group(1).split()
    for n in range(min(len(words), places.MAX_PLACE_WORDS), 0, -1):
        hit = places.lookup_place(" ".join(words[:n]).rstrip(".,'’"))
        if hit is not None:
            return hit, match.start(1) + match.group(1).index(words[n - 1]) + len(words[n - 1])
    return None, 0


def _trailing_place(match: re.Match[str]) -> tuple[places.PlaceMatch | None, int]:
    """The place the last words of `match`'s group 1 name ("call at 9 Tokyo"), and its start."""
    words = match.group(1).split()
    for n in range(min(len(words), places.MAX_PLACE_WORDS), 0, -1):
        hit = places.lookup_place(" ".join(words[-n:]))
        if hit is not None:
            return hit, match.end(1) - len(" ".join(words[-n:]))
    return None, 0


def _their_place(text: str) -> places.PlaceMatch | None:
    """The one place `text` names as where a group is ("the New York office"), or None.

    None when it names none, or several that differ: "their time" is then no zone
    read, and the time beside it is asked about (read whole or ask).
    """
    hits = [_trailing_place(m)[0] for m in _GROUP_PLACE.finditer(text)]
    hits += [_leading_place(m)[0] for m in _GROUP_IN.finditer(text)]
    named = {(h.zone, h.candidates): h for h in hits if h is not None}
    if len(named) != 1:
        return None
    hit = next(iter(named.values()))
    return replace(hit, query=re.sub(r"^the\s+", "", hit.query, flags=re.I))  # "the New York"


def _at_hours(text: str, languages: tuple[str, ...], taken: list[Token]) -> list[Token]:
    """ "um 9", "à 9": an hour after the word for "at" of each language read
    (`clockcore.reading.at_hour`), an `atclock` piece as "at 9" is, where no other lies."""
    found: list[Token] = []
    for start, end, hour in at_hour.hours_after_at(text, languages):
        if all(end <= t.start or start >= t.end for t in taken + found):
            found.append(Token("atclock", start, end, {"hat": hour, "hoc": None}))
    return found


def scan_text(text: str, languages: tuple[str, ...] = ("en",)) -> list[Token]:
    """The time pieces of `text`: the English grammar's, and "at <hour>" in `languages`."""
    tokens = _scan(text)
    if languages != ("en",):
        tokens += _at_hours(text, languages, tokens)
    if "in " in text.lower() or " time" in text.lower():  # "their time" included
        tokens += _scan_places(text, tokens)
    return sorted(tokens, key=lambda t: t.start)


def group_tokens(text: str, tokens: list[Token]) -> list[list[Token]]:
    """Split tokens into expressions: neighbours joined only by "at", "on", commas..."""
    groups: list[list[Token]] = []
    for token in tokens:
        if groups:
            gap = text[groups[-1][-1].end : token.start]
            if _JOINER.fullmatch(gap):
                groups[-1].append(token)
                continue
        groups.append([token])
    return groups


def category(token: Token) -> str:
    """ "date", "clock", or the token's own kind: what a piece contributes to an expression."""
    if token.kind in DATE_KINDS:
        return "date"
    return "clock" if token.kind in CLOCK_KINDS else token.kind
