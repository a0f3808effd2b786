"""Reading choices made where the anchoring rules are silent (docs/time-rules.md, "What people see")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from clockcore import parse_anchored_time

REFERENCE = datetime(2026, 3, 7, 15, tzinfo=UTC)  # Saturday


def _start(text: str, tz: str | None = "UTC") -> str | None:
    result = parse_anchored_time(text, tz, REFERENCE)
    return result.to_dict()["start_instant"]  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("at 9", "2026-03-08T09:00:00+00:00"),  # waking hour: morning
        ("at 5", "2026-03-07T17:00:00+00:00"),  # 1–6: afternoon/evening
        ("tomorrow at 5", "2026-03-08T17:00:00+00:00"),
        ("tomorrow morning at 5", "2026-03-08T05:00:00+00:00"),
        ("tonight at 9", "2026-03-07T21:00:00+00:00"),
        ("friday afternoon at 2", "2026-03-13T14:00:00+00:00"),
        ("at 12", "2026-03-08T12:00:00+00:00"),
        ("at 0", "2026-03-08T00:00:00+00:00"),
        ("at 18", "2026-03-07T18:00:00+00:00"),
        ("5 o'clock", "2026-03-07T17:00:00+00:00"),
        ("5am", "2026-03-08T05:00:00+00:00"),
    ],
)
def test_bare_hours_read_as_waking_hours(text: str, expected: str) -> None:
    assert _start(text) == expected


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("tomorrow morning", "2026-03-08T09:00:00+00:00"),
        ("tonight", "2026-03-07T20:00:00+00:00"),
        ("friday evening", "2026-03-13T19:00:00+00:00"),
    ],
)
def test_periods_are_their_documented_hour(text: str, start: str) -> None:
    # docs/time-rules.md, "Parts of the day": a reminder fires at the hour, not the span's edge.
    parsed = parse_anchored_time(text, "UTC", REFERENCE).to_dict()
    assert (parsed["start_instant"], parsed["end_instant"]) == (start, start)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("at 9 in Portland, Oregon", "America/Los_Angeles"),
        ("9am Portland, Maine time", "America/New_York"),
        ("at 9 in Paris, then lunch", "Europe/Paris"),
        ("see you in New York tomorrow at 5", "America/New_York"),
    ],
)
def test_places_with_a_region_after_a_comma(text: str, zone: str) -> None:
    parsed = parse_anchored_time(text, None, REFERENCE)
    assert parsed.zone == zone
    assert parsed.zone_source == "text"
    assert parsed.start_instant is not None


def test_ambiguous_place_asks_which() -> None:
    parsed = parse_anchored_time("at 9 in Portland", "Europe/Berlin", REFERENCE)
    assert parsed.needs_clarification
    assert parsed.start_instant is None
    assert "America/Los_Angeles" in (parsed.clarification_question or "")
    assert "America/New_York" in (parsed.clarification_question or "")


@pytest.mark.parametrize(
    ("text", "tz", "start", "end"),
    [
        ("8. März 2026", "Europe/Berlin", "2026-03-08T00:00:00+01:00", "2026-03-09T00:00:00+01:00"),
        ("le 3 mars 2027 à 14h", "Europe/Paris", "2027-03-03T14:00:00+01:00", None),
        (
            "2026年3月29日",
            "Europe/London",
            "2026-03-29T00:00:00+00:00",
            "2026-03-30T00:00:00+01:00",
        ),
    ],
)
def test_written_dates_outside_the_grammar_fall_back_to_dateparser(
    text: str, tz: str, start: str, end: str | None
) -> None:
    parsed = parse_anchored_time(text, tz, REFERENCE).to_dict()
    assert parsed["kind"] == "absolute"
    assert parsed["start_instant"] == start
    assert parsed["end_instant"] == (end or start)


def test_fallback_never_maps_an_abbreviation() -> None:
    parsed = parse_anchored_time("9 Uhr MEZ", "Europe/Berlin", REFERENCE)
    assert parsed.needs_clarification
    assert parsed.start_instant is None
    assert "MEZ" in (parsed.clarification_question or "")


def test_fallback_without_a_zone_is_floating() -> None:
    parsed = parse_anchored_time("8. März 2026", None, REFERENCE)
    assert parsed.kind == "floating"
    assert parsed.needs_clarification


def test_huge_text_is_read_in_bounded_time_and_never_raises() -> None:
    text = "blah " * 100_000 + "tomorrow at 9"
    parsed = parse_anchored_time(text, "UTC", REFERENCE)
    assert parsed.kind == "invalid"  # past the 4,000-character read limit
    assert parse_anchored_time("tomorrow at 9 " + text, "UTC", REFERENCE).kind == "absolute"


@pytest.mark.parametrize("text", ["in 1.5 months", "in 99999999 years", "in 10000000 days"])
def test_unusable_durations_are_invalid(text: str) -> None:
    parsed = parse_anchored_time(text, "UTC", REFERENCE)
    assert parsed.kind == "invalid"
    assert parsed.reason


def test_fractional_days_are_exact_hours() -> None:
    assert _start("in 1.5 days", None) == "2026-03-09T03:00:00+00:00"
