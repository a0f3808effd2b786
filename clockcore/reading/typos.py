"""A misspelt day word beside a reading is a question, never another day (docs/time-rules.md).

"mñana a las 10" read as "a las 10" drops the day the person meant: the word
right before or after a reading that is one letter away from a day word or a
weekday of any of the seven languages ("mñana", "morgn", "mogren") makes the
reading a question naming it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from clockcore.reading.leftover import folded
from clockcore.reading.words import TABLES, table

__all__ = ["TYPO_QUESTION", "misspelt_day"]

TYPO_QUESTION = (
    "I read {read!r}, but is {word!r} beside it {guess!r}? Write the day again so I read the "
    "right one."
)

_DAYS = {  # folded → as written ("manana" → "mañana")
    folded(w): w for name in ("DAY_WORDS", "WEEKDAYS") for w in table(name) if " " not in w
}
_KNOWN = frozenset(folded(w) for name in TABLES for w in table(name))
_SHORTEST = 4  # shorter words are too near too many others ("hoy", "oggi")
_WORD = re.compile(r"[^\W\d_]+")


def misspelt_day(text: str, span: tuple[int, int]) -> tuple[str, str] | None:
    """(the word as written, the day word it is one letter from) next to `text[span]`, or None."""
    start, end = span
    low = folded(text)
    before = list(_WORD.finditer(low, 0, start))
    after = _WORD.search(low, end)
    for found in ([before[-1]] if before else []) + ([after] if after else []):
        word = found.group()
        if len(word) < _SHORTEST or word in _KNOWN:
            continue
        if text[found.start()].isupper() and text[: found.start()].strip():
            continue  # "dinner with Frida at 7": a name inside the sentence, not "Friday"
        if guess := _near_day(word):
            return text[found.start() : found.end()], guess
    return None


@lru_cache(maxsize=1024)
def _near_day(word: str) -> str | None:
    return next((_DAYS[day] for day in sorted(_DAYS) if _one_edit(word, day)), None)


def _one_edit(word: str, other: str) -> bool:
    """Whether one letter added, dropped or changed, or two swapped, make `word` into `other`."""
    if abs(len(word) - len(other)) > 1 or word == other or len(other) < _SHORTEST:
        return False
    if len(word) == len(other):
        differ = [i for i, (a, b) in enumerate(zip(word, other, strict=True)) if a != b]
        swapped = (  # two letters swapped: "mogren"
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and word[differ[0]] == other[differ[1]]
            and word[differ[1]] == other[differ[0]]
        )
        return len(differ) == 1 or swapped
    short, long = sorted((word, other), key=len)
    at = next((i for i, (a, b) in enumerate(zip(short, long, strict=False)) if a != b), len(short))
    return short[at:] == long[at + 1 :]
