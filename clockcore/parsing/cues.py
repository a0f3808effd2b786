"""Time cues: the evidence a proposed reading needs before clockcore believes it.

Duckling proposes a time for almost any number: "$4.50" is 16:50, "three to
five volunteers" a range of hours, "Raum 1410" a year, "guten Morgen"
tomorrow. A reading is taken only when its words carry a *cue* for it, in the
person's language or in English (docs/time-cues.md has the rule and why):

- **strong**: a clock form ("7:30", "7pm", "19h30", "9 Uhr", "9 uur", "3
  heures"), a time or date word (a weekday or month name, today/tomorrow and
  their equivalents, a part of the day, a unit such as "minutes" or "Tage"),
  an ordinal or a written date ("the 15th", "3.12.", "25/12", "2026-12-05"),
  or a time preposition before a number ("at 5", "um 5", "à 5", "às 5", "a
  las 5", "alle 5", "om 5");
- **weak**: only a bare number after a word that is sometimes a time
  preposition ("a 10", "as 10", "in 3"): the reading becomes a question;
- **none**: anything else. The reading is dropped: no time, and no question.

A number followed by a unit that is not time ("7.30 percent", "4,20 ms",
"7,30 Euro") or after a currency sign ("$4.50") is never a time, whatever
stands before it. `masked` blanks, before anything is read, the words that
look like times and are not: greetings ("good morning", "bom dia"), web
addresses, file names, versions and identifiers ("ABC-1230", "v1.2.10").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Literal

__all__ = [
    "HOUR_WORDS",
    "Cue",
    "cue",
    "fold",
    "masked",
    "measured_before",
    "no_number_is_a_time",
    "time_word_beside",
    "windows",
    "word_set",
]

Cue = Literal["strong", "weak", "none"]


def fold(text: str) -> str:
    """Lower case without accents: people drop them on phones ("manana", "as 9")."""
    return _fold_word(text) if len(text) <= 32 else _fold(text)


@lru_cache(maxsize=8192)
def _fold_word(word: str) -> str:  # words repeat: fold each once
    return _fold(word)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Time and date words, per language, accents folded. Units, day words, parts of
# the day, weekday and month names: words that only say time.
_WORDS: dict[str, str] = {
    "en": """
        second seconds sec secs minute minutes min mins hour hours hr hrs h day days
        week weeks fortnight month months year years today tomorrow tmrw tmr tonight
        yesterday morning afternoon evening night noon midday midnight o'clock oclock
        am pm a.m. p.m. monday tuesday wednesday thursday friday saturday sunday
        weekday weekdays weekend january february march april june july august
        september october november december christmas eve new ago weekly daily monthly
        yearly hourly quarter half past
    """,
    "es": """
        segundo segundos minuto minutos min hora horas dia dias semana semanas mes meses
        ano anos hoy manana pasado ayer anteayer anoche noche tarde madrugada mediodia
        medianoche lunes martes miercoles jueves viernes sabado domingo enero febrero
        marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre
        diciembre nochebuena navidad nochevieja hace dentro cuarto
    """,
    "de": """
        sekunde sekunden minute minuten min stunde stunden std tag tage tagen woche
        wochen monat monate monaten jahr jahre jahren heute morgen ubermorgen gestern
        vorgestern fruh fruh morgens vormittag vormittags mittag mittags nachmittag
        nachmittags abend abends nacht nachts mitternacht uhr montag dienstag mittwoch
        donnerstag freitag samstag sonnabend sonntag januar jänner februar marz april
        mai juni juli august september oktober november dezember heiligabend
        weihnachten silvester viertel viertelstunde halb dreiviertel
    """,
    "fr": """
        seconde secondes minute minutes min heure heures h jour jours semaine semaines
        mois an ans annee annees aujourd'hui aujourdhui demain apres-demain hier
        avant-hier matin apres-midi soir soiree nuit midi minuit lundi mardi mercredi
        jeudi vendredi samedi dimanche janvier fevrier mars avril mai juin juillet aout
        septembre octobre novembre decembre noel veille quart demi demi-heure
    """,
    "pt": """
        segundo segundos minuto minutos min hora horas dia dias semana semanas mes meses
        ano anos hoje amanha depois ontem anteontem manha tarde noite madrugada meio-dia
        meia-noite segunda terca quarta quinta sexta sabado domingo segunda-feira
        terca-feira quarta-feira quinta-feira sexta-feira janeiro fevereiro marco abril
        maio junho julho agosto setembro outubro novembro dezembro natal vespera daqui
        meia
    """,
    "it": """
        secondo secondi minuto minuti min ora ore giorno giorni settimana settimane mese
        mesi anno anni oggi domani dopodomani ieri stamattina stasera stanotte mattina
        mattino pomeriggio sera notte mezzogiorno mezzanotte lunedi martedi mercoledi
        giovedi venerdi sabato domenica gennaio febbraio marzo aprile maggio giugno
        luglio agosto settembre ottobre novembre dicembre natale vigilia fa quarto mezza
    """,
    "nl": """
        seconde seconden minuut minuten min uur uren dag dagen week weken maand maanden
        jaar jaren vandaag morgen overmorgen gisteren eergisteren vanavond vannacht
        vanmiddag vanochtend vanmorgen ochtend morgenochtend middag avond nacht
        middernacht maandag dinsdag woensdag donderdag vrijdag zaterdag zondag
        maandagochtend vrijdagavond januari februari maart april mei juni juli augustus
        september oktober november december kerstavond kerstmis kwartier geleden kwart
        half ochtends middags avonds nachts
    """,
}


def word_set(words: str) -> frozenset[str]:
    """A whitespace-separated word list, accents folded."""
    return frozenset(fold(w) for w in words.split())


WORDS: dict[str, frozenset[str]] = {language: word_set(w) for language, w in _WORDS.items()}
# Weekday abbreviations: a cue only written with a capital ("Sat", not "we sat").
_SHORT_DAYS = word_set(
    """
    mon tue tues wed thu thur thurs fri sat sun lun mar mie jue vie sab dom
    mer jeu ven sam dim seg ter qua qui sex gio
    """
)
# Words before a number that make it a time of day.
_PREPOSITIONS: dict[str, tuple[str, ...]] = {
    "en": ("at", "@", "around"),
    "es": ("a las", "a la", "sobre las", "hacia las", "desde las", "hasta las", "entre las"),
    "de": ("um", "gegen"),
    "fr": ("a", "vers"),
    "pt": ("as", "a", "pelas", "das", "ate as", "entre as", "por volta das"),
    "it": ("alle", "all'", "verso le", "dalle", "fino alle", "tra le", "entro le"),
    "nl": ("om", "rond", "tegen"),
}
# Words that are a time preposition only sometimes, as written: "a 10 minutos", "as 10
# melhores" (unaccented "a"/"as" may be "à"/"às"), "in 3", "between 10 and 20 boxes",
# "bis 5": a bare number after them is a question, never a confident time.
_WEAK_PREPOSITIONS = word_set(
    """
    a as in le el de op by till until from between before after ab bis zwischen
    entre des avant apres jusqu'a desde hasta tra fra entro tot tussen vanaf
    """
)
# Articles before a day of the month: "el 15", "le 3", "il 30", "dia 15", "de 15e".
_DAY_ARTICLES: dict[str, tuple[str, ...]] = {
    "es": ("el", "el dia"),
    "fr": ("le",),
    "pt": ("dia", "o dia"),
    "it": ("il", "l'"),
    "nl": ("de",),
    "de": ("am", "den"),
    "en": ("the", "on the"),
}

_CLOCK_FORM = re.compile(
    r"\d{1,2}:\d{2}"  # 7:30, 19:30
    r"|\d{1,2}(?:[.:]\d{2})?\s*(?:[ap]\.?\s?m\b\.?)"  # 7pm, 7.30 p.m.
    r"|\b\d{1,2}\s*h(?:\s*\d{2})?\b"  # 9h, 19h30, 14 h
    r"|\b\d{1,2}(?:[.:]\d{2})?\s*(?:uhr|uur|heures?|horas?|ore|ora)\b",
    re.IGNORECASE,
)
_DATE_FORM = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b"  # 2026-12-05
    r"|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b"  # 3.12.2026, 25/12/26
    r"|\b\d{1,2}\.\d{1,2}\.(?!\d)"  # 3.12. (German)
    r"|\b\d{1,2}/\d{1,2}\b"  # 25/12, 12/25
    r"|\b\d{1,2}(?:st|nd|rd|th|º|ª|er|e|de|te|ste)\b",  # 15th, 1º, 1er, 15e, 3de
    re.IGNORECASE,
)
# Hours written as words, in every language: "at six", "alle sette", "um sechs".
HOUR_WORDS = word_set(
    """
    one two three four five six seven eight nine ten eleven twelve
    una uno dos tres cuatro cinco seis siete ocho nueve diez once doce
    ein eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf
    une deux trois quatre cinq six sept huit neuf dix onze douze
    duas três quatro sete oito nove dez doze
    due tre quattro cinque sei sette otto dieci undici dodici
    een twee drie vier vijf zes zeven negen tien twaalf
    """
)
# Minutes written as words, beyond the hours, in every language (counted as time tokens
# in `windows`); compounds ("twenty-five", "veintitrés", "dreiundzwanzig", "eenentwintig")
# are read by their parts or their ending (`_is_number_word`).
MINUTE_WORDS = word_set(
    """
    thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty
    trece catorce quince dieciséis diecisiete dieciocho diecinueve veinte treinta cuarenta
    cincuenta dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig dreißig
    vierzig fünfzig treize quatorze quinze seize vingt trente quarante cinquante tredici
    quattordici quindici sedici diciassette diciotto diciannove venti trenta quaranta
    cinquanta treze catorze quatorze dezesseis dezasseis dezessete dezassete dezoito dezenove
    dezanove vinte trinta quarenta dertien veertien vijftien zestien zeventien achttien
    negentien twintig dertig veertig vijftig
    """
)
_NUMBER_ENDINGS = ("zig", "ßig", "ssig", "twintig", "dertig", "veertig", "vijftig")
_NUMBER_STARTS = ("veinti", "dieci", "vent", "trent", "quarant", "cinquant")


def _is_number_word(folded: str) -> bool:
    """Whether a folded word is a number word of any of the seven languages."""
    parts = [p for p in re.split("[-’']", folded) if p] or [folded]
    if any(p in HOUR_WORDS or p in MINUTE_WORDS for p in parts):
        return True
    return folded.endswith(_NUMBER_ENDINGS) or folded.startswith(_NUMBER_STARTS)


_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*|[ap]\.m\.|@", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# What follows a number that is a quantity, not a time.
_UNIT_AFTER = re.compile(
    r"\s*+(?:%|‰|€|\$|£|¥|percent\b|per\s*cent\b|pour\s*cent\b|por\s*cien(?:to)?\b|"
    r"por\s*cento\b|per\s*cento\b|prozent\b|procent\b|euros?\b|eur\b|dollars?\b|usd\b|"
    r"reais\b|real\b|pounds?\b|ms\b|km\b|kg\b|mb\b|gb\b|kb\b|mm\b|cm\b|m\b|g\b|l\b|"
    r"liters?\b|litres?\b|litros?\b|liter\b|litri\b|kilos?\b|chili\b|quilos?\b|kilo\b)",
    re.IGNORECASE,
)
# A plural noun right after a number: "at 3 options", "le 10 canzoni". Not a Spanish or
# Portuguese verb of "we" ("a las 9 empezamos", "às 9 começamos"): it ends in -amos, -emos,
# -imos (-ámos, -êmos), which no plural noun after an hour does.
_COUNTED = re.compile(r"\s+(?![^\W\d_]*(?:[aeiáéíê]mos)\b)([^\W\d_]{3,}[si])\b")
_CURRENCY_BEFORE = re.compile(r"(?:[€$£¥]|R\$|\bEUR|\bUSD)\s*$", re.IGNORECASE)

# Words before a number that make it a place in a document ("section 3.2.", "page 3/4").
_DOCUMENT_PLACES = (
    r"(?:sections?|chapters?|pages?|pp?\.|paragraphs?|§|art\.|articles?|abschnitt|kapitel|"
    r"seiten?|hoofdstuk|paragraaf|sectie|artikel|pagina|capitulo|cap[ií]tulo|secci[oó]n|"
    r"chapitre|capitolo|sezione|se[cç][aã]o)"
)
NUMBERED_BEFORE = re.compile(rf"(?<![^\W_]){_DOCUMENT_PLACES}\s*$", re.IGNORECASE)
"""A document's place word right before where the search ends: the number after it is none."""

# Things that look like times and are not, blanked before reading.
_NOT_TIME = re.compile(
    r"\b(?:https?://|www\.)\S+"  # web addresses
    # Mail addresses, bounded: an unbounded "\S+@" tried at every start of a long run of
    # non-spaces ("1.1.1…", 4,000 characters) took 130 ms.
    r"|[^\s@]{1,64}@[^\s@]{1,253}\.\w+"
    r"|\b\w*_\w*(?:\.\w+)?"  # file and variable names: report_final_v2.pdf
    r"|\b[\w-]+\.(?:pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|txt|csv|zip|py|md|json|html?)\b"
    r"|\bv\d+(?:\.\d+)+\b"  # v1.2.10
    # "version 8.10.28", "versão 2.4.38": after the word, any dotted number is a version.
    r"|\b(?:version|versi[oó]n|vers[aã]o|versione|versie|release|build|python)\s+\d+(?:\.\d+)+"
    r"|\b\d+\.\d+\.\d{1}\b(?!\.)"  # 3.11.4: a version (a date's year has 2 or 4 digits)
    r"|\b[A-Za-z]{2,}-\d+\b"  # ABC-1230
    r"|#\d+"  # #20261126
    rf"|(?<![^\W_]){_DOCUMENT_PLACES}\s*\d+(?:[./]\d+)+\.?",  # "page 3/4", "section 3.2."
    re.IGNORECASE,
)
_GREETINGS = re.compile(
    r"\bgood\s+(?:morning|afternoon|evening|night|day)\b"
    r"|\bbuen(?:os|as)\s+(?:d[ií]as|tardes|noches)\b"
    r"|\bgute[nr]?\s+(?:morgen|tag|abend|nacht)\b|\bmoin\b"
    r"|\bbon(?:jour|soir|ne\s+(?:nuit|journ[ée]e|soir[ée]e)|\s+apr[eè]s-midi)\b"
    r"|\bbo[ma]\s+(?:dia|tarde|noite)\b|\bbom\s+apetite\b"
    r"|\bbuon(?:giorno|asera|anotte|a\s+(?:giornata|serata|notte))\b"
    r"|\bgoede(?:n)?\s*(?:morgen|middag|avond|nacht)\b|\bgoedemorgen\b|\bwelterusten\b",
    re.IGNORECASE,
)


# "a"/"al"/"ao" before noon or midnight: Duckling reads "mañana al mediodía" as "until noon".
_AT_NOON = re.compile(
    r"\b(?:al|a|ao|à)\s+(?=(?:mediod[ií]a|medianoche|meio-dia|meia-noite)\b)", re.IGNORECASE
)


def masked(text: str) -> str:
    """`text` with greetings, addresses, file names, versions and IDs blanked (same length).

    Also the "a" of "a mediodía", "ao meio-dia", which Duckling reads as "until".
    """
    chars = list(text)
    for pattern in (_NOT_TIME, _GREETINGS, _AT_NOON):
        for found in pattern.finditer(text):
            chars[found.start() : found.end()] = " " * (found.end() - found.start())
    return "".join(chars)


def without_ids(text: str) -> str:
    """`text` with addresses, file names, versions and IDs blanked (same length).

    As `masked`, greetings kept: what no reader takes for a time in any message.
    """
    if not _DIGITS.search(text):
        return text
    return _NOT_TIME.sub(lambda found: " " * len(found.group()), text)


def _languages(languages: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*languages, "en")))


def _preceded_by(before: list[str], phrases: tuple[str, ...]) -> str | None:
    """The phrase of `phrases` that the words `before` end with, or None."""
    joined = " ".join(before)
    return next((p for p in phrases if joined == p or joined.endswith(" " + p)), None)


def cue(text: str, start: int, end: int, languages: tuple[str, ...] = ("en",)) -> Cue:
    """How strongly `text[start:end]`, and the word before it, say that they name a time.

    Args:
        text: the whole message.
        start: where the proposed reading begins.
        end: where it ends (exclusive).
        languages: the person's language first; English is always added.
    """
    span = text[start:end]
    first = _NUMBER.search(span)
    if first is not None:
        if _CURRENCY_BEFORE.search(text[: start + first.start()]):
            return "none"  # "$4.50", "€ 12,99"
        final = list(_NUMBER.finditer(span))[-1]
        if _UNIT_AFTER.match(text, start + final.end()):
            return "none"  # "7.30 percent", "4,20 ms"
        clock = span[max(0, final.start() - 1) : final.start()] == ":"  # "10:30 tandarts"
        if (
            not clock
            and (counted := _COUNTED.match(text, start + final.end()))
            and not any(
                fold(counted[1]) in WORDS.get(language, frozenset())
                for language in _languages(languages)
            )
        ):
            return "none"  # "look at 3 options": a count of things
    if _CLOCK_FORM.search(span) or _DATE_FORM.search(span):
        return "strong"
    languages = _languages(languages)
    for word in _WORD.findall(span):
        folded = fold(word)
        # "d'heure", "un'ora", "'s middags": the word after the apostrophe counts too.
        parts = {folded, *re.split("['’]", folded)}
        if any(parts & WORDS.get(language, frozenset()) for language in languages):
            return "strong"
        if folded in _SHORT_DAYS and word[0].isupper():
            return "strong"
    hour_word = next((w for w in _WORD.finditer(span) if fold(w.group()) in HOUR_WORDS), None)
    begins = min((found.start() for found in (first, hour_word) if found is not None), default=None)
    if begins is None:
        return "none"
    written = _WORD.findall(text[max(0, start - 40) : start]) + _WORD.findall(span[:begins])
    last = written[-1].lower() if written else ""
    before = [fold(w) for w in written[-3:]]
    day = int(re.split("[.,]", first.group())[0]) if first is not None else 0
    for language in languages:
        if phrase := _preceded_by(before, _PREPOSITIONS.get(language, ())):
            # "a" is weak ("a 10 minutos"), "à" and "a las" are not.
            return "weak" if " " not in phrase and last in _WEAK_PREPOSITIONS else "strong"
        if 1 <= day <= 31 and _preceded_by(before, _DAY_ARTICLES.get(language, ())) is not None:
            return "strong" if language != "en" else "weak"
    return "weak" if last in _WEAK_PREPOSITIONS else "none"


# A distance or a count right before "in 25 minutes": a pace, not a time ("I ran 5 km in
# 25 minutes"). Only units of what people time themselves doing, so "take 2 pills in 30
# minutes" stays a reminder.
_MEASURE_BEFORE = re.compile(
    r"(?<!\d)\d+(?:[.,]\d+)?\s*+(?:km|k|mi|miles?|m|meters?|metres?|meter|metros?|metri|"
    r"laps?|runden|vueltas|voltas|tours|giri|rondjes|pages?|seiten|paginas?|pagine)\s*+$",
    re.IGNORECASE,
)


def measured_before(text: str, start: int) -> bool:
    """Whether a duration at `start` follows a measured amount: "5 km in 25 minutes"."""
    return _MEASURE_BEFORE.search(fold(text[max(0, start - 30) : start])) is not None


# Words that join a time to its neighbours without saying anything about time.
_JOINING = word_set(
    """
    at on in the of by um am im an der die das den dem a à le la les l' el los las del al
    de du des di om op van het een alle all' il lo no na nos nas ao às as do da e y et und en
    and , -
    """
)
# Words that change a time beside them and that no reader here applies yet: "the end of
# Friday", "Ende Freitag", "fin de vendredi", "final del viernes", "fim de sexta".
_MODIFIERS = word_set(
    """
    end beginning start early late mid ende anfang mitte fin debut final finales principios
    mediados fim inicio meados fine inizio meta eind einde begin
    """
)
_WEEKDAY_STEMS = word_set(
    """
    montag dienstag mittwoch donnerstag freitag samstag sonntag maandag dinsdag woensdag
    donderdag vrijdag zaterdag zondag
    """
)
# Words that offer another time: "9am or 10am", "um 9 oder um 10".
_ALTERNATIVES = word_set("or oder ou o of oppure")
# Time words too loose to stand for a time beside one ("new", "eve", "h", "min", "am").
_LOOSE = frozenset({"new", "eve", "h", "min", "am", "pm", "ago", "a.m.", "p.m.", "depois"})
# The word that says a zone follows ("15 Uhr New Yorker Zeit", "a las 15:00 hora de...").
_ZONE_MARKERS = frozenset({"time", "zeit", "hora", "heure", "horario", "ora", "tijd"})


def time_word_beside(
    text: str, start: int, end: int, languages: tuple[str, ...] = ("en",)
) -> str | None:
    """A time word next to `text[start:end]`, across joining words, that it did not read.

    "Freitagabend um 7" read as "um 7" leaves "Freitagabend"; "um 11 Uhr nachts"
    read as "um 11 Uhr" leaves "nachts". Such a reading is not whole.
    """
    languages = _languages(languages)
    words = list(_WORD.finditer(text))
    before = [w for w in words if w.end() <= start][::-1]
    after = [w for w in words if w.start() >= end]
    for side in (before, after):
        for word in side:
            folded = fold(word.group())
            if folded in _JOINING:
                continue
            if _is_time_word(folded, languages):
                return word.group()
            if side is after and folded in _ALTERNATIVES:
                # "the 31st or the 1st": the alternative past its article.
                ahead = text[word.end() :].split()[:3]
                following = [w for w in ahead if fold(w) not in _JOINING][:1]
                if following and (
                    any(c.isdigit() for c in following[0])
                    or _is_time_word(fold(following[0]), languages)
                ):
                    return f"{word.group()} {following[0]}"  # "9am or 10am": which?
            break
    for word in _WORD.finditer(text, start, end):  # "by the end of Friday"
        if fold(word.group()) in _MODIFIERS:
            return word.group()
    # "um 15 Uhr New Yorker Zeit": a zone a few words on; "a las 15:00 hora de Nueva York",
    # "à 15h heure de New York": the reading ends on the word that says a place follows.
    for word in after[:4]:
        if fold(word.group()) in _ZONE_MARKERS:
            return word.group()
    inside = list(_WORD.finditer(text, start, end))
    place = _PLACE_FOLLOWS.match(text, end)
    if inside and place is not None and fold(inside[-1].group()) in _ZONE_MARKERS:
        return text[inside[-1].start() : place.end()]
    return None


_PLACE_FOLLOWS = re.compile(r"\s+(?:de|di|do|da|van|of)\s+[A-ZÀ-Ý]\w*")


def _is_time_word(folded: str, languages: tuple[str, ...]) -> bool:
    parts = {folded, *re.split("['’]", folded)} - _LOOSE
    if parts & _MODIFIERS or any(folded.startswith(stem) for stem in _WEEKDAY_STEMS):
        return True
    return any(parts & WORDS.get(language, frozenset()) for language in languages)


# Duckling's time grows steeply with the time tokens (numbers, time words) it reads
# together: "12 " twenty-one times took 35 s, "tomorrow " ten times 3 s (measured,
# pyduckling-native-phihos 0.3); six take well under 30 ms. It reads windows around cues.
MOST_NUMBERS = 8
"""The most numbers a text may hold for the written-date fallback to read it."""
MOST_TOKENS = 6
"""The most time tokens one window Duckling reads may hold."""
MOST_WINDOWS = 4
"""The most windows of one text Duckling reads."""
_WINDOW_REACH = 40
_NUMBERS = re.compile(r"\d+")


def windows(text: str, languages: tuple[str, ...] = ("en",)) -> list[tuple[int, int]]:
    """Where in `text` Duckling may read: the whole of it, or windows around its cues.

    Each window is a span (start, end) that reaches `_WINDOW_REACH` characters
    either side of a cue (a clock form, a written date or a time word) and
    holds at most `MOST_TOKENS` time tokens, those nearest the cue; at most
    `MOST_WINDOWS` windows, the first. A short text with few tokens is read
    whole. The caller hands Duckling each window's text alone and moves what
    it finds by the window's start: Duckling's time grows with the length of
    what it is given, blanks included (a window blanked out to 4,200
    characters took 100 ms; cut out, 12 ms).
    """
    languages = _languages(languages)
    words = [
        w.span()
        for w in _WORD.finditer(text)
        if any(fold(w.group()) in WORDS.get(language, frozenset()) for language in languages)
    ]
    # Numbers written as words count as tokens in every language, not only the message's:
    # "tomorrow at nine, " six times read whole took Duckling 26 s, "at thirteen fifteen, "
    # seven times 11 s (docs/SECURITY.md).
    hours = [w.span() for w in _WORD.finditer(text) if _is_number_word(fold(w.group()))]
    tokens = sorted({*(m.span() for m in _NUMBERS.finditer(text)), *words, *hours})
    if len(tokens) <= MOST_TOKENS and len(text) <= 400:
        return [(0, len(text))]
    anchors = [m.span() for m in _CLOCK_FORM.finditer(text)]
    anchors += [m.span() for m in _DATE_FORM.finditer(text)] + words
    spans: list[tuple[int, int]] = []
    for start, end in sorted(anchors):
        if spans and start < spans[-1][1]:
            continue  # inside the last window
        near = [t for t in tokens if start - _WINDOW_REACH <= t[0] and t[1] <= end + _WINDOW_REACH]
        near = sorted(near, key=lambda t: max(start - t[1], t[0] - end, 0))[:MOST_TOKENS]
        first = min([start, *(t[0] for t in near)])
        last = max([end, *(t[1] for t in near)])
        spans.append((first, last))
        if len(spans) == MOST_WINDOWS:
            break
    return spans


# Every word that could make a number near it a time, in any of the seven languages: the
# time words, weekday abbreviations, hours as words and the words too loose to count alone.
_ANY_TIME_WORD = (
    frozenset().union(*WORDS.values())
    | _SHORT_DAYS
    | HOUR_WORDS
    | word_set(
        """
    h min mins am pm ish o'clock oclock noon midday midnight
    """
    )
)
_ANY_PREPOSITION_SET = frozenset(
    p for phrases in (*_PREPOSITIONS.values(), *_DAY_ARTICLES.values()) for p in phrases
)
# A count of people after a number is no time ("the 28 people said yes").
_PEOPLE = re.compile(r"\s+(?:people|leute|personas|pessoas|persone|personnes|mensen)\b")
# Words apart for a set test: punctuation is a space ("tomorrow," is "tomorrow"), and a number
# ends a word ("um9" holds "um").
_SPACES = str.maketrans(dict.fromkeys(',.;:!?()[]{}"“”«»/\\<>*_=+&~|0123456789', " "))
_DIGITS = re.compile(r"\d+")
_APOSTROPHE_NUMBER = re.compile(r"['’]\s*\d")
# Two numbers side by side or joined by a sign ("2-3", "4.50", "1 1": day and month to the
# written-date fallback), "7p", military time with its leading zero ("0930"), and a number
# written against a letter ("2026年3月29日", "9u30").
_SEPARATED = re.compile(
    r"\d(?:\s*[-–—:/.,]\s*|\s+)\d|\d\s*[ap]\b|\b0\d[0-5]\d\b|\d[^\W\d_]|[^\W\d_]\d"
)
_TIME_SHAPE = re.compile(
    "|".join(p.pattern for p in (_CLOCK_FORM, _DATE_FORM, _SEPARATED)), re.IGNORECASE
)


def no_number_is_a_time(
    text: str, *, also: frozenset[str] = frozenset(), before: frozenset[str] = frozenset()
) -> bool:
    """Whether `text`, which holds digits, cannot name a time: every number in it is bare.

    The relevance question asks this of every message before any reader runs
    ("order 12345 shipped", "message 5 about the project"). True only when no
    reading could pass the cue rule: no clock form or written date, no time
    word of any of the seven languages, no two numbers joined by a sign ("2-3",
    "4.50"), and no number after a word that may make it a time ("at", "um",
    "a", "in", "the"…). Anything else is left to the readers. `also` and
    `before`: more words that may make a number a time, anywhere or right
    before it (folded), the grammar's and the leftover scanner's.
    """
    low = text.lower()
    if ("'" in low or "’" in low) and _APOSTROPHE_NUMBER.search(low):
        return False  # "all'8": left to the readers
    written = low.translate(_SPACES).split()
    if not low.isascii():
        written = [fold(w) for w in written]
    if "'" in low or "’" in low:  # "d'heure", "'s avonds": the words after it count too
        written += [part for word in written for part in re.split("['’]", word)]
    if not _ANY_TIME_WORD.isdisjoint(written) or not also.isdisjoint(written):
        return False
    for number in _DIGITS.finditer(low):
        start, end = number.span()
        if _TIME_SHAPE.search(low, max(0, start - 4), end + 16):
            return False  # a clock form or a written date holds the number
        if _COUNTED.match(low, end) or _PEOPLE.match(low, end):
            continue  # "the 28 people": a count of things (and no time word in the message)
        last = [fold(w) for w in low[max(0, start - 40) : start].translate(_SPACES).split()[-5:]]
        if last and last[-1] in _WEAK_PREPOSITIONS:
            return False
        ends = {" ".join(last[-k:]) for k in range(1, len(last) + 1)}
        if not ends.isdisjoint(_ANY_PREPOSITION_SET) or not ends.isdisjoint(before):
            return False
    return True
