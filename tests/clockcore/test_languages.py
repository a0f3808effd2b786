"""Times written in the person's language, with the platform's language as the hint.

Saturday 2026-03-07 10:00 in each zone; "tomorrow at 9" and "Monday at 15:30" in Spanish,
German, French, Portuguese, Italian and Dutch read as a person means them with the hint, and
without it are asked, never read as the whole day. English is always read too.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from clockcore import parse_anchored_time, primary_language

pytestmark = pytest.mark.usefixtures("needs_duckling")

ZONES = ["America/Sao_Paulo", "Europe/Madrid", "Asia/Kathmandu", "Pacific/Chatham"]
TOMORROW_AT_9 = {
    "es": "recuérdame mañana a las 9 llamar a mamá",
    "de": "erinnere mich morgen um 9 Uhr an die Bank",
    "fr": "rappelle-moi demain à 9h d'appeler maman",
    "pt": "me lembra amanhã às 9 de ligar pra mãe",
    "it": "ricordami domani alle 9 di chiamare la mamma",
    "nl": "herinner me morgen om 9 uur aan de bank",
}
MONDAY_AT_1530 = {
    "es": "el lunes a las 15:30",
    "de": "am Montag um 15:30",
    "fr": "lundi à 15h30",
    "pt": "segunda às 15:30",
    "it": "lunedì alle 15:30",
    "nl": "maandag om 15:30",
}


def _at(zone: str, day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), ZoneInfo(zone)).astimezone(UTC)


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize(("language", "text"), TOMORROW_AT_9.items())
def test_tomorrow_at_9_in_the_persons_language(zone: str, language: str, text: str) -> None:
    reference = _at(zone, date(2026, 3, 7), 10)
    result = parse_anchored_time(text, zone, reference, language=language)
    assert not result.needs_clarification, result.clarification_question
    assert result.start_instant == _at(zone, date(2026, 3, 8), 9)
    assert result.reader == "duckling"


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize(("language", "text"), MONDAY_AT_1530.items())
def test_monday_at_1530_in_the_persons_language(zone: str, language: str, text: str) -> None:
    reference = _at(zone, date(2026, 3, 7), 10)
    result = parse_anchored_time(text, zone, reference, language=language)
    assert not result.needs_clarification, result.clarification_question
    assert result.start_instant == _at(zone, date(2026, 3, 9), 15, 30)


@pytest.mark.parametrize(("language", "text"), TOMORROW_AT_9.items())
def test_without_the_hint_it_is_asked_or_read_right_never_the_whole_day(
    language: str, text: str
) -> None:
    reference = _at("Europe/Madrid", date(2026, 3, 7), 10)
    result = parse_anchored_time(text, "Europe/Madrid", reference)
    meant = _at("Europe/Madrid", date(2026, 3, 8), 9)
    assert result.needs_clarification or result.start_instant in (meant, None)


def test_english_is_read_whatever_the_hint() -> None:
    reference = _at("Europe/Madrid", date(2026, 3, 7), 10)
    result = parse_anchored_time("at half past 3pm", "Europe/Madrid", reference, language="es")
    assert result.start_instant == _at("Europe/Madrid", date(2026, 3, 7), 15, 30)


@pytest.mark.parametrize(
    ("raw", "primary"),
    [
        ("es", "es"),
        ("pt-BR", "pt"),
        ("es_ES", "es"),
        ("de-DE, en;q=0.8", "de"),
        ("EN-us", "en"),
        ("", None),
        (None, None),
        ("x-klingon", None),
        ("123", None),
    ],
)
def test_platform_language_tags_become_a_primary_subtag(
    raw: str | None, primary: str | None
) -> None:
    assert primary_language(raw) == primary
