"""A decided meeting as one RFC 5545 ``VEVENT``, the same in every place it is written.

Two places write it: the calendar feed (`bot.calendar_ics`, one event among the
person's reminders) and the email invitation (`channels.email.writing`, an
event attached to the announcement). A calendar that has both must see one
event, so both build it here from an `Invite`: the same ``UID``, start, end,
``RRULE`` and busy time (docs/calendar.md).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from icalendar import Event, vRecur

from channels.base import Invite
from clockcore.geo.zones import get_zone

__all__ = ["SUMMARY_CHARS", "invite_event", "summary"]

SUMMARY_CHARS = 120
"""A ``SUMMARY`` is one line of at most this many characters (calendars show a title)."""
_SPACE = re.compile(r"[\s\x00-\x1f\x7f]+")


def summary(text: str) -> str:
    """`text` as an event's title: one line, control characters gone, cut with "…"."""
    line = _SPACE.sub(" ", text).strip()
    return line if len(line) <= SUMMARY_CHARS else line[: SUMMARY_CHARS - 1].rstrip() + "…"


def invite_event(invite: Invite, now: datetime) -> Event:
    """The meeting as a ``VEVENT``: its start, its length, busy (``TRANSP:OPAQUE``).

    A repeating meeting is one event with its ``RRULE`` in the zone it was agreed
    in (its wall time holds across DST); a one-off one is written in UTC.
    """
    tz = get_zone(invite.zone) if invite.repeat and invite.zone else UTC
    event = Event.new(
        uid=invite.uid,
        summary=summary(invite.title),
        description=invite.description,
        start=invite.start.astimezone(tz),
        end=invite.end.astimezone(tz),
        stamp=now,
    )
    if invite.repeat and invite.zone:
        event.add("rrule", vRecur.from_ical(invite.repeat))
    event.add("transp", "OPAQUE")
    return event
