"""Whether a message asks about time without naming one: "how long since I last wrote?"

CLOCK turns temporal awareness on for a message that is "time-related"
(docs/clock-spec.md §5.1). A time expression makes it so (`mentions_time`), but
the questions a person asks about time often hold none: "how long has it been
since I last wrote to you?", "which day did I last message you?", "¿cuánto
tiempo ha pasado?". Without awareness the runtime block leaves out the very
lines that answer them (the session's start, the last message), and a 1.5B
model guessed (docs/eval.md).

Read in the seven languages confirmations are said in. A phrase that can only
ask about time ("how long", "wie lange") counts anywhere; a bare "when" only in
a question ("when did we talk?", not "when I get home").
"""

from __future__ import annotations

import re

from clockcore.cues import fold

__all__ = ["asks_about_time"]

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
