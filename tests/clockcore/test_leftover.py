"""Nothing time-like left over: the leftover rule as properties (docs/time-rules.md).

A sentence with a reading gets a time-like part inserted (a weekday, a date, a
clock time, a start word with a number…), taken from any of the seven
languages' words files whatever the sentence's language. The result is a
question, or a reading that holds the new part; never the old reading with the
new part silently beside it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from clockcore import parse_anchored_time
from clockcore.reading import words
from clockcore.reading.leftover import left_beside, time_like_parts, unclear_approximation
from tests.clockcore.test_time_property import Chooser, Drawn, Seeded
from tests.clockcore.test_time_property_languages import LANGUAGES, written
from tests.support.time_corpus import REFERENCE, ZONE, all_sentences, judge

PER_LANGUAGE = 500


@dataclass(frozen=True)
class Inserted:
    """A time-like part to insert: its text, and the piece of it a reading must hold."""

    text: str
    core: tuple[int, int]  # within `text`


def _whole(text: str) -> Inserted:
    return Inserted(text, (0, len(text)))


def _number_after(word: str, number: str) -> Inserted:
    """ "um 9": only the number need be read (the word only says it is a time)."""
    text = f"{word} {number}"
    return Inserted(text, (len(word) + 1, len(text)))


def inserted(choose: Chooser) -> Inserted:
    """A time-like part from any language's words, or a number written as a date or a time."""
    language = words.tables(choose.pick(words.LANGUAGES))
    day, hour, minute = choose.number(1, 28), choose.number(1, 23), choose.pick([0, 15, 30, 45])
    kind = choose.pick(["word", "month", "loose", "shape", "hour", "range", "marked"])
    if kind == "word":
        return _whole(choose.pick(language.WEEKDAYS + language.DAY_WORDS + language.PARTS_OF_DAY))
    if kind == "month":
        month = choose.pick(language.MONTHS)
        return _whole(choose.pick([f"{day} {month}", f"{month} {day}", month]))
    if kind == "loose":
        loose = choose.pick(words.table("LOOSE"))
        return _whole(choose.pick([f"{loose} {day}", f"{day} {loose}"]))
    if kind == "shape":
        month = choose.number(1, 12)
        shapes = [
            f"{day}.{month}.", f"{day}/{month}", f"{day}-{month}", f"2027-{month:02d}-{day:02d}",
            f"{day}.{month}.2027", f"{hour}:{minute:02d}", f"0{hour % 10}{minute:02d}",
            f"{hour}h", f"{hour}h{minute:02d}", f"{hour} Uhr", f"{hour}u", f"{hour} uur",
            f"{hour % 12 or 12}pm", f"{hour % 12 or 12}p", f"{hour % 12 or 12}ish", f"{day}th",
        ]  # fmt: skip
        return _whole(choose.pick(shapes))
    if kind == "hour":
        return _whole(f"{choose.pick(language.HOUR_WORDS)} {choose.pick(language.CLOCK_WORDS)}")
    number = choose.pick([str(hour), f"{hour}:{minute:02d}", choose.pick(language.HOUR_WORDS)])
    if kind == "range":
        return _whole(f"{choose.pick(language.RANGE_WORDS)} {number}")
    prepositions = language.TIME_PREPOSITIONS + language.APPROXIMATIONS
    return _number_after(choose.pick(prepositions), number)


def _insert(text: str, part: Inserted, choose: Chooser) -> tuple[str, tuple[int, int]]:
    """`text` with `part` between two of its words; and where the part's core now stands."""
    spaces = [0, *(i + 1 for i, c in enumerate(text) if c == " "), len(text) + 1]
    at = min(choose.pick(spaces), len(text))
    before, after = text[:at].rstrip(), text[at:].lstrip()
    joined = " ".join(p for p in (before, part.text, after) if p)
    start = len(before) + 1 if before else 0
    return joined, (start + part.core[0], start + part.core[1])


def silently_beside(text: str, core: tuple[int, int], language: str, zone: str, now: object) -> str:
    """ "" when the result asks or reads the inserted core; else what went wrong."""
    found = parse_anchored_time(text, zone, now, language=language)  # type: ignore[arg-type]
    if found.needs_clarification or found.start_instant is None:
        return ""
    if found.span is not None and found.span[0] <= core[0] and core[1] <= found.span[1]:
        return ""
    return f"{text!r} ({language}): read {found.matched_text!r}, beside {text[core[0] : core[1]]!r}"


@pytest.mark.parametrize("code", sorted(LANGUAGES))
@settings(
    max_examples=PER_LANGUAGE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_a_time_like_part_beside_a_reading_is_read_or_asked(code: str, data: st.DataObject) -> None:
    choose = Drawn(data)
    sentence = written(choose, code)
    assume(sentence.meant is not None)
    text, core = _insert(sentence.text, inserted(choose), choose)
    problem = silently_beside(text, core, code, sentence.zone, sentence.reference)
    assert problem == "", problem


def test_every_corpus_reading_with_a_part_inserted_is_read_or_asked() -> None:
    # The mutation property over the whole team corpus: three insertions a sentence.
    choose = Seeded(60)
    problems = []
    started = time.perf_counter()
    for sentence in all_sentences():
        if sentence.meaning != "time":
            continue
        verdict, _ = judge(sentence)
        if verdict != "read":
            continue
        for _ in range(3):
            text, core = _insert(sentence.text, inserted(choose), choose)
            if problem := silently_beside(text, core, sentence.language, ZONE, REFERENCE):
                problems.append(f"{sentence.where}: {problem}")
    assert problems == [], "\n".join(
        [f"{len(problems)} in {time.perf_counter() - started:.0f}s", *problems]
    )


def test_each_language_defines_the_same_tables() -> None:
    for language in words.LANGUAGES:
        module = words.tables(language)
        defined = {name for name in vars(module) if name.isupper()}
        assert defined == set(words.TABLES), language
        for name in words.TABLES:
            table = getattr(module, name)
            assert isinstance(table, tuple), (language, name)
            assert all(isinstance(w, str) and w == w.strip() and w for w in table)


@pytest.mark.parametrize(
    ("text", "span", "left"),
    [
        ("Donnerstag ab 9:30", (14, 18), "Donnerstag"),
        ("Termin ab 9:30", (10, 14), "ab 9:30"),
        ("le 17/12 à partir de 9h", (3, 8), "à partir de 9"),
        ("giovedì dalle 9:30", (14, 18), "giovedì"),
        ("tomorrow at 9, or Friday", (0, 13), "Friday"),
        ("at 9 on 3.2.", (0, 4), "3.2."),
        ("call me at 9 after lunch", (8, 12), "after lunch"),  # a meal: no hour of its own
        ("message 5 about the project at 9", (30, 32), None),
        ("de 15e", (0, 5), None),
        ("we sat down at 9", (13, 16), None),
        ("the Sat 5 slot at 9", (15, 19), "Sat 5"),
        ("Freitagabend um 7", (13, 17), "Freitagabend"),
    ],
)
def test_the_scanner_finds_what_a_reading_left(
    text: str, span: tuple[int, int], left: str | None
) -> None:
    assert left_beside(text, span) == left


@pytest.mark.parametrize(
    ("text", "unclear"),
    [
        ("around 6ish tomorrow", "around 6"),
        ("morgen so gegen 6", "so gegen 6"),
        ("around 5", "around 5"),
        ("around 4pm", None),
        ("gegen 17 Uhr", None),
        ("around 3ish this afternoon", None),
        ("in about 5 minutes", None),
        ("vers 16h", None),
    ],
)
def test_an_approximate_hour_without_its_half_of_the_day_is_unclear(
    text: str, unclear: str | None
) -> None:
    assert unclear_approximation(text) == unclear


def test_parts_are_in_order() -> None:
    parts = time_like_parts("Montag 3.2. ab 9:30 oder Dienstag")
    assert [p.start for p in parts] == sorted(p.start for p in parts)


# The issue's sentences, said on Thursday 2026-11-26 at 10:00 in Berlin: read as meant
# ("DD HH:MM" of Nov/Dec 2026 or "YYYY-MM-DD HH:MM"), or asked ("ask").
ISSUE_SENTENCES = [
    ("de", "Termin am 3.2. ab 9:30", "2027-02-03 09:30"),
    ("de", "Donnerstag ab 9:30", "2026-12-03 09:30"),
    ("fr", "le 17/12 à partir de 9h", "2026-12-17 09:00"),
    ("it", "giovedì dalle 9:30", "2026-12-03 09:30"),
    ("nl", "donderdag vanaf 9:30", "2026-12-03 09:30"),
    ("fr", "jeudi après 9h30", "ask"),
    ("en", "from 6pm", "2026-11-26 18:00"),
    ("de", "morgen ab 18 Uhr", "2026-11-27 18:00"),
    ("fr", "demain à partir de 18h", "2026-11-27 18:00"),
    ("en", "around 6ish tomorrow", "ask"),
    ("de", "morgen so gegen 6", "ask"),
    ("de", "gegen 17 Uhr", "2026-11-26 17:00"),
    ("en", "dentist 7 Jan 1045", "2027-01-07 10:45"),
    ("en", "tomorrow at 9 or from 6pm", "ask"),
    ("en", "until 5pm", "ask"),
]


@pytest.mark.parametrize(("language", "text", "meant"), ISSUE_SENTENCES)
def test_the_issues_sentences_are_read_as_meant_or_asked(
    language: str, text: str, meant: str
) -> None:
    found = parse_anchored_time(text, ZONE, REFERENCE, language=language)
    if meant == "ask":
        assert found.needs_clarification, found
        return
    assert not found.needs_clarification, found.clarification_question
    assert found.start_instant is not None
    local = found.start_instant.astimezone(ZoneInfo(ZONE))
    assert f"{local:%Y-%m-%d %H:%M}" == meant


@pytest.mark.parametrize(
    ("text", "language"), [("a mezzogiorno 1", "it"), ("à midi 30", "fr"), ("at noon 5", "en")]
)
def test_a_bare_number_after_noon_is_no_minute(text: str, language: str) -> None:
    # Duckling read "a mezzogiorno 1" as 12:01 (found by the mutation property above).
    read = parse_anchored_time(text, ZONE, REFERENCE, language=language)
    assert read.needs_clarification and read.start_instant is None, read
