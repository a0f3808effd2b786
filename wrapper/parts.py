"""The wrapper's parts by concern: people, reminders, meetings, feeds, calls, threads, memory.

`InteractionWrapper` holds one of each (`wrapper.people`, `.reminders`, `.meetings`, `.feeds`,
`.calls`, `.threads`, `.memory`), each call one transaction; a caller names the
concern it reads or changes instead of a method on the facade. A turn's writes
still go through effects (`wrapper.turns.effects`).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from clockcore import Clock, ContactWindow, as_utc
from clockcore.envelope_items import UpcomingItem
from wrapper import keys
from wrapper.calendar_feeds import FeedItems, feed_items_in, feed_made_in, feed_owner_in
from wrapper.inbound.replies import group_threads_started, thread_followed
from wrapper.inbound.sender_checks import pending_check_in
from wrapper.meeting_answers import close_due_in
from wrapper.meeting_polls import MeetingPoll, poll_in, poll_replied_in
from wrapper.meetings import attendee_names_in
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.reminders import (
    ReminderChange,
    change_in,
    job_in,
    meant_in,
    named_in,
    one_shots_in,
    overview_in,
    owner_in,
    paused_target_in,
)
from wrapper.outbound.schedule_changes import cancel_in, pause_in, resume_in
from wrapper.outbound.schedules import (
    NewSchedule,
    Occurrence,
    Schedule,
    advance_in,
    create_in,
    list_in,
)
from wrapper.people.person_data import Erased, erase_person, export_person
from wrapper.people.retention import Pruned, prune_in
from wrapper.store import queries
from wrapper.store import tables as t
from wrapper.store.db import Database
from wrapper.turns.model_calls import (
    CallRecord,
    ModelCall,
    PrefixVerdict,
    Stats,
    recent_in,
    record_in,
    stats_in,
)
from wrapper.turns.turn import upcoming_item

__all__ = [
    "Feeds",
    "Meetings",
    "Memory",
    "MemoryItem",
    "ModelCalls",
    "People",
    "Reminders",
    "Threads",
    "query_words",
]


class People:
    """Who a person is to the wrapper: their window and zone, their data, its erasure and age."""

    def __init__(self, database: Database, *, clock: Clock, contact_window: ContactWindow) -> None:
        self._db = database
        self._clock = clock
        self._window = contact_window

    async def contact_window_of(self, user_key: str) -> ContactWindow:
        """The contact window of the person behind `user_key`: theirs, else the default."""
        person = await self._db.run(lambda conn: queries.load_person(conn, user_key))
        return person.window(self._window) if person else self._window

    async def user_timezone(self, user_key: str) -> str | None:
        """The default zone of the person behind `user_key`, when they have one."""
        person = await self._db.run(lambda conn: queries.load_person(conn, user_key))
        return person.own_zone if person else None

    async def export_person(self, user_key: str) -> dict[str, Any] | None:
        """What is kept about `user_key`'s person (`wrapper.people.person_data`); None: none."""
        return await self._db.run(lambda conn: export_person(conn, user_key))

    async def erase_person(self, user_key: str) -> Erased:
        """Erase `user_key`'s person on every linked channel (`wrapper.people.person_data`).

        One transaction. A platform's redelivery of one of their old messages
        is then a duplicate: nothing is stored or answered for it.
        """
        return await self._db.run(lambda conn: erase_person(conn, user_key))

    async def prune(self, *, before: datetime) -> Pruned:
        """Delete conversation older than `before` (`wrapper.people.retention`), in one go."""
        now = self._clock.now()
        return await self._db.run(lambda conn: prune_in(conn, before=before, now=now))


class Reminders:
    """A store's reminders, recurring and one-shot: `InteractionWrapper.reminders`.

    Each call is one transaction.
    """

    def __init__(self, database: Database) -> None:
        self._db = database

    async def create(self, new: NewSchedule, *, now: datetime) -> datetime | None:
        """`create_in`: store it and enqueue its first occurrence; that instant."""
        return await self._db.run(lambda conn: create_in(conn, new, now=now))

    async def advance(self, item: OutboxItem, *, now: datetime, worker: str) -> Occurrence:
        """`advance_in`, for a claimed job of a schedule."""
        return await self._db.run(lambda conn: advance_in(conn, item, now=now, worker=worker))

    async def listing(self, user_key: str, *, include_ended: bool = False) -> list[Schedule]:
        """The schedules of the person behind `user_key`, with their next occurrences."""

        def read(conn: Connection) -> list[Schedule]:
            person = queries.load_person(conn, user_key)
            return list_in(conn, person.user_id, include_ended=include_ended) if person else []

        return await self._db.run(read, inline=True)

    async def cancel(self, user_key: str, schedule_id: int, *, now: datetime) -> bool:
        """`cancel_in` for the person behind `user_key`."""
        return await self._for_person(user_key, lambda c, p: cancel_in(c, p, schedule_id, now=now))

    async def pause(
        self, user_key: str, schedule_id: int, *, now: datetime, until: datetime | None = None
    ) -> bool:
        """`pause_in` for the person behind `user_key`."""
        return await self._for_person(
            user_key, lambda c, p: pause_in(c, p, schedule_id, now=now, until=until)
        )

    async def resume(self, user_key: str, schedule_id: int, *, now: datetime) -> bool:
        """`resume_in` for the person behind `user_key`."""
        return await self._for_person(user_key, lambda c, p: resume_in(c, p, schedule_id, now=now))

    async def paused(self, user_key: str, target: str, *, now: datetime) -> bool:
        """`paused_target_in`."""
        return await self._db.run(
            lambda conn: paused_target_in(conn, user_key, target, now=now), inline=True
        )

    async def change(self, change: ReminderChange, *, now: datetime) -> bool:
        """`change_in`, in its own transaction."""
        return await self._db.run(lambda conn: change_in(conn, change, now=now))

    async def reminders(self, user_key: str) -> tuple[list[Schedule], list[OutboxItem]]:
        """The person's schedules (not ended) and waiting one-shot reminders."""

        def read(conn: Connection) -> tuple[list[Schedule], list[OutboxItem]]:
            person = queries.load_person(conn, user_key)
            if person is None:
                return [], []
            return list_in(conn, person.user_id), one_shots_in(conn, person.user_id)

        return await self._db.run(read, inline=True)

    async def job(self, user_key: str, job_id: int) -> OutboxItem | None:
        """`job_in` for the person behind `user_key`."""

        def read(conn: Connection) -> OutboxItem | None:
            person = queries.load_person(conn, user_key)
            return job_in(conn, person.user_id, job_id) if person is not None else None

        return await self._db.run(read, inline=True)

    async def meant(self, thread_key: str, channel: str, reply_to: str | None) -> OutboxItem | None:
        """`meant_in`."""
        return await self._db.run(
            lambda conn: meant_in(conn, thread_key, channel, reply_to), inline=True
        )

    async def overview(
        self, user_key: str | None = None
    ) -> tuple[list[Schedule], list[OutboxItem]]:
        """`overview_in`: everyone's reminders, or one person's."""
        return await self._db.run(lambda conn: overview_in(conn, user_key), inline=True)

    async def repeats(self, user_key: str, target: str) -> bool:
        """Whether `target` names a repeating reminder of the person: ``s<id>``, or an
        ``r<id>`` made repeating (`Schedule.named`)."""

        def read(conn: Connection) -> bool:
            person = queries.load_person(conn, user_key)
            if person is None or target.startswith("s"):
                return target.startswith("s")
            return named_in(conn, person.user_id, target) is not None

        return await self._db.run(read, inline=True)

    async def owner(self, target: str) -> str | None:
        """`owner_in`: whose reminder `target` is."""
        return await self._db.run(lambda conn: owner_in(conn, target), inline=True)

    async def _for_person(self, user_key: str, change: Callable[[Connection, str], bool]) -> bool:
        def work(conn: Connection) -> bool:
            person = queries.load_person(conn, user_key)
            return change(conn, person.user_id) if person is not None else False

        return await self._db.run(work)


class Meetings:
    """Meeting polls and the meetings they decided (`wrapper.meeting_polls`, `wrapper.meetings`)."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def poll(self, poll_id: int) -> MeetingPoll | None:
        """A stored meeting poll, or None."""
        return await self._db.run(lambda conn: poll_in(conn, poll_id), inline=True)

    async def attendees(self, poll_id: int) -> tuple[str, ...]:
        """The names of who attends the meeting a poll decided."""
        return await self._db.run(lambda conn: attendee_names_in(conn, poll_id), inline=True)

    async def close_due(self, now: datetime) -> int:
        """Decide the meeting polls whose closing time has come; how many were decided."""
        return await self._db.run(lambda conn: close_due_in(conn, now=now))

    async def poll_replied(self, channel: str, platform_id: str) -> MeetingPoll | None:
        """The meeting poll whose message went out as the platform's `platform_id`, or None."""
        return await self._db.run(
            lambda conn: poll_replied_in(conn, channel, platform_id), inline=True
        )


class Feeds:
    """The calendar feeds a person subscribes to (`wrapper.calendar_feeds`)."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def made(self, user_key: str) -> datetime | None:
        """When the newest calendar feed of the person behind `user_key` was made (None: none)."""
        return await self._db.run(lambda conn: feed_made_in(conn, user_key), inline=True)

    async def items(self, digest: str, *, now: datetime) -> FeedItems | None:
        """What the feed whose token has this hash shows at `now`; None: no such feed."""

        def read(conn: Connection) -> FeedItems | None:
            person = feed_owner_in(conn, digest)
            return feed_items_in(conn, person, now=now) if person is not None else None

        return await self._db.run(read, inline=True)


class ModelCalls:
    """The model requests made, each stored and its prefix judged (`wrapper.turns.model_calls`)."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def record(self, call: ModelCall) -> PrefixVerdict:
        """Store one model request and judge its prefix."""
        return await self._db.run(lambda conn: record_in(conn, call))

    async def stats(self, *, since: datetime) -> Stats:
        """The model requests made from `since` on, summed (``clockbot stats``)."""
        return await self._db.run(lambda conn: stats_in(conn, since=as_utc(since)), inline=True)

    async def recent(self, *, limit: int = 30) -> list[CallRecord]:
        """The newest model requests, for the operator."""
        return await self._db.run(lambda conn: recent_in(conn, limit=limit))


class Threads:
    """What the store knows of a thread's writers: the thread a reply follows, their recent
    texts, group threads they started, a request they have held back."""

    def __init__(self, database: Database, *, agent_id: str) -> None:
        self._db = database
        self._agent_id = agent_id

    async def followed(self, *, channel: str, user_id: str, named: Sequence[str]) -> str | None:
        """The thread id of the nearest `named` message whose thread this writer is in, or None.

        `named` are platform message ids the new message follows (an email's
        In-Reply-To and References), ours or theirs. Only a thread the writer
        already writes in counts (`wrapper.inbound.replies`).
        """
        user_key = keys.user_key(channel, user_id)
        return await self._db.run(
            lambda conn: thread_followed(
                conn, agent_id=self._agent_id, channel=channel, user_key=user_key, named=named
            )
        )

    async def group_started(self, *, channel: str, user_id: str, since: datetime, but: str) -> int:
        """How many group mail threads `user_id` started since `since`, thread `but` aside."""
        agent_id = self._agent_id
        return await self._db.run(
            lambda conn: group_threads_started(
                conn, agent_id=agent_id, channel=channel, user_id=user_id, since=since, but=but
            )
        )

    async def recent_texts(
        self, user_key: str, thread_key: str, *, since: datetime, until: datetime
    ) -> list[str]:
        """What `user_key` wrote in `thread_key` from `since` to `until`, newest first.

        Read from the journal; both ends count: platforms stamp messages to the second.
        """

        def work(conn: Connection) -> list[str]:
            journal = t.journal
            query = (
                select(journal.c.text)
                .where(
                    journal.c.user_key == user_key,
                    journal.c.thread_key == thread_key,
                    journal.c.received_at >= since,
                    journal.c.received_at <= until,
                )
                .order_by(journal.c.received_at.desc(), journal.c.id.desc())  # ties: arrival
                .limit(50)
            )
            return list(conn.execute(query).scalars())

        return await self._db.run(work)

    async def held_request(
        self, user_key: str, thread_key: str, token_hashes: list[str], *, now: datetime
    ) -> tuple[str, str] | None:
        """A request `user_key` has waiting in `thread_key` for one of these token hashes:
        (hash, request)."""
        return await self._db.run(
            lambda conn: pending_check_in(
                conn, user_key=user_key, thread_key=thread_key, token_hashes=token_hashes, now=now
            )
        )


class Memory:
    """The items a person asked to be remembered, as a turn's envelope lists them."""

    def __init__(self, database: Database, *, clock: Clock) -> None:
        self._db = database
        self._clock = clock

    async def upcoming(
        self, *, user_key: str, within_days: float = 7, now: datetime | None = None
    ) -> list[UpcomingItem]:
        """Items due within `within_days` or overdue, not reminded since they fell due."""
        instant = as_utc(now) if now is not None else self._clock.now()

        def read(conn: Connection) -> list[Mapping[str, Any]]:
            person = queries.load_person(conn, user_key)
            if person is None:
                return []
            horizon = instant + timedelta(days=within_days)
            return queries.upcoming(conn, person.user_id, now=instant, horizon=horizon)

        return [upcoming_item(row, instant) for row in await self._db.run(read)]


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """A stored memory item, as `InteractionWrapper.recall` finds it."""

    id: int
    content: str
    created_at: datetime
    due_at: datetime | None
    reminded_at: datetime | None


def query_words(query: str) -> list[str]:
    """The words of a recall query: punctuation around each stripped, case folded."""
    words = (word.strip(string.punctuation).casefold() for word in query.split())
    return [word for word in words if word]
