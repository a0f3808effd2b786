"""Durations from now in es, de, fr, pt, it and nl: "dentro de una hora", "vor zwei Tagen".

English durations are the grammar's (`clockcore.parsing.grammar`). In the other six
languages Duckling reads them, and not as DESIGN's rules ask: "dentro de una
hora" comes back as the interval now–11:00, "in einer Woche" as the whole day
a week on, "daqui a 20 minutos" as 20:00. Elapsed time is arithmetic, not
recognition, so clockcore reads these itself, by the same rule as English:
hours, minutes and seconds are exact elapsed time; days, weeks, months and
years are calendar steps that keep the wall-clock time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from clockcore.parsing.cues import fold

__all__ = ["Duration", "find_duration", "from_now"]


@dataclass(frozen=True, slots=True)
class Duration:
    """A duration from now found in a text.

    Attributes:
        start: where it begins in the text, the preposition included.
        end: where it ends (exclusive).
        exact: the elapsed part (hours, minutes, seconds).
        steps: calendar steps: ``days``, ``weeks``, ``months``, ``years``.
        sign: 1 ahead ("in"), -1 back ("ago").
    """

    start: int
    end: int
    exact: timedelta
    steps: dict[str, int]
    sign: int


# Per language: units (accents folded) → what they count; numbers as words;
# fixed phrases that are a whole amount; the words that say "from now" before
# the amount, and "ago" before or after it; the words joining two amounts.
_UNITS = {
    "es": "segundo segundos:seconds minuto minutos min:minutes hora horas h:hours "
    "dia dias:days semana semanas:weeks mes meses:months ano anos:years",
    "de": "sekunde sekunden sek:seconds minute minuten min:minutes stunde stunden std h:hours "
    "tag tage tagen:days woche wochen:weeks monat monate monaten:months "
    "jahr jahre jahren:years",
    "fr": "seconde secondes sec:seconds minute minutes min:minutes heure heures h:hours "
    "jour jours:days semaine semaines:weeks mois:months an ans annee annees:years",
    "pt": "segundo segundos:seconds minuto minutos min:minutes hora horas h:hours "
    "dia dias:days semana semanas:weeks mes meses:months ano anos:years",
    "it": "secondo secondi:seconds minuto minuti min:minutes ora ore h:hours "
    "giorno giorni:days settimana settimane:weeks mese mesi:months anno anni:years",
    "nl": "seconde seconden:seconds minuut minuten min:minutes uur uren u:hours "
    "dag dagen:days week weken:weeks maand maanden:months jaar jaren:years",
}
_NUMBERS = {
    "es": "un:1 una:1 uno:1 dos:2 tres:3 cuatro:4 cinco:5 seis:6 siete:7 ocho:8 nueve:9 "
    "diez:10 quince:15 veinte:20 treinta:30 noventa:90",
    "de": "ein:1 eine:1 einer:1 einem:1 einen:1 zwei:2 drei:3 vier:4 funf:5 sechs:6 "
    "sieben:7 acht:8 neun:9 zehn:10 funfzehn:15 zwanzig:20 dreissig:30 neunzig:90",
    "fr": "un:1 une:1 deux:2 trois:3 quatre:4 cinq:5 six:6 sept:7 huit:8 neuf:9 dix:10 "
    "quinze:15 vingt:20 trente:30",
    "pt": "um:1 uma:1 dois:2 duas:2 tres:3 quatro:4 cinco:5 seis:6 sete:7 oito:8 nove:9 "
    "dez:10 quinze:15 vinte:20 trinta:30 noventa:90",
    "it": "un:1 uno:1 una:1 un':1 due:2 tre:3 quattro:4 cinque:5 sei:6 sette:7 otto:8 "
    "nove:9 dieci:10 quindici:15 venti:20 trenta:30 novanta:90",
    "nl": "een:1 één:1 twee:2 drie:3 vier:4 vijf:5 zes:6 zeven:7 acht:8 negen:9 tien:10 "
    "vijftien:15 twintig:20 dertig:30 negentig:90",
}
_PHRASES = {  # whole amounts, in minutes
    "es": {"media hora": 30, "un cuarto de hora": 15, "una hora y media": 90},
    "de": {
        "einer halben stunde": 30, "einer viertelstunde": 15, "eineinhalb stunden": 90,
        "anderthalb stunden": 90, "einer dreiviertelstunde": 45,
    },
    "fr": {"une demi-heure": 30, "un quart d'heure": 15, "une heure et demie": 90},
    "pt": {"meia hora": 30, "um quarto de hora": 15, "uma hora e meia": 90},
    "it": {
        "mezz'ora": 30, "mezzora": 30, "un quarto d'ora": 15, "un'ora e mezza": 90,
        "un'ora e mezzo": 90,
    },
    "nl": {"een half uur": 30, "een kwartier": 15, "anderhalf uur": 90},
}  # fmt: skip
_AHEAD = {
    "es": r"en|dentro\s+de",
    "de": r"in",
    "fr": r"dans",
    "pt": r"em|daqui\s+a|dentro\s+de",
    "it": r"tra|fra",
    "nl": r"over",
}
_BACK_BEFORE = {"es": r"hace", "de": r"vor", "fr": r"il\s+y\s+a", "pt": r"ha|faz"}
_BACK_AFTER = {"it": r"fa", "nl": r"geleden", "pt": r"atras"}
_AND = {"es": "y", "de": "und", "fr": "et", "pt": "e", "it": "e", "nl": "en"}


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@dataclass(frozen=True, slots=True)
class _Language:
    pattern: re.Pattern[str]
    units: dict[str, str]
    numbers: dict[str, float]
    phrases: dict[str, int]


def _compile(language: str) -> _Language:
    # "hora horas h:hours": the words before a tag count what the tag names.
    units: dict[str, str] = {}
    pending: list[str] = []
    for item in _UNITS[language].split():
        word, colon, unit = item.partition(":")
        pending.append(word)
        if colon:
            units.update(dict.fromkeys(pending, unit))
            pending = []
    numbers = {w: float(n) for w, _, n in (i.partition(":") for i in _NUMBERS[language].split())}
    phrases = _PHRASES[language]
    number = rf"\d+(?:[.,]\d+)?|{_alternatives(list(numbers))}"
    amount = (
        rf"(?:{_alternatives(list(phrases))}|(?:{number})\s*(?:{_alternatives(list(units))})\b)"
    )
    amounts = rf"{amount}(?:\s*(?:,|{_AND[language]})\s*{amount})*"
    parts = [rf"\b(?:{_AHEAD[language]})\s+(?P<ahead>{amounts})"]
    if language in _BACK_BEFORE:
        parts.append(rf"\b(?:{_BACK_BEFORE[language]})\s+(?P<back>{amounts})")
    if language in _BACK_AFTER:
        parts.append(rf"\b(?P<back_after>{amounts})\s+(?:{_BACK_AFTER[language]})\b")
    pattern = re.compile("|".join(parts))
    return _Language(pattern, units, numbers, phrases)


_COMPILED = {language: _compile(language) for language in _UNITS}
_AMOUNT_SPLIT = re.compile(r"(?:(?<!\s)\s++)?(?:,|\by\b|\bund\b|\bet\b|\be\b|\ben\b)\s*+")


def _measure(text: str, spec: _Language) -> tuple[timedelta, dict[str, int]] | None:
    exact = timedelta()
    steps = {"days": 0, "weeks": 0, "months": 0, "years": 0}
    rest = text
    for phrase, minutes in spec.phrases.items():
        if phrase in rest:
            exact += timedelta(minutes=minutes)
            rest = rest.replace(phrase, " ")
    for part in _AMOUNT_SPLIT.split(rest):
        part = part.strip()
        if not part:
            continue
        found = re.fullmatch(r"(\d+(?:[.,]\d+)?|\S+?)\s*(\S+)", part)
        if found is None or found[2] not in spec.units:
            return None
        raw = found[1].replace(",", ".")
        amount = spec.numbers.get(raw) if not raw[0].isdigit() else float(raw)
        if amount is None:
            return None
        unit = spec.units[found[2]]
        if unit in steps:
            if amount != int(amount):
                return None  # "1,5 Tage": not a whole calendar step
            steps[unit] += int(amount)
        else:
            exact += timedelta(**{unit: amount})
    return exact, steps


def find_duration(text: str, language: str) -> Duration | None:
    """The one duration from now `text` names in `language`, or None.

    None too when it names two ("en 2 horas o en 3 horas"): that is for the
    caller's reading, or a question.
    """
    spec = _COMPILED.get(language)
    if spec is None:
        return None
    folded = fold(text)
    if len(folded) != len(text):
        return None  # a character that folds to two: positions would not line up
    matches = list(spec.pattern.finditer(folded))
    if len(matches) != 1:
        return None
    (match,) = matches
    groups = match.groupdict()
    body = groups["ahead"] or groups.get("back") or groups.get("back_after") or ""
    measured = _measure(body, spec)
    if measured is None:
        return None
    exact, steps = measured
    if exact > timedelta(days=366 * 100) or sum(steps.values()) > 100 * 366:
        return None
    sign = 1 if groups["ahead"] else -1
    return Duration(match.start(), match.end(), exact, steps, sign)


def from_now(text: str, language: str | None = None) -> str | None:
    """`text`, a bare span ("10 minutos", "2 Stunden"), as English reads it ("in 10 minutes").

    `language` is tried first, then the others: a snooze's "until" is often a
    span without its "in" ("dame 10 minutos más"), and a short message does not
    always say its language. None when `text` is anything else, or mixes units.
    """
    order = [language] if language in _AHEAD else []
    for code in [*order, *(c for c in _AHEAD if c != language)]:
        said = f"{_AHEAD[code].split('|')[0]} {text.strip()}"
        found = find_duration(said, code)
        if found is None or found.sign != 1 or (found.start, found.end) != (0, len(said)):
            continue
        steps = {unit: n for unit, n in found.steps.items() if n}
        if not steps:
            minutes = found.exact.total_seconds() / 60
            return f"in {minutes:g} minutes" if minutes >= 1 else None
        if found.exact or len(steps) != 1:
            return None
        ((unit, count),) = steps.items()
        return f"in {count} {unit}"
    return None
