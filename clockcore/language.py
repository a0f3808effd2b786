"""Which of the seven languages a message is written in, when its platform does not say.

Telegram and Slack report the person's language; the console, and mail without
a Content-Language header, do not. Times are then read in English only, and
"recuérdame el lunes a las 8" is not read at all. `guess_language` looks at the
words a message is made of: each language's function words and time words,
counted; one language clearly ahead of the others, English included, is the
guess. Anything less clear is None, and English stays the reader. A wrong guess
costs little: English is always read too, and every reading still needs its
cues (docs/time-cues.md).
"""

from __future__ import annotations

import re

from clockcore.parsing.cues import fold, word_set

__all__ = ["guess_language"]

# Words frequent in one language and rare in the others, accents folded. Words shared by
# several ("de", "la", "a", "e", "me", "un", "en", "die", "que") are left out on purpose:
# "que" made "o que vem por aí?" Spanish.
_MARKERS = {
    "en": word_set(
        """
        the and is are you me my to at on remind please tomorrow today tonight what when
        can could would with this that for from next every
        """
    ),
    "es": word_set(
        """
        el los las del al por para con una mañana hoy ayer recuerdame recordame avisame
        puedes hora horas semana lunes martes miercoles jueves viernes sabado domingo cada
        dentro hace pasado mi mis yo tengo tienes ahora despues recordatorio recordatorios
        llamar
        """
    ),
    "de": word_set(
        """
        der das und ist nicht ich mich mir du ein eine um uhr heute morgen gestern bitte
        erinnere erinner kannst jeden montag dienstag mittwoch donnerstag freitag samstag
        sonntag stunde stunden minuten tagen vor
        """
    ),
    "fr": word_set(
        """
        le les des et est je moi tu une pour avec demain aujourd'hui hier rappelle-moi
        rappelle previens-moi lundi mardi mercredi jeudi vendredi samedi dimanche dans heure
        heures chaque tous
        """
    ),
    "pt": word_set(
        """
        o os as voce uma para com amanha hoje ontem lembra lembre avisa daqui ha segunda
        terca quarta quinta sexta-feira sabado domingo toda todo semana em nao vem foi fiz
        meu minha lembrete lembretes agora depois sao
        """
    ),
    "it": word_set(
        """
        il lo gli che per con domani oggi ieri ricordami avvisami alle tra fra ogni lunedi
        martedi mercoledi giovedi venerdi sabato domenica ore settimana
        """
    ),
    "nl": word_set(
        """
        het een en niet ik mij je om uur morgen vandaag gisteren herinner over elke maandag
        dinsdag woensdag donderdag vrijdag zaterdag zondag minuten week
        """
    ),
}
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def guess_language(text: str) -> str | None:
    """The ISO 639-1 code of the language `text` is clearly written in, or None."""
    words = [fold(w) for w in _WORD.findall(text[:2_000])]
    if not words:
        return None
    scores = {
        language: sum(word in markers for word in words) for language, markers in _MARKERS.items()
    }
    scores["es"] += min(2, text.count("¿") + text.count("¡"))  # Spanish alone opens with them
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    (best, top), (_, second) = ranked[0], ranked[1]
    if top < 2 or top - second < 1:
        return None
    return best
