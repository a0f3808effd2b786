"""A reminder given a new repeat ("make it every other week") is changed in place.

Issue 61, "Changes keep what they did not name": text, time and rule are edited,
the id stays, and so the calendar feed holds one event, under the same UID. Through
the console with no LLM, on a settable clock and a real SQLite store.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from icalendar import Calendar
from sqlalchemy.engine import Connection

from bot.calendar_ics import build_feed
from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.console import rows, say
from wrapper.calendar_feeds import feed_items_in
from wrapper.store.db import Database

TUESDAY = datetime(2026, 12, 1, 20, tzinfo=UTC)  # 21:00 in Berlin, Madrid and Paris
EVERY_OTHER_WEDNESDAY = "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;BYHOUR=15;BYMINUTE=0;BYSECOND=0"


def _waiting(home: Path) -> list[tuple[object, ...]]:
    return rows(
        home,
        "SELECT text, due_at, schedule_id IS NOT NULL FROM outbox WHERE kind = 'reminder' "
        "AND status IN ('pending', 'deferred') ORDER BY due_at",
    )


async def _feed_uids(home: Path, now: datetime) -> list[str]:
    """The UIDs of the events in the person's calendar feed, as a calendar app reads it."""
    database = Database(f"sqlite:///{home / 'clockbot.sqlite3'}")
    ((person,),) = rows(home, "SELECT id FROM users")

    def read(conn: Connection) -> bytes:
        items = feed_items_in(conn, str(person), now=now)
        return build_feed(items, now=now, public_url="https://clock.example")

    try:
        body = await database.run(read)
    finally:
        await database.dispose()
    return [str(event["UID"]) for event in Calendar.from_ical(body).walk("VEVENT")]


@pytest.mark.parametrize(
    ("zone", "lines", "told"),
    [
        ("Europe/Berlin", ("remind me tomorrow at 3pm to water the plants",
                           "make it every other week"),
         "Changed: water the plants, every other week on Wednesday at 15:00. Next: Wednesday "
         "2 Dec, 15:00 (in 18 hours); Wednesday 16 Dec, 15:00 (in 2 weeks); Wednesday 30 Dec, "
         "15:00 (in 4 weeks). Its id is still r2."),
        ("Europe/Berlin", ("erinnere mich morgen um 15 Uhr an den Klempner",
                           "mach das jede zweite Woche"),
         "Geändert: den Klempner, alle zwei Wochen am Mittwoch um 15:00. Nächste: Mittwoch 2 "
         "Dez., 15:00 (in 18 Stunden); Mittwoch 16 Dez., 15:00 (in 2 Wochen); Mittwoch 30 Dez., "
         "15:00 (in 4 Wochen). Die ID bleibt r2."),
        ("Europe/Madrid", ("recuérdame mañana a las 15 llamar al fontanero",
                           "hazlo cada dos semanas"),
         "Cambiado: llamar al fontanero, cada dos semanas el miércoles a las 15:00. Próximas: "
         "miércoles 2 dic, 15:00 (dentro de 18 horas); miércoles 16 dic, 15:00 (dentro de 2 "
         "semanas); miércoles 30 dic, 15:00 (dentro de 4 semanas). Su id sigue siendo r2."),
        ("Europe/Paris", ("rappelle-moi demain à 15h d'appeler le plombier",
                          "fais-le toutes les deux semaines"),
         "Modifié : appeler le plombier, un mercredi sur deux à 15:00. Prochains : mercredi 2 "
         "déc., 15:00 (dans 18 heures); mercredi 16 déc., 15:00 (dans 2 semaines); mercredi 30 "
         "déc., 15:00 (dans 4 semaines). Son id reste r2."),
    ],
)  # fmt: skip
async def test_a_one_shot_made_repeating_keeps_its_id_time_and_event(
    tmp_path: Path, zone: str, lines: tuple[str, ...], told: str
) -> None:
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), f"clock: home tz {zone}", *lines
    )
    assert said[-1] == f"clockbot> {told}"
    # One reminder: the schedule named as the one-shot was, from its own time.
    assert rows(tmp_path, "SELECT named, rrule, dtstart, state FROM schedules") == [
        ("r2", EVERY_OTHER_WEDNESDAY, "2026-12-02T15:00:00", "active")
    ]
    assert [(due, repeating) for _, due, repeating in _waiting(tmp_path)] == [
        ("2026-12-02 14:00:00.000000", 1)
    ]
    assert rows(tmp_path, "SELECT status FROM outbox WHERE id = 2") == [("skipped",)]
    # The calendar has one event, under the one-shot's UID.
    assert await _feed_uids(tmp_path, TUESDAY) == ["r2@clock.example"]


async def test_its_id_still_names_it_for_list_and_cancel(tmp_path: Path) -> None:
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin",
        "remind me tomorrow at 3pm to water the plants", "make it every other week",
        "list my reminders", "cancel r2",
    )  # fmt: skip
    assert said[3:5] == [
        "clockbot> Your reminders:",
        "- r2: water the plants (every other week on Wednesday at 15:00), next: Wednesday 2 Dec, "
        "15:00 (in 18 hours)",
    ]
    assert said[5] == "clockbot> Canceled r2."
    assert rows(tmp_path, "SELECT named, state FROM schedules") == [("r2", "ended")]
    assert _waiting(tmp_path) == []


async def test_a_repeating_one_gets_the_new_rule_in_place(tmp_path: Path) -> None:
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin",
        "remind me every monday at 9am to stretch", "make it every other week",
    )  # fmt: skip
    (before,) = rows(tmp_path, "SELECT id FROM schedules")
    short = f"s{int(str(before[0])) % 10_000:04d}"
    assert said[1].endswith(f"Its id is {short}."), said[1]
    assert said[2] == (
        "clockbot> Changed: stretch, every other week on Monday at 09:00. Next: Monday 7 Dec, "
        "09:00 (in 6 days); Monday 21 Dec, 09:00 (in 3 weeks); Monday 4 Jan 2027, 09:00 (in 1 "
        f"month). Its id is still {short}."
    )
    assert rows(tmp_path, "SELECT id, rrule, state FROM schedules") == [
        (before[0], "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "active")
    ]
    assert _waiting(tmp_path) == [("stretch", "2026-12-07 08:00:00.000000", 1)]
    assert await _feed_uids(tmp_path, TUESDAY) == [f"s{before[0]}@clock.example"]


async def test_the_one_just_sent_is_made_repeating_and_keeps_its_id(tmp_path: Path) -> None:
    """No reminder waits: "make it every day" means the one that just came."""
    settings, clock = Settings(home=tmp_path), SettableClock(TUESDAY)
    await say(settings, clock, "clock: home tz Europe/Berlin", "in 10 minutes remind me to drink")
    clock.set(datetime(2026, 12, 1, 20, 10, 5, tzinfo=UTC))
    assert await say(settings, clock) == ["clockbot (reminder)> Reminder: drink"]
    said = await say(settings, clock, "make it every day")
    assert said[0].startswith("clockbot> Changed: drink, every day at 21:10. Next: Wednesday 2 "), (
        said
    )
    assert said[0].endswith("Its id is still r2."), said[0]
    assert rows(tmp_path, "SELECT named, rrule, dtstart FROM schedules") == [
        ("r2", "FREQ=DAILY;BYHOUR=21;BYMINUTE=10;BYSECOND=0", "2026-12-01T21:10:00")
    ]
    assert _waiting(tmp_path) == [("drink", "2026-12-02 20:10:00.000000", 1)]


async def test_move_it_changes_the_one_just_sent(tmp_path: Path) -> None:
    """ "move it to 11" with nothing waiting: the reminder that just came, again at the next 11
    (it was "I can't read '11' as a time")."""
    settings, clock = Settings(home=tmp_path), SettableClock(TUESDAY)
    await say(settings, clock, "clock: home tz Europe/Berlin", "in 10 minutes remind me to drink")
    clock.set(datetime(2026, 12, 1, 20, 10, 5, tzinfo=UTC))
    assert await say(settings, clock) == ["clockbot (reminder)> Reminder: drink"]
    said = await say(settings, clock, "move it to 11")
    assert said == ["clockbot> Snoozed: drink, until Wednesday 2 Dec, 11:00 (in 14 hours)."]
    assert _waiting(tmp_path) == [("drink", "2026-12-02 10:00:00.000000", 0)]


async def test_stop_this_one_after_it_came_names_its_own_id(tmp_path: Path) -> None:
    """The one-shot made daily comes, and "stop this one" cancels it as r2, as it was told."""
    settings, clock = Settings(home=tmp_path), SettableClock(TUESDAY)
    await say(
        settings, clock, "clock: home tz Europe/Berlin", "remind me tomorrow at 9am to stretch",
        "make it every day",
    )  # fmt: skip
    clock.set(datetime(2026, 12, 2, 8, 0, 5, tzinfo=UTC))
    assert await say(settings, clock) == ["clockbot (reminder)> Reminder: stretch"]
    assert await say(settings, clock, "stop this one") == ["clockbot> Canceled r2."]
    assert rows(tmp_path, "SELECT named, state FROM schedules") == [("r2", "ended")]
    assert _waiting(tmp_path) == []


async def test_with_nothing_set_or_sent_it_asks_which(tmp_path: Path) -> None:
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin",
        "make it every other week", "mach das jede zweite Woche",
    )  # fmt: skip
    assert said[1:] == [
        "clockbot> Which reminder? “what are my reminders” lists them with their ids.",
        "clockbot> Welche Erinnerung? „zeig meine Erinnerungen“ listet sie mit ihren IDs auf.",
    ]
    assert rows(tmp_path, "SELECT count(*) FROM schedules") == [(0,)]


async def test_made_repeating_it_is_paused_not_snoozed_by_its_id(tmp_path: Path) -> None:
    """ "r2" named a one-shot; made repeating, it pauses until resumed and is not snoozed."""
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin",
        "remind me tomorrow at 3pm to water the plants", "make it every other week",
        "snooze r2 1 hour", "pause r2", "resume r2",
    )  # fmt: skip
    assert said[3].startswith("clockbot> A repeating reminder comes again by itself"), said[3]
    assert said[4:] == [
        "clockbot> Paused until you resume them.",
        "clockbot> Your reminders are back on.",
    ]
    assert rows(tmp_path, "SELECT named, state FROM schedules") == [("r2", "active")]
    assert [(due, rep) for _, due, rep in _waiting(tmp_path)] == [("2026-12-02 14:00:00.000000", 1)]
