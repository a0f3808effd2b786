"""Each person's private calendar feed: the token behind its URL, kept as a hash.

"calendar" in a direct message (or the button on the web page) gives a person
a feed URL holding a random token (`wrapper.web.new_token`, 256 bits). Only the
token's SHA-256 is stored, so the URL cannot be shown again: asking anew makes
a new one (`NewCalendarFeed`), and the old URL stops working in the same
commit. A person has one feed; when two people are linked into one, both of
their URLs keep working (they are the same person now). Unlinking stops every
URL of the linked person (each showed both sides' data; each side asks anew),
and erasure removes it.

What a feed shows is built in `bot.calendar_ics` from the same reads as the
person's reminders page, and the meetings they attend (docs/calendar.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from wrapper.meetings import Meeting, meetings_in
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.reminders import one_shots_in
from wrapper.outbound.schedules import WAITING, Schedule, list_in, rule_zone_in
from wrapper.store import queries as q
from wrapper.store.tables import calendar_feeds, outbox

__all__ = [
    "FeedItems",
    "FeedRule",
    "NewCalendarFeed",
    "calendar_feeds",
    "feed_items_in",
    "feed_made_in",
    "feed_owner_in",
    "new_feed_in",
]


@dataclass(frozen=True, slots=True)
class NewCalendarFeed:
    """A turn's (or the web page's) effect: the person behind `user_key` gets this feed token.

    Any feed they had stops working.
    """

    user_key: str
    token_hash: str


def new_feed_in(conn: Connection, feed: NewCalendarFeed, *, now: datetime) -> None:
    """Store the feed (the `NewCalendarFeed` effect), replacing the person's others."""
    person = q.load_person(conn, feed.user_key)
    if person is None:
        return  # erased before the commit: nobody to give a feed to
    conn.execute(delete(calendar_feeds).where(calendar_feeds.c.user_id == person.user_id))
    conn.execute(
        insert(calendar_feeds).values(
            token_hash=feed.token_hash, user_id=person.user_id, created_at=now
        )
    )


def feed_owner_in(conn: Connection, digest: str) -> str | None:
    """The person (user id) whose feed token has this hash, or None."""
    found = conn.execute(
        select(calendar_feeds.c.user_id).where(calendar_feeds.c.token_hash == digest)
    ).scalar()
    return str(found) if found is not None else None


def feed_made_in(conn: Connection, user_key: str) -> datetime | None:
    """When the newest feed of the person behind `user_key` was made; None: they have none."""
    person = q.load_person(conn, user_key)
    if person is None:
        return None
    made: datetime | None = conn.execute(
        select(calendar_feeds.c.created_at)
        .where(calendar_feeds.c.user_id == person.user_id)
        .order_by(calendar_feeds.c.created_at.desc())
        .limit(1)
    ).scalar()
    return made


@dataclass(frozen=True, slots=True)
class FeedRule:
    """A repeating reminder as its feed shows it.

    Attributes:
        schedule: the stored rule.
        zone: where its wall times are read now (a floating rule: the person's
            zone now; an elapsed one: UTC).
        next_occurs: the waiting occurrence's own instant (None: paused).
        next_due: when that occurrence goes out (later than `next_occurs` when
            it was snoozed or deferred).
        skipped: occurrences that were skipped and are still in the outbox.
    """

    schedule: Schedule
    zone: str
    next_occurs: datetime | None
    next_due: datetime | None
    skipped: tuple[datetime, ...]


@dataclass(frozen=True, slots=True)
class FeedItems:
    """What a person's feed holds: the reminders their web page lists, and their meetings."""

    rules: tuple[FeedRule, ...]
    one_shots: tuple[OutboxItem, ...]
    meetings: tuple[Meeting, ...] = ()


MEETINGS_KEPT = timedelta(days=30)
"""A meeting stays in the feed this long after it ended, so calendars keep it in their past."""


def feed_items_in(conn: Connection, person_id: str, *, now: datetime) -> FeedItems:
    """The person's repeating reminders (not ended), waiting one-shot reminders and meetings.

    Meetings: those they attend that ended at most `MEETINGS_KEPT` before `now`.
    """
    rules = []
    for schedule in list_in(conn, person_id):
        jobs = conn.execute(
            select(outbox.c.status, outbox.c.occurs_at, outbox.c.due_at)
            .where(outbox.c.schedule_id == schedule.id)
            .where(outbox.c.status.in_((*WAITING, "skipped")))
            .order_by(outbox.c.occurs_at)
        ).all()
        waiting = [job for job in jobs if job.status in WAITING]
        rules.append(
            FeedRule(
                schedule=schedule,
                zone=rule_zone_in(conn, schedule),
                next_occurs=(waiting[0].occurs_at or waiting[0].due_at) if waiting else None,
                next_due=waiting[0].due_at if waiting else None,
                skipped=tuple(
                    job.occurs_at for job in jobs if job.status == "skipped" and job.occurs_at
                ),
            )
        )
    meetings = meetings_in(conn, person_id, ending_after=now - MEETINGS_KEPT)
    return FeedItems(tuple(rules), tuple(one_shots_in(conn, person_id)), tuple(meetings))
