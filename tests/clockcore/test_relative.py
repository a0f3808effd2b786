"""Durations from now in the six other languages, read by clockcore's own rule.

Hours and minutes are elapsed time; days and weeks keep the wall-clock time
across a DST change (Berlin springs forward on 2027-03-28).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clockcore import parse_anchored_time
from clockcore.parsing.relative import find_duration, from_now

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 26, 10, 0, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("language", "text", "minutes"),
    [
        ("es", "dentro de una hora", 60),
        ("es", "recuérdame en 3 horas y 20 minutos mover el coche", 200),
        ("es", "en un cuarto de hora", 15),
        ("es", "hace una hora", -60),
        ("de", "in einer halben Stunde", 30),
        ("de", "in 90 Minuten", 90),
        ("de", "vor einer Stunde", -60),
        ("fr", "dans 3 heures et 20 minutes", 200),
        ("fr", "dans un quart d'heure", 15),
        ("fr", "il y a une heure", -60),
        ("pt", "daqui a 20 minutos", 20),
        ("pt", "em meia hora", 30),
        ("pt", "há uma hora", -60),
        ("it", "tra mezz'ora", 30),
        ("it", "fra 90 minuti", 90),
        ("it", "un'ora fa", -60),
        ("nl", "over een kwartier", 15),
        ("nl", "over 3 uur en 20 minuten", 200),
        ("nl", "een uur geleden", -60),
    ],
)
def test_elapsed_time_from_now(language: str, text: str, minutes: int) -> None:
    found = parse_anchored_time(text, "Europe/Berlin", NOW, language=language)
    assert not found.needs_clarification, found.clarification_question
    assert found.start_instant == (NOW + timedelta(minutes=minutes)).astimezone(UTC)


@pytest.mark.parametrize(
    ("language", "text", "days"),
    [
        ("es", "dentro de una semana", 7),
        ("de", "in zwei Wochen", 14),
        ("fr", "dans 2 jours", 2),
        ("pt", "daqui a 2 dias", 2),
        ("it", "tra una settimana", 7),
        ("nl", "over een week", 7),
        ("de", "vor zwei Tagen", -2),
        ("it", "due giorni fa", -2),
        ("nl", "twee dagen geleden", -2),
    ],
)
def test_days_and_weeks_keep_the_wall_clock_time(language: str, text: str, days: int) -> None:
    found = parse_anchored_time(text, "Europe/Berlin", NOW, language=language)
    assert found.start_instant is not None
    local = found.start_instant.astimezone(BERLIN)
    assert (local.date() - NOW.date()).days == days
    assert (local.hour, local.minute) == (10, 0)


def test_a_week_across_the_spring_change_keeps_ten_o_clock() -> None:
    before = datetime(2027, 3, 25, 10, 0, tzinfo=BERLIN)
    found = parse_anchored_time("in einer Woche", "Europe/Berlin", before, language="de")
    assert found.start_instant == datetime(2027, 4, 1, 10, 0, tzinfo=BERLIN).astimezone(UTC)
    assert found.start_instant - before.astimezone(UTC) == timedelta(days=7, hours=-1)


def test_a_duration_beside_another_time_is_a_question() -> None:
    found = parse_anchored_time("mañana en 2 horas", "Europe/Berlin", NOW, language="es")
    assert found.needs_clarification
    assert found.start_instant is None


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("es", "fuimos en 3 coches"),
        ("it", "tra 10 e 20 scatole"),
        ("es", "en 2 horas o en 3 horas"),
        ("de", "in 1,5 Tagen"),
    ],
)
def test_no_single_duration(language: str, text: str) -> None:
    assert find_duration(text, language) is None


def test_a_pace_is_not_a_time() -> None:
    for language, text in [("en", "I ran 5 km in 25 minutes"), ("es", "corrí 5 km en 25 minutos")]:
        found = parse_anchored_time(text, "Europe/Berlin", NOW, language=language)
        assert found.kind == "invalid"
        assert not found.needs_clarification


def test_a_day_and_a_half_is_not_read_as_a_day() -> None:
    found = parse_anchored_time("in a day and a half", "Europe/Berlin", NOW)
    assert found.needs_clarification
    assert "and a half" in (found.clarification_question or "")


def test_and_is_not_a_day() -> None:
    found = parse_anchored_time("in 3 hours and 20 minutes", "Europe/Berlin", NOW)
    assert found.start_instant == (NOW + timedelta(hours=3, minutes=20)).astimezone(UTC)


UNIT_WORDS = {  # a bare span's unit in each language, and its minutes
    "es": {"minutos": 1, "horas": 60}, "de": {"Minuten": 1, "Stunden": 60},
    "fr": {"minutes": 1, "heures": 60}, "pt": {"minutos": 1, "horas": 60},
    "it": {"minuti": 1, "ore": 60}, "nl": {"minuten": 1, "uur": 60},
}  # fmt: skip


@given(
    language=st.sampled_from(sorted(UNIT_WORDS)),
    amount=st.integers(min_value=1, max_value=999),
    told=st.booleans(),
    data=st.data(),
)
def test_a_bare_span_is_said_as_english_reads_it(
    language: str, amount: int, told: bool, data: st.DataObject
) -> None:
    unit, minutes = data.draw(st.sampled_from(sorted(UNIT_WORDS[language].items())))
    said = from_now(f"{amount} {unit}", language if told else None)
    assert said == f"in {amount * minutes} minutes"
    assert parse_anchored_time(said, "UTC", NOW).kind == "relative"


@pytest.mark.parametrize(
    "text", ["friday", "10", "en 10 minutos", "10 minutos más tarde", "2 Tage und 3 Stunden", ""]
)
def test_anything_but_a_bare_span_is_none(text: str) -> None:
    assert from_now(text, "es") is None
