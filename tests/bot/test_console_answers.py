"""An answer to clockbot's own question is understood: the question stays pending in the thread.

Issue 61, item 5 (docs/talking.md, "Questions it asked"): through the console with no LLM,
on a settable clock and a real SQLite store, checking what was said and what was stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.llm.rules_agent import ZONE_QUESTION
from bot.llm.rules_replies import (
    MORNING_OR_EVENING,
    NEEDS_LLM,
    REMIND_SET,
    WHEN_ASK,
    WHEN_UNREAD,
    ZONE_ASKED,
)
from clockcore import SettableClock
from tests.support.console import rows, say, waiting

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York, 15:00 in Lisbon


@pytest.mark.parametrize(
    ("asked", "city", "told", "stored"),
    [
        (
            "remind me tomorrow at 9 to call the bank", "Lisbon",
            "Your home timezone is now Europe/Lisbon. I'll remind you Thursday 11 Jun, 09:00",
            ("call the bank", "2026-06-11 08:00:00.000000"),
        ),
        (
            "remind me tomorrow at 7 to water the plants", "Tokyo",
            "Your home timezone is now Asia/Tokyo. I'll remind you Thursday 11 Jun, 07:00",
            ("water the plants", "2026-06-10 22:00:00.000000"),
        ),
    ],
)  # fmt: skip
async def test_a_city_answering_which_city_sets_the_zone_and_the_reminder(
    tmp_path: Path, asked: str, city: str, told: str, stored: tuple[str, str]
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, asked, city)
    assert said[0] == f"clockbot> {ZONE_QUESTION}"
    assert said[1].startswith(f"clockbot> {told}"), said[1]
    assert waiting(tmp_path) == [stored]
    assert rows(tmp_path, "SELECT default_tz FROM users")[0][0] == told.split()[5].rstrip(".")


async def test_a_time_answering_when_sets_the_reminder(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz America/New_York", "remind me to call mum",
        "tomorrow at 6pm",
    )  # fmt: skip
    assert said[1].startswith("clockbot> When should I remind you?")
    assert said[2] == "clockbot> I'll remind you Thursday 11 Jun, 18:00 (in 1 day)."
    assert waiting(tmp_path) == [("call mum", "2026-06-11 22:00:00.000000")]


async def test_a_date_answering_which_date_keeps_the_time_asked_with(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz UTC", "remind me 9/5 at 10 to pay rent", "5 September",
    )  # fmt: skip
    # In UTC the order of day and month is unknown (docs/time-rules.md): asked.
    assert said[1] == "clockbot> Does 9/5 mean 9 May or 5 September?"
    assert said[2] == "clockbot> I'll remind you Saturday 5 Sep, 10:00 (in 3 months)."
    assert waiting(tmp_path) == [("pay rent", "2026-09-05 10:00:00.000000")]


async def test_a_new_request_replaces_the_pending_question(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz America/New_York", "remind me to call mum",
        "what time is it in Tokyo", "tomorrow at 6pm",
    )  # fmt: skip
    assert said[2].startswith("clockbot> It is ")
    assert "remind you" not in said[3]
    assert waiting(tmp_path) == []


@pytest.mark.parametrize(
    ("asked", "answer", "stored"),
    [
        # 02:30 on 28 March 2027 does not exist in Berlin: 01:30 (CET) or 03:30 (CEST)
        ("remind me on 28 March 2027 at 2:30 to check the clocks", "03:30",
         ("check the clocks", "2027-03-28 01:30:00.000000")),
        ("remind me on 28 March 2027 at 2:30 to check the clocks", "the earlier one",
         ("check the clocks", "2027-03-28 00:30:00.000000")),
        # 02:30 on 31 October 2027 happens twice: first at +02:00, then at +01:00
        ("remind me on 31 October 2027 at 2:30 to sleep", "the second",
         ("sleep", "2027-10-31 01:30:00.000000")),
        ("remind me on 31 October 2027 at 2:30 to sleep", "first",
         ("sleep", "2027-10-31 00:30:00.000000")),
    ],
)  # fmt: skip
async def test_an_answer_to_the_clocks_question_sets_the_instant_chosen(
    tmp_path: Path, asked: str, answer: str, stored: tuple[str, str]
) -> None:
    """Issue 61, item 5: "03:30" after "…does not exist…: 01:30 or 03:30?" got the
    no-model paragraph, and nothing was set."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin", asked, answer)
    assert "Did you mean" in said[1] and "T0" not in said[1]  # local times, no ISO
    assert said[2].startswith("clockbot> I'll remind you Sunday"), said[2]
    assert waiting(tmp_path) == [stored]


async def test_an_answer_that_picks_neither_time_sets_nothing(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin",
                     "remind me on 28 March 2027 at 2:30 to check the clocks", "02:45")  # fmt: skip
    assert "Did you mean" in said[1]
    assert "I'll remind you" not in said[2]
    assert waiting(tmp_path) == []


@pytest.mark.parametrize(
    ("zone", "asked", "answers", "stored"),
    [
        # 14:00 UTC: 16:00 in Berlin, Paris and Madrid, 10:00 in New York; 18:00 is today.
        ("Europe/Berlin", "erinnere mich an die Bank", ("gegen 6", "18 Uhr"),
         ("die Bank", "2026-06-10 16:00:00.000000")),
        ("Europe/Paris", "rappelle-moi d'appeler maman", ("vers 6", "18h"),
         ("appeler maman", "2026-06-10 16:00:00.000000")),
        ("Europe/Madrid", "recuérdame llamar a mamá", ("hacia las 6", "a las 18"),
         ("llamar a mamá", "2026-06-10 16:00:00.000000")),
        ("America/New_York", "remind me to call mum", ("around 6", "6pm"),
         ("call mum", "2026-06-10 22:00:00.000000")),
    ],
)  # fmt: skip
async def test_a_when_question_stays_open_until_answered_in_the_persons_language(
    tmp_path: Path, zone: str, asked: str, answers: tuple[str, str], stored: tuple[str, str]
) -> None:
    """Issue 61: "gegen 6" → "18 Uhr" and "vers 6" → "18h" looped on "When should I remind
    you?" in English. An answer it cannot read whole is asked about again, in the request's
    language, and the question stays open for the next message."""
    language = {"Europe/Berlin": "de", "Europe/Paris": "fr", "Europe/Madrid": "es"}.get(zone, "en")
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, f"clock: home tz {zone}", asked, answers[0])
    assert said[1] == f"clockbot> {WHEN_ASK.in_(language)}"
    unread = WHEN_UNREAD.in_(language, text=answers[0])
    twelve = MORNING_OR_EVENING.in_(language, am="06:00", pm="18:00")
    assert said[2] in (f"clockbot> {unread}", f"clockbot> {twelve}"), said[2]
    assert waiting(tmp_path) == []  # nothing set on a guess
    said += await say(settings, clock, answers[1])
    head = REMIND_SET.in_(language, when="\0").split("\0")[0]  # "Ich erinnere dich am "
    assert said[3].startswith(f"clockbot> {head}"), said[3]
    assert "18:00" in said[3] and NEEDS_LLM.in_(language) not in said[3]
    assert waiting(tmp_path) == [stored]


@pytest.mark.parametrize(
    ("language", "asked", "city", "stored"),
    [
        ("fr", "rappelle-moi demain à 7h d'appeler la crèche", "Paris",
         ("appeler la crèche", "2026-06-11 05:00:00.000000")),
        ("de", "erinnere mich morgen um 7 Uhr an die Kita", "Berlin",
         ("die Kita", "2026-06-11 05:00:00.000000")),
        ("es", "recuérdame mañana a las 7 llamar a la guardería", "Madrid",
         ("llamar a la guardería", "2026-06-11 05:00:00.000000")),
        ("pt", "lembra-me amanhã às 7 de ligar para a creche", "Lisboa",
         ("ligar para a creche", "2026-06-11 06:00:00.000000")),
    ],
)  # fmt: skip
async def test_a_clock_time_with_the_zone_unknown_is_asked_in_every_language(
    tmp_path: Path, language: str, asked: str, city: str, stored: tuple[str, str]
) -> None:
    # Read as 07:00 UTC before: a confident time two hours off, and nothing asked.
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, asked)
    assert said == [f"clockbot> {ZONE_ASKED.in_(language)}"]
    assert waiting(tmp_path) == []
    said = await say(settings, clock, city)
    assert "07:00" in said[0], said
    assert [(text.strip(), due) for text, due in waiting(tmp_path)] == [stored]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "asked",
    ["recuérdame en 10 minutos llamar a la guardería", "erinnere mich in 10 Minuten an den Tee"],
)
async def test_a_span_needs_no_zone(tmp_path: Path, asked: str) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, asked)
    assert "10" in said[0] and ZONE_ASKED.in_("es")[:20] not in said[0], said
    assert [due for _, due in waiting(tmp_path)] == ["2026-06-10 14:10:00.000000"]
