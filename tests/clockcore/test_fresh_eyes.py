"""What a new user found that was read as a confident wrong time (issue 60), as rules.

Each class holds in the seven languages: a misspelt day word beside a time, a
meal, "next Monday", a time in words with pm, a day word said in the small
hours, a day-first written date, an approximate hour, "this afternoon", a
24-hour form said at its own hour, an open range's start. The sentences are
our own (docs/time-rules.md has the rules). Session zone Europe/Berlin.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockcore import ParseResult, locate_time, parse_anchored_time
from clockcore.reading import typos, words
from clockcore.reading.leftover import folded

pytestmark = pytest.mark.usefixtures("needs_duckling")

BERLIN = ZoneInfo("Europe/Berlin")
TUESDAY = datetime(2026, 12, 1, 18, 10, tzinfo=BERLIN)  # the new user's evening
THURSDAY = datetime(2026, 11, 26, 10, 0, tzinfo=BERLIN)


def _read(language: str, text: str, now: datetime = TUESDAY) -> ParseResult:
    return parse_anchored_time(text, "Europe/Berlin", now, language=language)


def _at(month: int, day: int, hour: int = 0, minute: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=BERLIN).astimezone(UTC)


def _asked(found: ParseResult) -> bool:
    return found.needs_clarification and found.start_instant is None


# 1. A misspelt day word beside a time is asked about, in every language.
MISSPELT = [
    ("en", "remind me tmorrow at 8pm to call Kim"),
    ("en", "call the bank tmorow at 9"),
    ("de", "erinnere mich morgn um 20 Uhr an Kim"),
    ("de", "morgne um 9 zum Arzt"),
    ("es", "recuérdame mñana a las 8 de la noche llamar a Kim"),
    ("fr", "rappelle-moi demian à 10h d'appeler Sam"),
    ("it", "ricordami domni alle 20 di chiamare Kim"),
    ("pt", "lembra-me amnhã às 10 de ligar ao Sam"),
    ("nl", "herinner me morgne om 20 uur aan Kim"),
]


@pytest.mark.parametrize(("language", "text"), MISSPELT)
def test_a_misspelt_day_beside_a_time_is_asked_and_never_located_whole(
    language: str, text: str
) -> None:
    assert _asked(_read(language, text))
    found = locate_time(text, language=language)
    # The rules agent reads a whole span alone ("at 8pm": today): it must not be whole.
    assert found is None or not found.whole


_LONG_DAYS = sorted(
    {w for w in map(folded, words.table("DAY_WORDS") + words.table("WEEKDAYS")) if len(w) >= 7}
    - {
        w
        for w in map(folded, words.table("DAY_WORDS") + words.table("WEEKDAYS"))
        if not w.isalpha()
    }
)  # one word of seven letters or more: "übermorgen", "thursday"


@settings(max_examples=200, deadline=None)
@given(
    day=st.sampled_from(_LONG_DAYS),
    edits=st.lists(st.tuples(st.integers(1, 20), st.sampled_from("aeiourstn")), min_size=1,
                   max_size=2),
)  # fmt: skip
def test_any_day_word_one_or_two_letters_off_is_taken_for_that_day(
    day: str, edits: list[tuple[int, str]]
) -> None:
    """Two letters changed after the first of a long day word still make it a day."""
    word = day
    for at, letter in edits:
        at = 1 + at % (len(word) - 1)
        word = word[:at] + letter + word[at + 1 :]
    if folded(word) in typos.known_words() or word == day:
        return  # another real word of the tables, or the word itself
    assert typos.misspelt_day(f"{word} at 9", (len(word) + 1, len(word) + 5)) is not None


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "more at 9 please"),
        ("en", "in the morning at 9"),
        ("en", "I hope at 9 works"),
        ("en", "dinner with Morgan at 9"),  # a name inside the sentence
        ("en", "fridays at 9 are busy"),  # a plural is no typo
        ("de", "die Leute um 9"),
        ("es", "el segundo a las 9"),
        ("it", "ogni giorno alle 9 e anche alle 10"),
        ("pt", "o quarto às 9"),
        ("nl", "zonder haast om 9 uur"),
    ],
)
def test_real_words_near_a_day_word_are_not_asked_about_as_days(language: str, text: str) -> None:
    found = _read(language, text, THURSDAY)
    question = found.clarification_question or ""
    assert "beside it" not in question, question


def test_a_capitalised_word_that_opens_the_message_may_be_a_day_and_is_asked() -> None:
    """ "Morgan at 9": a name, or "morgen" capitalised as a message starts; asked."""
    assert _asked(_read("en", "Morgan at 9"))


# 2. A meal has no hour of its own: beside a reading it is a question, never 08:00.
_RANGE = {"en": "after", "de": "nach dem", "es": "después de", "fr": "après le",
          "it": "dopo", "pt": "depois do", "nl": "na de"}  # fmt: skip
_TOMORROW = {"en": "tomorrow", "de": "morgen", "es": "mañana", "fr": "demain",
             "it": "domani", "pt": "amanhã", "nl": "morgen"}  # fmt: skip


@pytest.mark.parametrize(
    ("language", "meal"),
    [(lang, meal) for lang in words.LANGUAGES for meal in words.tables(lang).MEALS],
)
def test_a_meal_beside_a_day_is_asked_in_every_language(language: str, meal: str) -> None:
    text = f"{_TOMORROW[language]} {_RANGE[language]} {meal}"
    found = _read(language, text)
    assert _asked(found), (text, found)


# 3. "next Monday" is the coming Monday, in every language (docs/time-rules.md).
NEXT_MONDAY = [
    ("en", "next monday at 9"),
    ("de", "nächsten Montag um 9"),
    ("es", "el lunes que viene a las 9"),
    ("es", "el próximo lunes a las 9"),
    ("fr", "lundi prochain à 9h"),
    ("it", "lunedì prossimo alle 9"),
    ("pt", "na segunda que vem às 9"),
    ("nl", "volgende maandag om 9 uur"),
]


@pytest.mark.parametrize(("language", "text"), NEXT_MONDAY)
def test_next_monday_is_the_coming_monday_in_every_language(language: str, text: str) -> None:
    assert _read(language, text).start_instant == _at(12, 7, 9)  # said on Tuesday 1 Dec
    assert _read(language, text, THURSDAY).start_instant == _at(11, 30, 9)


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "next tuesday at 9"), ("it", "martedì prossimo alle 9"),
     ("es", "el martes que viene a las 9"), ("pt", "na terça que vem às 9")],
)  # fmt: skip
def test_next_tuesday_said_on_a_tuesday_is_a_week_on(language: str, text: str) -> None:
    assert _read(language, text).start_instant == _at(12, 8, 9)


@pytest.mark.parametrize(
    ("language", "text", "hour", "minute"),
    [
        ("it", "domani alle 9 e mezza", 9, 30),
        ("it", "domani alle 8 e mezza di sera", 20, 30),
        ("it", "domani alle cinque e mezza del pomeriggio", 17, 30),
    ],
)
def test_italian_e_mezza_is_the_half_hour(language: str, text: str, hour: int, minute: int) -> None:
    assert _read(language, text).start_instant == _at(12, 2, hour, minute)


# 4. A time in words with pm: read as written or asked, never the morning.
@pytest.mark.parametrize(
    "text", ["tomorrow at seven thirty pm", "at seven fifteen pm", "tomorrow at eight thirty pm"]
)
def test_a_time_in_words_with_pm_is_never_read_in_the_morning(text: str) -> None:
    found = _read("en", text)
    local = found.start_instant.astimezone(BERLIN) if found.start_instant else None
    assert _asked(found) or (local is not None and local.hour >= 12), found


# 5. A day word in the small hours names two days: asked, with both as candidates.
@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "tomorrow at 9"), ("de", "morgen um 9"), ("es", "mañana a las 9"),
     ("fr", "demain à 9h"), ("it", "domani alle 9"), ("pt", "amanhã às 9"),
     ("nl", "morgen om 9 uur")],
)  # fmt: skip
def test_tomorrow_said_just_after_midnight_is_asked(language: str, text: str) -> None:
    found = _read(language, text, datetime(2026, 12, 2, 0, 20, tzinfo=BERLIN))
    assert _asked(found)
    assert found.candidates == (_at(12, 2, 9), _at(12, 3, 9))
    morning = _read(language, text, datetime(2026, 12, 2, 6, 0, tzinfo=BERLIN))
    assert morning.start_instant == _at(12, 3, 9)


# 6. Day-first written dates beside a time, and a room number that is no year.
@pytest.mark.parametrize(
    ("language", "text", "when"),
    [
        ("es", "el 24/12 a las 10", _at(12, 24, 10)),
        ("es", "recuérdame el 3/12 a las 14:00 pagar la renta", _at(12, 3, 14)),
        ("it", "il 3/2 alle 9", _at(2, 3, 9, year=2027)),
        ("it", "ricordami il 24/12 alle 21 di incartare i regali", _at(12, 24, 21)),
        ("pt", "dia 5/3 às 14h", _at(3, 5, 14, year=2027)),
        ("pt", "lembra-me no dia 24/12 às 21h de embrulhar os presentes", _at(12, 24, 21)),
    ],
)
def test_a_day_first_date_beside_a_time_is_read_whole(
    language: str, text: str, when: datetime
) -> None:
    found = _read(language, text)
    assert found.start_instant == when, found
    located = locate_time(text, language=language)
    assert located is not None and located.whole


@pytest.mark.parametrize(
    ("language", "text"),
    [("it", "ricordami della sala 1045 giovedì alle 15"), ("en", "thursday 1045"),
     ("de", "Donnerstag 1045")],
)  # fmt: skip
def test_four_digits_beside_a_weekday_are_never_a_year_long_past(language: str, text: str) -> None:
    found = _read(language, text)
    assert found.start_instant is None or found.start_instant.year == 2026, found


# 7. An approximate hour keeps its clock time; morning or evening open is a question.
@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "5ish"), ("en", "see you 5ish"), ("es", "a eso de las 5"),
     ("pt", "por volta das 5"), ("it", "verso le 5"), ("nl", "rond 5 uur"),
     ("de", "gegen 5 Uhr"), ("fr", "vers 5h")],
)  # fmt: skip
@pytest.mark.parametrize("now", [THURSDAY, TUESDAY])
def test_an_approximate_hour_that_may_be_morning_or_evening_is_asked(
    language: str, text: str, now: datetime
) -> None:
    assert _asked(_read(language, text, now))


@pytest.mark.parametrize(
    ("language", "text"), [("de", "gegen 17 Uhr"), ("nl", "rond 17:00"), ("en", "around 5pm")]
)
def test_an_approximate_hour_with_its_half_of_the_day_is_read(language: str, text: str) -> None:
    assert _read(language, text).start_instant == _at(12, 2, 17)


def test_about_a_count_is_no_time() -> None:
    assert _read("en", "there were about 5 of us").start_instant is None
    assert not _read("en", "there were about 5 of us").needs_clarification


# 8. "this afternoon", a 24-hour form said at its hour, an open range in Italian.
@pytest.mark.parametrize(
    ("text", "hour"), [("this morning", 11), ("this afternoon", 15), ("this evening", 20)]
)
def test_this_morning_afternoon_evening_are_read_in_english(text: str, hour: int) -> None:
    found = _read("en", f"remind me {text} to call", datetime(2026, 12, 1, 10, 20, tzinfo=BERLIN))
    assert found.start_instant == _at(12, 1, hour)


def test_a_24_hour_form_said_at_its_own_hour_is_its_next_occurrence() -> None:
    found = _read("fr", "à 10h", datetime(2026, 12, 1, 10, 0, tzinfo=BERLIN))
    assert found.start_instant == _at(12, 2, 10)


@pytest.mark.parametrize(
    ("text", "when"),
    [("dalle 18", _at(12, 2, 18)), ("domani dalle 18", _at(12, 2, 18)),
     ("ricordami dalle 9 di domani di lavorare al rapporto", _at(12, 2, 9))],
)  # fmt: skip
def test_an_italian_open_range_reads_its_start(text: str, when: datetime) -> None:
    assert _read("it", text).start_instant == when


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("el 1/12 a las 10", "es"),  # "12 a" was read as "12 am": Duckling's 22:00 stood
        ("el 1/12 a las 10 llamar", "es"),
        ("dia 1/12 as 10 ligar", "pt"),
    ],
)
def test_a_preposition_a_after_a_date_is_no_am(text: str, language: str) -> None:
    """Said at 18:10 on 1 December, "a las 10" on that day is 10:00 as written (passed: the
    tools ask), never 22:00."""
    said = datetime(2026, 12, 1, 17, 10, tzinfo=UTC)
    found = parse_anchored_time(text, "Europe/Madrid", said, language=language)
    if found.start_instant is not None and not found.needs_clarification:
        assert found.start_instant.astimezone(ZoneInfo("Europe/Madrid")).hour == 10


def test_a_lone_a_or_p_right_after_the_digits_is_still_am_or_pm() -> None:
    said = datetime(2026, 12, 1, 7, 10, tzinfo=UTC)
    found = parse_anchored_time("meet at 7p", "Europe/Madrid", said, language="en")
    assert found.start_instant is not None
    assert found.start_instant.astimezone(ZoneInfo("Europe/Madrid")).hour == 19
