"""The scanner's cheap first look must never hide an expression the grammar reads."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clockcore import find_time_expressions, parse_anchored_time
from clockcore.grammar import group_tokens, has_time_words, scan_text

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
