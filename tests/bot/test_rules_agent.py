"""The rules agent (no LLM) takes reminders as people write them, through the whole gateway.

Real store, real outbox and dispatcher, the recording channel of test_gateway; the time is
read by clockcore (Duckling where installed), the content is what is left.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from channels.base import Inbound
from clockcore import SettableClock
from tests.bot.test_gateway import RecordingChannel
from tests.bot.test_gateway import inbound as any_inbound

NEW_YORK = ZoneInfo("America/New_York")
NOW = datetime(2026, 3, 4, 15, tzinfo=UTC)
"""A Wednesday, 10:00 in New York: "zaterdag om 10 uur" read on a Saturday after 10:00 is
that evening, so the real clock made the weekday cases fail on Saturdays."""


def inbound(text: str, message_id: str = "m1", **changes: object) -> Inbound:
    return any_inbound(text, message_id, received_at=NOW, **changes)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[Gateway, RecordingChannel]]:
    channel = RecordingChannel()
    settings = Settings(home=tmp_path, http_port=0)
    clock = SettableClock(NOW)
    async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gateway:
        await gateway.accept(inbound("clock: home tz America/New_York", message_id="tz"))
        await gateway.settle()
        yield gateway, channel


async def test_half_past_3pm_is_read_whole_and_the_content_is_what_is_left(
    world: tuple[Gateway, RecordingChannel],
) -> None:
    gateway, channel = world
    await gateway.accept(inbound("remind me at half past 3pm to call mom", message_id="r1"))
    await gateway.settle()
    (item,) = await gateway.wrapper.recall(user_key="test:7", query="mom")
    assert item.content == "call mom"
    assert item.due_at is not None
    local = item.due_at.astimezone(NEW_YORK)
    assert (local.hour, local.minute) == (15, 30)
    assert "15:30" in channel.sent[-1].text or "3:30" in channel.sent[-1].text


async def test_every_monday_is_a_recurring_schedule_not_one_monday(
    world: tuple[Gateway, RecordingChannel],
) -> None:
    gateway, channel = world
    text = "remind me every Monday at 9am to submit the timesheet"
    await gateway.accept(inbound(text, message_id="r2"))
    await gateway.settle()
    assert await gateway.wrapper.recall(user_key="test:7", query="timesheet") == []
    (schedule,) = await gateway.wrapper.reminders.listing("test:7")
    assert schedule.text == "submit the timesheet"
    assert "BYDAY=MO" in schedule.rrule and "BYHOUR=9" in schedule.rrule
    assert schedule.zone is None  # floating: it follows the person
    assert schedule.next_at is not None
    local = schedule.next_at.astimezone(NEW_YORK)
    assert (local.weekday(), local.hour, local.minute) == (0, 9, 0)
    reply = channel.sent[-1].text
    assert "repeating" in reply and f"s{schedule.id % 10_000:04d}" in reply  # its short id


@pytest.mark.parametrize(
    ("text", "content", "weekday", "hour", "minute"),
    [
        # No platform language: the words say it (clockcore.language).
        ("recuérdame el lunes a las 8 pagar el alquiler", "pagar el alquiler", 0, 8, 0),
        ("erinnere mich am Freitag um 18 Uhr an die Bank", "die Bank", 4, 18, 0),
        ("rappelle-moi mardi à 7h30 d'appeler maman", "appeler maman", 1, 7, 30),
        ("me lembra na quarta às 21h de ligar pra mãe", "ligar pra mãe", 2, 21, 0),
        ("ricordami giovedì alle 16 di chiamare la banca", "chiamare la banca", 3, 16, 0),
        ("herinner me zaterdag om 10 uur aan de huur", "de huur", 5, 10, 0),
        ("could you remind me on Sunday at 11am to water the plants", "water the plants", 6, 11, 0),
        ("don't let me forget to call Ana on Monday at 4pm", "call Ana", 0, 16, 0),
    ],
)
async def test_a_reminder_as_people_ask_for_one(
    world: tuple[Gateway, RecordingChannel],
    text: str,
    content: str,
    weekday: int,
    hour: int,
    minute: int,
) -> None:
    gateway, channel = world
    await gateway.accept(inbound(text, message_id="ask"))
    await gateway.settle()
    (item,) = await gateway.wrapper.recall(user_key="test:7", query=content.split()[-1])
    assert item.content == content
    assert item.due_at is not None
    local = item.due_at.astimezone(NEW_YORK)
    assert (local.weekday(), local.hour, local.minute) == (weekday, hour, minute)
    assert "language model" not in channel.sent[-1].text


async def test_ping_me_in_45_minutes(world: tuple[Gateway, RecordingChannel]) -> None:
    gateway, _ = world
    await gateway.accept(inbound("ping me in 45 minutes about the parcel", message_id="p"))
    await gateway.settle()
    (item,) = await gateway.wrapper.recall(user_key="test:7", query="parcel")
    assert item.content == "the parcel"
    assert item.due_at is not None
    assert 44 * 60 <= (item.due_at - item.created_at).total_seconds() <= 46 * 60


@pytest.mark.parametrize(
    ("text", "content", "rule", "says"),
    [
        ("can you remind me every Friday at 5pm to back up the laptop", "back up the laptop",
         "BYDAY=FR;BYHOUR=17", "Set: back up the laptop, repeating."),
        ("recuérdame cada lunes a las 9 sacar la basura", "sacar la basura", "BYDAY=MO;BYHOUR=9",
         "Hecho: sacar la basura, se repite."),
        ("erinnere mich jeden Montag um 9 Uhr an den Müll", "den Müll", "BYDAY=MO;BYHOUR=9",
         "Gesetzt: den Müll, wiederholt sich."),
        ("ricordami ogni giorno alle 8 di prendere la pillola", "prendere la pillola",
         "FREQ=DAILY;BYHOUR=8", "Fatto: prendere la pillola, si ripete."),
        # Issue 60: two weekdays, every other week on a weekday, working days; the text
        # keeps none of the time's words ("every and Thursday at 7pm …" was stored).
        ("remind me every Tuesday and Thursday at 7pm to water the plants", "water the plants",
         "BYDAY=TU,TH;BYHOUR=19", "Set: water the plants, repeating."),
        ("erinnere mich jeden Werktag um 7:30 an den Bus", "den Bus",
         "BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=30", "Gesetzt: den Bus, wiederholt sich."),
        ("recuérdame cada dos semanas el viernes a las 9 pagar el alquiler", "pagar el alquiler",
         "INTERVAL=2;BYDAY=FR;BYHOUR=9", "Hecho: pagar el alquiler, se repite."),
        ("rappelle-moi tous les jours ouvrables à 7h30 de prendre le bus", "prendre le bus",
         "BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=30", "C'est noté : prendre le bus, répété."),
        ("lembra-me todas as terças e quintas às 19h de regar as plantas", "regar as plantas",
         "BYDAY=TU,TH;BYHOUR=19", "Feito: regar as plantas, repete-se."),
    ],
)  # fmt: skip
async def test_a_repeating_reminder_in_any_language(
    world: tuple[Gateway, RecordingChannel], text: str, content: str, rule: str, says: str
) -> None:
    gateway, channel = world
    await gateway.accept(inbound(text, message_id="rep"))
    await gateway.settle()
    (schedule,) = await gateway.wrapper.reminders.listing("test:7")
    assert schedule.text == content
    assert rule in schedule.rrule
    assert channel.sent[-1].text.startswith(says)  # in the words that asked for it
