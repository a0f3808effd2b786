"""Words that change the time beside them: a part of the day after a clock time, "the end of".

"um 11 Uhr nachts" is 23:00, not 11:00; "by the end of Friday" is Friday
evening, not "now until Friday". Duckling reads the time and leaves such a word
beside it, or reads the whole as something else. The rules here (docs/time-cues.md):

- a part of the day right after a time of day settles its hour: the evening
  and the afternoon make 1–11 the afternoon's hours ("9 abends" 21:00, "3
  nachmittags" 15:00), the night makes 8–11 the evening's and 12 midnight
  ("11 nachts" 23:00, "2 nachts" 02:00), the morning keeps 1–11 and cannot
  hold 12 or later;
- "the end of" a day is that day's evening, 18:00 to midnight;
- a weekday and a part of the day written as one word before a time
  ("Freitagabend um 7", "maandagochtend om 7:30") are that weekday, and the
  part of the day settles the hour.
"""

from __future__ import annotations

import re

from clockcore.parsing.cues import fold

__all__ = [
    "END_OF_DAY",
    "compound_day_before",
    "compound_split",
    "end_of",
    "part_of_day_after",
    "settle_hour",
]

_PARTS = {
    "evening": "evening abends abend soir soiree avond avonds sera noche",
    "night": "night nachts nacht nuit noite notte nachts madrugada",
    "afternoon": "afternoon nachmittags nachmittag apres-midi tarde pomeriggio middags middag",
    "morning": "morning morgens vormittags fruh matin manha mattina ochtends ochtend",
}
PART_OF_DAY = {fold(word): part for part, words in _PARTS.items() for word in words.split()}
# What may stand between a time and its part of the day: "9 in the evening", "9 de la
# noche", "9 da noite", "9 di sera", "9 's avonds", "9 Uhr abends".
_BETWEEN = re.compile(
    r"\s*(?:in\s+the|at|de\s+la|de\s+l'|du|da|di|del|della|'s|des)?\s*", re.IGNORECASE
)
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")


def part_of_day_after(text: str, end: int) -> tuple[str, int] | None:
    """The part of the day written right after `text[:end]`, and where its word ends."""
    between = _BETWEEN.match(text, end)
    at = between.end() if between else end
    word = _WORD.match(text, at)
    if word is None:
        return None
    part = PART_OF_DAY.get(fold(word.group()))
    return (part, word.end()) if part else None


def settle_hour(hour: int, part: str) -> int | None:
    """The hour `hour` o'clock means in `part` of the day; None when it cannot be there."""
    if part in ("evening", "afternoon"):
        return hour + 12 if 1 <= hour <= 11 else hour if hour >= 12 else None
    if part == "night":
        if hour == 12:
            return 0
        return hour + 12 if 8 <= hour <= 11 else hour
    return hour if hour < 12 else None  # morning


_END_WORDS = re.compile(
    r"\b(?:(?:the\s+)?end\s+of|ende|(?:la\s+)?fin\s+d[eu]|(?:el\s+)?final\s+del?|"
    r"(?:o\s+)?fim\s+d[eoa]|(?:la\s+)?fine\s+d[ie]|(?:het\s+)?eind(?:e)?\s+van)\b",
    re.IGNORECASE,
)
END_OF_DAY = (18, 24)
"""'The end of' a day: its evening, from 18:00 to the next midnight."""


def end_of(text: str, start: int, end: int) -> int | None:
    """Where "the end of" (in any of the seven languages) begins, in or just before the span."""
    begin = max(0, start - 20)
    found = _END_WORDS.search(fold(text[begin:end]))
    return begin + found.start() if found else None


# German and Dutch write a weekday and a part of the day as one word.
_COMPOUND_DAYS = {
    name: index
    for names in (
        "montag dienstag mittwoch donnerstag freitag samstag sonntag",
        "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
    )
    for index, name in enumerate(names.split())
}
_BEFORE = re.compile(
    r"(?<![^\W\d_])([^\W\d_]+)\s*+(?:,\s*+)?(?:um|om|gegen|rond)?\s*+$", re.IGNORECASE
)


def compound_day_before(text: str, start: int) -> tuple[int, str, int] | None:
    """(weekday, part of the day, where the word begins) of "Freitagabend" before `start`."""
    found = _BEFORE.search(text, 0, start)
    if found is None:
        return None
    word = fold(found[1])
    for name, weekday in _COMPOUND_DAYS.items():
        rest = word[len(name) :]
        part = PART_OF_DAY.get(rest) or ("morning" if rest == "morgen" else None)
        if word.startswith(name) and part:  # "Montagmorgen": Monday morning
            return weekday, part, found.start(1)
    return None


# "Montagnacht": late Monday or the small hours of Tuesday? Duckling reads "Montag Nacht"
# as Monday 00:00, so a night is left out: such a message stays unread.
_COMPOUND_PARTS = sorted(
    (*(word for word, part in PART_OF_DAY.items() if part != "night"), "früh", "morgen"),
    key=len,
    reverse=True,
)
# Every weekday of both languages ends in "tag", "dag" or "woch": one cheap search first.
_COMPOUND = re.compile(
    rf"(?:tag|dag|woch)(?P<part>{'|'.join(_COMPOUND_PARTS)})(?![^\W\d_])", re.IGNORECASE
)
_DAY_BEFORE = re.compile(rf"(?<![^\W_])(?:{'|'.join(_COMPOUND_DAYS)})$", re.IGNORECASE)


def compound_split(text: str) -> int | None:
    """Where the part of the day begins in the first "vrijdagochtend", "Samstagnachmittag"
    of `text` (a weekday and a part of the day written as one word), or None.

    Cheap: the relevance question asks it of every message.
    """
    low = text.lower()
    if "tag" not in low and "dag" not in low and "woch" not in low:
        return None
    for found in _COMPOUND.finditer(text):
        if _DAY_BEFORE.search(text, max(0, found.start() - 10), found.start("part")):
            return found.start("part")
    return None
