"""How es, de, fr, pt, it and nl write a repeating time, said in the frame grammar's words.

`clockcore.recurrence` reads the *frame* of a repeating time ("every Monday",
"every other Tuesday", "the first Monday of every month", "weekdays", "every 3
hours", "until", "10 times") with a small English grammar. People write the
same frames in their own language: "cada lunes", "jeden Montag", "tous les
lundis", "toda segunda-feira", "ogni lunedì", "elke maandag". This module says
each such frame in the grammar's English, so one grammar decides them all; the
time of day inside ("a las 9", "um 9 Uhr") stays as written and is read in the
person's language. A frame word left unread makes the rule a question, as in
English.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from clockcore.parsing.cues import fold
from clockcore.parsing.weekdays import WEEKDAY_NAMES

__all__ = ["frame_spans", "in_english", "without_frames"]

_ENGLISH_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ENGLISH_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip

# Per language, accents folded: weekday stems (Monday first), month names, number words,
# units, and the frame phrases. A stem matches the plural and the "-feira" forms too.
_DAYS = WEEKDAY_NAMES
_MONTHS = {
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
    "diciembre",
    "de": "januar februar marz april mai juni juli august september oktober november dezember",
    "fr": "janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre",
    "pt": "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro "
    "dezembro",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
    "dicembre",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
}
_NUMBERS = {
    "es": "dos:2 tres:3 cuatro:4 cinco:5 seis:6 diez:10 quince:15 veinte:20 treinta:30",
    "de": "zwei:2 drei:3 vier:4 funf:5 sechs:6 zehn:10 funfzehn:15 zwanzig:20 dreissig:30",
    "fr": "deux:2 trois:3 quatre:4 cinq:5 six:6 dix:10 quinze:15 vingt:20 trente:30",
    "pt": "dois:2 duas:2 tres:3 quatro:4 cinco:5 seis:6 dez:10 quinze:15 vinte:20 trinta:30",
    "it": "due:2 tre:3 quattro:4 cinque:5 sei:6 dieci:10 quindici:15 venti:20 trenta:30",
    "nl": "twee:2 drie:3 vier:4 vijf:5 zes:6 tien:10 vijftien:15 twintig:20 dertig:30",
}
_UNITS = {  # word stems → English unit
    "es": "minuto:minutes hora:hours dia:days semana:weeks mes:months ano:years",
    "de": "minute:minutes stunde:hours tag:days woche:weeks monat:months jahr:years",
    "fr": "minute:minutes heure:hours jour:days semaine:weeks mois:months an:years",
    "pt": "minuto:minutes hora:hours dia:days semana:weeks mes:months ano:years",
    "it": "minut:minutes ora:hours ore:hours giorn:days settiman:weeks mes:months ann:years",
    "nl": "minu:minutes uur:hours dag:days we:weeks maand:months jaar:years",
}
_AND = {"es": "y|e", "de": "und", "fr": "et", "pt": "e", "it": "e|ed", "nl": "en"}
_ARTICLES = {
    "es": "los|el",
    "de": "am",
    "fr": "les|le",
    "pt": "as|os|nas|nos|na|no|aos",
    "it": "i|il|le|la",
    "nl": "op",
}
_ORDINALS = {
    "es": "primer:first primero:first segundo:second tercer:third tercero:third "
    "cuarto:fourth ultimo:last",
    "de": "ersten:first erster:first zweiten:second dritten:third vierten:fourth letzten:last",
    "fr": "premier:first deuxieme:second troisieme:third quatrieme:fourth dernier:last",
    "pt": "primeira:first primeiro:first segunda:second terceira:third terceiro:third "
    "quarta:fourth ultima:last ultimo:last",
    "it": "primo:first secondo:second terzo:third quarto:fourth ultimo:last",
    "nl": "eerste:first tweede:second derde:third vierde:fourth laatste:last",
}
# Frame words: each (pattern, English). {day}, {n}, {unit}, {month}, {ord}, {mday} are
# filled with the language's alternatives (each a named group); the English may use them.
_FRAMES: dict[str, list[tuple[str, str]]] = {
    "es": [
        (r"(?:el|cada)\s+{ord}\s+{day}\s+de\s+cada\s+mes", "on the {ord} {day} of every month"),
        (r"(?:el\s+(?:dia\s+)?|cada\s+|todos\s+los\s+)?{mday}\s+de\s+cada\s+mes",
         "on the {mday}th of every month"),
        (r"(?:cada|todos\s+los)\s+{mday}\s+de\s+{month}", "every {month} {mday}"),
        (r"(?:cada|todos\s+los|todas\s+las)\s+{n}\s+semanas\s+(?:el|los)\s+{day}",
         "every {n} weeks on {day}"),
        (r"(?:cada|todos\s+los)\s+dias?\s+(?:laborables?|habiles?)", "weekdays"),
        (r"cada\s+ano\s+el\s+{mday}\s+de\s+{month}", "every {month} {mday}"),
        (r"(?:cada|todos\s+los|todas\s+las)\s+{n}\s+{unit}", "every {n} {unit}"),
        (r"un\s+{day}\s+si\s+y\s+otro\s+no|cada\s+dos\s+{day}|{day}\s+alternos",
         "every other {day}"),
        (r"(?:cada|todos\s+los|los)\s+{day}", "every {day}"),
        (r"de\s+lunes\s+a\s+viernes|entre\s+semana|(?:los\s+)?dias\s+(?:laborables|habiles)",
         "weekdays"),
        (r"(?:todos\s+)?los\s+fines\s+de\s+semana|cada\s+fin\s+de\s+semana", "weekends"),
        (r"todos\s+los\s+dias|cada\s+dia|a\s+diario|diariamente", "daily"),
        (r"todas\s+las\s+semanas|cada\s+semana|semanalmente", "weekly"),
        (r"todos\s+los\s+meses|cada\s+mes|mensualmente", "monthly"),
        (r"todos\s+los\s+anos|cada\s+ano|anualmente", "yearly"),
        (r"cada\s+hora", "hourly"),
        (r"todas\s+las\s+noches|cada\s+noche", "every night"),
        (r"todas\s+las\s+mananas|cada\s+manana", "every morning"),
        (r"todas\s+las\s+tardes|cada\s+tarde", "every evening"),
        (r"hasta\s+el|hasta", "until"),
        (r"durante\s+{n}\s+dias", "for {n} days"),
        (r"{n}\s+veces", "{n} times"),
    ],
    "de": [
        (r"(?:jeden|am)\s+{ord}\s+{day}\s+(?:im|jedes|eines)\s+monats?",
         "on the {ord} {day} of every month"),
        (r"(?:jeden\s+monat\s+am|jeden)\s+{mday}\.\s+(?!{month})(?:(?:jedes|des)\s+monats)?"
         r"|am\s+{mday}\.\s+(?:jedes\s+monats|des\s+monats)",
         "on the {mday}th of every month"),
        (r"(?:jedes\s+jahr\s+am|jeden)\s+{mday}\.\s+{month}(?:\s+jedes\s+jahres)?"
         r"|am\s+{mday}\.\s+{month}\s+jedes\s+jahres",
         "every {month} {mday}"),
        (r"alle\s+{n}\s+wochen\s+(?:jeweils\s+)?am\s+{day}", "every {n} weeks on {day}"),
        (r"jede\s+zweite\s+woche\s+am\s+{day}", "every 2 weeks on {day}"),
        (r"(?:jeden|an)\s+werktage?n?|werktags", "weekdays"),
        (r"alle\s+{n}\s+{unit}", "every {n} {unit}"),
        (r"jede[nrs]?\s+zweiten\s+{day}|alle\s+zwei\s+wochen\s+am\s+{day}", "every other {day}"),
        (r"(?:jeden|immer\s+am|jeweils\s+am)\s+{day}|{day}s", "every {day}"),
        (r"werktags|an\s+wochentagen|montags\s+bis\s+freitags|von\s+montag\s+bis\s+freitag",
         "weekdays"),
        (r"an\s+wochenenden|jedes\s+wochenende", "weekends"),
        (r"jeden\s+tag|taglich", "daily"),
        (r"jede\s+woche|wochentlich", "weekly"),
        (r"jeden\s+monat|monatlich", "monthly"),
        (r"jedes\s+jahr|jahrlich", "yearly"),
        (r"jede\s+stunde|stundlich", "hourly"),
        (r"jeden\s+abend", "every evening"),
        (r"jeden\s+morgen", "every morning"),
        (r"jede\s+nacht", "every night"),
        (r"bis\s+zum|bis", "until"),
        (r"{n}\s+tage\s+lang", "for {n} days"),
        (r"{n}\s*(?:mal|x)", "{n} times"),
    ],
    "fr": [
        (r"(?:le|chaque)\s+{ord}\s+{day}\s+(?:de\s+chaque\s+mois|du\s+mois)",
         "on the {ord} {day} of every month"),
        (r"(?:le|chaque|tous\s+les)\s+{mday}\s+(?:de\s+chaque\s+mois|du\s+mois)",
         "on the {mday}th of every month"),
        (r"(?:chaque\s+annee\s+le|chaque|tous\s+les)\s+{mday}\s+{month}(?:\s+de\s+chaque\s+annee)?"
         r"|le\s+{mday}\s+{month}\s+de\s+chaque\s+annee",
         "every {month} {mday}"),
        (r"(?:toutes\s+les|tous\s+les)\s+{n}\s+semaines\s+(?:le|les)\s+{day}",
         "every {n} weeks on {day}"),
        (r"(?:tous\s+les|les|chaque)\s+jours?\s+(?:ouvrables?|ouvres?)", "weekdays"),
        (r"(?:toutes\s+les|tous\s+les)\s+{n}\s+{unit}", "every {n} {unit}"),
        (r"un\s+{day}\s+sur\s+deux|tous\s+les\s+deux\s+{day}", "every other {day}"),
        (r"(?:chaque|tous\s+les)\s+{day}", "every {day}"),
        (r"en\s+semaine|du\s+lundi\s+au\s+vendredi|les\s+jours\s+ouvres", "weekdays"),
        (r"tous\s+les\s+week-ends|les\s+week-ends|chaque\s+week-end", "weekends"),
        (r"tous\s+les\s+jours|chaque\s+jour|quotidiennement", "daily"),
        (r"toutes\s+les\s+semaines|chaque\s+semaine", "weekly"),
        (r"tous\s+les\s+mois|chaque\s+mois", "monthly"),
        (r"tous\s+les\s+ans|chaque\s+annee", "yearly"),
        (r"toutes\s+les\s+heures|chaque\s+heure", "hourly"),
        (r"tous\s+les\s+soirs|chaque\s+soir", "every evening"),
        (r"tous\s+les\s+matins|chaque\s+matin", "every morning"),
        (r"toutes\s+les\s+nuits|chaque\s+nuit", "every night"),
        (r"jusqu'au|jusqu'a", "until"),
        (r"pendant\s+{n}\s+jours", "for {n} days"),
        (r"{n}\s+fois", "{n} times"),
    ],
    "pt": [
        (r"(?:toda|todo|na|no|a|o)\s+{ord}\s+{day}\s+(?:de\s+cada\s+mes|do\s+mes)",
         "on the {ord} {day} of every month"),
        (r"(?:todo\s+)?dia\s+{mday}\s+(?:de\s+cada\s+mes|de\s+todo\s+mes|do\s+mes)",
         "on the {mday}th of every month"),
        (r"(?:todo\s+ano\s+(?:no\s+)?dia|todo\s+dia)\s+{mday}\s+de\s+{month}"
         r"|(?:no\s+)?dia\s+{mday}\s+de\s+{month}\s+de\s+todo\s+ano",
         "every {month} {mday}"),
        (r"(?:a\s+cada|cada|de)\s+{n}\s+(?:em\s+{n}\s+)?semanas\s+(?:na|no|nas|nos|as|aos)\s+{day}",
         "every {n} weeks on {day}"),
        (r"(?:todos\s+os\s+|nos\s+)?dias\s+uteis|todo\s+dia\s+util", "weekdays"),
        (r"(?:a\s+cada|cada|de)\s+{n}\s+(?:em\s+{n}\s+)?{unit}", "every {n} {unit}"),
        (r"{day}\s+sim,?\s+{day}\s+nao|a\s+cada\s+duas\s+{day}", "every other {day}"),
        (r"(?:toda|todo|todas\s+as|todos\s+os|as|aos|nas)\s+{day}", "every {day}"),
        (r"de\s+segunda\s+a\s+sexta", "weekdays"),
        (r"(?:nos|todo)\s+fins?\s+de\s+semana", "weekends"),
        (r"todos\s+os\s+dias|todo\s+dia|diariamente", "daily"),
        (r"toda\s+semana|todas\s+as\s+semanas|semanalmente", "weekly"),
        (r"todo\s+mes|todos\s+os\s+meses|mensalmente", "monthly"),
        (r"todo\s+ano|todos\s+os\s+anos|anualmente", "yearly"),
        (r"toda\s+hora|de\s+hora\s+em\s+hora", "hourly"),
        (r"toda\s+noite|todas\s+as\s+noites", "every night"),
        (r"toda\s+manha|todas\s+as\s+manhas", "every morning"),
        (r"toda\s+tarde|todas\s+as\s+tardes", "every evening"),
        (r"ate\s+(?:o\s+dia|o|dia)|ate", "until"),
        (r"por\s+{n}\s+dias", "for {n} days"),
        (r"{n}\s+vezes", "{n} times"),
    ],
    "it": [
        (r"(?:il|ogni)\s+{ord}\s+{day}\s+(?:di\s+ogni\s+mese|del\s+mese)",
         "on the {ord} {day} of every month"),
        (r"(?:il|ogni)\s+{mday}\s+(?:di\s+ogni\s+mese|del\s+mese)",
         "on the {mday}th of every month"),
        (r"(?:ogni\s+anno\s+il|ogni)\s+{mday}\s+{month}(?:\s+di\s+ogni\s+anno)?"
         r"|il\s+{mday}\s+{month}\s+di\s+ogni\s+anno",
         "every {month} {mday}"),
        (r"ogni\s+{n}\s+settimane\s+(?:il|la|i|le)\s+{day}", "every {n} weeks on {day}"),
        (r"ogni\s+giorno\s+(?:feriale|lavorativo)|tutti\s+i\s+giorni\s+(?:feriali|lavorativi)"
         r"|(?:nei\s+)?giorni\s+(?:feriali|lavorativi)", "weekdays"),
        (r"ogni\s+{n}\s+{unit}", "every {n} {unit}"),
        (r"un\s+{day}\s+si\s+e\s+uno\s+no|ogni\s+due\s+{day}|{day}\s+alterni",
         "every other {day}"),
        (r"(?:ogni|tutti\s+i|tutte\s+le)\s+{day}", "every {day}"),
        (r"dal\s+lunedi\s+al\s+venerdi", "weekdays"),
        (r"(?:ogni|nei)\s+fine\s+settimana|nei\s+weekend|ogni\s+weekend", "weekends"),
        (r"ogni\s+giorno|tutti\s+i\s+giorni|quotidianamente", "daily"),
        (r"ogni\s+settimana|tutte\s+le\s+settimane|settimanalmente", "weekly"),
        (r"ogni\s+mese|tutti\s+i\s+mesi|mensilmente", "monthly"),
        (r"ogni\s+anno|tutti\s+gli\s+anni|annualmente", "yearly"),
        (r"ogni\s+ora", "hourly"),
        (r"ogni\s+sera|tutte\s+le\s+sere", "every evening"),
        (r"ogni\s+mattina|tutte\s+le\s+mattine", "every morning"),
        (r"ogni\s+notte|tutte\s+le\s+notti", "every night"),
        (r"fino\s+al|fino\s+a", "until"),
        (r"per\s+{n}\s+giorni", "for {n} days"),
        (r"{n}\s+volte", "{n} times"),
    ],
    "nl": [
        (r"(?:elke|iedere|op\s+de)\s+{ord}\s+{day}\s+van\s+(?:de|elke)\s+maand",
         "on the {ord} {day} of every month"),
        (r"(?:elke\s+maand\s+op\s+de|op\s+de|elke)\s+{mday}(?:e|ste|de)?\s+van\s+(?:de|elke)\s+maand",
         "on the {mday}th of every month"),
        (r"(?:elk\s+jaar\s+op|elke)\s+{mday}\s+{month}(?:\s+van\s+elk\s+jaar)?"
         r"|op\s+{mday}\s+{month}\s+van\s+elk\s+jaar",
         "every {month} {mday}"),
        (r"(?:elke|iedere|om\s+de)\s+{n}\s+weken\s+op\s+{day}", "every {n} weeks on {day}"),
        (r"(?:elke|iedere)\s+werkdag|op\s+werkdagen", "weekdays"),
        (r"(?:elke|iedere|om\s+de)\s+{n}\s+{unit}", "every {n} {unit}"),
        (r"om\s+de\s+(?:andere\s+)?week\s+op\s+{day}|elke\s+twee\s+weken\s+op\s+{day}",
         "every other {day}"),
        (r"(?:elke|iedere)\s+{day}|op\s+{day}en", "every {day}"),
        (r"doordeweeks|van\s+maandag\s+tot\s+(?:en\s+met\s+)?vrijdag",
         "weekdays"),
        (r"elk\s+weekend|ieder\s+weekend|in\s+de\s+weekenden", "weekends"),
        (r"elke\s+dag|iedere\s+dag|dagelijks", "daily"),
        (r"elke\s+week|iedere\s+week|wekelijks", "weekly"),
        (r"elke\s+maand|iedere\s+maand|maandelijks", "monthly"),
        (r"elk\s+jaar|ieder\s+jaar|jaarlijks", "yearly"),
        (r"elk\s+uur|ieder\s+uur", "hourly"),
        (r"elke\s+avond|iedere\s+avond", "every evening"),
        (r"elke\s+ochtend|iedere\s+ochtend", "every morning"),
        (r"elke\s+nacht|iedere\s+nacht", "every night"),
        (r"tot\s+en\s+met|tot", "until"),
        (r"{n}\s+dagen\s+lang", "for {n} days"),
        (r"{n}\s+keer", "{n} times"),
    ],
}  # fmt: skip


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _compile(language: str) -> list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]:
    days = _DAYS[language].split()
    day = rf"(?:{_alternatives(days)})[a-z-]*"
    joined, articles = _AND[language], _ARTICLES[language]  # "martes y jueves", "los jueves"
    months = _MONTHS[language].split()
    numbers = dict(p.split(":") for p in _NUMBERS[language].split())
    units = dict(p.split(":") for p in _UNITS[language].split())
    ordinals = dict(p.split(":") for p in _ORDINALS[language].split())
    parts = {
        "day": rf"(?P<day>{day}(?:\s*(?:,|{joined})\s*(?:(?:{articles})\s+)?{day})*)",
        "month": rf"(?P<month>{_alternatives(months)})",
        "n": rf"(?P<n>\d+|{_alternatives(list(numbers))})",
        "unit": rf"(?P<unit>(?:{_alternatives(list(units))})[a-z]*)",
        "ord": rf"(?P<ord>{_alternatives(list(ordinals))})",
        "mday": r"(?P<mday>[12]?\d|3[01])(?:º|ª|er|e)?",
    }

    def english(template: str) -> Callable[[re.Match[str]], str]:
        def fill(found: re.Match[str]) -> str:
            got = {k: v for k, v in found.groupdict().items() if v}
            values: dict[str, str] = {}
            if "{day}" in template:
                # The named group is the pattern's first {day}; another alternative may
                # hold the day unnamed ("a cada duas terças"): find it in the words.
                words = got["day"].split() if "day" in got else found.group().split()
                named = [
                    _ENGLISH_DAYS[i] for w in words for i, d in enumerate(days) if w.startswith(d)
                ]
                if "day" not in got:  # "segunda sim, segunda não": one day, written twice
                    named = named[:1]
                values["day"] = " and ".join(dict.fromkeys(named))
            # The second alternative of a frame holds its parts unnamed: find them in the words.
            if "{month}" in template and "month" not in got:
                got["month"] = next(w for w in found.group().split() if w in months)
            if "{mday}" in template and "mday" not in got:
                got["mday"] = re.findall(r"\d+", found.group())[0]
            if "month" in got:
                values["month"] = _ENGLISH_MONTHS[months.index(got["month"])]
            if "n" in got:
                values["n"] = numbers.get(got["n"], got["n"])
            if "unit" in got:
                values["unit"] = next(u for s, u in units.items() if got["unit"].startswith(s))
            if "ord" in got:
                values["ord"] = ordinals[got["ord"]]
            if "mday" in got:
                values["mday"] = got["mday"]
            return " " + template.format(**values) + " "

        return fill

    compiled = []
    for pattern, template in _FRAMES[language]:
        # The same group may appear twice ("segunda sim, segunda não"): name the first only.
        text = pattern
        for name, alternative in parts.items():
            first, marker, rest = text.partition("{" + name + "}")
            if marker:
                unnamed = re.sub(r"\(\?P<\w+>", "(?:", alternative)
                text = first + alternative + rest.replace("{" + name + "}", unnamed)
        compiled.append((re.compile(rf"\b(?:{text})\b", re.IGNORECASE), english(template)))
    return compiled


_COMPILED = {language: _compile(language) for language in _FRAMES}
_BOUNDS = ("until", "for ", "{n} times")
_REPEATS = {
    language: tuple(not english.startswith(_BOUNDS) for _, english in frames)
    for language, frames in _FRAMES.items()
}
"""Per frame, whether it repeats: "hasta", "durante 3 días", "10 veces" only bound a repeat."""


def in_english(text: str, language: str | None) -> str:
    """`text` with its repeating-time frame said in English ("cada lunes" → "every monday").

    Frames are found with accents folded (people drop them on phones); the
    time of day and every other word stay exactly as written ("às 9h"). English,
    or a language without frames, comes back unchanged.
    """
    return _replaced(text, language, keep=True)


def frame_spans(text: str, language: str | None) -> list[tuple[tuple[int, int], bool]]:
    """Where `text` says a repeating-time frame, in text order, and whether it repeats.

    "todos los días a las 8 de la noche" holds 'todos los días' (repeats);
    "… hasta el viernes" holds 'hasta el' (a bound, not a repeat). Positions are
    `text`'s own, accents and all. English, or a language without frames: none.
    """
    rules = _COMPILED.get(language or "")
    if rules is None:
        return []
    folded, where = _folded(text)
    found: list[tuple[tuple[int, int], bool]] = []
    for (pattern, _), repeats in zip(rules, _REPEATS[language or ""], strict=True):
        for match in pattern.finditer(folded):
            found.append(((where[match.start()], where[match.end()]), repeats))
        # A frame is read once: the next rules do not see its words again.
        folded = pattern.sub(lambda m: " " * len(m.group()), folded)
    return sorted(found)


def _folded(text: str) -> tuple[str, list[int] | range]:
    """`text` folded, and for each folded position (and its end) the position in `text`."""
    folded = fold(text)
    if len(folded) == len(text):  # most text: positions line up, one fold for all of it
        return folded, range(len(text) + 1)
    pieces: list[str] = []
    where: list[int] = []
    for at, character in enumerate(text):
        piece = fold(character)
        pieces.append(piece)
        where.extend([at] * len(piece))
    where.append(len(text))
    return "".join(pieces), where


def without_frames(text: str, language: str | None) -> str:
    """`text` without its repeating-time frame: "cada lunes a las 9 pagar" → "a las 9 pagar"."""
    return _replaced(text, language, keep=False)


def _replaced(text: str, language: str | None, *, keep: bool) -> str:
    rules = _COMPILED.get(language or "")
    if rules is None:
        return text
    folded = fold(text)
    said = text if len(folded) == len(text) else folded  # positions must line up
    for pattern, english in rules:
        start = 0
        while (found := pattern.search(folded, start)) is not None:
            replacement = english(found) if keep else " "
            folded = folded[: found.start()] + replacement + folded[found.end() :]
            said = said[: found.start()] + replacement + said[found.end() :]
            start = found.start() + len(replacement)
    return " ".join(said.split())
