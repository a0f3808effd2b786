"""The word for "at" before an hour, in each language: "um 9", "a las 9", "à 9".

"at 9" is the English grammar's bare hour (`clockcore.parsing.grammar`); the same hour
after "um", "a las", "alle", "às", "om", "à" (each words file's `TIME_PREPOSITIONS`) is
read the same way, in the person's language (docs/time-rules.md, "A bare hour").
"""

from __future__ import annotations

import re
from functools import lru_cache

from clockcore.parsing.cues import cue
from clockcore.reading import words

__all__ = ["hours_after_at"]


# "<at-word> <hour>" in the person's language: "um 9", "a las 9", "alle 9", "às 9", "om 9",
# "à 9" are the grammar's "at 9" (docs/time-rules.md, "A bare hour"). Not after a number
# ("de 9 à 12", a range), nor before a clock word (Duckling reads "um 9 Uhr", "à 9h"), a
# unit, a measure or a repeat ("um 5 Minuten" moves something by five minutes, "alle 9
# Tage" is every nine days, "à 3 km").
_AT_HOUR_AFTER = (
    r"(?P<hat>2[0-3]|[01]?\d)(?![\d:.,/%€$£'’]|[^\W\d_]"
    r"|\s*(?:h(?![^\W\d_])|[ap]\.?\s?m\b|uhr|uur|heures?|horas?|ore|ora\b|o'?clock"
    r"|s(?:e[kcg]|tund|td)|min|hour|hr|dag|tag|d[ií]a|jour|giorn|week|woche|seman|settiman"
    r"|month|monat|mois|mes\b|meses|maand|year|jahr|ans\b|an+[eé]e|a[nñ]os?\b|anni|anno|jaar"
    r"|mal\b|vez|veces|fois|volt[ae]|keer|x\b|km|kg|cm|mm|m\b|g\b|l\b|euro|eur\b|prozent"
    r"|percent|por\s*cien|pour\s*cent|per\s*cento|procent|leute|person|personn|pessoa|mensen"
    r"|gente)"
    # "um 20 nach 3", "alle 10 meno 5": minutes counted from or to the hour after them
    r"|\s+(?:nach|vor|voor|over|past|to|till|menos|para|meno|moins|passate|y|e|et)\s+\d)"
)


@lru_cache(maxsize=16)
def _at_hour(language: str) -> re.Pattern[str] | None:
    """The grammar's "at 9" in `language`'s own words for "at" (its words file), or None."""
    try:
        said = words.tables(language).TIME_PREPOSITIONS
    except KeyError:
        return None
    own = sorted((w for w in said if w not in ("at", "@")), key=len, reverse=True)
    if not own:
        return None
    before = "|".join(
        re.escape(w).replace(r"\ ", r"\s+") + ("" if w.endswith(("'", "’")) else r"(?=\s)")
        for w in own
    )
    return re.compile(
        rf"(?<![\d.,:/])(?<!\d\s)(?<![^\W_])(?:{before})\s*{_AT_HOUR_AFTER}",
        re.IGNORECASE,
    )


_NUMBER_BEFORE = re.compile(
    r"\d(?:[:.h]\d{2})?\s*(?:h|uhr|uur|heures?|horas?|ore)?\s*$", re.IGNORECASE
)


def hours_after_at(text: str, languages: tuple[str, ...]) -> list[tuple[int, int, str]]:
    """Each "<at-word> <hour>" of `languages` in `text`: its start, its end and the hour
    as written; the grammar reads each as "at 9" (`clockcore.parsing.grammar`)."""
    found: list[tuple[int, int, str]] = []
    for language in dict.fromkeys(languages):
        pattern = _at_hour(language)
        if pattern is None:
            continue
        for match in pattern.finditer(text):
            if _NUMBER_BEFORE.search(text, max(0, match.start() - 12), match.start()):
                continue  # "de 9h à 12", "von 8.30 um 9": a range's end or a second number
            # "a las 3 personas", "alle 9 canzoni": a count (the cue rule, docs/time-cues.md)
            if cue(text, match.start(), match.end(), languages) == "strong":
                found.append((match.start(), match.end(), match["hat"]))
    return found
