"""A meeting a poll decided, as its attendees' calendar feeds and timelines show it.

A decided poll (`wrapper.meeting_answers.decide_in`) keeps its attendees in
`meeting_attendees`: the members who could make the chosen slot. Each of them
sees the meeting, from its start for its length, in their own feed and on
their web timeline; nobody else does.

A repeating meeting ("every other week", `REPEATS`) keeps its wall time in the
zone it was agreed in (the organiser's), as a repeating reminder fixed in a
zone does. Each attendee gets it as a repeating reminder of their own, 15
minutes before each occurrence; and where their own clock moves against that
zone (a DST change on other dates, or none), a message a week before the first
occurrence at the new local time says so (`clockcore.meetings.local_shifts`),
for every such change in the next 400 days. Docs: docs/meetings.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.engine import Connection

from clockcore import get_zone
from clockcore.meetings import MeetingMember, local_shifts
from clockcore.message import speaker_label
from clockcore.recurrence import occurrences
from wrapper.keys import split_user_key
from wrapper.outbound.outbox import enqueue_in, item_values
from wrapper.outbound.schedules import NewSchedule, create_in, new_schedule_id
from wrapper.people.members import reachable_in
from wrapper.store.queries.per_message import load_person
from wrapper.store.tables import identities, meeting_attendees, meeting_polls

__all__ = [
    "REPEATS",
    "Meeting",
    "attendee_names_in",
    "meetings_in",
    "repeat_words",
    "schedule_attendees_in",
    "starts_within",
]

REPEATS = {"weekly": "FREQ=WEEKLY", "every other week": "FREQ=WEEKLY;INTERVAL=2"}
"""How a meeting may repeat, as the tool takes it, and its RRULE."""
_MAX_SHIFTS = 8  # a member's clock moves at most four times a year against the meeting's
SHIFTS_AHEAD = timedelta(days=400)
"""Warnings are queued, when the meeting is agreed, for the changes this far ahead."""


@dataclass(frozen=True, slots=True)
class Meeting:
    """One decided meeting, as one attendee sees it.

    Attributes:
        id: the poll's id (the feed's ``UID`` is built from it).
        start: aware UTC.
        minutes: its length.
        label: the slot as the poll showed it, in every member's time.
        channel: where the group met (``telegram``, ``slack``, ``email``).
        others: the other attendees' names.
    """

    id: int
    start: datetime
    minutes: int
    label: str
    channel: str
    others: tuple[str, ...]
    repeat: str | None = None
    """Its RRULE when it repeats; `start` is then its first occurrence."""
    zone: str | None = None
    """Where a repeating meeting keeps its wall time."""

    @property
    def end(self) -> datetime:
        return self.start + timedelta(minutes=self.minutes)

    @property
    def title(self) -> str:
        """ "Meeting with Ana Lima and Ben Okafor"; "Meeting" when they are the only one."""
        if not self.others:
            return "Meeting"
        names = list(self.others)
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"Meeting with {listed}"


def meetings_in(conn: Connection, person_id: str, *, ending_after: datetime) -> list[Meeting]:
    """The meetings the person attends (on any of their identities) that end after the instant.

    Earliest first.
    """
    mine = select(identities.c.user_key).where(identities.c.user_id == person_id)
    rows = conn.execute(
        select(meeting_polls, meeting_attendees.c.user_key)
        .join(meeting_attendees, meeting_attendees.c.poll_id == meeting_polls.c.id)
        .where(meeting_attendees.c.user_key.in_(mine), meeting_polls.c.chosen.is_not(None))
    ).all()
    meetings: dict[int, Meeting] = {}
    for row in rows:
        slots = row.options["slots"]
        if row.id in meetings or not 1 <= row.chosen <= len(slots):
            continue
        slot = slots[row.chosen - 1]
        start = datetime.fromisoformat(slot["start"])
        repeat, zone = row.options.get("repeat"), row.options.get("zone")
        if start + timedelta(minutes=row.minutes) <= ending_after and not (repeat and zone):
            continue
        meetings[row.id] = Meeting(
            id=row.id,
            start=start,
            minutes=row.minutes,
            label=slot["label"],
            channel=row.channel,
            others=attendee_names_in(conn, row.id, but=person_id),
            repeat=repeat if zone else None,
            zone=zone if repeat else None,
        )
    return sorted(meetings.values(), key=lambda m: (m.start, m.id))


def attendee_names_in(conn: Connection, poll_id: int, *, but: str | None = None) -> tuple[str, ...]:
    """The names of a meeting's attendees, as their platforms give them; `but` that person."""
    rows = conn.execute(
        select(meeting_attendees.c.user_key, identities.c.display_name, identities.c.user_id)
        .outerjoin(identities, identities.c.user_key == meeting_attendees.c.user_key)
        .where(meeting_attendees.c.poll_id == poll_id)
        .order_by(meeting_attendees.c.user_key)
    ).all()
    kept = [(key, name) for key, name, owner in rows if but is None or owner != but]
    return tuple(speaker_label(name, *split_user_key(key)) for key, name in kept)


def repeat_words(rule: str) -> str:
    """How a meeting's RRULE reads in a message: "every week", "every other week"."""
    return "every other week" if "INTERVAL=2" in rule else "every week"


def starts_within(meeting: Meeting, since: datetime, until: datetime) -> list[datetime]:
    """The meeting's starts whose meeting is not over by `since`, up to `until`; at most 8."""
    if meeting.repeat is None or meeting.zone is None:
        return [meeting.start]
    wall = meeting.start.astimezone(get_zone(meeting.zone)).replace(tzinfo=None)
    after = since - timedelta(minutes=meeting.minutes)
    found = occurrences(meeting.repeat, wall, meeting.zone, after=after, count=8)
    return [at for at in found if at <= until]


def schedule_attendees_in(
    conn: Connection,
    *,
    key: str,
    group: tuple[str, str, str],
    start: datetime,
    rule: str,
    zone: str,
    attendees: Sequence[str],
    remind_before: timedelta,
    now: datetime,
) -> None:
    """Each attendee's repeating reminder of a repeating meeting, and their shift warnings.

    `start` is the first occurrence (aware UTC), `rule` its RRULE, read in
    `zone`. A reminder and its warnings go to the attendee's direct
    conversation, else to the group (`group`: its thread key, channel and
    thread id; addressed to them). `key` names the jobs
    (``<key>:shift:<user key>:<n>``), so a decision queues them once.
    """
    tz = get_zone(zone)
    wall = start.astimezone(tz).replace(tzinfo=None)
    how = repeat_words(rule)
    text = f"Meeting {how}: {wall:%A} {wall:%H:%M} {zone} time"
    for user_key in attendees:
        person = load_person(conn, user_key)
        if person is None:
            continue  # erased since answering
        to = reachable_in(conn, person.user_id, user_key, group)
        create_in(
            conn,
            NewSchedule(
                id=new_schedule_id(),
                user_key=to.user_key,
                thread_key=to.thread_key,
                channel=to.channel,
                thread_id=to.thread_id,
                user_id=to.user_id,
                text=text,
                rrule=rule,
                dtstart=wall - remind_before,
                zone=zone,
                origin_tz=zone,
            ),
            now=now,
        )
        own = person.own_zone
        if own is None:
            continue
        after = now
        for n in range(_MAX_SHIFTS):
            shifts = local_shifts(
                rule,
                wall,
                zone,
                [MeetingMember("", own)],
                after=after,
                horizon=now + SHIFTS_AHEAD - after,
            )
            if not shifts:
                break
            shift = shifts[0]
            warning = (
                f"Heads-up: from {shift.after:%a %d %b} your meeting {how} starts at "
                f"{shift.after:%H:%M} on your clock instead of {shift.before:%H:%M} "
                f"(it stays at {wall:%H:%M} {zone} time, where it was agreed)."
            )
            values = item_values(
                key=f"{key}:shift:{user_key}:{n}",
                kind="proactive",
                channel=to.channel,
                thread_id=to.thread_id,
                thread_key=to.thread_key,
                user_key=to.user_key,
                user_id=to.user_id,
                text=warning,
                due_at=max(shift.warn_at, now),
                memory_id=None,
                now=now,
            )
            enqueue_in(conn, values)
            after = shift.occurrence - timedelta(seconds=1)  # its new time: the next's before
