"""The scanner's cheap first look must never hide an expression the grammar reads."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clockcore import find_time_expressions, parse_anchored_time
from clockcore.parsing.grammar import group_tokens, has_time_words, scan_text

REFERENCE = datetime(2026, 3, 7, 15, tzinfo=UTC)

READABLE = [
    "tomorrow 9am", "in a day", "in half an hour", "in an hour and a half", "in 2 wks",
    "in 3 secs", "noon", "midnight", "tonight", "this evening on friday", "the 15th",
    "Dec 31", "31 December 2026", "2026-12-31", "on 12/31", "yesterday", "tmrw at 5",
    "the day after tomorrow", "in 2 months", "a year from now", "3 days ago", "21:00",
    "9 o'clock", "at 7", "10am Europe/London", "12pm UTC+9",
]  # fmt: skip


@pytest.mark.parametrize("text", READABLE)
def test_every_readable_phrase_passes_the_first_look(text: str) -> None:
    assert parse_anchored_time(text, "Europe/Berlin", REFERENCE).kind != "invalid"
    assert has_time_words(text)
    assert find_time_expressions(f"ok so {text} then") != []


@pytest.mark.parametrize(
    "text",
    ["I'm fine, it's ok", "sounds good", "see you there", "what's up?", "let me check after lunch"],
)
def test_plain_chat_stops_at_the_first_look(text: str) -> None:
    assert not has_time_words(text)
    assert find_time_expressions(text) == []


@given(st.text(max_size=200))
def test_first_look_never_hides_a_scanned_expression(text: str) -> None:
    """Whatever the scanner would find in a time group, the first look lets through."""
    groups = group_tokens(text, scan_text(text))
    timed = [g for g in groups if any(t.kind not in {"iana", "utc", "place", "abbr"} for t in g)]
    if timed and not any(t.kind == "offset" for g in timed for t in g):
        assert has_time_words(text)


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("meet friday at 3pm and again on Dec 31", ["friday at 3pm", "Dec 31"]),
        ("call at 9 in Sao Paulo please", ["at 9 in Sao Paulo"]),
        ("9am Tokyo time works", ["9am Tokyo time"]),
        ("look at 3 options", []),
        ("I have 5 apples", []),
    ],
)
def test_expression_spans(text: str, spans: list[str]) -> None:
    found = find_time_expressions(text)
    assert [e.text for e in found] == spans
    assert all(text[e.start : e.end] == e.text for e in found)


@pytest.mark.parametrize(
    ("language", "text", "spans"),
    [
        ("es", "recuérdame todos los días a las 8 de la noche la pastilla",
         ["todos los días a las 8 de la noche"]),
        ("es", "a las 8 de la noche, cada día, la pastilla", ["a las 8 de la noche, cada día"]),
        ("es", "recuérdame cada lunes a las 9 pagar", ["cada lunes a las 9"]),
        ("es", "recuérdame cada 2 horas beber agua", ["cada 2 horas"]),
        ("de", "erinnere mich jeden Tag um 20 Uhr", ["jeden Tag um 20 Uhr"]),
        ("fr", "rappelle-moi tous les jours à 20h", ["tous les jours à 20h"]),
        ("pt", "me lembra todos os dias às 20h", ["todos os dias às 20h"]),
        ("it", "ricordami ogni giorno alle 20", ["ogni giorno alle 20"]),
        ("nl", "herinner me elke dag om 20:00", ["elke dag om 20:00"]),
        # A repeat that touches no time is its own expression, as "every day" is.
        ("es", "a las 8 tomo café, todos los días no", ["a las 8", "todos los días"]),
        # A bound alone is no expression: "hasta" is also "see you" ("hasta luego").
        ("es", "hasta luego", []),
    ],
)  # fmt: skip
def test_a_repeat_is_read_with_its_frame(language: str, text: str, spans: list[str]) -> None:
    found = find_time_expressions(text, language=language)
    assert [e.text for e in found] == spans
    assert all(text[e.start : e.end] == e.text for e in found)
    assert all("recurrence" in e.parts for e in found if e.text != "a las 8")
