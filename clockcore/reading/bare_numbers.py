"""Whether a message's numbers are all bare: the relevance question's cheap first look.

A number is a time only with a cue (docs/time-cues.md). `no_number_is_a_time`
asks the cue rule's question of a whole message before any reader runs, with
every time word the grammar, the cue rule and the leftover scanner know, so
that "order 12345 shipped" costs a few microseconds, not a Duckling reading.
The written-date fallback asks it too: it reads no date out of bare numbers.
"""

from __future__ import annotations

import re

from clockcore.parsing import cues
from clockcore.parsing.grammar import NUMBER_WORDS, TRIGGER_WORDS
from clockcore.reading.words import table

__all__ = ["no_number_is_a_time"]

_WORD_TABLES = (
    "WEEKDAYS", "MONTHS", "DAY_WORDS", "PARTS_OF_DAY", "HOUR_WORDS", "CLOCK_WORDS", "LOOSE",
)  # fmt: skip
_EXTRA_WORDS = frozenset({"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"})
# Words that may make a number in the message a time (the last word of a phrase: "por la tarde").
_TIME_WORDS = frozenset(
    cues.fold(re.split(r"[\s'’]+", phrase.strip("'’"))[-1])
    for phrase in (
        *TRIGGER_WORDS,
        *(set(NUMBER_WORDS) - {"a", "an"}),
        *(entry for name in _WORD_TABLES for entry in table(name)),
        *(entry.partition("=")[2] for entry in table("HOLIDAYS")),  # "halloween=halloween"
        *_EXTRA_WORDS,
    )
)
# Words that may make the number after them a time: "at 5", "ab 9", "a eso de las 5".
_BEFORE_A_NUMBER = frozenset(
    cues.fold(phrase)
    for name in ("TIME_PREPOSITIONS", "APPROXIMATIONS", "RANGE_WORDS", "DAY_ARTICLES")
    for phrase in table(name)
)


def no_number_is_a_time(text: str) -> bool:
    """True when no reader could take a time from `text`: its numbers are all bare.

    (`clockcore.parsing.cues.no_number_is_a_time` with every time word clockcore knows,
    on the text as the readers see it: versions, addresses, file names and IDs blanked,
    `clockcore.parsing.cues.without_ids`: "version 2.4.10 is out" holds no number.)
    """
    if cues.no_number_is_a_time(text, also=_TIME_WORDS, before=_BEFORE_A_NUMBER):
        return True
    # Blanking costs more than the look itself: only where the plain look found a number.
    blanked = cues.without_ids(text)
    return blanked != text and cues.no_number_is_a_time(
        blanked, also=_TIME_WORDS, before=_BEFORE_A_NUMBER
    )
