"""Nothing time-like left over: the safety net under every reading (docs/time-rules.md).

After a reading is taken, `time_like_parts` scans the whole message with the
words of all seven languages (`clockcore.reading.words`), whatever language the
message is in, and with the shapes numbers take when they are dates or clock
times. `left_beside` names the first such part the reading did not cover: the
reading is then a question that names both. The scanner is inclusive on
purpose: a part it flags wrongly costs a question, a part it misses costs a
silent misread.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from clockcore.reading.words import table

__all__ = [
    "AM_PM",
    "Part",
    "approximate_hour",
    "clock_word_after",
    "counted_after",
    "day_not_as_written",
    "folded",
    "hour_not_as_written",
    "left_beside",
    "number_after_noon",
    "open_starts",
    "part_edge",
    "phrases",
    "pm_not_as_written",
    "time_in_a_day",
    "time_like_parts",
    "twelve_beside_part",
    "unclear_approximation",
]


@dataclass(frozen=True, slots=True)
class Part:
    """A time-like part of a message: `core` must be inside a reading for it to count as read.

    `start`..`end` is the whole part ("ab 9:30"); `core` is what a reading must
    hold for the part to be read: the number of "at 9" (the "at" says nothing a
    reading could drop), all of "ab 9:30" (the "ab" makes it an open range).
    """

    start: int
    end: int
    core: tuple[int, int]
    written_form: bool = False  # one written date or clock form ("15e", "9 Uhr")


@lru_cache(maxsize=64)
def folded(text: str) -> str:
    """`text` lower-cased without accents, one character for each character of `text`.

    Cached: the checks of one reading each fold the same message.
    """
    return "".join(_fold_char(c) for c in text)


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    plain = "".join(
        c for c in unicodedata.normalize("NFD", char.lower()) if not unicodedata.combining(c)
    )
    return plain[:1] if plain else " "


def _words(name: str) -> frozenset[str]:
    return frozenset(folded(w) for w in table(name))


_AM_BEFORE = "|".join(sorted(_words("WEEKDAYS") | _words("MONTHS"), key=len, reverse=True))
AM_PM = (
    r"(?:p\.?\s?m\b\.?"
    rf"|a\.?\s?m\b(?!\s+(?:\d|wochenende|{_AM_BEFORE}))\.?"
    r"|(?<=\d)[ap]\b)"
)
"""am or pm after a number, on folded text (one definition for every check that looks for
it): "7pm", "7 p.m.", "7.30 am". German "am" before a day or a date ("um 5 am Freitag",
"am 3.4.") is no "am"; a lone "a" or "p" is one only right after the digits ("7p"): "el
1/12 a las 10" has the Spanish "a"."""


def phrases(*names: str) -> re.Pattern[str]:
    """A pattern of every word or phrase of the tables, longest first, on folded text."""
    found = {folded(w) for name in names for w in table(name)}
    ordered = sorted(found, key=len, reverse=True)
    return re.compile(
        r"(?<![^\W_])(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered) + r")"
        r"(?![^\W\d_])"
    )


_ALWAYS = phrases("WEEKDAYS", "MONTHS", "DAY_WORDS", "PARTS_OF_DAY")
_LOOSE = _words("LOOSE")
_COMPOUND_STEMS = tuple(w for w in _words("WEEKDAYS") if len(w) >= 6 and " " not in w)
_HOUR_WORDS = "|".join(sorted(_words("HOUR_WORDS"), key=len, reverse=True))
_CLOCK_WORDS = "|".join(
    re.escape(w) for w in sorted(_words("CLOCK_WORDS") | {"h", "u"}, key=len, reverse=True)
)
_TOKEN = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_ARTICLES = (
    r"(?:(?:the|le|la|les|las|los|el|de|das|do|da|di|del|dei|het)\s+)?"
    r"(?:(?:environ|about|around|approximately|etwa|ungefahr|circa|ca|cerca\s+de|"
    r"alrededor\s+de|ongeveer|verso)\s+)?"  # "il y a environ 20 heures"
)
_NUMBER = rf"(?:\d{{1,4}}(?:[:.h]\d{{2}})?(?!\d)|(?:{_HOUR_WORDS})(?![^\W\d_]))"


def _after(*names: str, number: str = _NUMBER) -> re.Pattern[str]:
    """A word of the tables `names`, then (an article and) a number or an hour word."""
    words = {folded(w) for name in names for w in table(name)}
    ordered = sorted(words, key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)
    return re.compile(
        rf"(?<![^\W_])(?:{alternatives})(?![^\W\d_])\s*{_ARTICLES}(?P<number>{number})"
    )


# A start or end word changes what the number means: all of it must be read.
_CHANGING = _after("RANGE_WORDS")
# A word that only says a number is a time: the number must be read. An approximation
# keeps the clock time (docs/time-rules.md), so it is one of these.
_MARKING = _after("TIME_PREPOSITIONS")
_APPROXIMATE = _after("APPROXIMATIONS")
_START = _after("START_WORDS")
_DAY_OF_MONTH = _after("DAY_ARTICLES", number=r"\d{1,2}(?!\d|[./:]\d)")
_SHAPES = re.compile(
    r"(?<!\d)(?:"
    r"\d{4}-\d{1,2}-\d{1,2}"  # 2026-12-05
    r"|\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})"  # 3.12.2026, 25/12/26
    r"|\d{1,2}\.\d{1,2}\.(?!\d)"  # 3.2.
    r"|\d{1,2}/\d{1,2}"  # 25/12
    r"|\d{1,2}-\d{1,2}"  # 25-12
    r"|\d{1,2}(?=\s+[-–]\s+\d{1,2}\s*[^\W\d_])"  # the 5 of "5 - 11 oct."
    r"|\d{1,2}:\d{2}"  # 9:30
    rf"|\d{{1,2}}(?:[.:]\d{{2}})?\s*{AM_PM}"  # 7pm, 7.30 p.m., 7p
    rf"|\d{{1,2}}(?:[.:h]\d{{2}})?\s*(?:{_CLOCK_WORDS})(?:\d{{2}})?(?![^\W\d_])"  # 9h, 9 Uhr, 9u30
    r"|\d{1,2}\s*-?\s*ish"  # 5ish
    r"|0\d[0-5]\d"  # 0930
    r"|\d{1,2}(?:st|nd|rd|th|º|ª|er|eme|ème|e|de|te|ste)(?![^\W\d_])"  # 15th, 1er, 3e
    r")(?!\d)",
    re.IGNORECASE,
)
# An amount of time counted from now: "in one hour", "dans 2 heures", "over 3 dagen".
_AMOUNT_AHEAD = re.compile(
    r"(?<![^\W_])(?:in|within|after|dans|en|in|tra|fra|over|binnen|na|dentro\s+de|daqui\s+a|em|"
    rf"entro|nach)\s+(?:\d+(?:[.,]\d+)?|an?|{_HOUR_WORDS}|ein(?:e[mnr]?)?|une?|uma?|una?|een)\s*"
    r"(?:sec|seg|min|minut|hour|hr|h\b|stund|std|heure|hora|ora\b|ore\b|uur|uren|u\b|"
    r"day|dag|tag|dia|jour|giorn|week|woche|semaine|semana|settiman|weken|"
    r"month|monat|mois|mes|maand|year|jahr|ans?\b|annee|ano|anni|anno|jaar)[^\W\d_]*"
)
# A meal after a start, end or time word: "after lunch", "nach dem Mittagessen", "depois do
# almoço". No table holds its hour, so a reading beside it is a question (docs/time-rules.md).
_MEAL = re.compile(
    r"(?<![^\W_])(?:"
    + "|".join(
        re.escape(w).replace(r"\ ", r"\s+")
        for w in sorted(
            _words("RANGE_WORDS") | _words("START_WORDS") | {"at"},  # "a comer" is no time
            key=len,
            reverse=True,
        )
    )
    + r")\s*(?:(?:the|le|la|l'|les|el|los|las|de|dem|der|den|das|do|da|du|des|del|della|il|lo|"
    r"o|a|het)\s*)?(?:"
    + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(_words("MEALS"), key=len,
                                                                     reverse=True))
    + r")(?![^\W\d_])"
)  # fmt: skip
_HOUR_WORD_CLOCK = re.compile(rf"(?<![^\W_])(?:{_HOUR_WORDS})\s+(?:{_CLOCK_WORDS})(?![^\W_])")
_ISH = re.compile(r"(?<![^\W_])ish(?![^\W_])")
_HHMM_AFTER_DATE = re.compile(
    r"(?P<date>(?<![^\W\d_])[^\W\d_]{3,}\.?|\d{1,2}[./]\d{1,2}\.?)\s+(?P<hhmm>\d{4})\b"
)
_MONTHS = _words("MONTHS") | _LOOSE


def time_like_parts(text: str) -> list[Part]:
    """Every time-like part of `text`, in all seven languages, in order of where it starts."""
    low = folded(text)
    parts: list[Part] = []
    for found in _ALWAYS.finditer(low):
        parts.append(Part(found.start(), found.end(), found.span()))
    for found in _TOKEN.finditer(low):
        word = found.group()
        compound = word.startswith(_COMPOUND_STEMS) and word not in _LOOSE  # "Freitagabend"
        if compound:
            parts.append(Part(found.start(), found.end(), found.span()))
        elif word in _LOOSE and (beside := _number_beside(low, found.start(), found.end())):
            # "May 5", "5 mai": the word and its number are one part, read together or not
            parts.append(Part(*beside, core=beside))
    for found in _SHAPES.finditer(low):
        parts.append(Part(found.start(), found.end(), found.span(), written_form=True))
    for found in _HOUR_WORD_CLOCK.finditer(low):
        parts.append(Part(found.start(), found.end(), found.span()))
    for found in _MEAL.finditer(low):
        parts.append(Part(found.start(), found.end(), found.span()))
    for found in _AMOUNT_AHEAD.finditer(low):
        parts.append(Part(found.start(), found.end(), found.span()))
    for found in _ISH.finditer(low):
        parts.append(Part(found.start(), found.end(), found.span()))
    for found in _CHANGING.finditer(low):
        parts.append(Part(found.start(), found.end(), found.span()))
    for pattern in (_MARKING, _APPROXIMATE, _DAY_OF_MONTH):
        for found in pattern.finditer(low):
            parts.append(Part(found.start(), found.end(), found.span("number")))
    for found in _HHMM_AFTER_DATE.finditer(low):  # "7 Jan 1045": a clock time, or a year?
        date = found.group("date").rstrip(".")
        if (date in _MONTHS or date[:1].isdigit()) and _is_hhmm(found.group("hhmm")):
            parts.append(Part(found.start("hhmm"), found.end(), found.span("hhmm")))
    return sorted(set(parts), key=lambda p: (p.start, p.end))


def _is_hhmm(digits: str) -> bool:
    return int(digits[:2]) < 24 and int(digits[2:]) < 60


def _number_beside(low: str, start: int, end: int) -> tuple[int, int] | None:
    """`low[start:end]` with the number right after or before it ("May 5", "5 mai"), or None."""
    if after := re.match(r"\.?\s{0,2}\d+", low[end : end + 8]):
        return start, end + after.end()
    if before := re.search(
        r"\d+(?:st|nd|rd|th|er|e|º)?\.?\s{0,2}$", low[max(0, start - 8) : start]
    ):
        return start - (len(before.group())), end
    return None


_HOUR_24 = re.compile(
    r"(?<![\d:.])(?P<hour>\d{1,2})(?:h(?:\d{2})?(?![^\W\d_])|\s*(?:uhr|uur|heures?|horas?|ore)(?![^\W\d_]))"
)


def hour_not_as_written(text: str, span: tuple[int, int], hour: int) -> str | None:
    """A 24-hour clock form in `text[span]` ("9h30", "9 Uhr") whose hour is not `hour`.

    "jeudi à 9h30" read as 21:30 is not what was written; a part of the day in
    the reading ("9h du soir") may move the hour, and then nothing is returned.
    """
    start, end = span
    low = folded(text)
    parts = [m.group() for m in _PART_OF_DAY.finditer(low, start, end)]
    if any(not _NOON_OR_MIDNIGHT.fullmatch(p) for p in parts):
        return None  # noon and midnight move no hour: "a mediodía 6 uur" is not 12:06
    if _NIGHT_WORDS.search(low, start, end):
        return None
    if _COMPOUND_PART.search(low, start, end):  # "vrijdagavond om 7 uur"
        return None
    for match in _HOUR_24.finditer(low, start, end):
        written = int(match.group("hour"))
        if _DURATION_BEFORE.search(low, max(0, match.start() - 14), match.start()):
            continue  # "dans 2 heures", "in 1h30": a duration, not a clock time
        if _MINUS_AFTER.match(low, match.end()):
            continue  # "18h moins le quart", "19h moins dix"
        if written <= 24 and written % 24 != hour:
            return text[match.start() : match.end()]
    return None


_PM = re.compile(
    rf"(?:\d|(?<![^\W_])(?:{_HOUR_WORDS}|fifteen|thirty|forty|fifty|twenty|o'?clock))"
    r"[\s-]?p\.?\s?m\b\.?"
)


def pm_not_as_written(text: str, span: tuple[int, int], hour: int) -> str | None:
    """ "seven thirty pm" in `text[span]` read as a morning `hour`, as written; or None.

    Duckling reads "at seven thirty pm" as 07:30: pm written, the morning read.
    """
    start, end = span
    if hour >= 12:
        return None
    low = folded(text)
    for match in _PM.finditer(low, start, end):
        before = re.search(r"[^\W_]+(?:[\s-]+[^\W_]+){0,2}[\s-]?$", low[start : match.start()])
        begin = start + before.start() if before else match.start()
        return " ".join(text[begin : match.end()].split())
    return None


# A part of the day closing a longer word ("vrijdagavond"): one letter before it is enough
# to tell, and looking for the whole word from each of its letters took 3.5 s on 10 KB of
# letters (docs/SECURITY.md, "Slow input").
_COMPOUND_PART = re.compile(r"[^\W\d_](?:abend|avond|morgen|middag|nacht|ochtend|mittag)\b")
_DURATION_BEFORE = re.compile(
    r"(?:\b(?:in|en|dans|em|tra|fra|over|binnen|daqui a|dentro de|entro|within|hace|ha|faz|vor|"
    r"il y a)\s+)(?:\S+\s+)?$"
)
_MINUS_AFTER = re.compile(r"\s*(?:moins|menos|meno|vor|voor|to|before)\b")


def open_starts(text: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Each start word of an open range before a number ("ab 18 Uhr", "à partir de 18h").

    Returns the span of the words before the number, and the number's span.
    """
    return [
        ((match.start(), match.start("number")), match.span("number"))
        for match in _START.finditer(folded(text))
    ]


def left_beside(text: str, span: tuple[int, int]) -> str | None:
    """The first time-like part of `text` whose core lies outside `span`, as written; or None.

    `text` should be masked first (greetings, addresses, versions, zones:
    `clockcore.parsing.cues.masked`), so what only looks like a time is not asked about.
    """
    start, end = span
    for part in time_like_parts(text):
        core_start, core_end = part.core
        if start <= core_start and core_end <= end:
            continue
        overlap = core_start < end and start < core_end
        uncovered = text[core_start : max(core_start, start)] + text[min(core_end, end) : core_end]
        others = text[start:core_start] + text[core_end:end]  # the rest of the reading
        if (
            overlap
            and part.written_form
            and not re.search(r"\d", uncovered + others)
            and not _HALF_OF_DAY.fullmatch(uncovered)  # "5p" read as "5" lost its pm
            and not _CLOCK_SUFFIX.fullmatch(uncovered)  # "vor 16u" read as "vor 16": 16:00?
        ):
            continue  # "de 15e" read as "de 15": one written form cut short, its only number
        return text[part.start : part.end]
    return None


_PART_OF_DAY = phrases("PARTS_OF_DAY")
_HALF_OF_DAY = re.compile(r"\s*[ap]\.?\s?m?\.?", re.IGNORECASE)
_CLOCK_SUFFIX = re.compile(r"\s*(?:h|u|uhr|uur)\.?", re.IGNORECASE)
_NIGHT_WORDS = re.compile(
    r"(?<![^\W_])(?:tonight|vanavond|vannacht|vanmiddag|vanochtend|vanmorgen|stasera|"
    r"stamattina|stamani|stanotte|anoche)(?![^\W\d_])"
)
_SETTLED_AFTER = re.compile(rf"\s*{AM_PM}")
# A unit or a count after the number: "about 5 minutes", "around 20 people" is no hour.
_COUNTED = re.compile(
    r"\s*(?:sec|seg|min|minut|hour|hr|stund|std|uren|hora|day|dag|tag|dia|jour|giorn|week|"
    r"woche|semaine|semana|settiman|month|monat|mois|mes|maand|year|jahr|an\b|ans\b|ano|anni|"
    r"anno|jaar|people|person|leute|mensch|persona|pessoa|mensen|personne|x\b|%|euro|eur\b|\$)"
)
_ISH_HOUR = re.compile(r"(?<![\d:.])(?P<number>\d{1,2})(?::\d{2})?\s*-?\s*ish(?![^\W_])")


def unclear_approximation(text: str) -> str | None:
    """ "around 6", "so gegen 6", "6ish": an approximate hour that may be morning or evening.

    Returns the part as written, or None when each approximate hour is settled by
    am/pm, a 24-hour clock (13 or later, or 0) or a part of the day in the message.
    """
    low = folded(text)
    if _PART_OF_DAY.search(low) or _NIGHT_WORDS.search(low):
        return None
    found = [*_APPROXIMATE.finditer(low), *_ISH_HOUR.finditer(low)]
    for approximate in found:
        number = approximate.group("number")
        hour = re.match(r"\d+", number)
        if hour is not None and (not 1 <= int(hour.group()) <= 12 or number.startswith("0")):
            continue  # "gegen 17 Uhr", "rond 06:00": a 24-hour clock
        if _SETTLED_AFTER.match(low, approximate.end()) or _COUNTED.match(low, approximate.end()):
            continue  # "around 4pm": written with its half of the day; "about 5 minutes"
        # "gegen 5 Uhr", "rond 5 uur", "vers 5h": people say them of 17:00 as of 05:00
        clock = _CLOCK_AFTER.match(low, approximate.end())
        return text[approximate.start() : clock.end() if clock else approximate.end()]
    return None


_CLOCK_AFTER = re.compile(rf"\s*(?:{_CLOCK_WORDS})(?![^\W\d_])")
_TIME_ARTICLE = re.compile(r"(?:las|las?|das|as|le|les|alle|the)\s+\S+$")


def approximate_hour(text: str) -> str | None:
    """An approximate hour no reader read ("5ish", "a eso de las 5", "por volta das 5").

    Returned as written, for a question, when it may be morning or evening and it
    stands as a time: "-ish", an article of the hour ("las", "das", "le"), or the
    number last in the message. "about 5 of us" is no time.
    """
    part = unclear_approximation(text)
    if part is None:
        return None
    low = folded(part)
    at = folded(text).find(low)
    after = text[at + len(part) :].lstrip()
    if "ish" in low or _TIME_ARTICLE.search(low) or not after or not after[0].isalnum():
        return part
    return None


_BARE_END = re.compile(r"(?<![\d:.])\d{1,2}\s*$")


_COUNT_NOUNS = re.compile(
    r"\s*(?:people|persons?|leute|personen|menschen|personas|pessoas|persone|mensen|personnes|"
    r"gente|guests|gaste|invitados|convidados|invites|ospiti|gasten|x\b|%|euros?\b|eur\b|\$)"
)


def counted_after(text: str, span: tuple[int, int]) -> bool:
    """ "around 5 people", "etwa 5 Leute": a reading ending in a bare number that counts.

    The number is an amount, not an hour (docs/time-rules.md): the reading is no time.
    """
    start, end = span
    low = folded(text)
    return bool(_BARE_END.search(low, start, end)) and bool(_COUNT_NOUNS.match(low, end))


# A fraction before a measure: "3/4 cup", "1/2 tsp", "3/4 de tasse", "1/2 Tasse", "3/4 of
# the budget". Folded text; the measure words of the seven languages.
_FRACTION = re.compile(r"(?<![\d/.])(?P<top>\d)/(?P<bottom>\d{1,2})(?![\d/.])")
_MEASURE_AFTER = re.compile(
    r"\s*(?:(?:de|di|do|da|van)\s+)?(?:"
    r"cups?|tsp|tbsp|teaspoons?|tablespoons?|oz|ounces?|lbs?|pounds?|inch(?:es)?|"
    r"pints?|gallons?|quarts?|sticks?|pinch|slices?|loaf|"
    r"tasses?|tassen|taza|tazas|tazza|tazze|xicaras?|kopjes?|kop|"
    r"cuillere|cuilleres|cucchia\w*|cuchar\w*|colher\w*|"
    r"essloffel|teeloffel|eetlepels?|theelepels?|"
    r"liters?|litres?|kg|g|ml|cl|l|"
    r"of\s+(?:a|an|the|my|our|it|them|this|that))(?![^\W\d_])"
)


def fraction_at(text: str, span: tuple[int, int]) -> bool:
    """ "3/4 cup", "1/2 Tasse": the reading is a fraction of a measure, not a date.

    Only a written fraction whose top is less than its bottom and that a measure
    follows (docs/time-rules.md): "3/4 at 5pm" stays a date.
    """
    start, end = span
    low = folded(text)
    for found in _FRACTION.finditer(low, start, end):
        if int(found["top"]) < int(found["bottom"]) and _MEASURE_AFTER.match(low, found.end()):
            return True
    return False


# Meals that say the half of the day: an evening meal is no morning hour, breakfast no
# evening one ("dinner at 7" is not 07:00). Folded; lunch says neither for sure.
_EVENING_MEAL = re.compile(
    r"(?<![^\W_])(?:dinner|dinnertime|supper|cena|cenar|cenare|abendessen|abendbrot|diner|"
    r"souper|jantar|avondeten|avondmaal)(?![^\W\d_])"
)
_MORNING_MEAL = re.compile(
    r"(?<![^\W_])(?:breakfast|desayuno|desayunar|fruhstuck|petit[-\s]dejeuner|"
    r"pequeno[-\s]almoco|colazione|ontbijt)(?![^\W\d_])"
)
_HALF_WRITTEN = re.compile(rf"\d\s*{AM_PM}|\d{{1,2}}[:.h]\d\d|\b(?:0\d|1[3-9]|2[0-4])\b")


def meal_against_hour(text: str, span: tuple[int, int], hour: int) -> str | None:
    """ "dinner at 7" read as 07:00: the meal the reading's half of the day disagrees with.

    Only when the reading's own words do not settle the half (no am/pm, no 24-hour
    form, no part of the day): the hour was the reader's guess (docs/time-rules.md).
    """
    start, end = span
    low = folded(text)
    read = low[start:end]
    if _HALF_WRITTEN.search(read) or _PART_OF_DAY.search(low) or _NIGHT_WORDS.search(low):
        return None
    if hour < 12 and (meal := _EVENING_MEAL.search(low)) is not None:
        return text[meal.start() : meal.end()]
    if hour >= 14 and (meal := _MORNING_MEAL.search(low)) is not None:
        return text[meal.start() : meal.end()]
    return None


_CLOCK_WORD_AFTER = re.compile(r"\s*(?:uhr|uur|heures?|horas?|ore|h)(?![^\W\d_])")


def clock_word_after(text: str, end: int) -> int:
    """Where a clock word right after a reading ends ("mediodía 6| uur"), or `end`.

    The number before it was written as an hour: the hour check must see it whole.
    """
    found = _CLOCK_WORD_AFTER.match(folded(text), end)
    return end if found is None else found.end()


_TWELVE = re.compile(r"(?<![\d:.])12(?![\d]|\s*[ap]\.?\s?m\b|[:.h]\d)")
_NOON_OR_MIDNIGHT = re.compile(
    r"(?<![^\W_])(?:noon|midday|midnight|mittag|mitternacht|midi|minuit|mediodia|medianoche|"
    r"meio-dia|meia-noite|mezzogiorno|mezzanotte|middernacht|middags?)(?![^\W\d_])"
)


_NUMBER_AFTER_NOON = re.compile(
    _NOON_OR_MIDNIGHT.pattern + r"\s+\d{1,2}(?![\d:.h])(?!\s*(?:[ap]\.?\s?m|uhr|uur|h)\b)"
)


def number_after_noon(text: str, span: tuple[int, int]) -> str | None:
    """ "a mezzogiorno 1": noon and a bare number in the reading, which Duckling reads as
    12:01; the words say no minute (found by the mutation property, docs/time-rules.md)."""
    found = _NUMBER_AFTER_NOON.search(folded(text), *span)
    return None if found is None else " ".join(text[found.start() : found.end()].split())


def twelve_beside_part(text: str, span: tuple[int, int]) -> bool:
    """ "this morning at 12", "ce soir à 12h": a part of the day with a bare 12 in the reading.

    Readers take noon (or midnight) for it; the words say neither (docs/time-rules.md).
    """
    start, end = span
    low = folded(text)
    has_part = _PART_OF_DAY.search(low, start, end) or _NIGHT_WORDS.search(low, start, end)
    if not has_part or _NOON_OR_MIDNIGHT.search(low, start, end):
        return False
    return _TWELVE.search(low, start, end) is not None


_CLOCK_IN_DAY = re.compile(
    r"(?<!\d)\d{1,2}(?::\d{2}|h\d{2}|\s*[ap]\.?\s?m\b|\s*(?:uhr|uur|heures?|horas?|ore)\b|h\b)"
)


def time_in_a_day(text: str, span: tuple[int, int]) -> str | None:
    """A clock time or an amount from now inside a reading of whole days, as written.

    "today in one hour" read as all of today has dropped the hour: what the
    reading holds it must have read (docs/time-rules.md).
    """
    start, end = span
    low = folded(text)
    for amount in _AMOUNT_AHEAD.finditer(low, start, end):
        if _WITHIN_A_DAY.search(amount.group()):  # "in 2 weeks" is a day; "in 2 hours" is not
            return text[amount.start() : amount.end()]
    found = _CLOCK_IN_DAY.search(low, start, end)
    return None if found is None else " ".join(text[found.start() : found.end()].split())


_WITHIN_A_DAY = re.compile(
    r"\d\s*(?:h|u)\b|\s(?:sec|seg|min|minut|hour|hr|stund|std|heure|hora|ora|ore|uur|uren|u)[^\W\d_]*$"
)


_MONTH_NAMES = "|".join(
    re.escape(w) for w in sorted(_words("MONTHS") | {"sept", "sep", "oct", "nov", "dec", "jan",
                                                     "feb", "mar", "apr", "aug"}, key=len,
                                 reverse=True)
)  # fmt: skip
_DAY_BEFORE_MONTH = re.compile(
    rf"(?<![\d:.,])(?P<day>\d{{1,2}})(?:st|nd|rd|th|er|º|ª|\.)?\s+(?:(?:de|of|di|van)\s+)?"
    rf"(?:{_MONTH_NAMES})(?![^\W\d_])"
)
_DAY_AFTER_MONTH = re.compile(
    rf"(?<![^\W_])(?:{_MONTH_NAMES})\.?\s+(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?![\d:.h])"
)


def day_not_as_written(text: str, span: tuple[int, int], day: int) -> str | None:
    """A day of the month written beside a month name in the reading ("21 de abril") that the
    reading does not hold, as written; or None.

    Duckling reads "a 21 de abril de 1890" as 1 April at 21:00: the day became an hour.
    """
    start, end = span
    low = folded(text)
    for pattern in (_DAY_BEFORE_MONTH, _DAY_AFTER_MONTH):
        for found in pattern.finditer(low, start, end):
            if int(found.group("day")) != day:
                return text[found.start() : found.end()]
    return None


_PART_EDGE = re.compile(
    r"(?<![^\W_])(?:fin|debut|end|beginning|start|late|early|ende|anfang|final|inicio|principio|"
    r"fine|inizio|eind|begin|laat|vroeg|spat|tarda)"
    r"\s+(?:(?:de\s+la|de\s+l'|de|d'|of\s+the|of|in\s+the|des|del|della|dell'|da|do|van\s+de|"
    r"der|des|am)\s*)?"
    rf"(?:{'|'.join(sorted(_words('PARTS_OF_DAY'), key=len, reverse=True))})"
)


def part_edge(text: str, span: tuple[int, int]) -> str | None:
    """ "en fin d'après-midi", "late evening", "Ende des Nachmittags" in a reading, as written.

    A part of the day reads as one documented hour; its end or start is
    another hour no table holds, so a reading of it is asked about.
    """
    start, end = span
    found = _PART_EDGE.search(folded(text), start, end)
    return None if found is None else " ".join(text[found.start() : found.end()].split())
