"""The everyday requests the rules agent answers without a model, as words per language.

One table per request, one pattern per language ("en", "de", "es", "fr", "it",
"pt", "nl"), so a phrasing is added where its language is and the language that
matched is the one the reply is said in (docs/talking.md, "Without a model").
The patterns read a message already stripped of a leading emoji and of closing
punctuation (`plain`). How people ask to be reminded is `bot.llm.reminder_words`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.llm.reminder_words import REMIND_ME
from clockcore import guess_language

__all__ = [
    "ALARM",
    "ALARM_TEXT",
    "ASKING_PREFIX",
    "CANCEL",
    "DECLINE",
    "DIFFERENCE",
    "FILLER",
    "GREETING",
    "HERE",
    "HINTS",
    "HOURS",
    "HOW_LONG",
    "IN",
    "LABEL",
    "LIST",
    "LIVE_IN",
    "MAKE_INTO",
    "MORNING",
    "MOVE",
    "MOVE_IT",
    "NOT_A_PLACE",
    "PAUSE",
    "PLEASE",
    "POLITE",
    "REPEAT_IT",
    "RESUME",
    "SMALL_TALK",
    "SNOOZE",
    "THANKS",
    "TIME_IN",
    "UPCOMING",
    "WAKE",
    "WAKE_TEXT",
    "first",
    "matching",
    "plain",
    "rhythm",
    "said_in",
]

Table = Mapping[str, re.Pattern[str]]


def _table(**patterns: str) -> dict[str, re.Pattern[str]]:
    return {lang: re.compile(p, re.IGNORECASE) for lang, p in patterns.items()}


_LEADING = re.compile(r"^[\W_]+(?=\w)", re.UNICODE)


def plain(text: str) -> str:
    """`text` without a leading emoji or symbol ("⏰ remind me…") and closing punctuation."""
    return _LEADING.sub("", text.strip()).rstrip(" ?!.¿¡").lstrip("¿¡ ")


def first(table: Table, text: str) -> tuple[str, re.Match[str]] | None:
    """(language, match) of the first language whose pattern matches `text`."""
    for language, pattern in table.items():
        if found := pattern.search(text):
            return language, found
    return None


def matching(table: Table, text: str) -> list[str]:
    """Every language whose pattern matches `text` ("cancela" is Spanish and Portuguese)."""
    return [language for language, pattern in table.items() if pattern.search(text)]


LIVE_IN = _table(
    en=r"^(?:i\s+(?:now\s+)?live\s+in|i'?m\s+(?:based|living)\s+in|i\s+(?:just\s+)?moved\s+to"
    r"|my\s+home\s+is\s+in)\s+(?P<place>.+)$",
    de=r"^ich\s+(?:wohne|lebe)\s+(?:jetzt\s+)?in\s+(?P<place>.+)$",
    es=r"^(?:yo\s+)?(?:vivo|resido)\s+en\s+(?P<place>.+)$",
    fr=r"^(?:j'habite|je\s+vis|je\s+r[ée]side)\s+(?:à|a|au)\s+(?P<place>.+)$",
    it=r"^(?:io\s+)?(?:abito|vivo)\s+(?:a|in)\s+(?P<place>.+)$",
    pt=r"^(?:eu\s+)?(?:moro|vivo)\s+(?:em|no|na)\s+(?P<place>.+)$",
    nl=r"^ik\s+woon\s+in\s+(?P<place>.+)$",
)
""""I live in Lisbon": the person's home zone is that city's."""

_FEW = r"(?:[^\s,.!?]+\s+){0,3}?"  # "diese Woche", "esta semana" before the place
HERE = _table(
    en=rf"^(?:i'?m|i\s+am|we'?re|we\s+are)\s+{_FEW}in\s+(?P<place>[^,.!?]+)$",
    de=rf"^(?:ich\s+bin|wir\s+sind)\s+{_FEW}in\s+(?P<place>[^,.!?]+)$",
    es=rf"^(?:estoy|estamos)\s+{_FEW}en\s+(?P<place>[^,.!?]+)$",
    fr=rf"^(?:je\s+suis|nous\s+sommes|on\s+est)\s+{_FEW}(?:à|a|au|en)\s+(?P<place>[^,.!?]+)$",
    it=rf"^(?:sono|siamo)\s+{_FEW}(?:a|in)\s+(?P<place>[^,.!?]+)$",
    pt=rf"^(?:estou|estamos)\s+{_FEW}(?:em|no|na)\s+(?P<place>[^,.!?]+)$",
    nl=rf"^(?:ik\s+ben|we\s+zijn|wij\s+zijn)\s+{_FEW}in\s+(?P<place>[^,.!?]+)$",
)
""""I'm in Lisbon this week", "je suis à Montréal cette semaine": a place the person is in
for now, which moves this conversation's zone, not their home (docs/talking.md). The words
after the place ("cette semaine") are dropped by the place's lookup."""

TIME_IN = _table(
    en=r"(?:\bwhat(?:'?s|\s+is)?\s+(?:the\s+)?time(?:\s+is\s+it)?(?:\s+(?:in|on|at|for)\s+"
    r"(?P<place>.+))?|^(?:the\s+|current\s+)?time\s+(?:in|on|at)\s+(?P<at>.+))$",
    de=r"(?:\bwie\s+sp[äa]t\s+ist\s+es|\bwie\s*viel\s+uhr\s+ist\s+es|^(?:die\s+)?uhrzeit)"
    r"(?:\s+(?:in|im|auf\s+dem|auf)\s+(?P<place>.+))?$",
    es=r"(?:\bqu[ée]\s+hora\s+es|^(?:la\s+)?hora)(?:\s+en\s+(?P<place>.+))?$",
    fr=r"(?:\bquelle\s+heure\s+est-il|\bil\s+est\s+quelle\s+heure|^(?:l')?heure)"
    r"(?:\s+(?:à|a|en|au|sur)\s+(?P<place>.+))?$",
    it=r"(?:\bche\s+or[ae]\s+(?:sono|è|e')|^(?:l')?ora)(?:\s+(?:a|in|su)\s+(?P<place>.+))?$",
    pt=r"(?:\bque\s+horas\s+s[ãa]o|^(?:a\s+)?hora)(?:\s+(?:em|no|na|a)\s+(?P<place>.+))?$",
    nl=r"(?:\bhoe\s+laat\s+is\s+het|^(?:de\s+)?tijd)(?:\s+(?:in|op)\s+(?P<place>.+))?$",
)
""""What time is it in Tokyo", "wie spät ist es in Tokio"; without a place, here."""

DIFFERENCE = _table(
    en=r"\btime\s+difference\s+(?:between|from)\s+(?P<a>.+?)\s+(?:and|to)\s+(?P<b>.+)$",
    de=r"\bzeit(?:unterschied|verschiebung)\s+zwischen\s+(?P<a>.+?)\s+und\s+(?P<b>.+)$",
    es=r"\bdiferencia\s+(?:horaria|de\s+horas?|de\s+hora)\s+entre\s+(?P<a>.+?)\s+y\s+(?P<b>.+)$",
    fr=r"\bd[ée]calage\s+horaire\s+entre\s+(?P<a>.+?)\s+et\s+(?P<b>.+)$",
    it=r"\bdifferenza\s+(?:di\s+)?(?:fuso\s+orario|fuso|orario|ora)\s+(?:tra|fra)\s+(?P<a>.+?)"
    r"\s+e\s+(?P<b>.+)$",
    pt=r"\bdiferen[çc]a\s+(?:hor[áa]ria|de\s+fuso(?:\s+hor[áa]rio)?|de\s+horas?)\s+entre\s+"
    r"(?P<a>.+?)\s+e\s+(?P<b>.+)$",
    nl=r"\btijdsverschil\s+tussen\s+(?P<a>.+?)\s+en\s+(?P<b>.+)$",
)
""""What's the time difference between Tokyo and New York?"."""

UPCOMING = _table(
    en=r"\b(?:what'?s|what\s+is)\s+(?:coming\s+up|due|next)\b|\bupcoming\b|\bcoming\s+up$",
    es=r"\bqu[ée]\s+(?:tengo|hay)\s+pendiente\b|\bpr[óo]ximos\s+recordatorios\b",
    de=r"\bwas\s+steht\s+(?:an|bevor)\b|\bwas\s+kommt\s+(?:als\s+n[äa]chstes|demn[äa]chst)\b",
    fr=r"\bqu'est-ce\s+qui\s+(?:m'attend|arrive)\b|\bprochains\s+rappels\b|\bà\s+venir$",
    it=r"\bcosa\s+c'[èe]\s+in\s+arrivo\b|\bprossimi\s+promemoria\b|\bcosa\s+ho\s+in\s+programma\b",
    pt=r"\bo\s+que\s+vem\s+(?:por\s+a[íi]|a[íi])\b|\bpr[óo]ximos\s+lembretes\b"
    r"|\bo\s+que\s+tenho\s+pendente\b",
    nl=r"\bwat\s+staat\s+er\s+(?:gepland|op\s+de\s+planning)\b|\bwat\s+komt\s+er\s+(?:aan|eraan)\b"
    r"|\bkomende\s+herinneringen\b",
)
""""What's coming up": what is due, from the runtime block."""

LIST = _table(
    en=r"\b(?:what\s+are|list|show(?:\s+me)?|which\s+are)\s+(?:all\s+)?my\s+reminders\b"
    r"|^(?:my\s+)?reminders$",
    de=r"\b(?:was\s+sind|zeig(?:e)?(?:\s+mir)?|liste)\s+(?:alle\s+)?meine\s+erinnerungen\b"
    r"|^meine\s+erinnerungen$",
    es=r"\b(?:cu[áa]les\s+son|mu[ée]strame|ver|lista(?:r)?)\s+(?:todos\s+)?mis\s+recordatorios\b"
    r"|^mis\s+recordatorios$",
    fr=r"\b(?:quels\s+sont|montre[- ]moi|affiche|liste)\s+(?:tous\s+)?mes\s+rappels\b"
    r"|^mes\s+rappels$",
    it=r"\b(?:quali\s+sono|mostrami|fammi\s+vedere|elenca)\s+(?:tutti\s+)?i\s+miei\s+promemoria\b"
    r"|^i\s+miei\s+promemoria$",
    pt=r"\b(?:quais\s+s[ãa]o|mostra(?:-me)?|me\s+mostra|lista)\s+(?:todos\s+)?(?:os\s+)?meus\s+"
    r"lembretes\b|^(?:os\s+)?meus\s+lembretes$",
    nl=r"\b(?:wat\s+zijn|laat|toon|geef)\s+(?:al\s+)?mijn\s+herinneringen\b"
    r"|^mijn\s+herinneringen$",
)
""""What are my reminders", "zeig meine Erinnerungen", "mostrami i miei promemoria"."""

CANCEL = _table(
    en=r"^(?:please\s+)?(?:cancel|stop|delete|remove|drop)\b\s*(?P<what>.*)$",
    de=r"^(?:bitte\s+)?(?:l[öo]sch(?:e)?|storniere|entferne|streiche)\b\s*(?P<what>.*)$",
    es=r"^(?:por\s+favor\s+)?(?:cancela|borra|elimina|quita)\b\s*(?P<what>.*)$",
    fr=r"^(?:stp\s+)?(?:annule|supprime|efface|enl[èe]ve)\b\s*(?P<what>.*)$",
    it=r"^(?:per\s+favore\s+)?(?:cancella|elimina|annulla|togli)\b\s*(?P<what>.*)$",
    pt=r"^(?:por\s+favor\s+)?(?:cancela|cancele|apaga|apague|remove|elimina)\b\s*(?P<what>.*)$",
    nl=r"^(?:graag\s+)?(?:annuleer|verwijder|wis|schrap)\b\s*(?P<what>.*)$",
)
""""Cancel the pizza reminder", "lösche r12": what follows the verb names it."""

MOVE = _table(
    en=r"^(?:move|change|shift)\s+(?P<what>.+?)\s+(?:one\s+|reminder\s+)?to\s+(?P<to>.+)$",
    de=r"^(?:verschieb(?:e)?|leg(?:e)?)\s+(?P<what>.+?)\s+(?:auf|nach)\s+(?P<to>.+)$",
    es=r"^(?:mueve|cambia|pasa)\s+(?P<what>.+?)\s+(?:a|al|para)\s+(?P<to>.+)$",
    fr=r"^(?:d[ée]place|d[ée]cale|change)\s+(?P<what>.+?)\s+(?:à|a|pour|au)\s+(?P<to>.+)$",
    it=r"^(?:sposta|cambia)\s+(?P<what>.+?)\s+(?:a|al|alle|per)\s+(?P<to>.+)$",
    pt=r"^(?:muda|mude|passa|move)\s+(?P<what>.+?)\s+(?:para|pra)\s+(?P<to>.+)$",
    nl=r"^(?:verplaats|verzet|zet)\s+(?P<what>.+?)\s+(?:naar|op)\s+(?P<to>.+)$",
)
""""Move the bank reminder to 11", "verschiebe r12 auf 11 Uhr"."""

MOVE_IT = _table(
    de=r"^(?:(?:eigentlich|lieber|doch|nein)[\s,]+)*(?:(?:verschieb|leg|mach|setz|stell)e?\s+"
    r"(?:es|das|sie|ihn)\s+(?:lieber\s+)?(?:auf|nach|um|f[üu]r|zu)|(?:lieber|doch)"
    r"(?=\s+(?:um|am|auf)\s))\s+(?P<to>.+)$",
    es=r"^(?:(?:mejor|no|perd[óo]n)[\s,]+)*(?:(?:mu[ée]ve|c[áa]mbia|p[áa]sa|pon)(?:lo|la)"
    r"(?:\s+(?:para|a|al))?|mejor(?=\s+(?:a|al|el|para)\s))\s+(?P<to>.+)$",
    fr=r"^(?:(?:en\s+fait|plut[ôo]t|non)[\s,]+)*(?:(?:d[ée]place|d[ée]cale|mets|change)-l[ea]"
    r"|mets(?:-le|-la)?\s+plut[ôo]t|plut[ôo]t)(?:\s+(?:à|a|au|pour))?\s+(?P<to>.+)$",
    it=r"^(?:(?:anzi|no|meglio)[\s,]+)*(?:sposta|cambia|metti)(?:lo|la)"
    r"(?:\s+(?:a|al|per))?\s+(?P<to>.+)$",
    pt=r"^(?:(?:na\s+verdade|melhor|n[ãa]o)[\s,]+)*(?:muda|mude|passa|move|p[õo]e)"
    r"(?:[- ]?(?:o|a|lo|la))?\s+(?:para|pra)\s+(?P<to>.+)$",
    nl=r"^(?:(?:eigenlijk|liever|nee)[\s,]+)*(?:verplaats|verzet|zet|maak)\s+(?:het|hem|dat|die)"
    r"\s+(?:naar|op|om)\s+(?P<to>.+)$",
)
""""Verschiebe es auf Donnerstag", "muévelo al jueves", "mejor a las 11": the reminder just set
(else the one just sent) to another time; English is `bot.llm.rules_agent`'s "make that 11"."""

MAKE_INTO = _table(
    de=r"^(?:(?:eigentlich|lieber|doch|nein)[\s,]+)*mach(?:e)?\s+(?:lieber\s+)?(?P<to>.+?)"
    r"\s+(?:d(?:a)?raus|daraus)$",
    nl=r"^(?:(?:eigenlijk|liever|nee)[\s,]+)*maak\s+er\s+(?:maar\s+)?(?P<to>.+?)\s+van$",
)
""""Mach 11 draus", "maak er 11 uur van": as `MOVE_IT`, the time before the words that close it."""

_RHYTHMS = {
    "every other week": r"every\s+other\s+week|every\s+(?:two|2)\s+weeks|fortnightly|biweekly"
    r"|jede\s+zweite\s+woche|alle\s+(?:zwei|2)\s+wochen|zweiw[öo]chentlich"
    r"|cada\s+(?:dos|2)\s+semanas|cada\s+quince\s+d[íi]as|quincenal"
    r"|toutes\s+les\s+(?:deux|2)\s+semaines|tous\s+les\s+quinze\s+jours"
    r"|ogni\s+(?:due|2)\s+settimane|ogni\s+quindici\s+giorni"
    r"|(?:a\s+)?cada\s+(?:duas|2)\s+semanas|de\s+duas\s+em\s+duas\s+semanas|quinzenal"
    r"|om\s+de\s+(?:twee\s+)?week|elke\s+(?:twee|2)\s+weken|tweewekelijks",
    "every week": r"every\s+week|weekly|jede\s+woche|w[öo]chentlich|cada\s+semana"
    r"|todas\s+las\s+semanas|semanal|toutes\s+les\s+semaines|chaque\s+semaine"
    r"|ogni\s+settimana|tutte\s+le\s+settimane|toda\s+semana|todas\s+as\s+semanas"
    r"|elke\s+week|wekelijks",
    "every day": r"every\s+day|daily|jeden\s+tag|t[äa]glich|cada\s+d[íi]a|todos\s+los\s+d[íi]as"
    r"|tous\s+les\s+jours|chaque\s+jour|ogni\s+giorno|tutti\s+i\s+giorni|todo\s+dia"
    r"|todos\s+os\s+dias|elke\s+dag|dagelijks",
}
_RHYTHM = "|".join(f"(?:{words})" for words in _RHYTHMS.values())


def rhythm(words: str) -> str:
    """The repeat `words` name, as the tools read it in any language ("every other week")."""
    return next(
        (name for name, said in _RHYTHMS.items() if re.fullmatch(said, words.strip(), re.I)), words
    )


REPEAT_IT = _table(
    en=r"^(?:(?:actually|no|sorry|oh|ok(?:ay)?)[\s,]+)*(?:(?:make|change|set)\s+(?:it|that|this)"
    rf"(?:\s+one|\s+reminder)?(?:\s+to)?(?:\s+repeat)?|repeat\s+(?:it|that))\s+(?P<every>{_RHYTHM})$",
    de=r"^(?:(?:eigentlich|lieber|doch)[\s,]+)*(?:(?:mach|stell|setz)e?\s+(?:es|das|sie|ihn)"
    rf"(?:\s+lieber)?(?:\s+auf)?|wiederhole?\s+(?:es|das|sie))\s+(?P<every>{_RHYTHM})$",
    es=r"^(?:(?:mejor|no|perd[óo]n)[\s,]+)*(?:hazlo|hazla|ponlo|ponla|que\s+sea|rep[íi]telo"
    rf"|rep[íi]tela)\s+(?P<every>{_RHYTHM})$",
    fr=r"^(?:(?:en\s+fait|plut[ôo]t|non)[\s,]+)*(?:(?:fais|mets|r[ée]p[èe]te)-l[ea]|"
    rf"que\s+ce\s+soit)\s+(?P<every>{_RHYTHM})$",
    it=r"^(?:(?:anzi|no|meglio)[\s,]+)*(?:fallo|falla|mettilo|mettila|ripetilo|ripetila)"
    rf"\s+(?P<every>{_RHYTHM})$",
    pt=r"^(?:(?:na\s+verdade|melhor|n[ãa]o)[\s,]+)*(?:(?:faz|fa[çc]a|p[õo]e|repete|repita)"
    rf"[- ]?(?:o|a|isso|lo|la)?)\s+(?P<every>{_RHYTHM})$",
    nl=r"^(?:(?:eigenlijk|liever|nee)[\s,]+)*(?:(?:maak|zet)\s+(?:het|dat|hem|die)"
    rf"|herhaal\s+(?:het|dat|hem))\s+(?P<every>{_RHYTHM})$",
)
""""Make it every other week", "mach das jede zweite Woche", "hazlo cada dos semanas": the
reminder just set (else the one just sent) repeats so from now, keeping its time (issue 61)."""

_UNTIL = r"(?:\s+(?:to|until|till|bis|a|hasta|à|jusqu'(?:à|a)|alle|a|até|às|as|tot)\s+|\s*[-–]\s*)"
_END = r"(?P<end>\d{1,2}(?:[:.h]\d\d)?\s*(?:[ap]\.?m\.?|h|uhr|uur)?)"
_RANGE = rf"(?P<start>.+?){_UNTIL}(?:las\s+|as\s+)?{_END}$"
HOURS = _table(
    en=r"^my\s+(?:contact\s+)?(?:hours|window)\s+(?:are|is)\s+(?:from\s+)?" + _RANGE,
    de=r"^meine\s+(?:kontakt)?(?:zeiten|uhrzeiten|stunden)\s+sind\s+(?:von\s+)?" + _RANGE,
    es=r"^mis\s+horas(?:\s+de\s+contacto)?\s+son\s+(?:de\s+|desde\s+)?(?:las\s+)?" + _RANGE,
    fr=r"^mes\s+(?:heures|horaires)(?:\s+de\s+contact)?\s+sont\s+(?:de\s+)?" + _RANGE,
    it=r"^i\s+miei\s+orari\s+sono\s+(?:dalle\s+)?" + _RANGE,
    pt=r"^(?:os\s+)?meus\s+hor[áa]rios\s+s[ãa]o\s+(?:das\s+|de\s+)?" + _RANGE,
    nl=r"^mijn\s+(?:contact)?(?:uren|tijden)\s+zijn\s+(?:van\s+)?" + _RANGE,
)
""""My hours are 9 to 22", "mis horas son de 9 a 22", "meine Zeiten sind 9 bis 22": the
person's contact window (docs/reminders.md, "Contact hours")."""

PAUSE = _table(
    en=r"^pause\s+(?:all\s+)?(?:of\s+)?(?:my\s+)?reminders?\b\s*"
    r"(?:(?:until|till|til|through)\s+(?P<until>.+))?$",
    de=r"^(?:pausiere?|stoppe?|halte?)\s+(?:alle\s+)?(?:meine\s+)?erinnerungen\s*"
    r"(?:bis\s+(?P<until>.+?))?(?:\s+an)?$",
    es=r"^(?:pausa|det[ée]n|suspende)\s+(?:todos\s+)?(?:mis\s+)?recordatorios\s*"
    r"(?:hasta\s+(?P<until>.+))?$",
    fr=r"^(?:mets\s+(?:tous\s+)?mes\s+rappels\s+en\s+pause|suspends\s+(?:tous\s+)?mes\s+rappels)"
    r"\s*(?:jusqu['’]\s*(?:à|a|au)\s+(?P<until>.+))?$",
    it=r"^(?:metti\s+in\s+pausa|sospendi)\s+(?:tutti\s+)?(?:i\s+)?(?:miei\s+)?promemoria\s*"
    r"(?:fino\s+a\s+(?P<until>.+))?$",
    pt=r"^(?:pausa|pause|suspende|suspenda)\s+(?:todos\s+)?(?:os\s+)?(?:meus\s+)?lembretes\s*"
    r"(?:at[ée]\s+(?P<until>.+))?$",
    nl=r"^(?:pauzeer|stop)\s+(?:al\s+)?(?:mijn\s+)?herinneringen\s*(?:tot\s+(?P<until>.+))?$",
)
""""Pause my reminders until Monday", "pausiere meine Erinnerungen bis Montag"."""

RESUME = _table(
    en=r"^(?:resume|unpause|restart|continue)\s+(?:all\s+)?(?:my\s+)?reminders?\b",
    de=r"^(?:setze?\s+(?:alle\s+)?(?:meine\s+)?erinnerungen\s+fort|"
    r"(?:aktiviere|starte)\s+(?:meine\s+)?erinnerungen(?:\s+wieder)?)",
    es=r"^(?:reanuda|reactiva|retoma)\s+(?:todos\s+)?(?:mis\s+)?recordatorios",
    fr=r"^(?:reprends|r[ée]active|relance)\s+(?:tous\s+)?(?:mes\s+)?rappels",
    it=r"^(?:riprendi|riattiva)\s+(?:tutti\s+)?(?:i\s+)?(?:miei\s+)?promemoria",
    pt=r"^(?:retoma|retome|reativa|reative)\s+(?:todos\s+)?(?:os\s+)?(?:meus\s+)?lembretes",
    nl=r"^(?:hervat|activeer)\s+(?:al\s+)?(?:mijn\s+)?herinneringen",
)
""""Resume my reminders", "setze meine Erinnerungen fort"."""

WAKE = _table(
    en=r"^(?:please\s+)?wake\s+me(?:\s+up)?\b\s*(?P<rest>.*)$",
    de=r"^(?:bitte\s+)?weck(?:e)?\s+mich\b\s*(?P<rest>.*?)(?:\s+auf)?$",
    es=r"^(?:por\s+favor\s+)?despi[ée]rtame\b\s*(?P<rest>.*)$",
    fr=r"^r[ée]veille[- ]moi\b\s*(?P<rest>.*)$",
    it=r"^svegliami\b\s*(?P<rest>.*)$",
    pt=r"^(?:acorda-me|me\s+acorda|acorde-me|me\s+acorde)\b\s*(?P<rest>.*)$",
    nl=r"^(?:maak\s+me\s+wakker|wek\s+me)\b\s*(?P<rest>.*)$",
)
""""Wake me up at 7": a reminder whose text is `WAKE_TEXT`."""

WAKE_TEXT = {
    "en": "wake up", "de": "aufwachen", "es": "despertar", "fr": "réveil", "it": "sveglia",
    "pt": "acordar", "nl": "wakker worden",
}  # fmt: skip

ALARM = _table(
    en=r"^(?:please\s+)?(?:set|put|make)\s+(?:me\s+)?(?:an?\s+|my\s+)?alarm(?:\s+clock)?\b"
    r"(?:\s+for)?\s*(?P<rest>.*)$",
    de=r"^(?:bitte\s+)?(?:stell|stelle|setz|setze)\s+(?:mir\s+)?(?:einen|den|meinen)\s+"
    r"(?:wecker|alarm)\b(?:\s+(?:für|auf))?\s*(?P<rest>.*?)(?:\s+(?:ein|an))?$",
    es=r"^(?:pon|ponme|programa|progr[áa]mame|configura)\s+(?:una\s+|la\s+)?(?:alarma|"
    r"el\s+despertador)\b(?:\s+para)?\s*(?P<rest>.*)$",
    fr=r"^(?:mets|mets-moi|r[èe]gle|programme)\s+(?:une\s+|un\s+|l'|le\s+)?(?:alarme|r[ée]veil)"
    r"\b(?:\s+pour)?\s*(?P<rest>.*)$",
    it=r"^(?:metti|mettimi|imposta|impostami)\s+(?:una\s+|la\s+)?(?:sveglia|allarme)\b"
    r"(?:\s+per)?\s*(?P<rest>.*)$",
    pt=r"^(?:p[õo]e|p[õo]e-me|coloca|define|programa)\s+(?:um\s+|o\s+)?(?:alarme|despertador)"
    r"\b(?:\s+para)?\s*(?P<rest>.*)$",
    nl=r"^(?:zet|stel)\s+(?:een\s+|de\s+|mijn\s+)?wekker\b(?:\s+(?:voor|op))?\s*(?P<rest>.*?)"
    r"(?:\s+in)?$",
)
""""Set an alarm for 6:45 tomorrow": a reminder whose text is `ALARM_TEXT`, at the time said
(the reader's rule for a bare hour: an alarm is not always for the morning)."""

ALARM_TEXT = {
    "en": "alarm", "de": "Wecker", "es": "alarma", "fr": "alarme", "it": "sveglia",
    "pt": "alarme", "nl": "wekker",
}  # fmt: skip

LABEL = _table(
    en=r"^reminder\s*:\s*(?P<rest>.+)$",
    de=r"^erinnerung\s*:\s*(?P<rest>.+)$",
    es=r"^recordatorio\s*:\s*(?P<rest>.+)$",
    fr=r"^rappel\s*:\s*(?P<rest>.+)$",
    it=r"^promemoria\s*:\s*(?P<rest>.+)$",
    pt=r"^lembrete\s*:\s*(?P<rest>.+)$",
    nl=r"^herinnering\s*:\s*(?P<rest>.+)$",
)
""""reminder: dentist friday 10am": what and when after a label."""

FILLER = frozenset(
    {"the", "my", "a", "an", "reminder", "reminders", "one", "this", "that", "for", "to"}
    | {"about", "please", "all", "of"}
    | {"die", "der", "das", "den", "dem", "erinnerung", "an", "meine", "mein", "zu"}
    | {"el", "la", "los", "las", "recordatorio", "de", "del", "lo", "mi", "mis"}
    | {"le", "les", "rappel", "du", "des", "d", "l", "mon", "mes"}
    | {"il", "i", "gli", "promemoria", "di", "della", "delle", "dei", "mio"}
    | {"o", "os", "as", "lembrete", "do", "da", "das", "dos", "meu"}
    | {"het", "herinnering", "aan", "mijn"}
)
"""Words that name no reminder: "cancel the pizza reminder" is about "pizza"."""

HOW_LONG = _table(
    en=r"\bhow\s+(?:long|much\s+time|many\s+(?:minutes|hours|days))\b",
    de=r"\bwie\s+(?:lange|viel\s+zeit|viele\s+(?:minuten|stunden|tage))\b",
    es=r"\bcu[áa]nt[oa]s?\b",
    fr=r"\bcombien\b",
    it=r"\bquant[oi]\s+(?:tempo\s+)?manca(?:no)?\b|\bquanti\b",
    pt=r"\bquant[oa]s?\s+(?:tempo\s+)?(?:falta|faltam)\b|\bquantos\b",
    nl=r"\bhoe\s+lang\b|\bhoeveel\b",
)
""""How long until 5pm": only which language asks; `clockcore.parsing.time_questions` reads it."""

GREETING = _table(
    en=r"^(?:hello|hi|hey|good\s+(?:morning|evening))\b|\bhow\s+are\s+you\b|\bthank(?:s|\s+you)\b",
    de=r"^(?:hallo|guten\s+(?:morgen|tag|abend)|servus|moin)\b|\bwie\s+geht'?s\b|\bdanke\b",
    es=r"^(?:hola|buenos\s+d[íi]as|buenas)\b|\bqu[ée]\s+tal\b|\bgracias\b",
    fr=r"^(?:salut|bonjour|bonsoir|coucou)\b|\bça\s+va\b|\bmerci\b",
    it=r"^(?:ciao|buongiorno|buonasera|salve)\b|\bcome\s+(?:va|stai)\b|\bgrazie\b",
    pt=r"^(?:ol[áa]|oi|bom\s+dia|boa\s+(?:tarde|noite))\b|\btudo\s+bem\b|\bobrigad[oa]\b",
    nl=r"^(?:hoi|hallo|goedemorgen|goedemiddag|dag)\b|\bhoe\s+gaat\s+het\b|\bdank\s*je\b",
)
"""What is outside the set but says which language to answer in: "hallo, wie geht's?"."""


def _alone(words: str) -> str:
    """A message of nothing but `words` (an alternation), one or more, commas between."""
    return rf"^(?:{words})(?:[\s,!.]+(?:{words}))*$"


SMALL_TALK = _table(
    en=_alone(r"(?:hello|hi|hey|hiya)(?:\s+there)?|howdy|good\s+(?:morning|afternoon|evening|day)"
              r"|thanks|thank\s+you|thx|ty|cheers|many\s+thanks|clockbot"),
    de=_alone(r"hallo|hi|hey|servus|moin|gr[üu](?:ß|ss)\s+gott|guten\s+(?:morgen|tag|abend)|danke"
              r"|danke\s+(?:sch[öo]n|sehr)|vielen\s+dank"),
    es=_alone(r"hola|buenas|buenos\s+d[íi]as|buenas\s+(?:tardes|noches)|gracias|muchas\s+gracias"),
    fr=_alone(r"salut|bonjour|bonsoir|coucou|merci|merci\s+beaucoup"),
    it=_alone(r"ciao|buongiorno|buonasera|salve|grazie|grazie\s+mille"),
    pt=_alone(r"ol[áa]|oi|bom\s+dia|boa\s+(?:tarde|noite)|obrigad[oa]|muito\s+obrigad[oa]|valeu"),
    nl=_alone(r"hoi|hallo|hey|goedemorgen|goedemiddag|goedenavond|dank\s*je(?:\s*wel)?|bedankt"),
)  # fmt: skip
"""A message that is only a greeting or a thank-you ("hi", "hola", "merci", "dank je wel"):
it answers no question clockbot asked, and the question stays open (docs/talking.md)."""

THANKS = _table(
    en=r"\bthank|\bthx\b|\bty\b|\bcheers\b", de=r"\bdank", es=r"\bgracias\b", fr=r"\bmerci\b",
    it=r"\bgrazie\b", pt=r"\bobrigad|\bvaleu\b", nl=r"\bdank|\bbedankt\b",
)  # fmt: skip
"""The thank-yous among `SMALL_TALK`: answered "you're welcome", a greeting "hello"."""

NOT_A_PLACE = re.compile(
    r"^(?:(?:the|de|der|dem|la|le|il|o|a|het)\s+)?(?:mars|marte|moon|mond|lune|luna|lua|maan|"
    r"venus|v[ée]nus|jupiter|j[úu]piter|giove|saturn|saturne?|saturno|saturnus|mercury|merkur|"
    r"mercure|mercurio|merc[úu]rio|mercurius|pluto|plut[ãa]o|plutone|space|espacio|espace|"
    r"spazio|espa[çc]o|weltall|ruimte)$",
    re.IGNORECASE,
)
""""What time is it on Mars": no city, no zone; never looked up (a town may bear the name)."""

MORNING = {
    "en": "am", "de": "morgens", "es": "de la mañana", "fr": "du matin", "it": "del mattino",
    "pt": "da manhã", "nl": "'s ochtends",
}  # fmt: skip
""""Wake me up at 7" is 7 in the morning: the words that say so after a bare hour."""

POLITE = (
    r"(?:please|pls|hey|hi|ok|okay|bitte|por\s+favor|porfa|stp|svp|per\s+favore|graag|alsjeblieft)"
)
"""A word of asking before the request: "please", "bitte", "porfa", "stp", "graag"…"""

_PLEASE = (
    r"(?:please|pls|plz|bitte|por\s+favor|porfa|stp|svp|s'il\s+(?:te|vous)\s+pla[iî]t"
    r"|per\s+favore|per\s+piacere|alsjeblieft|alstublieft|graag)"
)
PLEASE = re.compile(rf"^(?:{_PLEASE}\b[\s,]*)+|(?<![\s,])[\s,]++{_PLEASE}$", re.IGNORECASE)
"""A word of asking at either end of what is left of a request once its time is read ("demain
à 9h stp de payer la facture"): read past, never part of the reminder's text (docs/talking.md)."""

ASKING_PREFIX = re.compile(
    r"^(?:kannst\s+du\s+mich|k[öo]nntest\s+du\s+mich|kun\s+je\s+me|kunt\s+u\s+me)\s+", re.I
)
""""kannst du mich um 20 Uhr erinnern, …": the words before the time in a split request."""

SNOOZE = _table(
    de=r"^(?:schlummer[en]?)\s+(?:(?P<id>[rs]\d+)\s+)?(?:(?:sie|es|die)\s+)?(?:um\s+|für\s+)?"
    r"(?P<when>.*)$",
    es=r"^(?:p[óo]sponlo|p[óo]sp[óo]n|aplaza|pospone)\s+(?:(?P<id>[rs]\d+)\s+)?(?:(?:por|durante)\s+)?"
    r"(?P<when>.*)$",
    fr=r"^(?:reporte|repousse)\s+(?:(?P<id>[rs]\d+)\s+)?(?:(?:de|pour|dans)\s+)?(?P<when>.*)$",
    it=r"^(?:rimanda|posticipa)\s+(?:(?P<id>[rs]\d+)\s+)?(?:(?:di|per|tra)\s+)?(?P<when>.*)$",
    pt=r"^(?:adia|adie|soneca)\s+(?:(?P<id>[rs]\d+)\s+)?(?:(?:por|em|daqui\s+a)\s+)?"
    r"(?P<when>.*)$",
    nl=r"^(?:sluimer|snoozen)\s+(?:(?P<id>[rs]\d+)\s+)?(?:(?:voor|met|over)\s+)?(?P<when>.*)$",
)
""""schlummer r12 1 Stunde", "pospón r12 1 hora": from now (English: `bot.llm.rules_agent`)."""

IN = {"en": "in", "de": "in", "es": "en", "fr": "dans", "it": "tra", "pt": "em", "nl": "over"}
"""The word before a duration that counts from now: "in 1 Stunde", "dans 1 heure"."""

DECLINE = _table(
    en=r"^(?:no|nope|nah|no\s+thanks?|no,?\s+thank\s+you|don'?t|do\s+not|never\s*mind)$",
    de=r"^(?:nein|n[öo]|nein,?\s+danke|lieber\s+nicht|doch\s+nicht)$",
    es=r"^(?:no|no,?\s+gracias|mejor\s+no|d[ée]jalo)$",
    fr=r"^(?:non|non,?\s+merci|laisse\s+tomber|surtout\s+pas)$",
    it=r"^(?:no|no,?\s+grazie|lascia\s+stare|meglio\s+di\s+no)$",
    pt=r"^(?:n[ãa]o|n[ãa]o,?\s+obrigad[oa]|deixa\s+pra\s+l[áa]|melhor\s+n[ãa]o)$",
    nl=r"^(?:nee|neen|nee,?\s+dank\s*je|laat\s+maar|liever\s+niet)$",
)
"""A "no" to a question it asked ("cancel all my reminders?", "delete my data?"): nothing done."""


HINTS = (
    LIVE_IN, LIST, UPCOMING, TIME_IN, DIFFERENCE, CANCEL, MOVE, PAUSE, RESUME, WAKE, ALARM, LABEL,
    HOW_LONG, GREETING, SNOOZE, MOVE_IT, REPEAT_IT, HOURS, MAKE_INTO, HERE,
)  # fmt: skip
"""The request tables, each of which says the language of the words it matches."""
_ASKING = re.compile(rf"(?:{REMIND_ME})\b", re.IGNORECASE)


def said_in(text: str) -> str | None:
    """The language `text` is written in, or None when its words do not say.

    The request it makes says it ("verschiebe … auf Donnerstag" matches the German
    MOVE), the guessed language first where several match ("cancela" is Spanish and
    Portuguese); else the language its words are clearly in (`guess_language`).
    """
    guessed = guess_language(text)
    text = plain(text)
    for table in HINTS:
        if found := matching(table, text):
            return guessed if guessed in found else found[0]
    if asking := _ASKING.search(text):
        return asking.lastgroup
    return guessed
