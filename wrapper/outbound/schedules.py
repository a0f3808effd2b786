"""Recurring reminders: a stored rule, one outbox job per occurrence, missed runs collapsed.

A schedule keeps its RRULE and DTSTART (`clockcore.recurrence`), a fixed zone
or none (*floating*: it follows the person's own zone, read each time an
occurrence is computed), the text, the thread and route, and its state:
``active``, ``paused`` or ``ended``.

At most one occurrence of a schedule waits in the outbox. It is a ``reminder``
job with `schedule_id` and `occurs_at`, and its key names the schedule and the
occurrence's wall time to the second (``schedule-<id>@2026-03-09T09:00:00``), so an insert made
twice, by two workers or after a crash, is one row. When the dispatcher claims
it, `advance_in` enqueues the next one, computed from the rule (never by
adding 24 hours) after the claimed occurrence and after now, and says whether
to send this one:

- on time (within `LATE_AFTER`) with none folded into it: send it;
- late (the process was down, the channel away): ``missed="one"``, the
  default, sends this one with a note naming when it was due and how many
  more came due meanwhile, and nothing for those; ``skip`` sends nothing;
  ``all`` sends it and leaves the next one due at once, so each missed
  occurrence goes out. A burst happens only when asked for.

A job that is not sent this way becomes ``skipped``, with the reason kept. The
person's own changes (cancel, pause, resume, a new rule) are
`wrapper.outbound.schedule_changes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, get_args

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Connection

from clockcore import as_utc
from clockcore.geo.zones import get_zone
from clockcore.recurrence import occurrences
from wrapper.outbound.outbox import OutboxItem, enqueue_in, item_values
from wrapper.store import queries as q
from wrapper.store import tables as t
from wrapper.store.queries.common import chosen_id
from wrapper.store.tables import outbox

__all__ = [
    "LATE_AFTER",
    "MISSED_RUNS",
    "WAITING",
    "MissedRuns",
    "NewSchedule",
    "Occurrence",
    "Schedule",
    "ScheduleState",
    "advance_in",
    "create_in",
    "enqueue_next_in",
    "late_note",
    "list_in",
    "load_in",
    "new_schedule_id",
    "next_in",
    "rule_zone_in",
]

MissedRuns = Literal["one", "skip", "all"]
ScheduleState = Literal["active", "paused", "ended"]
MISSED_RUNS: tuple[str, ...] = get_args(MissedRuns)

LATE_AFTER = timedelta(minutes=10)
"""A job sent later than this after its time says so (and counts as missed for `skip`)."""
_MISSED_SCAN = 1000
"""Missed occurrences counted at most (a minutely rule down for a week says "1000+")."""

schedules = t.schedules
WAITING = ("pending", "deferred")
"""The states of a job still to go out."""


def new_schedule_id() -> int:
    """A schedule's id, chosen before it is stored (a staged schedule can be named)."""
    return chosen_id()


@dataclass(frozen=True, slots=True)
class NewSchedule:
    """A recurring reminder to store (the ``remind`` tool's effect).

    `dtstart` is naive wall time in the schedule's zone (UTC for `elapsed`
    rules); `zone` None makes it floating, and `origin_tz` is the zone it was
    read in, used while the person has no zone of their own. `user_id` is the
    channel's id of the person, for the outbox's route.
    """

    id: int
    user_key: str
    thread_key: str
    channel: str
    thread_id: str
    user_id: str | None
    text: str
    rrule: str
    dtstart: datetime
    zone: str | None
    origin_tz: str
    elapsed: bool = False
    missed: MissedRuns = "one"
    named: str | None = None
    """The one-shot reminder's id (``r40``) it was made from, which it keeps."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """A stored schedule, with its next occurrence (None when none waits)."""

    id: int
    person_id: str
    user_key: str
    thread_key: str
    channel: str
    thread_id: str
    channel_user_id: str | None
    text: str
    rrule: str
    dtstart: datetime
    zone: str | None
    origin_tz: str
    elapsed: bool
    missed: MissedRuns
    state: ScheduleState
    created_at: datetime
    next_at: datetime | None = None
    named: str | None = None
    """The id it is known by when it began as a one-shot reminder (``r40``); None: ``s<id>``."""

    @property
    def floating(self) -> bool:
        """It follows the person's zone."""
        return self.zone is None and not self.elapsed


@dataclass(frozen=True, slots=True)
class Occurrence:
    """What to do with a claimed occurrence: send it (with `note` when late) or not."""

    send: bool
    note: str = ""
    missed: int = 0
    due: datetime | None = None  # when late or folded: the instant it was due, said in `note`
    zone: str = "UTC"  # the zone `due` is said in


def _schedule(row: Any, next_at: datetime | None = None) -> Schedule:
    return Schedule(
        id=int(row["id"]),
        person_id=row["user_id"],
        user_key=row["user_key"],
        thread_key=row["thread_key"],
        channel=row["channel"],
        thread_id=row["thread_id"],
        channel_user_id=row["channel_user_id"],
        text=row["text"],
        rrule=row["rrule"],
        dtstart=datetime.fromisoformat(row["dtstart"]),
        zone=row["zone"],
        origin_tz=row["origin_tz"],
        elapsed=bool(row["elapsed"]),
        missed=row["missed"],
        state=row["state"],
        created_at=row["created_at"],
        next_at=next_at,
        named=row["named"],
    )


def load_in(conn: Connection, schedule_id: int) -> Schedule | None:
    """The schedule `schedule_id`, without its next occurrence; None when there is none."""
    row = conn.execute(select(schedules).where(schedules.c.id == schedule_id)).mappings().first()
    return _schedule(row) if row is not None else None


def rule_zone_in(conn: Connection, schedule: Schedule) -> str:
    """Where the rule's wall times are read now."""
    if schedule.elapsed:
        return "UTC"
    if schedule.zone is not None:
        return schedule.zone
    person = q.load_person(conn, schedule.user_key)
    return (person.own_zone if person else None) or schedule.origin_tz


def _key(schedule_id: int, wall: datetime) -> str:
    # To the second: a rule stepping in seconds has several occurrences a minute, and
    # a key shared by two of them would stop the schedule (the next insert is a no-op).
    return f"schedule-{schedule_id}@{wall.isoformat(timespec='seconds')}"


def next_in(conn: Connection, schedule: Schedule, after: datetime) -> tuple[datetime, str] | None:
    """The schedule's first occurrence after `after` and its outbox key; None when the rule ends."""
    zone = rule_zone_in(conn, schedule)
    found = occurrences(schedule.rrule, schedule.dtstart, zone, after=after, count=1)
    if not found:
        return None
    wall = found[0].astimezone(get_zone(zone)).replace(tzinfo=None)
    return found[0], _key(schedule.id, wall)


def _waiting_after(conn: Connection, schedule_id: int, instant: datetime | None) -> bool:
    """Whether an occurrence later than `instant` is already in the outbox, unsent."""
    stmt = select(outbox.c.id).where(
        outbox.c.schedule_id == schedule_id,
        outbox.c.status.in_((*WAITING, "claimed")),
    )
    if instant is not None:
        stmt = stmt.where(outbox.c.occurs_at > instant)
    return conn.execute(stmt.limit(1)).first() is not None


def enqueue_next_in(
    conn: Connection, schedule: Schedule, *, after: datetime, now: datetime
) -> datetime | None:
    """Enqueue the first occurrence after `after`; the schedule ends when there is none."""
    nxt = next_in(conn, schedule, after)
    if nxt is None:
        conn.execute(update(schedules).where(schedules.c.id == schedule.id).values(state="ended"))
        return None
    at, key = nxt
    values = item_values(
        kind="reminder",
        channel=schedule.channel,
        thread_id=schedule.thread_id,
        thread_key=schedule.thread_key,
        user_key=schedule.user_key,
        user_id=schedule.channel_user_id,
        text=schedule.text,
        due_at=at,
        memory_id=None,
        now=now,
        key=key,
    )
    enqueue_in(conn, {**values, "schedule_id": schedule.id, "occurs_at": at})
    # The same occurrence skipped by a pause and now resumed before its time: it comes back.
    conn.execute(
        update(outbox)
        .where(outbox.c.key == key, outbox.c.status == "skipped")
        .values(status="pending", last_error=None, due_at=at, occurs_at=at)
    )
    return at


def create_in(conn: Connection, new: NewSchedule, *, now: datetime) -> datetime | None:
    """Store the schedule and enqueue its first occurrence after `now`; that instant.

    Storing the same id twice changes nothing (a turn's commit repeated).
    """
    person = q.person_for(
        conn,
        user_key=new.user_key,
        channel=new.channel,
        channel_user_id=new.user_id or "",
        now=now,
    )
    values = {
        "id": new.id,
        "user_id": person.user_id,
        "user_key": new.user_key,
        "channel_user_id": new.user_id,
        "thread_key": new.thread_key,
        "channel": new.channel,
        "thread_id": new.thread_id,
        "text": new.text,
        "rrule": new.rrule,
        "dtstart": new.dtstart.isoformat(),
        "zone": new.zone,
        "origin_tz": new.origin_tz,
        "elapsed": new.elapsed,
        "missed": new.missed,
        "state": "active",
        "created_at": now,
        "updated_at": now,
        "named": new.named,
    }
    insert = q.insert_for(conn, schedules).values(**values)
    inserted = conn.execute(insert.on_conflict_do_nothing(index_elements=["id"])).rowcount
    schedule = load_in(conn, new.id)
    if not inserted or schedule is None:
        return None
    return enqueue_next_in(conn, schedule, after=now, now=now)


_SKIP = (
    update(outbox)
    .where(
        outbox.c.id == bindparam("item"),
        outbox.c.status == "claimed",
        outbox.c.claimed_by == bindparam("worker"),
    )
    .values(status="skipped", last_error=bindparam("reason"), claim_expires_at=None)
)


def advance_in(conn: Connection, item: OutboxItem, *, now: datetime, worker: str) -> Occurrence:
    """At the claim of a schedule's occurrence: enqueue the next, and say what to do with it.

    Safe to repeat (a crash before the decision claims the job again): the next
    occurrence is enqueued only while none later than this one waits.
    """
    assert item.schedule_id is not None
    schedule = load_in(conn, item.schedule_id)
    if schedule is None or schedule.state != "active":
        why = "paused" if schedule is not None and schedule.state == "paused" else "ended"
        conn.execute(_SKIP, {"item": item.id, "worker": worker, "reason": f"schedule {why}"})
        return Occurrence(send=False)
    occurs = item.occurs_at or item.due_at
    zone = rule_zone_in(conn, schedule)
    missed = occurrences(schedule.rrule, schedule.dtstart, zone, after=occurs, count=_MISSED_SCAN)
    missed = [at for at in missed if at <= now]
    if not _waiting_after(conn, schedule.id, occurs):
        after = occurs if schedule.missed == "all" else max(occurs, now)
        enqueue_next_in(conn, schedule, after=after, now=now)
    late = now - occurs > LATE_AFTER
    if late and schedule.missed == "skip":
        conn.execute(_SKIP, {"item": item.id, "worker": worker, "reason": "missed while offline"})
        return Occurrence(send=False, missed=len(missed) + 1)
    folded = len(missed) if schedule.missed == "one" else 0
    if not late and not folded:
        return Occurrence(send=True)
    # Late, or standing for occurrences folded into it (a short outage over a frequent rule).
    note = late_note(occurs, zone, folded)
    return Occurrence(send=True, note=note, missed=folded, due=occurs, zone=zone)


def late_note(due: datetime, zone: str, more: int = 0) -> str:
    """The line a late reminder carries: when it was due, and how many more came due since."""
    local = as_utc(due).astimezone(get_zone(zone))
    when = f"{local:%H:%M} on {local:%A} {local.day} {local:%B}"
    note = f"(This was due at {when}; I was offline."
    if more >= _MISSED_SCAN:
        note += f" It came due {more}+ more times since; this message stands for them all."
    elif more:
        times = "time" if more == 1 else "times"
        note += f" It came due {more} more {times} since; this message stands for them all."
    return note + ")"


def list_in(conn: Connection, person_id: str, *, include_ended: bool = False) -> list[Schedule]:
    """The person's schedules, oldest first, each with its next waiting occurrence."""
    stmt = select(schedules).where(schedules.c.user_id == person_id)
    if not include_ended:
        stmt = stmt.where(schedules.c.state != "ended")
    found = []
    for row in conn.execute(stmt.order_by(schedules.c.created_at, schedules.c.id)).mappings():
        next_at = conn.execute(
            select(outbox.c.due_at)
            .where(outbox.c.schedule_id == row["id"], outbox.c.status.in_(WAITING))
            .order_by(outbox.c.due_at)
            .limit(1)
        ).scalar()
        found.append(_schedule(row, next_at))
    return found
