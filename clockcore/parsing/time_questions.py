"""Whether a message asks about time without naming one: "how long since I last wrote?"

CLOCK turns temporal awareness on for a message that is "time-related"
(docs/clock-spec.md §5.1). A time expression makes it so (`mentions_time`), but
the questions a person asks about time often hold none: "how long has it been
since I last wrote to you?", "which day did I last message you?", "¿cuánto
tiempo ha pasado?". Without awareness the runtime block leaves out the very
lines that answer them (the session's start, the last message), and a model
guesses (docs/eval.md, M15).

Read in the seven languages confirmations are said in. A phrase that can only
ask about time ("how long", "wie lange") counts anywhere; a bare "when" only in
a question ("when did we talk?", not "when I get home").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from clockcore.parsing.cues import fold
from clockcore.parsing.timeparse import parse_anchored_time

__all__ = ["CountedTo", "asks_about_time", "counts_to"]

_PHRASES = re.compile(
    r"\b(?:"
    # English
    r"how long|how much time|how many (?:minutes|hours|days|weeks|months|years)|"
    r"what time|what day|which day|what date|since (?:i|we|you) last|"
    r"last (?:time|message|messaged|wrote|spoke|talked)|"
    # Spanish
    r"cuanto tiempo|cuantos (?:minutos|dias|semanas|meses)|que hora|que dia|"
    # German
    r"wie lange|wie viel zeit|wie viele (?:minuten|stunden|tage|wochen)|wie spat|"
    r"welcher tag|welchen tag|"
    # French
    r"combien de (?:temps|minutes|heures|jours|semaines)|quelle heure|quel jour|"
    # Portuguese and Italian
    r"quanto tempo|quantos (?:minutos|dias)|quanti (?:minuti|giorni)|que horas|"
    r"che ora|che giorno|"
    # Dutch
    r"hoe lang|hoeveel (?:tijd|minuten|uur|dagen)|hoe laat|welke dag"
    r")\b",
    re.IGNORECASE,
)
_WHEN = re.compile(r"\b(?:when|cuando|wann|quand|quando|wanneer)\b", re.IGNORECASE)


def asks_about_time(text: str) -> bool:
    """True when `text` asks how long, since when, which day or what time."""
    folded = fold(text[:2_000])  # accents off: "cuánto" as "cuanto"
    return bool(_PHRASES.search(folded)) or ("?" in folded and bool(_WHEN.search(folded)))


# "how many days until Christmas?", "¿cuántos días faltan para Navidad?": a count of time,
# a few words such as "are left", the word that points at what it counts to, then that (to
# the question's end).
_COUNT_TO = re.compile(
    r"\b(?:how many (?:more )?(?:minutes|hours|days|nights|sleeps|weeks|months|years)|"
    r"how much longer|how much time|how long|"
    r"cu[aá]nt[oa]s (?:minutos|horas|d[ií]as|noches|semanas|meses)|"
    r"cu[aá]nto(?: tiempo)?|wie viele (?:minuten|stunden|tage|n[aä]chte|wochen|monate)|"
    r"wie lange|combien de (?:temps|minutes|heures|jours|nuits|semaines|mois)|"
    r"quant[oa]s (?:minutos|horas|dias|noites|semanas|meses)|quanto tempo|"
    r"quant[ie] (?:minuti|ore|giorni|notti|settimane|mesi)|quanto manca|"
    r"hoeveel (?:minuten|uur|uren|dagen|nachten|weken|maanden)|hoe lang)\b"
    r"(?:\s+(?:are|is|left|more|still|to go|do (?:i|we) have|noch|sind es|ist es|es|"
    r"reste-t-il|faltan|falta|faltam|quedan|queda|reste|restent|il reste|mancano|manca|"
    r"nog|zijn het|er))*\s+"
    r"(?:until|till|til|before|to|hasta|para|bis(?: zu[mr]?)?|avant|jusqu['’](?:à|a|au|aux)|"
    r"at[eé]|fino a|mancano (?:a|al|alla)|a|al|alla|tot)\s+"
    r"(?P<target>[^?!.\n]{1,80})",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class CountedTo:
    """What a count question counts to: the words, and the instant they read as whole."""

    words: str
    at: datetime
    zone: str


def counts_to(
    text: str, tz: str, reference: datetime, *, language: str | None = None
) -> CountedTo | None:
    """What "how many days until Christmas?" counts to, read whole in `tz`; None if nothing.

    The thing counted to often holds no expression a message scan finds ("until
    Christmas" is an open interval, not a time to act on), and a model counts wrong in
    its head (docs/eval.md, M15). Only the words after the count's
    "until" are read, whole, as `parse_anchored_time` reads them: a reading that
    asks is no answer.
    """
    found = _COUNT_TO.search(text[:2_000])
    if found is None:
        return None
    words = found["target"].strip(" ,;:")
    read = parse_anchored_time(words, tz, reference, language=language)
    if read.start_instant is None or read.needs_clarification:
        return None
    return CountedTo(words=words, at=read.start_instant, zone=read.zone or tz)
