"""The person's reminders, recurring and one-shot, as they name and change them.

A reminder is named ``s<id>`` when it is a recurring schedule
(`wrapper.outbound.schedules`) and ``r<id>`` when it is one outbox job (a reminder
of a memory item, or a scheduled message); `wrapper.outbound.reminder_ids` reads
and writes those ids. `ReminderChange` is the effect the reminder tools stage
(cancel, pause, resume, move), applied in the turn's commit by `change_in`;
`RuleChange` gives a reminder a new repeat in place (`rule_in`: the same id, so
the same calendar event). `InteractionWrapper.reminders` (`wrapper.parts.Reminders`)
calls these, one transaction each.

A one-shot reminder made repeating keeps its ``r<id>``: its schedule is
*named* so (`Schedule.named`), and every lookup by id finds it there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import and_, select, update
from sqlalchemy.engine import Connection

from wrapper.outbound.outbox import OutboxItem, outbox_item, sent_item_in
from wrapper.outbound.reminder_ids import parse_reminder_id, reminder_id
from wrapper.outbound.schedule_changes import cancel_in, edit_in, pause_in, paused_in, resume_in
from wrapper.outbound.schedules import WAITING, NewSchedule, Schedule, create_in, list_in, schedules
from wrapper.store import queries as q
from wrapper.store import tables as t
from wrapper.store.tables import outbox

__all__ = [
    "PAUSED",
    "ReminderAction",
    "ReminderChange",
    "RuleChange",
    "change_in",
    "job_in",
    "last_sent_in",
    "meant_in",
    "one_shots_in",
    "overview_in",
    "owner_in",
    "paused_target_in",
    "rule_in",
]

ReminderAction = Literal["cancel", "pause", "resume", "move"]


@dataclass(frozen=True, slots=True)
class ReminderChange:
    """Cancel, pause, resume or move a reminder of the person (the reminder tools' effect).

    `target` is ``s<id>`` for a schedule, ``r<id>`` for a one-shot job, or
    ``all`` (every schedule and one-shot; a pause holds the one-shots due
    before `until`, moving them to it). `until` is where ``move`` puts a one-shot, and how
    long ``pause`` lasts (None: until resumed).
    """

    user_key: str
    target: str
    action: ReminderAction
    until: datetime | None = None


@dataclass(frozen=True, slots=True)
class RuleChange:
    """Give a reminder of the person a new repeat, in place ("make it every other week").

    `target` is ``s<id>``, or ``r<id>`` for a one-shot one (waiting or just sent),
    which becomes a schedule named ``r<id>``. `rule` carries the new text, rule,
    start and zone; its id, route and thread are the reminder's own.
    """

    user_key: str
    target: str
    rule: NewSchedule


def named_in(conn: Connection, person_id: str, target: str) -> Schedule | None:
    """The person's schedule a one-shot ``r<id>`` became, if it did (not ended)."""
    row = conn.execute(
        select(schedules.c.id).where(
            schedules.c.user_id == person_id,
            schedules.c.named == target.strip().lower(),
            schedules.c.state != "ended",
        )
    ).first()
    if row is None:
        return None
    return next((s for s in list_in(conn, person_id) if s.id == row[0]), None)


_ONE_SHOT_KINDS = ("reminder", "proactive")


def one_shots_in(conn: Connection, person_id: str) -> list[OutboxItem]:
    """The person's waiting one-shot reminders and scheduled messages, soonest first."""
    theirs = select(t.identities.c.user_key).where(t.identities.c.user_id == person_id)
    rows = conn.execute(
        select(outbox)
        .where(
            outbox.c.user_key.in_(theirs),
            outbox.c.kind.in_(_ONE_SHOT_KINDS),
            outbox.c.schedule_id.is_(None),
            outbox.c.status.in_(WAITING),
        )
        .order_by(outbox.c.due_at, outbox.c.id)
    ).mappings()
    return [outbox_item(row) for row in rows]


def last_sent_in(conn: Connection, thread_key: str) -> OutboxItem | None:
    """The newest reminder sent in the thread (what "snooze" means without an id)."""
    row = (
        conn.execute(
            select(outbox)
            .where(
                outbox.c.thread_key == thread_key,
                outbox.c.kind == "reminder",
                outbox.c.status == "sent",
            )
            .order_by(outbox.c.sent_at.desc(), outbox.c.id.desc())
            .limit(1)
        )
        .mappings()
        .first()
    )
    return outbox_item(row) if row is not None else None


def meant_in(
    conn: Connection, thread_key: str, channel: str, reply_to: str | None
) -> OutboxItem | None:
    """The reminder a message about "it" means: the one it replies to, else `last_sent_in`.

    `reply_to` is the platform's id of the message replied to. It counts only
    for a reminder sent in this same thread, so naming another thread's
    message reaches nothing of anyone else's.
    """
    if reply_to:
        replied = sent_item_in(conn, channel, reply_to)
        if replied is not None and replied.kind == "reminder" and replied.thread_key == thread_key:
            return replied
    return last_sent_in(conn, thread_key)


def job_in(conn: Connection, person_id: str, job_id: int) -> OutboxItem | None:
    """The person's reminder job `job_id` (any state), or None."""
    theirs = select(t.identities.c.user_key).where(t.identities.c.user_id == person_id)
    row = (
        conn.execute(
            select(outbox).where(
                outbox.c.id == job_id,
                outbox.c.user_key.in_(theirs),
                outbox.c.kind.in_(_ONE_SHOT_KINDS),
            )
        )
        .mappings()
        .first()
    )
    return outbox_item(row) if row is not None else None


REPEATS = "made repeating by the person"
"""Why a one-shot reminder's job is skipped when it becomes repeating (`rule_in`)."""
PAUSED = "paused by the person"
"""The defer reason of a one-shot reminder held by "pause my reminders until …"."""


def _change_job(conn: Connection, job: OutboxItem, change: ReminderChange, now: datetime) -> bool:
    if job.status not in WAITING or job.schedule_id is not None:
        return False
    values: dict[str, Any]
    if change.action == "cancel":
        values = {"status": "skipped", "last_error": "canceled by the person"}
    elif change.action == "move" and change.until is not None:
        values = {"due_at": change.until, "occurs_at": change.until, "status": "pending"}
    elif change.action == "pause" and change.until is not None:
        # Held, as a deferral the person made: its own time is kept to come back to.
        values = {
            "status": "deferred",
            "defer_reason": PAUSED,
            "due_at": change.until,
            "occurs_at": change.until,
            "deferred_from": job.occurs_at or job.due_at,
        }
    elif change.action == "resume" and job.status == "deferred" and job.defer_reason == PAUSED:
        back = max(job.deferred_from or now, now)
        values = {"status": "pending", "defer_reason": None, "due_at": back, "occurs_at": back}
    else:
        return False
    where = and_(outbox.c.id == job.id, outbox.c.status.in_(WAITING))
    changed = bool(conn.execute(update(outbox).where(where).values(**values)).rowcount)
    if changed and job.memory_id is not None and ("due_at" in values or change.action == "cancel"):
        # Its memory item is due when the reminder is, and no longer once it is canceled: one
        # source of truth for what is due (docs/reminders.md), so /mydata and an export never
        # show a time it had before, nor one that will not come.
        due = update(t.memory).where(t.memory.c.id == job.memory_id)
        conn.execute(due.values(due_at=values.get("due_at")))
    return changed


def change_in(conn: Connection, change: ReminderChange, *, now: datetime) -> bool:
    """Apply `change` for its person; False when it names nothing of theirs it can change."""
    person = q.load_person(conn, change.user_key)
    if person is None:
        return False
    if change.target == "all":
        if change.action not in ("pause", "resume", "cancel"):
            return False
        done = False
        for schedule in list_in(conn, person.user_id):
            one = ReminderChange(change.user_key, f"s{schedule.id}", change.action, change.until)
            done = change_in(conn, one, now=now) or done
        for job in one_shots_in(conn, person.user_id):
            held = change.until is not None and job.due_at < change.until
            if change.action in ("resume", "cancel") or held:
                done = _change_job(conn, job, change, now) or done
        return done
    parsed = parse_reminder_id(change.target)
    if parsed is None:
        return False
    kind, number = parsed
    if kind == "r" and (named := named_in(conn, person.user_id, change.target)) is not None:
        kind, number = "s", named.id  # a one-shot made repeating: its schedule now
    if kind == "r":
        found = job_in(conn, person.user_id, number)
        return found is not None and _change_job(conn, found, change, now)
    match change.action:
        case "cancel":
            return cancel_in(conn, person.user_id, number, now=now)
        case "pause":
            return pause_in(conn, person.user_id, number, now=now, until=change.until)
        case "resume":
            return resume_in(conn, person.user_id, number, now=now)
    return False


def paused_target_in(conn: Connection, user_key: str, target: str, *, now: datetime) -> bool:
    """Whether `target` (``s<id>``, ``r<id>``, ``all``: any of them) is paused, so that
    resuming it changes something (docs/reminders.md)."""
    person = q.load_person(conn, user_key)
    if person is None:
        return False

    def held(job: OutboxItem | None) -> bool:
        return job is not None and job.status == "deferred" and job.defer_reason == PAUSED

    if target == "all":
        return any(
            paused_in(conn, person.user_id, s.id, now=now) for s in list_in(conn, person.user_id)
        ) or any(held(job) for job in one_shots_in(conn, person.user_id))
    parsed = parse_reminder_id(target)
    if parsed is None:
        return False
    kind, number = parsed
    if kind == "r" and (named := named_in(conn, person.user_id, target)) is not None:
        return paused_in(conn, person.user_id, named.id, now=now)
    if kind == "r":
        return held(job_in(conn, person.user_id, number))
    return paused_in(conn, person.user_id, number, now=now)


def rule_in(conn: Connection, change: RuleChange, *, now: datetime) -> datetime | None:
    """Apply `change` for its person: the reminder's next time under its new rule, or None
    when it names nothing of theirs (or the rule has no time to come).

    A one-shot one still waiting is not sent at its old time: it is skipped, and its
    memory item no longer due (the schedule is what is due now, docs/reminders.md).
    """
    person = q.load_person(conn, change.user_key)
    parsed = parse_reminder_id(change.target)
    if person is None or parsed is None:
        return None
    kind, number = parsed
    if kind == "r" and (named := named_in(conn, person.user_id, change.target)) is not None:
        kind, number = "s", named.id
    if kind == "s":
        return edit_in(conn, person.user_id, number, rule=change.rule, now=now)
    job = job_in(conn, person.user_id, number)
    if job is None or job.schedule_id is not None:
        return None
    rule = change.rule
    new = NewSchedule(
        id=rule.id,
        user_key=job.user_key or change.user_key,
        thread_key=job.thread_key,
        channel=job.channel,
        thread_id=job.thread_id,
        user_id=job.user_id,
        text=rule.text,
        rrule=rule.rrule,
        dtstart=rule.dtstart,
        zone=rule.zone,
        origin_tz=rule.origin_tz,
        elapsed=rule.elapsed,
        missed=rule.missed,
        named=reminder_id(job),
    )
    if job.status in WAITING:  # its schedule sends it now, under the same id
        where = and_(outbox.c.id == job.id, outbox.c.status.in_(WAITING))
        conn.execute(update(outbox).where(where).values(status="skipped", last_error=REPEATS))
        if job.memory_id is not None:
            due = update(t.memory).where(t.memory.c.id == job.memory_id)
            conn.execute(due.values(due_at=None))
    return create_in(conn, new, now=now)


def overview_in(conn: Connection, user_key: str | None) -> tuple[list[Schedule], list[OutboxItem]]:
    """Everyone's reminders (or those of the person behind `user_key`), for the operator."""
    if user_key is not None:
        person = q.load_person(conn, user_key)
        if person is None:
            return [], []
        return list_in(conn, person.user_id), one_shots_in(conn, person.user_id)
    people = conn.execute(select(t.users.c.id).order_by(t.users.c.id)).scalars().all()
    schedules = [s for person in people for s in list_in(conn, person)]
    return schedules, [job for person in people for job in one_shots_in(conn, person)]


def owner_in(conn: Connection, target: str) -> str | None:
    """The user key a reminder id belongs to, or None."""
    parsed = parse_reminder_id(target)
    if parsed is None:
        return None
    kind, number = parsed
    if kind == "r":
        named = select(schedules.c.user_key).where(schedules.c.named == f"r{number}")
        if (owner := conn.execute(named.limit(1)).scalar()) is not None:
            return str(owner)
    table = schedules if kind == "s" else outbox
    found = conn.execute(select(table.c.user_key).where(table.c.id == number)).scalar()
    return str(found) if found else None
