"""A greeting or a thank-you keeps the question clockbot asked (issue 61, item 5).

"Which city are you in?" then "hola" got the no-model paragraph and forgot the
reminder waiting on the city; "Madrid" after it was read as a message of its own.
A pending question is remembered for the thread until answered or replaced, and a
greeting does neither (docs/talking.md, "Questions it asked"). Through the console
with no LLM, on a settable clock and a real SQLite store.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.llm.rules_replies import GREETED, NEEDS_LLM, THANKED, WHEN_ASK
from clockcore import SettableClock
from clockcore.geo.session import city_question
from tests.support.console import rows, say, waiting

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 16:00 in Berlin, 15:00 in Lisbon


@pytest.mark.parametrize(
    ("language", "asked", "greeting", "city", "zone", "stored"),
    [
        ("en", "remind me tomorrow at 9 to call mom", "hi", "Lisbon", "Europe/Lisbon",
         ("call mom", "2026-06-11 08:00:00.000000")),
        ("es", "recuérdame mañana a las 9 llamar a mamá", "hola", "Madrid", "Europe/Madrid",
         ("llamar a mamá", "2026-06-11 07:00:00.000000")),
        ("de", "erinnere mich morgen um 9 an die Bank", "hallo", "Berlin", "Europe/Berlin",
         ("die Bank", "2026-06-11 07:00:00.000000")),
        ("fr", "rappelle-moi demain à 9h d'appeler maman", "bonjour", "Paris", "Europe/Paris",
         ("appeler maman", "2026-06-11 07:00:00.000000")),
        ("it", "ricordami domani alle 9 di chiamare la mamma", "ciao", "Roma", "Europe/Rome",
         ("chiamare la mamma", "2026-06-11 07:00:00.000000")),
        ("pt", "lembra-me amanhã às 9 de ligar à mãe", "olá", "Lisboa", "Europe/Lisbon",
         ("ligar à mãe", "2026-06-11 08:00:00.000000")),
        ("nl", "herinner me morgen om 9 aan de huur", "hoi", "Amsterdam", "Europe/Amsterdam",
         ("de huur", "2026-06-11 07:00:00.000000")),
        ("en", "remind me tomorrow at 9 to call mom", "thanks", "Lisbon", "Europe/Lisbon",
         ("call mom", "2026-06-11 08:00:00.000000")),
    ],
)  # fmt: skip
async def test_a_greeting_keeps_the_city_question_and_the_city_then_sets_the_reminder(
    tmp_path: Path,
    language: str,
    asked: str,
    greeting: str,
    city: str,
    zone: str,
    stored: tuple[str, str],
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, asked, greeting, city, linger=0)
    question = city_question(language)
    assert question in said[0], said
    back = (THANKED if greeting == "thanks" else GREETED).in_(language)
    assert said[1].startswith(f"clockbot> {back} "), said
    assert question in said[1] and NEEDS_LLM.in_(language) not in said[1], said
    assert rows(tmp_path, "SELECT default_tz FROM users") == [(zone,)]
    assert waiting(tmp_path) == [stored], said


@pytest.mark.parametrize(
    ("zone", "language", "asked", "small_talk", "answer", "stored"),
    [
        ("Europe/Berlin", "en", "remind me to call mom", ("thanks", "hi there"), "tomorrow at 6pm",
         ("call mom", "2026-06-11 16:00:00.000000")),
        ("Europe/Berlin", "de", "erinnere mich an die Bank", ("danke", "hallo"), "morgen um 18 Uhr",
         ("die Bank", "2026-06-11 16:00:00.000000")),
        ("Europe/Madrid", "es", "recuérdame llamar a mamá", ("gracias",), "mañana a las 18",
         ("llamar a mamá", "2026-06-11 16:00:00.000000")),
        ("Europe/Paris", "fr", "rappelle-moi d'appeler maman", ("merci", "bonjour"),
         "demain à 18h", ("appeler maman", "2026-06-11 16:00:00.000000")),
        ("Europe/Rome", "it", "ricordami di chiamare la mamma", ("ciao",), "domani alle 18",
         ("chiamare la mamma", "2026-06-11 16:00:00.000000")),
        ("Europe/Lisbon", "pt", "lembra-me de ligar à mãe", ("olá", "obrigado"), "amanhã às 18",
         ("ligar à mãe", "2026-06-11 17:00:00.000000")),
        ("Europe/Amsterdam", "nl", "herinner me aan de huur", ("hoi",), "morgen om 18 uur",
         ("de huur", "2026-06-11 16:00:00.000000")),
    ],
)  # fmt: skip
async def test_small_talk_keeps_the_when_question_and_the_answer_completes_it(
    tmp_path: Path,
    zone: str,
    language: str,
    asked: str,
    small_talk: tuple[str, ...],
    answer: str,
    stored: tuple[str, str],
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, f"clock: home tz {zone}", asked, *small_talk, answer, linger=0
    )
    when = WHEN_ASK.in_(language)
    assert said[1] == f"clockbot> {when}", said
    for line in said[2 : 2 + len(small_talk)]:
        assert line.endswith(when) and NEEDS_LLM.in_(language) not in line, said
    assert "18:00" in said[-1], said
    assert waiting(tmp_path) == [stored], said


async def test_a_greeting_with_no_question_open_is_no_answer_to_an_older_one(
    tmp_path: Path,
) -> None:
    """A question answered is closed: "hi" after the reminder was set asks nothing again,
    and "Madrid" then is a message of its own, not a city for the old request."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "remind me tomorrow at 9 to call mom", "Lisbon", "hi", linger=0
    )
    assert city_question("en") not in said[2], said
    assert waiting(tmp_path) == [("call mom", "2026-06-11 08:00:00.000000")]
