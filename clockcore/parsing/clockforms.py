"""Written clock forms with one rule each, for what a reader proposes (docs/time-cues.md).

- **Military time**: four digits after a time preposition ("at 0800", "um
  1930"), or any four digits with a leading zero ("0930 tomorrow"), are
  HH:MM on a 24-hour clock. Duckling offers "0800" as 08:00 *or* 20:00.
- **Two-digit years** are 20YY ("3/12/27" is 2027): clockcore's grammar reads
  them; here only for the record.
- **12 on a 24-hour clock is noon**: "às 12h15", "a las 12:30", "um 12 Uhr"
  are 12:15, 12:30, 12:00 (Duckling's Portuguese reads "12h15" as 00:15),
  unless a night word or am says otherwise.
- **"at 10 to 7"** is ten minutes to seven (18:50 with pm), not a range from
  10 to 7: after "at", N "to" H counts minutes to the hour.
- **No 25th hour**: "à 25h", "om 25 uur" are not a time (Duckling wraps them).
- **A range is written as one**: a range a reader proposes must have a range
  word between its ends ("9 to 10", "de 9 a 10", "van 9 tot 10"); "om tien
  voor zeven" (18:50) read as 18:00–20:00 has none. A range of clock times
  longer than 12 hours was misread ("at 10 to 7 pm", 18:50, as 22:00–19:00);
  one whose end says pm and whose start says nothing takes the end's half of
  the day ("between 2 and 4pm" is 14:00–16:00).
"""

from __future__ import annotations

import re

from clockcore.parsing.cues import HOUR_WORDS, fold

__all__ = [
    "impossible_hour",
    "military",
    "minutes_to",
    "names_a_count",
    "noon_written",
    "range_is_written",
    "start_is_pm",
]

_MILITARY = re.compile(
    r"(?:\b(?:at|@|um|om|à|às|alle|a\s+las|a\s+la)\s+|(?<![\d.,:/-])(?=0))"
    r"(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)(?![\d.,:/-])",
    re.IGNORECASE,
)


def military(text: str) -> tuple[int, int] | None:
    """The (hour, minute) of a four-digit 24-hour time in `text`, or None."""
    found = _MILITARY.search(text)
    return (int(found["h"]), int(found["m"])) if found else None


_NOON = re.compile(r"(?<![\d.,:])12\s*(?:h\b|h\d{2}|:\d{2}|uhr\b|uur\b)", re.IGNORECASE)
_NIGHT = re.compile(
    r"\b(?:a\.?m\.?|am|night|noche|nachts|nacht|nuit|noite|notte|madrugada|midnight|"
    r"medianoche|mitternacht|minuit|meia-noite|mezzanotte|middernacht)\b",
    re.IGNORECASE,
)


def noon_written(text: str) -> bool:
    """Whether `text` writes 12 on a 24-hour clock with nothing that makes it midnight."""
    return _NOON.search(text) is not None and _NIGHT.search(text) is None


_TOO_LATE = re.compile(
    r"(?<![\d.,:])(?P<h>2[5-9]|[3-9]\d)\s*(?:h\b|uhr\b|uur\b|heures?\b|horas?\b|ore\b|:\d{2})",
    re.IGNORECASE,
)


def impossible_hour(text: str) -> str | None:
    """The hour past 24 that `text` writes ("25h"), or None."""
    found = _TOO_LATE.search(text)
    return found.group().strip() if found else None


_RANGE_WORDS = re.compile(
    r"[-–—]|\b(?:to|until|till|through|thru|and|bis|und|a|à|et|y|e|en|tot|alle|às|as|"
    r"hasta|até|ate|al)\b",
    re.IGNORECASE,
)


def names_a_count(text: str) -> bool:
    """Whether `text` holds a number, in digits or as an hour word."""
    return any(c.isdigit() for c in text) or any(
        fold(w) in HOUR_WORDS for w in re.findall(r"[^\W\d_]+", text)
    )


def range_is_written(text: str) -> bool:
    """Whether a range reading's words say range: a joining word, or no number at all.

    "this evening" is a range with no number; "9 to 10" writes one; "tien voor
    zeven" (ten to seven) has numbers and no range word.
    """
    return not names_a_count(text) or _RANGE_WORDS.search(text) is not None


_PM_END = re.compile(r"\d\s*p\.?m\.?\s*$", re.IGNORECASE)
_AM_OR_PM = re.compile(r"\d\s*[ap]\.?m\b", re.IGNORECASE)


def start_is_pm(text: str) -> bool:
    """Whether a range's start takes the end's pm: "between 2 and 4pm", not "2am to 4pm"."""
    return (
        bool(_PM_END.search(text))
        and len(_AM_OR_PM.findall(text)) == 1
        and not re.match(r"\s*(?:at|@)\b", text, re.IGNORECASE)
    )


_MINUTES_TO = re.compile(
    r"\bat\s+(?P<n>\d{1,2}|five|ten|twenty|twenty-five|a\s+quarter|quarter)\s+(?:minutes\s+)?"
    r"to\s+(?P<h>\d{1,2})\s*(?P<ampm>[ap]\.?m\.?)?",
    re.IGNORECASE,
)
_MINUTE_WORDS = {"five": 5, "ten": 10, "twenty": 20, "twenty-five": 25, "quarter": 15}


def minutes_to(text: str) -> tuple[int, int] | None:
    """The (hour, minute) of "at 10 to 7 pm" (18:50), or None; a bare hour stays 1–12."""
    found = _MINUTES_TO.search(text)
    if found is None:
        return None
    raw = found["n"].lower().replace("a ", "").strip()
    minutes = _MINUTE_WORDS.get(raw) or int(raw)
    hour = int(found["h"])
    if not 1 <= minutes <= 30 or not 1 <= hour <= 12:
        return None
    if (found["ampm"] or "").lower().startswith("p") and hour < 12:
        hour += 12
    return (hour - 1) % 24, 60 - minutes
