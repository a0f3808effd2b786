"""A meeting a poll decided, as its attendees' calendar feeds and timelines show it.

A decided poll (`wrapper.meeting_polls.decide_in`) keeps its attendees in
`meeting_attendees`: the members who could make the chosen slot. Each of them
sees the meeting, from its start for its length, in their own feed and on
their web timeline; nobody else does. Docs: docs/meetings.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.engine import Connection

from clockcore.message import speaker_label
from wrapper.keys import split_user_key
from wrapper.tables import identities, meeting_attendees, meeting_polls

__all__ = ["Meeting", "attendee_names_in", "meetings_in"]


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
        if start + timedelta(minutes=row.minutes) <= ending_after:
            continue
        meetings[row.id] = Meeting(
            id=row.id, start=start, minutes=row.minutes, label=slot["label"],
            channel=row.channel, others=attendee_names_in(conn, row.id, but=person_id),
        )  # fmt: skip
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
