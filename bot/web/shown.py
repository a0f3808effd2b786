"""What a person's pages show, in their language: a state, a reminder's card, a time they typed.

The words come from the pages' catalog (`bot.web.words`); the routes are `bot.web.pages`.
"""

from __future__ import annotations

import gettext
from datetime import datetime
from typing import Any

from bot.web.words import when, words
from clockcore import get_zone, guess_language, parse_anchored_time, require_zone
from clockcore.errors import ClockError
from clockcore.geo.places import lookup_place
from clockcore.recurrence import occurrences
from clockcore.speech.spoken_rules import say_rule
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.reminder_ids import reminder_id
from wrapper.outbound.reminders import PAUSED
from wrapper.outbound.schedules import Schedule

__all__ = [
    "one_shot_card",
    "read_time",
    "recurring_card",
    "state_label",
    "until_label",
    "zone_named",
]


def state_label(state: str | None, said: gettext.NullTranslations) -> str:
    """A timeline entry's state as the person reads it (`wrapper.web.Entry`)."""
    shown = {
        "waiting": said.gettext("waiting"),
        "sent": said.gettext("sent"),
        "late": said.gettext("sent late"),
        "deferred": said.gettext("held back"),
        "failed": said.gettext("not delivered"),
        "planned": said.gettext("planned"),
        "in_progress": said.gettext("in progress"),
        "likely_done": said.gettext("likely done"),
        "done": said.gettext("done"),
        "canceled": said.gettext("cancelled"),
        "expired": said.gettext("expired"),
    }
    return shown.get(state or "", state or "")


def until_label(until: datetime, local: datetime, tz: Any, language: str) -> str:
    """An entry's end: its time alone on the entry's own day, else its date and time."""
    end = until.astimezone(tz)
    return f"{end:%H:%M}" if end.date() == local.date() else when(until, tz, language)


def recurring_card(schedule: Schedule, zone: str, now: datetime, language: str) -> dict[str, Any]:
    """A repeating reminder's card: its rule in words, its zone, state and next three times."""
    said = words(language)
    where = "UTC" if schedule.elapsed else (schedule.zone or zone)
    upcoming: list[datetime] = []
    if schedule.next_at is not None and schedule.state == "active":
        upcoming = [
            schedule.next_at,
            *occurrences(schedule.rrule, schedule.dtstart, where, after=schedule.next_at, count=2),
        ]
    tz = get_zone(zone)
    states = {"active": said.gettext("active"), "paused": said.gettext("paused")}
    return {
        "id": reminder_id(schedule),
        "text": schedule.text,
        "rule": say_rule(schedule.rrule, language),
        "zone": schedule.zone or said.gettext("yours (%(zone)s)") % {"zone": zone},
        "state": schedule.state,
        "state_label": states.get(schedule.state, schedule.state),
        "next": [when(at, tz, language) for at in upcoming],
    }


def one_shot_card(job: OutboxItem, tz: Any, language: str) -> dict[str, Any]:
    """A one-time reminder's card: when it is due in `tz`, waiting or paused (and why)."""
    said = words(language)
    paused = job.status == "deferred"
    reason = job.defer_reason if paused else None
    return {
        "id": reminder_id(job),
        "text": job.text,
        "due": when(job.occurs_at or job.due_at, tz, language),
        "state": said.gettext("paused") if paused else said.gettext("waiting"),
        "reason": said.gettext("paused by you") if reason == PAUSED else reason,
    }


def read_time(
    text: str, zone: str, now: datetime, said: gettext.NullTranslations, language: str
) -> datetime | str:
    """The instant `text` names, read whole in `zone`, or what to tell the person (`said`)."""
    text = text.strip()
    if not text:
        return said.gettext("Write when, for example “tomorrow 9” or “in 2 hours”.")
    if len(text) > 200:
        return said.gettext("That is too long to be a time.")
    parsed = parse_anchored_time(text, zone, now, language=guess_language(text))
    if parsed.needs_clarification:
        # The reader's own question is worded for the chat, in English (docs/languages.md).
        return said.gettext(
            "“%(text)s” can mean more than one time: write the day and the time more exactly."
        ) % {"text": text}
    if parsed.start_instant is None:
        return said.gettext("I cannot read a time in “%(text)s”.") % {"text": text}
    leftover = (text[: parsed.span[0]] + text[parsed.span[1] :]) if parsed.span else ""
    if parsed.span is None or leftover.strip(" ,.;:!?"):
        return said.gettext("I read only “%(read)s” of “%(text)s”: please write just the time.") % {
            "read": parsed.matched_text,
            "text": text,
        }
    if parsed.start_instant <= now:
        return said.gettext("“%(text)s” is %(when)s, which has passed.") % {
            "text": text,
            "when": when(parsed.start_instant, get_zone(zone), language),
        }
    return parsed.start_instant


def zone_named(text: str) -> str | None:
    """An IANA id or a known place's zone, or None."""
    try:
        return require_zone(text)
    except ClockError:
        pass
    match = lookup_place(text)
    return match.zone if match is not None else None
