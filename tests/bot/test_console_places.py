"""A place the person puts themselves in is said as what it did (issue 61, item 3).

"I'm in Lisbon this week" moved the conversation's zone (docs/clock-spec.md §4.2)
while the rules agent answered that it could not help: now it says what it did, or,
where the words do not move the zone, nothing changes. Through the console with no
LLM, on a settable clock and a real SQLite store, reading what was said and stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.llm.rules_replies import PLACE_UNSURE, THREAD_ZONE_SET, TIME_IN
from clockcore import SettableClock
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 16:00 in Berlin, 15:00 in Lisbon


def _zones(home: Path) -> tuple[object, object]:
    """(the person's home zone, the console thread's zone)."""
    [(home_tz,)] = rows(home, "SELECT default_tz FROM users")
    [(thread_tz,)] = rows(home, "SELECT session_tz FROM threads")
    return home_tz, thread_tz


async def test_im_in_lisbon_this_week_sets_the_conversations_zone_and_says_so(
    tmp_path: Path,
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz Europe/Berlin", "I'm in Lisbon this week",
        "what time is it",
    )  # fmt: skip
    assert said[1] == "clockbot> " + THREAD_ZONE_SET.in_("en", zone="Europe/Lisbon")
    assert _zones(tmp_path) == ("Europe/Berlin", "Europe/Lisbon")
    assert said[2] == "clockbot> " + TIME_IN.in_(
        "en", time="15:00", day="Wednesday 10 Jun", place="Lisbon (Europe/Lisbon)"
    )


@pytest.mark.parametrize(
    ("trip", "asked", "answer", "zone"),
    [
        ("ich bin diese Woche in Lissabon", "wie spät ist es", ("de", "Mittwoch 10 Juni"),
         ("Europe/Lisbon", "15:00", "Lisbon (Europe/Lisbon)")),
        ("estoy en Lisboa esta semana", "qué hora es", ("es", "miércoles 10 jun"),
         ("Europe/Lisbon", "15:00", "Lisbon (Europe/Lisbon)")),
        ("je suis à Lisbonne cette semaine", "quelle heure est-il", ("fr", "mercredi 10 juin"),
         ("Europe/Lisbon", "15:00", "Lisbon (Europe/Lisbon)")),
        ("je suis à Montréal cette semaine", "quelle heure est-il", ("fr", "mercredi 10 juin"),
         ("America/Toronto", "10:00", "Toronto (America/Toronto)")),
        ("sono a Roma questa settimana", "che ore sono", ("it", "mercoledì 10 giu"),
         ("Europe/Rome", "16:00", "Rome (Europe/Rome)")),
        ("estou em Lisboa esta semana", "que horas são", ("pt", "quarta-feira 10 jun."),
         ("Europe/Lisbon", "15:00", "Lisbon (Europe/Lisbon)")),
        ("ik ben deze week in Lissabon", "hoe laat is het", ("nl", "woensdag 10 jun"),
         ("Europe/Lisbon", "15:00", "Lisbon (Europe/Lisbon)")),
    ],
)  # fmt: skip
async def test_a_place_for_this_week_moves_the_conversation_in_every_language(
    tmp_path: Path, trip: str, asked: str, answer: tuple[str, str], zone: tuple[str, str, str]
) -> None:
    """Issue 61 (fresh eyes): "je suis à Montréal cette semaine" got the no-model paragraph
    and moved nothing, where "I'm in Lisbon this week" moves the conversation's zone."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin", trip, asked)
    language, day = answer
    there, time, place = zone
    assert said[1] == "clockbot> " + THREAD_ZONE_SET.in_(language, zone=there), said
    assert _zones(tmp_path) == ("Europe/Berlin", there)
    assert said[2] == "clockbot> " + TIME_IN.in_(language, time=time, day=day, place=place)


@pytest.mark.parametrize(
    "words", ["je suis à la maison", "estoy en casa", "sono a casa", "ik ben in de stad"]
)
async def test_being_at_home_or_in_town_is_no_place(tmp_path: Path, words: str) -> None:
    """ "à la maison" is no "LA": the words after "je suis à" name no city, nothing moves."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin", words)
    assert "America/" not in said[1], said
    assert _zones(tmp_path) == ("Europe/Berlin", None)


@pytest.mark.parametrize(
    ("asked", "yes", "language"),
    [
        ("what time is it in Atlantis", "yes", "en"),
        ("wie spät ist es in Atlantis", "ja", "de"),
        ("qué hora es en Atlantis", "sí", "es"),
        ("quelle heure est-il à Atlantis", "oui", "fr"),
    ],
)
async def test_a_small_town_is_asked_about_not_guessed(
    tmp_path: Path, asked: str, yes: str, language: str
) -> None:
    """Issue 61: "Atlantis" answered Africa/Johannesburg's time (a town near Cape Town)."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin", asked)
    town = PLACE_UNSURE.in_(language, town="Atlantis, ZA", zone="Africa/Johannesburg")
    assert said[1] == f"clockbot> {town}"
    said = await say(settings, clock, yes)
    assert said[0].startswith(
        "clockbot> " + TIME_IN.in_(language, time="16:00", day="\0", place="")[:6]
    )
    assert "16:00" in said[0] and "Africa/Johannesburg" in said[0]
    assert _zones(tmp_path)[0] == "Europe/Berlin"  # a question about a place moves nothing


async def test_a_city_is_answered_at_once(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin", "what time is it in Lisbon")
    assert said[1] == "clockbot> " + TIME_IN.in_(
        "en", time="15:00", day="Wednesday 10 Jun", place="Lisbon (Europe/Lisbon)"
    )


@pytest.mark.parametrize(
    ("lives", "language", "asked", "stored_utc"),
    [
        ("ich wohne in Berlin", "de", "erinnere mich morgen um 9 an den Zahnarzt",
         "2026-06-11 07:00:00.000000"),
        ("vivo en Ciudad de México", "es", "recuérdame mañana a las 10 regar las plantas",
         "2026-06-11 16:00:00.000000"),
    ],
)  # fmt: skip
async def test_where_they_live_is_where_their_own_conversation_is(
    tmp_path: Path, lives: str, language: str, asked: str, stored_utc: str
) -> None:
    # A fresh user: the conversation kept New York (from "I live in New York") after
    # "ich wohne in Berlin", so 09:00 was stored in New York while the reply said 09:00.
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(settings, clock, "I live in New York", "remind me tomorrow at 9 to call the bank")
    said = await say(settings, clock, lives, asked)
    home_tz, thread_tz = _zones(tmp_path)
    assert home_tz == thread_tz != "America/New_York", said
    waiting = rows(
        tmp_path, "SELECT text, due_at FROM outbox WHERE kind = 'reminder' ORDER BY due_at"
    )
    assert sorted(due for _, due in waiting) == sorted(["2026-06-11 13:00:00.000000", stored_utc])
    assert ("09:00" if language == "de" else "10:00") in said[1], said


async def test_a_home_set_by_directive_moves_a_conversation_on_the_old_home(
    tmp_path: Path,
) -> None:
    # "Lisbon" answered the city question; `clock: home tz America/New_York` left time
    # questions in Lisbon. A trip's zone (another than the home) stays: the test above it.
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(settings, clock, "I live in Lisbon", "clock: home tz America/New_York")
    assert _zones(tmp_path) == ("America/New_York", "America/New_York")
    await say(settings, clock, "I'm in Tokyo this week", "clock: home tz Europe/Berlin")
    assert _zones(tmp_path) == ("Europe/Berlin", "Asia/Tokyo")


@pytest.mark.parametrize("greeting", ["hola", "hi", "hallo", "bonjour", "buongiorno"])
async def test_a_greeting_after_the_city_question_is_no_city(tmp_path: Path, greeting: str) -> None:
    """Found by trying it: "hola" after "which city are you in?" set Africa/Nairobi (a town
    named Hola, in Kenya) and the reminder with it. A greeting is no city: nothing is set."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(settings, clock, "recuérdame mañana a las 9 llamar a mamá", greeting, linger=0)
    assert rows(tmp_path, "SELECT default_tz FROM users") == [(None,)]
    assert rows(tmp_path, "SELECT count(*) FROM outbox WHERE kind = 'reminder'") == [(0,)]


async def test_a_greeting_keeps_the_city_question_and_the_request(tmp_path: Path) -> None:
    # More languages, and a thank-you: tests/bot/test_console_small_talk.py.
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(settings, clock, "recuérdame mañana a las 9 llamar a mamá", "hola", linger=0)
    await say(settings, clock, "Madrid", linger=0)
    assert rows(tmp_path, "SELECT default_tz FROM users") == [("Europe/Madrid",)]
    assert rows(tmp_path, "SELECT count(*) FROM outbox WHERE kind = 'reminder'") == [(1,)]
