"""Where a message talks about time: find, locate and cut out time expressions.

`find_time_expressions` runs on every chat message, so it never takes the
dateparser fallback: a message without time words stops at one regex search.
`locate_time` and `without_time` let a caller read "remind me at 5pm to call
Ana" as a time and the words around it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from clockcore.parse_result import TimeExpression
from clockcore.parsing import cues, modifiers
from clockcore.parsing.grammar import (
    MAX_TEXT,
    TIME_KINDS,
    group_tokens,
    has_time_words,
    scan_text,
)
from clockcore.parsing.recurrence_words import frame_spans
from clockcore.parsing.second_reader import DIGIT, WORDS
from clockcore.parsing.timeparse import parse_anchored_time, reading_languages
from clockcore.reading.bare_numbers import no_number_is_a_time
from clockcore.reading.words import table as words_table

__all__ = [
    "find_time_expressions",
    "locate_time",
    "mentions_time",
    "without_time",
]


def locate_time(text: str, *, language: str | None = None) -> TimeExpression | None:
    """Where `text` names the time a parse would read, zone aside; None if it names none.

    For taking the time out of a message ("remind me at half past 3pm to call
    mom"): the span is the one `parse_anchored_time` reads, Duckling's where it
    reads more than the grammar. `language` as for `parse_anchored_time`.
    """
    found = parse_anchored_time(text, "UTC", _LOCATE_AT, language=language)
    if found.span is None:
        return None
    start, end = found.span
    # Asked about, the span may not be the whole time: something time-like beside it
    # ("il 24/12 alle 21"), a misspelt day ("tmorrow at 8pm"), words the span dropped
    # ("alle 8 e mezza"). Read alone it would be a confident other time, so a caller
    # reads the whole text, which asks (docs/time-rules.md, "Read whole or ask").
    return TimeExpression(
        start=start, end=end, text=text[start:end], whole=not found.needs_clarification
    )


_LOCATE_AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
"""Any instant will do: where an expression stands does not depend on when it is read."""
# Glue that belongs to the time rather than to what is left: "at", "on", "by" 9am. The run
# is entered only where it begins, after a word that is no glue, the spaces before it taken
# too (without_time collapses them): entered at each glue word, 10 KB of "at  at …" took
# 1.2 s (docs/SECURITY.md, "Slow input").
_TIME_GLUE = re.compile(
    r"(?<!\s)(?<!\bat)(?<!\bon)(?<!\bby)(?<!\baround)(?<!\babout)(?<!\w@)"
    r"(?:\s*+\b(?:at|on|by|around|about|@))+\s*+$",
    re.IGNORECASE,
)


def without_time(text: str, expression: TimeExpression) -> str:
    """`text` minus `expression` and the glue words that tied it in, spaces collapsed.

    "remind me at half past 3pm to call mom" → "remind me to call mom".
    """
    before = _TIME_GLUE.sub("", text[: expression.start].rstrip())
    rest = f"{before} {text[expression.end :]}"
    return " ".join(rest.split()).replace(" ,", ",").strip(" ,")


def find_time_expressions(text: str, *, language: str | None = None) -> list[TimeExpression]:
    """Where `text` talks about time: each expression's span, in order.

    A cheap first look runs on every message: without a digit or a time word
    (in English or the person's `language`) it stops at one word-set test. The
    grammar's expressions come next; only where the message holds a digit or a
    time word the grammar did not read ("Thurs", "half past", "1h30", "mañana a
    las 9") does the reader behind `parse_anchored_time` run, so the spans are
    the ones a parse reads.
    """
    text = text[:MAX_TEXT]
    languages = reading_languages(language)
    compound = modifiers.compound_split(text) is not None  # "Samstagnachmittag Fußball"
    if not has_time_words(text) and not _time_words(text, languages, english=True):
        if not compound:
            return []
    elif no_number_is_a_time(text) and not compound:
        return []
    found = _grammar_expressions(text)
    unread = list(text)
    for expression in found:
        unread[expression.start : expression.end] = " " * (expression.end - expression.start)
    rest = "".join(unread)
    # Two pieces may be one expression the grammar did not join ("entre las 14:00 y las
    # 16:00", "op 10 december om 8:30"); a digit or a time word it left may widen one.
    if (
        compound
        or len(found) > 1
        or DIGIT.search(rest)
        or _time_words(rest, languages, english=True)
    ):
        found = _with_the_reader(text, found, language)
    return _with_frames(text, found, language)


def _time_words(text: str, languages: tuple[str, ...], *, english: bool) -> bool:
    """Whether `text` holds a time word of `languages` (English's only if `english`)."""
    if text.isascii():  # most chat: nothing to fold but the case
        words = set(WORDS.findall(text.lower())) - _LOOSE_WORDS
    else:
        words = {cues.fold(w) for w in WORDS.findall(text)} - _LOOSE_WORDS
    return any(
        words & (cues.WORDS.get(language, frozenset()) | _WIDENING.get(language, frozenset()))
        for language in languages
        if english or language != "en"
    ) or not words.isdisjoint(_HOLIDAY_WORDS)


def _longest_word(name: str) -> str:
    return max((cues.fold(w) for w in WORDS.findall(name)), key=len)


# A holiday's name is a time ("Ostern", "diwali"): its longest word, in any language, sends
# the message on to the readers (`clockcore.reading.holiday_days`).
_HOLIDAY_WORDS = frozenset(_longest_word(e.partition("=")[2]) for e in words_table("HOLIDAYS"))


# Words that may widen what the grammar read: weekday abbreviations, "-ish", meals, and
# "the end of", per language.
_WIDENING = {
    "en": frozenset(
        {"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "ish"}
        | {"lunch", "dinner", "breakfast", "end"}
    ),
    "es": frozenset({"final", "fin"}),
    "de": frozenset({"ende"}),
    "fr": frozenset({"fin"}),
    "pt": frozenset({"fim", "final"}),
    "it": frozenset({"fine"}),
    "nl": frozenset({"eind", "einde"}),
}
# Words too common to send a message to the reader on their own ("a nice day", "new").
_LOOSE_WORDS = frozenset({"h", "min", "am", "pm", "new", "eve", "day", "days"})

_MOST_EXPRESSIONS = 4
"""How many expressions the reader looks for in one message."""


def _with_the_reader(
    text: str, found: list[TimeExpression], language: str | None
) -> list[TimeExpression]:
    """`found` widened, and added to, by what `locate_time` reads in `text`."""
    remaining = text
    spans = [(e.start, e.end, e.parts, e.whole) for e in found]
    for _ in range(_MOST_EXPRESSIONS):
        read = locate_time(remaining, language=language)
        if read is None:
            break
        if not read.whole and (framed := _frames_blanked(remaining, language)) != remaining:
            # "jeden Tag um 20 Uhr": the repeat's words are the recurrence reader's, not
            # something left beside "um 20 Uhr" (`_with_frames` joins them after).
            again = locate_time(framed, language=language)
            read = again if again is not None and again.whole else read
        start, end, whole = read.start, read.end, read.whole
        parts: tuple[str, ...] = ("reader",)
        for other in [s for s in spans if s[0] < end and start < s[1]]:
            spans.remove(other)
            start, end = min(start, other[0]), max(end, other[1])
            parts, whole = (*other[2], "reader"), whole and other[3]
        spans.append((start, end, parts, whole))
        remaining = remaining[: read.start] + " " * (read.end - read.start) + remaining[read.end :]
    return [
        TimeExpression(start=s, end=e, text=text[s:e], parts=p, whole=w)
        for s, e, p, w in sorted(spans)
    ]


def _frames_blanked(text: str, language: str | None) -> str:
    """`text` with its repeating-time frames ("jeden Tag", "todos los días") blanked."""
    for (start, end), _ in frame_spans(text, language):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _with_frames(
    text: str, found: list[TimeExpression], language: str | None
) -> list[TimeExpression]:
    """`found` widened by the repeating-time frames of `language` that touch an expression.

    "todos los días a las 8 de la noche" is one expression, not 'a las 8 de la
    noche': read without its frame, a repeating time reads as once (docs/time-rules.md).
    A frame that repeats and touches nothing is an expression of its own, as
    "every day" is in English; a bound ("hasta", "10 veces") only widens.
    """
    frames = frame_spans(text, language)
    if not frames:
        return found
    spans = [(e.start, e.end, e.parts, e.whole) for e in found]
    for (start, end), repeats in frames:
        touching = [s for s in spans if _touch(text, (start, end), (s[0], s[1]))]
        if not touching and not repeats:
            continue
        parts: tuple[str, ...] = ("recurrence",)
        whole = True
        for other in touching:
            spans.remove(other)
            start, end = min(start, other[0]), max(end, other[1])
            parts, whole = (*parts, *other[2]), whole and other[3]
        spans.append((start, end, parts, whole))
    return [
        TimeExpression(start=s, end=e, text=text[s:e], parts=p, whole=w)
        for s, e, p, w in sorted(spans)
    ]


def _touch(text: str, one: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether two spans of `text` overlap or stand apart by spaces and commas only."""
    (_, first_end), (second_start, _) = sorted([one, other])
    return second_start < first_end or text[first_end:second_start].strip(" ,") == ""


def _grammar_expressions(text: str) -> list[TimeExpression]:
    """The expressions clockcore's own grammar finds, widened by ranges and recurrences."""
    tokens = scan_text(text)
    spans: list[tuple[int, int, tuple[str, ...]]] = []
    for group in group_tokens(text, tokens):
        if not any(t.kind in TIME_KINDS for t in group):
            continue
        start, kinds = group[0].start, tuple(t.kind for t in group)
        # Only the few words before the expression can widen it: never rescan the message.
        window = max(0, start - _LEAD_WINDOW)
        if lead := _RANGE_START.search(text, window, start):  # "9-10am", "between 2 and 4pm"
            start, kinds = lead.start(), ("range", *kinds)
        if lead := _FRAME_START.search(text, max(0, start - _LEAD_WINDOW), start):  # "every"
            start, kinds = lead.start(), ("recurrence", *kinds)
        spans.append((start, group[-1].end, kinds))
    for match in _REPEAT.finditer(text):  # "every 90 minutes", "daily"
        if all(match.end() <= s or match.start() >= e for s, e, _ in spans):
            spans.append((match.start(), match.end(), ("recurrence",)))
    merged: list[tuple[int, int, tuple[str, ...]]] = []
    for start, end, kinds in sorted(spans):
        if merged and _JOINED.fullmatch(text[merged[-1][1] : start]):
            first, _, earlier = merged.pop()
            start, kinds = first, (*earlier, *kinds)
        merged.append((start, end, kinds))
    return [TimeExpression(start=s, end=e, text=text[s:e], parts=k) for s, e, k in merged]


# What widens a grammar expression in find_time_expressions: a range's start before it,
# a recurrence's frame before it, and recurrences the grammar has no piece of.
_LEAD_WINDOW = 48
"""Characters before an expression searched for its range start or recurrence frame."""
_RANGE_START = re.compile(
    r"(?:\b(?:from|between)\s+)?\b\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?\s*"
    r"(?:[-–—]|\bto\b|\band\b|\buntil\b|\btill\b)\s*$",
    re.IGNORECASE,
)
_LISTED_DAY = (
    r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\.?\s*(?:,|and|&)\s*"
)
# "every Tuesday and Thursday at 7pm": the days listed before the last one belong to the frame.
_FRAME_START = re.compile(
    r"\b(?:every(?:\s+other)?|each|(?:on\s+)?the\s+(?:first|second|third|fourth|last))\s+"
    rf"(?:{_LISTED_DAY})*$",
    re.IGNORECASE,
)
_REPEAT = re.compile(
    r"\b(?:every|each)\s+(?:other\s+)?(?:\d+\s*|[a-z]+\s+)?"
    r"(?:minutes?|hours?|days?|weeks?|months?|years?|weekdays?|night|morning|evening)\b"
    r"|\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|yearly|annually|weekdays)\b",
    re.IGNORECASE,
)
_JOINED = re.compile(r"[\s,]*(?:(?:at|on|from|of|the|in)[\s,]+)*[\s,]*", re.IGNORECASE)


def mentions_time(text: str, *, language: str | None = None) -> bool:
    """True when `text` holds a time expression (a docs/clock-spec.md §5.1 relevance fact).

    As `find_time_expressions`, but a grammar expression settles it: the
    reader runs only for a message the grammar found nothing in.
    """
    text = text[:MAX_TEXT]
    languages = reading_languages(language)
    if not has_time_words(text) and not _time_words(text, languages, english=True):
        return False
    if no_number_is_a_time(text):
        return False  # "order 12345 shipped": no reader need run
    return bool(_grammar_expressions(text)) or locate_time(text, language=language) is not None
