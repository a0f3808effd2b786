"""What every message reads and stamps, as statements built once per dialect.

The person and the thread, the stamps on both, the participant, the journal,
the open actions and what is due: SQLAlchemy Core statements made once per
dialect (`prepared`) and run with new parameters, because building a statement
costs more than SQLite takes to run it. On PostgreSQL the gateway's known-person
path is `wrapper.inbound.hot` instead; these stay the reference it is tested against.

Every stamp is written with "later wins" (`_later`), inside the same
``INSERT … ON CONFLICT DO UPDATE`` as the row, so two workers handling two
messages of one thread can interleave freely and the stored stamp is still the
latest instant that should set it. Nothing reads a row to decide a stamp.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    and_,
    bindparam,
    case,
    delete,
    null,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from clockcore.actions import OPEN_STATUSES
from wrapper.store.rows import PersonRow, ThreadView
from wrapper.store.tables import (
    actions,
    calibration,
    identities,
    journal,
    memory,
    outbox,
    participants,
    threads,
    users,
)
from wrapper.store.types import UTCDateTime

UPCOMING_LIMIT = 50
REMINDER_KINDS = ("reminder", "proactive")
"""The outbox jobs that are reminders: one-shot, a schedule's occurrence, a message for later."""
WAITING_STATUSES = ("pending", "deferred")
"""A job still to go out (`wrapper.outbound.schedules.WAITING`)."""


def _later(column: Any, value: Any) -> ColumnElement[Any]:
    """SQL for "the later of the stored instant and `value`" (NULL-safe)."""
    return case(
        (or_(column.is_(None), and_(value.is_not(None), column < value)), value),
        else_=column,
    )


def _at(name: str) -> Any:
    return bindparam(name, type_=UTCDateTime())


class _Statements:
    """The hot path's statements, built once per dialect.

    Building a Core statement and computing its cache key costs more than
    SQLite takes to run it, so each message reuses these with new parameters.
    """

    def __init__(self, dialect: Any) -> None:
        insert = dialect.insert
        self.journal = (
            insert(journal)
            .values(
                channel=bindparam("channel"),
                message_id=bindparam("message_id"),
                thread_key=bindparam("thread_key"),
                user_key=bindparam("user_key"),
                received_at=_at("received_at"),
                text=bindparam("text"),
            )
            .on_conflict_do_nothing(index_elements=["channel", "message_id"])
            .returning(journal.c.id)
        )
        self.person = (
            select(
                identities.c.user_id,
                users.c.default_tz,
                users.c.platform_tz,
                users.c.policy_overrides,
                users.c.known_locations,
                users.c.last_interaction_any_channel_at,
                users.c.last_interaction_any_channel,
                users.c.actions_until,
                users.c.has_due_items,
                users.c.contact_window,
                identities.c.display_name,
            )
            .join(users, users.c.id == identities.c.user_id)
            .where(identities.c.user_key == bindparam("user_key"))
        )
        self.thread = (
            select(threads, participants.c.last_user_message_at.label("spoke_before"))
            .outerjoin(
                participants,
                and_(
                    participants.c.thread_key == threads.c.thread_key,
                    participants.c.user_key == bindparam("user_key"),
                ),
            )
            .where(threads.c.thread_key == bindparam("thread_key"))
        )
        at = _at("at")
        self.identity_user = (
            update(identities)
            .where(identities.c.user_key == bindparam("key"))
            .values(last_user_message_at=_later(identities.c.last_user_message_at, at))
        )
        self.identity_agent = (
            update(identities)
            .where(identities.c.user_key == bindparam("key"))
            .values(last_agent_message_at=_later(identities.c.last_agent_message_at, at))
        )
        stored = users.c.last_interaction_any_channel_at
        self.person_stamp = (
            update(users)
            .where(users.c.id == bindparam("person"))
            .values(
                last_interaction_any_channel_at=_later(stored, at),
                last_interaction_any_channel=case(
                    (or_(stored.is_(None), stored < at), bindparam("channel")),
                    else_=users.c.last_interaction_any_channel,
                ),
            )
        )
        self.thread_stamp = {
            stamp: self._thread_stamp(insert, stamp)
            for stamp in ("last_user_message_at", "last_agent_message_at")
        }
        row = insert(participants).values(
            thread_key=bindparam("thread_key"),
            user_key=bindparam("user_key"),
            last_user_message_at=_at("at"),
        )
        self.participant = row.on_conflict_do_update(
            index_elements=["thread_key", "user_key"],
            set_={
                "last_user_message_at": _later(
                    participants.c.last_user_message_at, row.excluded.last_user_message_at
                )
            },
        )
        self.open_actions = (
            select(actions)
            .where(
                actions.c.user_id == bindparam("person"),
                actions.c.status.in_(sorted(OPEN_STATUSES)),
                actions.c.expires_at > _at("now"),
            )
            .order_by(actions.c.recorded_at.desc())
        )
        self.insert_action = actions.insert()
        self.actions_until = (
            update(users)
            .where(users.c.id == bindparam("person"))
            .values(actions_until=_later(users.c.actions_until, _at("until")))
        )
        newest = (
            select(actions.c.id)
            .where(actions.c.user_id == bindparam("person"))
            .order_by(actions.c.recorded_at.desc(), actions.c.id.desc())
            .limit(bindparam("max_items"))
        )
        self.compact_actions = delete(actions).where(
            actions.c.user_id == bindparam("person"),
            or_(actions.c.expires_at <= _at("now"), actions.c.id.not_in(newest.scalar_subquery())),
        )
        self.calibration = select(
            calibration.c.activity, calibration.c.typical_minutes, calibration.c.max_minutes
        ).where(calibration.c.user_id == bindparam("person"))
        now, horizon = _at("now"), _at("horizon")
        # docs/reminders.md, "What is due": a note's own due time, or its reminder's.
        has_reminder = (
            select(outbox.c.id)
            .where(outbox.c.memory_id == memory.c.id, outbox.c.kind.in_(REMINDER_KINDS))
            .exists()
        )
        notes = select(
            memory.c.id.label("memory_id"),
            null().label("job_id"),
            null().label("schedule_id"),
            memory.c.content,
            memory.c.due_at,
            memory.c.reminded_at,
        ).where(
            memory.c.user_id == bindparam("person"),
            memory.c.due_at.is_not(None),
            memory.c.due_at <= horizon,
            or_(
                memory.c.reminded_at.is_(None),
                and_(memory.c.reminded_at < memory.c.due_at, memory.c.due_at <= now),
            ),
            ~has_reminder,
        )
        theirs = select(identities.c.user_key).where(identities.c.user_id == bindparam("person"))
        jobs = select(
            null().label("memory_id"),
            outbox.c.id.label("job_id"),
            outbox.c.schedule_id,
            outbox.c.text.label("content"),
            outbox.c.due_at,
            null().label("reminded_at"),
        ).where(
            outbox.c.status.in_(WAITING_STATUSES),
            outbox.c.due_at <= horizon,
            outbox.c.kind.in_(REMINDER_KINDS),
            outbox.c.user_key.in_(theirs),
        )
        both = union_all(notes, jobs).subquery()
        self.upcoming = (
            select(both)
            .order_by(both.c.due_at, both.c.memory_id, both.c.job_id)
            .limit(UPCOMING_LIMIT)
        )

    @staticmethod
    def _thread_stamp(insert: Any, stamp: str) -> Any:
        at = _at("at")
        row = insert(threads).values(
            thread_key=bindparam("thread_key"),
            agent_id=bindparam("agent_id"),
            channel=bindparam("channel"),
            thread_id=bindparam("thread_id"),
            thread_kind="conversation",
            session_started_at=_at("session_started_at"),
            last_interaction_at=at,
            agent_tz=bindparam("agent_tz"),
            delta_hours=bindparam("delta_hours"),
            created_at=at,
            **{stamp: at},
        )
        excluded = row.excluded
        stored = threads.c.last_interaction_at
        return row.on_conflict_do_update(
            index_elements=["thread_key"],
            set_={
                "last_interaction_at": _later(stored, excluded.last_interaction_at),
                stamp: _later(threads.c[stamp], excluded[stamp]),
                "session_started_at": case(
                    (
                        or_(stored.is_(None), stored < excluded.last_interaction_at),
                        excluded.session_started_at,
                    ),
                    else_=threads.c.session_started_at,
                ),
                "agent_tz": excluded.agent_tz,
                "delta_hours": excluded.delta_hours,
            },
        )


_BUILT: dict[str, _Statements] = {}


def prepared(conn: Connection) -> _Statements:
    """This connection's dialect's statements (built on first use)."""
    name = conn.dialect.name
    if name not in _BUILT:
        _BUILT[name] = _Statements(postgresql if name == "postgresql" else sqlite)
    return _BUILT[name]


def journal_message(
    conn: Connection,
    *,
    channel: str,
    message_id: str | None,
    thread_key: str,
    user_key: str,
    received_at: datetime,
    text: str,
) -> bool:
    """Write the message to the journal; False when `(channel, message_id)` is already there.

    A message without an id cannot be recognised again, so it is always written.
    """
    params = {
        "channel": channel,
        "message_id": message_id,
        "thread_key": thread_key,
        "user_key": user_key,
        "received_at": received_at,
        "text": text,
    }
    return conn.execute(prepared(conn).journal, params).first() is not None


def load_person(conn: Connection, user_key: str) -> PersonRow | None:
    """The identity joined with its person, or None."""
    row = conn.execute(prepared(conn).person, {"user_key": user_key}).mappings().first()
    return PersonRow.from_row(row) if row is not None else None


def load_thread(
    conn: Connection, thread_key: str, user_key: str
) -> tuple[ThreadView | None, datetime | None]:
    """The thread (or None) and this user's previous message instant in it."""
    params = {"thread_key": thread_key, "user_key": user_key}
    row = conn.execute(prepared(conn).thread, params).mappings().first()
    if row is None:
        return None, None
    return ThreadView.from_row(row), row["spoke_before"]


def stamp_identity(
    conn: Connection, user_key: str, *, user_at: datetime | None, agent_at: datetime | None
) -> None:
    sql = prepared(conn)
    if user_at is not None:
        conn.execute(sql.identity_user, {"key": user_key, "at": user_at})
    if agent_at is not None:
        conn.execute(sql.identity_agent, {"key": user_key, "at": agent_at})


def stamp_person(conn: Connection, user_id: str, *, at: datetime, channel: str) -> None:
    """The cross-channel stamp (docs/clock-spec.md §4.1), with the channel it came from."""
    conn.execute(prepared(conn).person_stamp, {"person": user_id, "at": at, "channel": channel})


def stamp_thread(
    conn: Connection,
    *,
    thread_key: str,
    agent_id: str,
    channel: str,
    thread_id: str,
    at: datetime,
    from_user: bool,
    session_started_at: datetime,
    agent_tz: str,
    delta_hours: float,
) -> None:
    """Create or stamp the thread: last interaction, and last user or agent message."""
    stamp = "last_user_message_at" if from_user else "last_agent_message_at"
    params = {
        "thread_key": thread_key,
        "agent_id": agent_id,
        "channel": channel,
        "thread_id": thread_id,
        "at": at,
        "session_started_at": session_started_at,
        "agent_tz": agent_tz,
        "delta_hours": delta_hours,
    }
    conn.execute(prepared(conn).thread_stamp[stamp], params)


def stamp_participant(conn: Connection, *, thread_key: str, user_key: str, at: datetime) -> None:
    params = {"thread_key": thread_key, "user_key": user_key, "at": at}
    conn.execute(prepared(conn).participant, params)


def open_actions(conn: Connection, user_id: str, *, now: datetime) -> list[Mapping[str, Any]]:
    """The person's unexpired open actions, newest first."""
    params = {"person": user_id, "now": now}
    return [dict(r) for r in conn.execute(prepared(conn).open_actions, params).mappings()]


def upcoming(
    conn: Connection, user_id: str, *, now: datetime, horizon: datetime
) -> list[Mapping[str, Any]]:
    """What is due by `horizon`: waiting reminders, and notes due and not reminded since.

    docs/reminders.md, "What is due"; docs/clock-spec.md, "Due dates on memory".
    A row has `job_id` (and `schedule_id` for a repeating reminder's next
    occurrence) or `memory_id` (a note with no reminder). A note reminded
    before its due time stays quiet until it is overdue, then comes back once.
    Boundaries are bound as instants, never compared as text.
    """
    params = {"person": user_id, "now": now, "horizon": horizon}
    return [dict(r) for r in conn.execute(prepared(conn).upcoming, params).mappings()]
