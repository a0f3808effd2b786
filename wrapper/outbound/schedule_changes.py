"""A person's changes to their repeating reminders: cancel, pause, resume, a new rule, a new zone.

Each works on one schedule of `wrapper.outbound.schedules` and its waiting
occurrence in the outbox: a paused schedule's occurrence is skipped, and the
next one enqueued when it resumes (docs/reminders.md).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, select, update
from sqlalchemy.engine import Connection

from clockcore import as_utc
from clockcore.geo.zones import get_zone
from wrapper.outbound.schedules import (
    WAITING,
    NewSchedule,
    Schedule,
    ScheduleState,
    enqueue_next_in,
    list_in,
    load_in,
    next_in,
    rule_zone_in,
)
from wrapper.store.tables import outbox, schedules

__all__ = ["cancel_in", "edit_in", "pause_in", "paused_in", "resume_in", "rezone_in"]


def _skip_waiting(conn: Connection, schedule_id: int, reason: str) -> int:
    return int(
        conn.execute(
            update(outbox)
            .where(outbox.c.schedule_id == schedule_id, outbox.c.status.in_(WAITING))
            .values(status="skipped", last_error=reason)
        ).rowcount
    )


def _owned(conn: Connection, person_id: str, schedule_id: int) -> Schedule | None:
    found = load_in(conn, schedule_id)
    return found if found is not None and found.person_id == person_id else None


def _set_state(conn: Connection, schedule_id: int, state: ScheduleState, now: datetime) -> None:
    conn.execute(
        update(schedules).where(schedules.c.id == schedule_id).values(state=state, updated_at=now)
    )


def cancel_in(conn: Connection, person_id: str, schedule_id: int, *, now: datetime) -> bool:
    """End the person's schedule and skip its waiting occurrence; False for no such schedule."""
    schedule = _owned(conn, person_id, schedule_id)
    if schedule is None or schedule.state == "ended":
        return False
    _set_state(conn, schedule_id, "ended", now)
    _skip_waiting(conn, schedule_id, "schedule canceled")
    return True


def pause_in(
    conn: Connection,
    person_id: str,
    schedule_id: int,
    *,
    now: datetime,
    until: datetime | None = None,
) -> bool:
    """Pause the person's schedule: until `until` (the first occurrence after it stays),
    or until `resume_in` when None. False for no such active schedule."""
    schedule = _owned(conn, person_id, schedule_id)
    if schedule is None or schedule.state != "active":
        return False
    _skip_waiting(conn, schedule_id, "schedule paused")
    if until is None:
        _set_state(conn, schedule_id, "paused", now)
    else:
        enqueue_next_in(
            conn, schedule, after=max(as_utc(until), now) - timedelta(microseconds=1), now=now
        )
    return True


def paused_in(conn: Connection, person_id: str, schedule_id: int, *, now: datetime) -> bool:
    """Whether the schedule is paused, for good or until a time (its next occurrence after
    now is not the one waiting); False when it is not the person's, or ended."""
    schedule = _owned(conn, person_id, schedule_id)
    if schedule is None or schedule.state == "ended":
        return False
    if schedule.state != "active":
        return True
    nxt = next_in(conn, schedule, now)
    waiting = conn.execute(
        select(outbox.c.occurs_at).where(
            outbox.c.schedule_id == schedule_id, outbox.c.status.in_(WAITING)
        )
    ).scalars()
    return nxt is not None and any(at > nxt[0] for at in waiting)


def resume_in(conn: Connection, person_id: str, schedule_id: int, *, now: datetime) -> bool:
    """Resume a schedule paused (for good or until a time) from its next occurrence after now.

    False when it was not paused (`paused_in`): active with its next occurrence waiting, or
    ended.
    """
    schedule = _owned(conn, person_id, schedule_id)
    if schedule is None or not paused_in(conn, person_id, schedule_id, now=now):
        return False  # not paused: its next occurrence already waits
    _set_state(conn, schedule_id, "active", now)
    _skip_waiting(conn, schedule_id, "resumed: the next occurrence comes sooner")
    enqueue_next_in(conn, schedule, after=now, now=now)
    return True


def edit_in(
    conn: Connection,
    person_id: str,
    schedule_id: int,
    *,
    rule: NewSchedule,
    now: datetime,
) -> datetime | None:
    """Give the person's schedule `rule`'s text, rule, start and zone, in place; its next time.

    The id stays, so a calendar updates its event (docs/calendar.md). Its waiting
    occurrence is skipped and the first one of the new rule after now enqueued; a
    paused schedule is active again (the person named a new rhythm). None when it
    is not theirs, or ended, or the new rule has no occurrence after now.
    """
    schedule = _owned(conn, person_id, schedule_id)
    if schedule is None or schedule.state == "ended":
        return None
    values = {
        "text": rule.text,
        "rrule": rule.rrule,
        "dtstart": rule.dtstart.isoformat(),
        "zone": rule.zone,
        "origin_tz": rule.origin_tz,
        "elapsed": rule.elapsed,
        "state": "active",
        "updated_at": now,
    }
    conn.execute(update(schedules).where(schedules.c.id == schedule_id).values(**values))
    _skip_waiting(conn, schedule_id, "its rule changed")
    edited = load_in(conn, schedule_id)
    assert edited is not None
    return enqueue_next_in(conn, edited, after=now, now=now)


def rezone_in(conn: Connection, person_id: str, *, old: str | None, now: datetime) -> int:
    """The person's own zone changed (from `old`): move their floating occurrences; how many.

    A waiting occurrence keeps its wall time in the new zone. One whose new
    instant has passed already is skipped and the next one after now enqueued.
    """
    moved = 0
    for schedule in list_in(conn, person_id):
        if not schedule.floating or schedule.state != "active":
            continue
        zone = rule_zone_in(conn, schedule)
        was = get_zone(old or schedule.origin_tz)
        rows = conn.execute(
            select(outbox.c.id, outbox.c.occurs_at).where(
                and_(outbox.c.schedule_id == schedule.id, outbox.c.status == "pending")
            )
        ).all()
        for item_id, occurs in rows:
            wall = as_utc(occurs).astimezone(was).replace(tzinfo=None)
            at = as_utc(wall.replace(tzinfo=get_zone(zone), fold=0))
            if at > now:
                conn.execute(
                    update(outbox).where(outbox.c.id == item_id).values(due_at=at, occurs_at=at)
                )
            else:
                conn.execute(
                    update(outbox)
                    .where(outbox.c.id == item_id)
                    .values(status="skipped", last_error="moved to the person's new zone")
                )
                enqueue_next_in(conn, schedule, after=now, now=now)
            moved += 1
    return moved
