"""A weekday or a day word written beside a date: they must agree, or clockbot asks.

"Thu Nov 28" when Nov 28 is a Saturday, "lunes 3 de diciembre" when Dec 3 is a
Thursday: Duckling makes the two agree by moving to a year where they do
(2030, 2029), or keeps the weekday and drops the date. Either is a confident
time the person did not write. clockcore reads the date without the weekday
and compares; when they disagree, the question names both (docs/time-cues.md).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import lru_cache

from clockcore.parsing.cues import fold, word_set
from clockcore.questions import Asking, Question
from clockcore.reading.words import tables

__all__ = [
    "CONFLICT_QUESTION",
    "WEEKDAY_NAMES",
    "conflict_question",
    "month_or_weekday",
    "named_day_offset",
    "named_weekdays",
    "names_a_date",
]

WEEKDAY_NAMES = {  # accents folded; each list Monday first; a name begins its plurals too
    "en": "monday tuesday wednesday thursday friday saturday sunday",
    "es": "lunes martes miercoles jueves viernes sabado domingo",
    "de": "montag dienstag mittwoch donnerstag freitag samstag sonntag",
    "fr": "lundi mardi mercredi jeudi vendredi samedi dimanche",
    "pt": "segunda terca quarta quinta sexta sabado domingo",
    "it": "lunedi martedi mercoledi giovedi venerdi sabato domenica",
    "nl": "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
}
_SHORT = {  # abbreviations, only in English: elsewhere they are words ("mar", "sab")
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
    "sat": 5, "sun": 6,
}  # fmt: skip
_EXTRA = {"sonnabend": 5}
_MONTHS = word_set(
    """
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre
    diciembre januar janner februar marz mai juni juli oktober dezember janvier fevrier mars
    avril juin juillet aout septembre octobre novembre decembre janeiro fevereiro marco maio
    junho julho setembro outubro novembro dezembro gennaio febbraio aprile maggio giugno
    luglio settembre ottobre dicembre januari februari maart mei augustus
    """
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
# "the first Tuesday of October": a weekday counted within a month is not beside a date.
_ORDINAL_BEFORE = re.compile(
    r"(?:\b(?:first|second|third|fourth|fifth|last|primer|primero|primera|segundo|segunda|"
    r"tercer|tercero|tercera|cuarto|cuarta|ultimo|ultima|erste[nmr]?|zweite[nmr]?|dritte[nmr]?|"
    r"vierte[nmr]?|letzte[nmr]?|premier|premiere|deuxieme|troisieme|quatrieme|dernier|"
    r"derniere|primo|secondo|terzo|quarto|eerste|tweede|derde|vierde|laatste)|(?<!\d)\d++(?:st|nd|rd|th|\.))"
    r"\s++$"
)
_NUMBER = re.compile(r"\d+")
# A number that is a time of day, not a day of the month.
_CLOCK = re.compile(
    r"\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\b|h\b|h\d{2}|uhr\b|uur\b|heures?\b|horas?\b|ore\b)"
    r"|\d{1,2}:\d{2}"
    # "alle 3 20": an hour and its minutes after the word for "at", no day of the month
    r"|\b(?:at|um|om|alle|las|la|às|à)\s+\d{1,2}\s+[0-5]\d(?![\d.:/])",
    re.IGNORECASE,
)
_TIME_PREPOSITION = re.compile(
    r"(?:\b(?:at|um|om|alle|las|la|as|à|às|a|around|gegen|vers|rond)\s*)$", re.IGNORECASE
)
_DATE_FORM = re.compile(r"\b\d{1,2}[./]\d{1,2}\b|\b\d{4}-\d{1,2}-\d{1,2}\b")


@lru_cache(maxsize=4096)
def _weekday_of(word: str, languages: tuple[str, ...]) -> int | None:
    folded = fold(word)
    for language in (*languages, "en"):
        for index, name in enumerate(WEEKDAY_NAMES.get(language, "").split()):
            # "Freitagabend", "maandagochtend", "segunda-feira": the name begins the word.
            if folded == name or (len(name) >= 5 and folded.startswith(name)):
                return index
    if folded in _EXTRA:
        return _EXTRA[folded]
    return _SHORT.get(folded.rstrip("."))


def named_weekdays(
    text: str, start: int, end: int, languages: tuple[str, ...]
) -> list[tuple[int, int, int]]:
    """The weekdays named in `text[start:end]`: (start, end, weekday) with Monday 0."""
    found = []
    for word in _WORD.finditer(text, start, end):
        weekday = _weekday_of(word.group(), languages)
        if weekday is None or _ORDINAL_BEFORE.search(
            fold(text[max(0, word.start() - 20) : word.start()])
        ):
            continue
        found.append((word.start(), word.end(), weekday))
    return found


def names_a_date(text: str) -> bool:
    """Whether `text` names a day of the month: a month, a written date, or a day number.

    "Nov 28", "3 de diciembre", "12/3", "the 3rd", "sábado 3" name one; "at
    3pm", "um 7", "a las 10", "9:30" are times of day, not dates.
    """
    if any(fold(w) in _MONTHS for w in _WORD.findall(text)) or _DATE_FORM.search(text):
        return True
    clocks = [m.span() for m in _CLOCK.finditer(text)]
    for number in _NUMBER.finditer(text):
        if any(s <= number.start() < e for s, e in clocks):
            continue
        # The preposition sits just before the number: a short look back, not the whole text
        # before it each time ("at 9 " 800 times took 200 ms).
        if _TIME_PREPOSITION.search(text, max(0, number.start() - 12), number.start()):
            continue
        if 1 <= int(number.group()) <= 31:
            return True
    return False


def _both_abbreviations(language: str) -> frozenset[str]:
    """Three letters that begin a weekday and a month of `language`: "mar" is martes and
    marzo, martedì and marzo, mardi and mars."""

    def starts(names: tuple[str, ...]) -> set[str]:
        return {fold(name)[:3] for name in names}

    try:
        words = tables(language)
    except KeyError:
        return frozenset()
    return frozenset(starts(words.WEEKDAYS) & starts(words.MONTHS))


_BOTH = {language: _both_abbreviations(language) for language in WEEKDAY_NAMES}


def month_or_weekday(text: str, start: int, end: int, language: str) -> str | None:
    """A word in `text[start:end]` that is the abbreviation of both a weekday and a month in
    the person's language ("mar 19": martedì 19 or 19 marzo), as written; or None.

    English abbreviations name one thing each ("Mar" is March, "Tue" Tuesday).
    """
    both = _BOTH.get(language, frozenset())
    for word in _WORD.finditer(text, start, end):
        if fold(word.group()) in both:
            return word.group()
    return None


CONFLICT_QUESTION = Asking(
    "conflict",
    "{written!r}: {day} is a {actual}, not a {named}. "
    "Did you mean {named} {near} or {actual} {day}?",
)
_ENGLISH = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _short(day: date) -> str:
    return f"{day:%b} {day.day}"


def conflict_question(written: str, weekday: int, day: date) -> Question:
    """The question for a weekday and a date that disagree, naming both readings.

    The weekday's candidate is the one nearest the date, in the same week.
    """
    offset = weekday - day.weekday()
    if offset > 3:
        offset -= 7
    elif offset < -3:
        offset += 7
    near_day = day + timedelta(days=offset)
    return CONFLICT_QUESTION.ask(
        date=day,
        near_date=near_day,
        written=written,
        day=_short(day),
        near=_short(near_day),
        named=_ENGLISH[weekday],
        actual=_ENGLISH[day.weekday()],
    )


# Day words and the day they name, in every language, the longest first: "pasado mañana"
# before "mañana". "mañana" after "la"/"de la" is the morning, "Morgen" after "am"/"guten"
# the morning, "'s morgens" the mornings: none of them names a day.
_DAY_WORDS = (
    (re.compile(
        r"\b(?:(?:the\s+)?day\s+after\s+tomorrow|pasado\s+mañana|pasado\s+manana|übermorgen|"
        r"uebermorgen|après-demain|apres-demain|depois\s+de\s+amanhã|depois\s+de\s+amanha|"
        r"dopodomani|dopo\s+domani|overmorgen)\b", re.IGNORECASE), 2),
    (re.compile(
        r"\b(?:tomorrow|tmrw|demain|amanhã|amanha|domani)\b"
        r"|(?<!\bla\s)(?<!\bpor\sla\s)(?<!\ben\sla\s)\bmañana\b(?!\s+de\s+la)"
        r"|(?<!\bam\s)(?<!\bguten\s)(?<!\bjeden\s)(?<!\bden\s)(?<!\bdiesen\s)\bmorgen\b",
        re.IGNORECASE), 1),
    (re.compile(
        r"\b(?:today|tonight|hoy|heute|aujourd'hui|ce\s+soir|hoje|oggi|stasera|vandaag|vanavond)\b",
        re.IGNORECASE), 0),
)  # fmt: skip


def named_day_offset(text: str, start: int, end: int) -> int | None:
    """The day `text[start:end]` names by a day word, in days from today, or None."""
    span = text[start:end]
    for pattern, offset in _DAY_WORDS:
        found = pattern.search(span)
        if found is None:
            continue
        if (
            offset == 1
            and found.group().lower() == "mañana"
            and re.search(r"\b(?:la|de\s+la)\s+$", span[: found.start()], re.IGNORECASE)
        ):
            continue
        return offset
    return None
