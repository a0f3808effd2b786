"""Two readers agree, or the person is asked: the agreement rule as a property.

docs/time-rules.md, "Two readers agree": where the grammar and Duckling both
read the same span of a message, a different instant is a question. Sentences
are written, in each of the seven languages, from the forms both readers know
(numeric dates, clock times, English day words) among the language's own
words; each reader's reading is taken alone, and whenever both read the same
span, a confident result must be the instant both read. A confident result
where they disagree is a silent misread.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clockcore import parse_anchored_time
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.parsing import duckling_reader
from clockcore.parsing.duckling_values import anchored
from clockcore.parsing.grammar import scan_text
from clockcore.parsing.second_reader import WORDS, readings
from clockcore.parsing.timeparse import reading_languages
from clockcore.reading import words
from clockcore.reading.number_order import day_first
from tests.clockcore.test_time_property import Chooser, Drawn, Seeded

pytestmark = pytest.mark.usefixtures("needs_duckling")

PER_LANGUAGE = 500
ZONES = ("Europe/Berlin", "America/New_York", "America/Sao_Paulo", "Europe/Lisbon", "UTC")
# Around the time: what people write before and after it, per language.
AROUND = {
    "en": (("", "remind me", "dentist", "call Anna"), ("", "please", "for the rent")),
    "de": (("", "erinnere mich", "Zahnarzt", "Termin"), ("", "bitte", "wegen der Miete")),
    "es": (("", "recuérdame", "dentista", "cita"), ("", "por favor", "para el alquiler")),
    "fr": (("", "rappelle-moi", "dentiste", "rdv"), ("", "stp", "pour le loyer")),
    "pt": (("", "me lembra", "dentista", "consulta"), ("", "por favor", "pro aluguel")),
    "it": (("", "ricordami", "dentista", "visita"), ("", "per favore", "per l'affitto")),
    "nl": (("", "herinner me", "tandarts", "afspraak"), ("", "alsjeblieft", "voor de huur")),
}


@dataclass(frozen=True)
class Both:
    """What each reader read alone, where they read the same span."""

    grammar: ParseResult
    duckling: ParseResult


@dataclass(frozen=True)
class Sentence:
    """A sentence and the local wall time it means (None: unknown, so only a question is safe)."""

    text: str
    meant: datetime | None


def _sentence(choose: Chooser, language: str, zone: str, now: datetime) -> Sentence:
    table = words.tables(language)
    today = now.astimezone(ZoneInfo(zone)).date()
    first, second, hour = choose.number(1, 28), choose.number(1, 12), choose.number(0, 23)
    minute = choose.pick([0, 5, 15, 30, 45, 59])
    twelve = hour % 12 or 12
    clocks = {
        f"{hour}:{minute:02d}": (hour, minute), f"{hour:02d}:{minute:02d}": (hour, minute),
        f"{twelve}pm": (hour % 12 + 12, 0), f"{twelve}:{minute:02d}am": (hour % 12, minute),
        f"{hour}h{minute:02d}" if minute else f"{hour}h": (hour, minute),
    }  # fmt: skip
    numeric = [f"{first}/{second}", f"{second}/{first}", f"{first}.{second}."]
    dates = [*numeric, f"{first}.{second}.2027", f"2027-{second:02d}-{first:02d}",
             f"{first}/{second}/2027", *ENGLISH_DAYS]  # fmt: skip
    written_date = choose.pick(dates)
    written_clock = choose.pick(list(clocks))
    at = choose.pick(("", *table.TIME_PREPOSITIONS))
    on = choose.pick(("", *(a for a in table.DAY_ARTICLES if not a.startswith("bis"))))
    shape = choose.pick(["date", "clock", "date clock", "clock date"])
    day = _day(written_date, language, zone, today) if "date" in shape else None
    clock = clocks[written_clock] if "clock" in shape else (0, 0)
    core = shape.replace("date", " ".join(p for p in (on, written_date) if p))
    core = core.replace("clock", " ".join(p for p in (at, written_clock) if p))
    before, after = AROUND[language]
    text = " ".join(p for p in (choose.pick(before), core, choose.pick(after)) if p)
    wall = datetime.combine(day or today, time(*clock), ZoneInfo(zone))
    if "date" not in shape and wall <= now:  # a clock time alone is its next occurrence
        wall = datetime.combine(today + timedelta(days=1), time(*clock), ZoneInfo(zone))
    dated = "date" in shape
    unknown = dated and (day is None or (wall <= now and "2027" not in written_date))
    return Sentence(text, None if unknown else wall)


ENGLISH_DAYS = ("today", "tomorrow", "Monday", "Friday", "on Saturday")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _day(written: str, language: str, zone: str, today: date) -> date | None:
    """The day a written date means under docs/time-rules.md, or None where it is not known."""
    word = written.split()[-1].lower()
    if word == "today":
        return today
    if word == "tomorrow":
        return today + timedelta(days=1)
    if word in _WEEKDAYS:  # its next occurrence; said on that weekday, a week on
        return today + timedelta(days=(_WEEKDAYS.index(word) - today.weekday()) % 7 or 7)
    if "-" in written:
        year, month, day = map(int, written.split("-"))
        return date(year, month, day)
    numbers = [int(n) for n in written.replace("/", ".").split(".") if n]
    a, b = numbers[:2]
    order = day_first(language, zone)
    if a > 12 or (b <= 12 and a != b and order):
        day, month = a, b
    elif b > 12 or a == b or order is False:
        day, month = b, a
    else:
        return None
    if len(numbers) == 3:
        return date(numbers[2], month, day) if b <= 12 or a <= 12 else None
    if month > 12:
        return None
    meant = date(today.year, month, day)
    return meant if meant >= today else date(today.year + 1, month, day)


@contextmanager
def _grammar_alone() -> Iterator[None]:
    duckling_reader.set_enabled(False)
    try:
        yield
    finally:
        duckling_reader.set_enabled(True)


def _content(text: str, span: tuple[int, int], language: str) -> list[str]:
    """The words of a span a reading must hold: glue ("at", "um", "le") left out."""
    table = words.tables(language)
    glue = {w for phrase in (*table.TIME_PREPOSITIONS, *table.DAY_ARTICLES) for w in phrase.split()}
    glue |= {"at", "on", "the"}
    return [w.lower() for w in WORDS.findall(text[span[0] : span[1]]) if w.lower() not in glue]


def both_read(text: str, language: str, zone: str, now: datetime) -> Both | None:
    """Each reader's reading alone, when both read the same span confidently; else None."""
    with _grammar_alone():
        ours = parse_anchored_time(text, zone, now, language=language)
    if ours.needs_clarification or ours.start_instant is None or ours.span is None:
        return None
    anchor = Anchor(ZoneInfo(zone), zone, "caller")
    languages = reading_languages(language)
    for reading in readings(text, scan_text(text), anchor, now, languages):
        theirs = anchored(reading, anchor, now)
        if theirs.needs_clarification or theirs.start_instant is None or theirs.span is None:
            continue
        if _content(text, theirs.span, language) == _content(text, ours.span, language):
            return Both(ours, theirs)
    return None


def silent_disagreement(sentence: Sentence, language: str, zone: str, now: datetime) -> str:
    """ "" unless both readers read the same span, disagree, and the result is not as meant."""
    both = both_read(sentence.text, language, zone, now)
    if both is None or both.grammar.start_instant == both.duckling.start_instant:
        return ""
    found = parse_anchored_time(sentence.text, zone, now, language=language)
    if found.needs_clarification or found.start_instant is None:
        return ""
    if sentence.meant is not None and found.start_instant == sentence.meant.astimezone(UTC):
        return ""
    tz = ZoneInfo(zone)
    seen = sorted(
        f"{i.astimezone(tz):%Y-%m-%d %H:%M}"
        for i in (both.grammar.start_instant, both.duckling.start_instant)
        if i is not None
    )
    meant = f"{sentence.meant:%Y-%m-%d %H:%M}" if sentence.meant else "a question"
    return (
        f"{sentence.text!r} ({language}, {zone}, said {now.astimezone(tz):%a %Y-%m-%d %H:%M}): "
        f"the readers read {seen}, the result is "
        f"{found.start_instant.astimezone(tz):%Y-%m-%d %H:%M}, meant {meant}"
    )


@pytest.mark.parametrize("language", words.LANGUAGES)
@settings(
    max_examples=PER_LANGUAGE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_where_the_readers_disagree_the_result_is_a_question_or_as_written(
    language: str, data: st.DataObject
) -> None:
    choose = Drawn(data)
    zone = choose.pick(ZONES)
    day = date(2026, 1, 1) + timedelta(days=choose.number(0, 729))
    now = datetime.combine(day, time(choose.number(0, 23), 30), ZoneInfo(zone)).astimezone(UTC)
    problem = silent_disagreement(_sentence(choose, language, zone, now), language, zone, now)
    assert problem == "", problem


def test_the_sentences_hold_disagreements_to_settle() -> None:
    # The property is not vacuous: both readers read a span, and disagree on some of them.
    choose = Seeded(60)
    both = disagree = 0
    for language in ("en", "de", "fr"):
        for _ in range(100):
            zone = choose.pick(ZONES)
            now = datetime(2026, 11, 26, 9, 30, tzinfo=ZoneInfo(zone)).astimezone(UTC)
            found = both_read(_sentence(choose, language, zone, now).text, language, zone, now)
            both += found is not None
            disagree += (
                found is not None and found.grammar.start_instant != found.duckling.start_instant
            )
    assert both >= 100
    assert disagree >= 5
