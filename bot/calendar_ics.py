"""A person's reminders as an RFC 5545 calendar, written with `icalendar`.

What the feed holds is what the person's reminders page lists (docs/calendar.md):

- a one-shot reminder or scheduled message: one ``VEVENT`` at the instant it
  goes out (UTC);
- a repeating reminder: one ``VEVENT`` with its ``RRULE`` in the zone clockbot
  reads it in now, with the ``VTIMEZONE`` that zone needs (a floating rule
  follows the person's current zone, so the feed moves with them); occurrences
  a pause skips are ``EXDATE``s, and a snoozed or deferred next occurrence is
  an override (``RECURRENCE-ID``) at its new time; a rule paused until resumed
  is left out, since nothing of it will be sent;
- a reminder is an instant: an event without an end, ``TRANSP:TRANSPARENT``
  (it does not make the person busy), no alarm (clockbot sends the reminder);
- ``UID``s are the reminder ids the chat and the web page use, at the public
  host, so a calendar updates an event instead of duplicating it;
- a meeting a poll decided (`wrapper.meetings`): one ``VEVENT`` from its start
  for its length, which makes the person busy (``TRANSP:OPAQUE``), titled with
  the other attendees' names; it stays for 30 days after it ended;
- ``REFRESH-INTERVAL`` and ``X-PUBLISHED-TTL`` ask calendars to fetch it hourly;
- it is bounded: one-shot reminders and the occurrences a pause skips are listed
  within `WINDOW` from now, at most `MOST_EVENTS` of each (a minutely rule
  paused for a week would otherwise list ten thousand ``EXDATE``s).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from icalendar import Calendar, Event, vDuration, vRecur

from bot.turns.calendar_feed import REFRESH
from channels.base import Invite
from channels.ical import invite_event, summary
from clockcore.geo.zones import get_zone
from clockcore.recurrence import occurrences_between
from wrapper.calendar_feeds import FeedItems, FeedRule
from wrapper.meetings import Meeting
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.reminder_ids import reminder_id

__all__ = ["MOST_EVENTS", "WINDOW", "build_feed", "meeting_event", "meeting_uid"]

MOST_EVENTS = 500
"""One-shot reminders, and occurrences a pause skips per rule, a feed lists at most."""
WINDOW = timedelta(days=400)
"""How far ahead of now a feed lists one-shot reminders and skipped occurrences."""


def meeting_uid(meeting_id: int, public_url: str | None) -> str:
    """A meeting's ``UID``, in feeds and invitations alike: ``meeting-<id>@<public host>``."""
    return f"meeting-{meeting_id}@{_host(public_url)}"


def _host(public_url: str | None) -> str:
    return (urlsplit(public_url).hostname if public_url else None) or "clockbot"


def build_feed(items: FeedItems, *, now: datetime, public_url: str) -> bytes:
    """The feed's text: one calendar with every reminder `items` holds."""
    host = _host(public_url)
    calendar = Calendar.new(prodid="-//clockbot//reminders feed//EN", name="clockbot reminders")
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))
    ahead = [job for job in items.one_shots if job.due_at < now + WINDOW]
    for job in ahead[:MOST_EVENTS]:
        calendar.add_component(_one_shot(job, host, now))
    for rule in items.rules:
        for event in _repeating(rule, host, now):
            calendar.add_component(event)
    for meeting in items.meetings:
        calendar.add_component(meeting_event(meeting, public_url, now))
    calendar.add_missing_timezones()
    body: bytes = calendar.to_ical()
    return body


def _event(uid: str, text: str, start: datetime, now: datetime) -> Event:
    event = Event.new(uid=uid, summary=summary(text), description=text, start=start, stamp=now)
    event.add("transp", "TRANSPARENT")
    return event


def _one_shot(job: OutboxItem, host: str, now: datetime) -> Event:
    return _event(f"{reminder_id(job)}@{host}", job.text, job.due_at.astimezone(UTC), now)


def meeting_event(meeting: Meeting, public_url: str, now: datetime) -> Event:
    """The meeting as a ``VEVENT``, as its email invitation writes it (`channels.ical`)."""
    invite = Invite(
        uid=meeting_uid(meeting.id, public_url),
        start=meeting.start,
        end=meeting.end,
        title=meeting.title,
        description=meeting.label,
        repeat=meeting.repeat,
        zone=meeting.zone,
    )
    return invite_event(invite, now)


def _repeating(rule: FeedRule, host: str, now: datetime) -> list[Event]:
    if rule.next_occurs is None or rule.next_due is None:
        return []  # paused until resumed: nothing of it will be sent
    schedule = rule.schedule
    tz = get_zone(rule.zone)
    uid = f"{reminder_id(schedule)}@{host}"
    event = _event(uid, schedule.text, schedule.dtstart.replace(tzinfo=tz, fold=0), now)
    event.add("rrule", _with_utc_until(schedule.rrule, rule.zone))
    skipped = {*rule.skipped, *_paused_over(rule, now)}
    if skipped:
        event.add("exdate", [at.astimezone(tz) for at in sorted(skipped)])
    events = [event]
    if rule.next_due != rule.next_occurs:
        moved = _event(uid, schedule.text, rule.next_due.astimezone(tz), now)
        moved.add("recurrence-id", rule.next_occurs.astimezone(tz))
        events.append(moved)
    return events


def _paused_over(rule: FeedRule, now: datetime) -> list[datetime]:
    """The rule's occurrences after now and before the waiting one: a pause skips them
    (within `WINDOW`, at most `MOST_EVENTS`)."""
    assert rule.next_occurs is not None
    schedule = rule.schedule
    before = min(rule.next_occurs, now + WINDOW)
    return occurrences_between(
        schedule.rrule, schedule.dtstart, rule.zone, after=now, before=before, most=MOST_EVENTS
    )


def _with_utc_until(rule: str, zone: str) -> vRecur:
    """The stored rule, its UNTIL (wall time in `zone`) as UTC: RFC 5545 wants it so with a TZID."""
    recur: vRecur = vRecur.from_ical(rule)
    if "UNTIL" in recur:
        recur["UNTIL"] = [
            until.replace(tzinfo=get_zone(zone), fold=0).astimezone(UTC)
            if isinstance(until, datetime) and until.tzinfo is None
            else until
            for until in recur["UNTIL"]
        ]
    return recur
