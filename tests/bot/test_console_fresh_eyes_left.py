"""What a new user found left, through the console with no model (issue 61, fresh eyes).

Misses that got the no-model paragraph, words left in a reminder's text, and how a
list of reminders says when. On a settable clock and a real SQLite store, checking
what was said and what was stored. A place for this week in every language is in
tests/bot/test_console_places.py; a greeting that keeps a question in
tests/bot/test_console_small_talk.py.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.llm.everyday_words import ALARM_TEXT
from bot.llm.rules_replies import NEEDS_LLM, TIME_IN
from clockcore import SettableClock
from tests.support.console import say, waiting

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 16:00 in Berlin, Paris, Madrid
EARLY = datetime(2026, 12, 2, 2, 42, tzinfo=UTC)  # Wednesday 2 December, 03:42 in Berlin


# --- misses ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "asked"),
    [
        ("en", "set an alarm for 6:45 tomorrow"),
        ("de", "stell einen Wecker für morgen um 6:45"),
        ("es", "pon una alarma para mañana a las 6:45"),
        ("fr", "mets une alarme demain à 6h45"),
        ("it", "metti una sveglia domani alle 6:45"),
        ("pt", "põe um alarme amanhã às 6:45"),
        ("nl", "zet een wekker morgen om 6:45"),
    ],
)
async def test_set_an_alarm_sets_one_in_every_language(
    tmp_path: Path, language: str, asked: str
) -> None:
    said = await say(Settings(home=tmp_path), SettableClock(WEDNESDAY),
                     "clock: home tz Europe/Berlin", asked, linger=0)  # fmt: skip
    assert "06:45" in said[1] and NEEDS_LLM.in_(language) not in said[1], said
    assert waiting(tmp_path) == [(ALARM_TEXT[language], "2026-06-11 04:45:00.000000")]


async def test_an_alarm_tomorrow_misspelt_is_tomorrow_not_today(tmp_path: Path) -> None:
    """ "set an alarm for 6:45 tomorow" at 03:42 got the no-model paragraph; 06:45 today
    would have been a guess that dropped the day the person wrote."""
    said = await say(Settings(home=tmp_path), SettableClock(EARLY), "clock: home tz Europe/Berlin",
                     "set an alarm for 6:45 tomorow", linger=0)  # fmt: skip
    assert "Thursday 3 Dec, 06:45" in said[1], said
    assert waiting(tmp_path) == [("alarm", "2026-12-03 05:45:00.000000")]


@pytest.mark.parametrize("asked", ["whats the time in tokyo", "what's the time in Tokyo"])
async def test_whats_the_time_without_its_apostrophe(tmp_path: Path, asked: str) -> None:
    said = await say(Settings(home=tmp_path), SettableClock(WEDNESDAY),
                     "clock: home tz Europe/Berlin", asked, linger=0)  # fmt: skip
    assert said[1] == "clockbot> " + TIME_IN.in_(
        "en", time="23:00", day="Wednesday 10 Jun", place="Tokyo (Asia/Tokyo)"
    )


# --- words left in a reminder's text --------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "asked", "stored"),
    [
        ("Europe/Paris", "rappelle moi demain a 9h stp de payer la facture",
         ("payer la facture", "2026-06-11 07:00:00.000000")),
        ("Europe/Paris", "rappelle-moi demain à 10h svp d'appeler le garage",
         ("appeler le garage", "2026-06-11 08:00:00.000000")),
        ("Europe/Berlin", "erinnere mich morgen um 9 bitte an die Miete",
         ("die Miete", "2026-06-11 07:00:00.000000")),
        ("Europe/Madrid", "recuérdame mañana a las 9 por favor pagar la luz",
         ("pagar la luz", "2026-06-11 07:00:00.000000")),
        ("Europe/Rome", "ricordami domani alle 9 per favore di pagare la bolletta",
         ("pagare la bolletta", "2026-06-11 07:00:00.000000")),
        ("Europe/Amsterdam", "herinner me morgen om 9 alsjeblieft aan de huur",
         ("de huur", "2026-06-11 07:00:00.000000")),
        ("Europe/Lisbon", "lembra-me amanhã às 9 por favor de pagar a conta",
         ("pagar a conta", "2026-06-11 08:00:00.000000")),
        ("Europe/Berlin", "remind me tomorrow at 9 to pay the bill please",
         ("pay the bill", "2026-06-11 07:00:00.000000")),
    ],
)  # fmt: skip
async def test_a_polite_word_is_no_part_of_what_to_be_reminded_of(
    tmp_path: Path, zone: str, asked: str, stored: tuple[str, str]
) -> None:
    """docs/talking.md says polite words are read past: "stp" was stored as the reminder's
    first word ("stp payer la facture")."""
    said = await say(Settings(home=tmp_path), SettableClock(WEDNESDAY), f"clock: home tz {zone}",
                     asked, linger=0)  # fmt: skip
    assert waiting(tmp_path) == [stored], said


@pytest.mark.parametrize(
    ("zone", "asked", "answer", "stored"),
    [
        ("Europe/Paris", "rappelle-moi vers 6 d'appeler maman", "18h",
         ("appeler maman", "2026-06-10 16:00:00.000000")),
        ("Europe/Berlin", "erinnere mich gegen 6 an die Bank", "18 Uhr",
         ("die Bank", "2026-06-10 16:00:00.000000")),
        ("Europe/Madrid", "recuérdame hacia las 6 llamar a mamá", "a las 18",
         ("llamar a mamá", "2026-06-10 16:00:00.000000")),
    ],
)  # fmt: skip
async def test_an_approximate_hour_answered_later_is_no_part_of_the_text(
    tmp_path: Path, zone: str, asked: str, answer: str, stored: tuple[str, str]
) -> None:
    """ "vers 6", then "18h", stored "vers 6 appeler maman"."""
    said = await say(Settings(home=tmp_path), SettableClock(WEDNESDAY), f"clock: home tz {zone}",
                     asked, answer, linger=0)  # fmt: skip
    assert "18:00" in said[2], said
    assert waiting(tmp_path) == [stored], said


# --- how a list says when -------------------------------------------------------------------


async def test_a_list_says_next_as_a_label_and_days_never_rounded_up(tmp_path: Path) -> None:
    """ "next Wednesday 2 Dec, 03:44 (in 2 minutes)" read as a week away; "(in 3 days)" was
    said for 2 days 15 hours."""
    settings, clock = Settings(home=tmp_path), SettableClock(EARLY)
    said = await say(
        settings, clock, "clock: home tz Europe/Berlin", "remind me in 2 minutes to stretch",
        "remind me on friday at 18:44 to call Ana", "what are my reminders", linger=0,
    )  # fmt: skip
    assert "Friday 4 Dec, 18:44 (in 2 days)" in said[2], said
    listing = "\n".join(said[3:])
    assert "stretch, next: Wednesday 2 Dec, 03:44 (in 2 minutes)" in listing, listing
    assert "call Ana, next: Friday 4 Dec, 18:44 (in 2 days)" in listing, listing
    assert "next Wednesday" not in listing and "3 days" not in listing, listing


@pytest.mark.parametrize(
    ("asked", "line"),
    [
        ("what are my reminders",
         "stand up (every day at 09:00, Europe/Berlin), next: Wednesday 2 Dec, 09:00 (in 5 hours)"),
        ("was sind meine Erinnerungen",
         "stand up (jeden Tag um 09:00, Europe/Berlin), nächste: Mittwoch 2 Dez., 09:00"),
    ],
)  # fmt: skip
async def test_a_repeating_reminder_listed_on_a_trip_names_its_zone(
    tmp_path: Path, asked: str, line: str
) -> None:
    """In a conversation on Lisbon's time, "every day at 09:00" (Berlin's, where the person
    lives) was listed beside "next … 08:00", naming no zone."""
    settings, clock = Settings(home=tmp_path), SettableClock(EARLY)
    said = await say(
        settings, clock, "clock: home tz Europe/Berlin", "remind me every day at 9am to stand up",
        "I'm in Lisbon this week", asked, linger=0,
    )  # fmt: skip
    assert "Europe/Lisbon" in said[2], said
    assert any(line in shown for shown in said[4:]), said
    said = await say(settings, clock, "clock: tz Europe/Berlin", "what are my reminders", linger=0)
    assert any("stand up (every day at 09:00), next: " in shown for shown in said), said
