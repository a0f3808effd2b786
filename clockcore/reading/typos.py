"""A misspelt day word beside a reading is a question, never another day (docs/time-rules.md).

"mñana a las 10" read as "a las 10" drops the day the person meant: the word
right before or after a reading that is one or two letters away from a day
word or a weekday of any of the seven languages ("mñana", "morgn", "mogren",
"tmorow") makes the reading a question naming it. Two edits are allowed only
between longer words (`_TWO_EDITS_FROM` letters), beginning with the same
letter; a word of any language's tables, among them the `NOT_DAYS` tables of
everyday words ("domain", "leute", "segundo"), is never taken for a day.
"""

from __future__ import annotations

import re
from functools import lru_cache

from clockcore.questions import Asking
from clockcore.reading.leftover import folded
from clockcore.reading.words import TABLES, table

__all__ = ["TYPO_QUESTION", "known_words", "misspelt_day"]

TYPO_QUESTION = Asking(
    "typo",
    "I read {read!r}, but is {word!r} beside it {guess!r}? Write the day again so I read the "
    "right one.",
)

_DAYS = {  # folded → as written ("manana" → "mañana")
    folded(w): w for name in ("DAY_WORDS", "WEEKDAYS") for w in table(name) if " " not in w
}
_WORD_SPLIT = re.compile(r"[^\W\d_]+")
_KNOWN = frozenset(folded(w) for name in TABLES for w in table(name))
# Words between a day word and the time it names: "at", "um", "a las", "alle", "om".
_GLUE = frozenset(
    word
    for name in ("TIME_PREPOSITIONS", "DAY_ARTICLES")
    for phrase in table(name)
    for word in _WORD_SPLIT.findall(folded(phrase))
)
_SHORTEST = 4  # shorter words are too near too many others ("hoy", "oggi")
_TWO_EDITS_FROM = 7  # letters of a day word two edits may reach: "tommorow", not "another"
_WORD = re.compile(r"[^\W\d_]+")


def known_words() -> frozenset[str]:
    """Every word of every language's tables, folded: none is ever taken for a misspelt day."""
    return _KNOWN


def misspelt_day(text: str, span: tuple[int, int]) -> tuple[str, str] | None:
    """(the word as written, the day word it is one or two letters from) next to `text[span]`."""
    start, end = span
    low = folded(text)
    before = list(_WORD.finditer(low, 0, start))
    while len(before) > 1 and before[-1].group() in _GLUE:  # "tmorrow at 8pm" read as "8pm"
        before.pop()
    after = _WORD.search(low, end)
    for found in ([before[-1]] if before else []) + ([after] if after else []):
        word = found.group()
        if len(word) < _SHORTEST or word in _KNOWN or (word[-1] == "s" and word[:-1] in _DAYS):
            continue  # a time word, an everyday word, or a plural ("fridays", "freitags")
        if text[found.start()].isupper() and text[: found.start()].strip():
            continue  # "dinner with Frida at 7": a name inside the sentence, not "Friday"
        if guess := _near_day(word):
            return text[found.start() : found.end()], guess
    return None


@lru_cache(maxsize=1024)
def _near_day(word: str) -> str | None:
    """The day word `word` is nearest to, within the edits allowed; None if none is."""
    best: tuple[int, str] | None = None
    for day in sorted(_DAYS):
        if len(day) < _SHORTEST or abs(len(word) - len(day)) > 2:
            continue
        two = len(day) >= _TWO_EDITS_FROM and len(word) >= _TWO_EDITS_FROM - 1 and word[0] == day[0]
        limit = 2 if two else 1
        distance = _edits(word, day, limit)
        if 0 < distance <= limit and (best is None or distance < best[0]):
            best = (distance, _DAYS[day])
    return None if best is None else best[1]


def _edits(word: str, other: str, limit: int) -> int:
    """Letters added, dropped, changed or two side by side swapped between the two words
    (optimal string alignment), or `limit` + 1 once it is past `limit`."""
    if abs(len(word) - len(other)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(other) + 1))
    for i, a in enumerate(word, 1):
        current = [i] + [0] * len(other)
        for j, b in enumerate(other, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (a != b))
            if i > 1 and j > 1 and a == other[j - 2] and word[i - 2] == b:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return row[-1]
