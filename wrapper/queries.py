"""The store's statements, in SQLAlchemy Core for the hot path.

Every stamp is written with "later wins" (`_later`), inside the same
``INSERT … ON CONFLICT DO UPDATE`` as the row, so two workers handling two
messages of one thread can interleave freely and the stored stamp is still the
latest instant that should set it. Nothing reads a row to decide a stamp.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, and_, bindparam, case, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from clockcore.actions import OPEN_STATUSES, ActionDraft
from wrapper.rows import MAX_KNOWN_PLACES, PersonRow, ThreadView
from wrapper.tables import (
    ActionRow,
    CalibrationRow,
    IdentityRow,
    JournalRow,
    LinkCodeRow,
    MemoryRow,
    ParticipantRow,
    ScheduleRow,
    ThreadRow,
    UserRow,
)
from wrapper.types import UTCDateTime

users = UserRow.__table__  # type: ignore[attr-defined]
identities = IdentityRow.__table__  # type: ignore[attr-defined]
link_codes = LinkCodeRow.__table__  # type: ignore[attr-defined]
threads = ThreadRow.__table__  # type: ignore[attr-defined]
participants = ParticipantRow.__table__  # type: ignore[attr-defined]
actions = ActionRow.__table__  # type: ignore[attr-defined]
calibration = CalibrationRow.__table__  # type: ignore[attr-defined]
memory = MemoryRow.__table__  # type: ignore[attr-defined]
journal = JournalRow.__table__  # type: ignore[attr-defined]
schedules = ScheduleRow.__table__  # type: ignore[attr-defined]

UPCOMING_LIMIT = 50
T = TypeVar("T")


def row_as(cls: type[T], row: Mapping[Any, Any]) -> T:
    """Build the dataclass `cls` from the columns of `row` that share its field names."""
    fields: Mapping[str, Any] = getattr(cls, "__dataclass_fields__")  # noqa: B009
    return cls(**{name: row[name] for name in fields if name in row})


def own_user_id(user_key: str) -> str:
    """The person id an identity starts with: derived, so two workers agree without a lock."""
    return "u_" + hashlib.sha256(user_key.encode()).hexdigest()[:24]


def insert_for(conn: Connection, table: Any) -> sqlite.Insert | postgresql.Insert:
    """An INSERT with the dialect's ON CONFLICT clauses (SQLite and PostgreSQL share them)."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


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
        self.upcoming = (
            select(memory.c.id, memory.c.content, memory.c.due_at, memory.c.reminded_at)
            .where(
                memory.c.user_id == bindparam("person"),
                memory.c.due_at.is_not(None),
                memory.c.due_at <= horizon,
                or_(
                    memory.c.reminded_at.is_(None),
                    and_(memory.c.reminded_at < memory.c.due_at, memory.c.due_at <= now),
                ),
            )
            .order_by(memory.c.due_at, memory.c.id)
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


def _sql(conn: Connection) -> _Statements:
    name = conn.dialect.name
    if name not in _BUILT:
        _BUILT[name] = _Statements(postgresql if name == "postgresql" else sqlite)
    return _BUILT[name]


# ---------------------------------------------------------------- the hot path


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
    return conn.execute(_sql(conn).journal, params).first() is not None


def load_person(conn: Connection, user_key: str) -> PersonRow | None:
    """The identity joined with its person, or None."""
    row = conn.execute(_sql(conn).person, {"user_key": user_key}).mappings().first()
    return PersonRow.from_row(row) if row is not None else None


def load_thread(
    conn: Connection, thread_key: str, user_key: str
) -> tuple[ThreadView | None, datetime | None]:
    """The thread (or None) and this user's previous message instant in it."""
    params = {"thread_key": thread_key, "user_key": user_key}
    row = conn.execute(_sql(conn).thread, params).mappings().first()
    if row is None:
        return None, None
    return ThreadView.from_row(row), row["spoke_before"]


def stamp_identity(
    conn: Connection, user_key: str, *, user_at: datetime | None, agent_at: datetime | None
) -> None:
    sql = _sql(conn)
    if user_at is not None:
        conn.execute(sql.identity_user, {"key": user_key, "at": user_at})
    if agent_at is not None:
        conn.execute(sql.identity_agent, {"key": user_key, "at": agent_at})


def stamp_person(conn: Connection, user_id: str, *, at: datetime, channel: str) -> None:
    """The cross-channel stamp (docs/clock-spec.md §4.1), with the channel it came from."""
    conn.execute(_sql(conn).person_stamp, {"person": user_id, "at": at, "channel": channel})


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
    conn.execute(_sql(conn).thread_stamp[stamp], params)


def stamp_participant(conn: Connection, *, thread_key: str, user_key: str, at: datetime) -> None:
    params = {"thread_key": thread_key, "user_key": user_key, "at": at}
    conn.execute(_sql(conn).participant, params)


def open_actions(conn: Connection, user_id: str, *, now: datetime) -> list[Mapping[str, Any]]:
    """The person's unexpired open actions, newest first."""
    params = {"person": user_id, "now": now}
    return [dict(r) for r in conn.execute(_sql(conn).open_actions, params).mappings()]


def upcoming(
    conn: Connection, user_id: str, *, now: datetime, horizon: datetime
) -> list[Mapping[str, Any]]:
    """Due by `horizon` or overdue, and not reminded since it fell due.

    docs/clock-spec.md, "Due dates on memory".

    An item reminded before its due time stays quiet until it is overdue, then
    comes back once. Boundaries are bound as instants, never compared as text.
    """
    params = {"person": user_id, "now": now, "horizon": horizon}
    return [dict(r) for r in conn.execute(_sql(conn).upcoming, params).mappings()]


# ---------------------------------------------------------------- journal


# ---------------------------------------------------------------- people


def person_for(
    conn: Connection, *, user_key: str, channel: str, channel_user_id: str, now: datetime
) -> PersonRow:
    """The identity joined with its person, created (with a person of its own) when new.

    Creation is safe under races: the person id is derived from the key and both
    inserts skip on conflict, so two workers meeting a new identity agree.
    """
    found = load_person(conn, user_key)
    if found is not None:
        return found
    person = own_user_id(user_key)
    conn.execute(
        insert_for(conn, users)
        .values(id=person, policy_overrides={}, known_locations=[], created_at=now)
        .on_conflict_do_nothing(index_elements=["id"])
    )
    conn.execute(
        insert_for(conn, identities)
        .values(
            user_key=user_key,
            channel=channel,
            channel_user_id=channel_user_id,
            user_id=person,
            created_at=now,
        )
        .on_conflict_do_nothing(index_elements=["user_key"])
    )
    created = load_person(conn, user_key)
    assert created is not None
    return created


def update_person(conn: Connection, user_id: str, **values: Any) -> None:
    conn.execute(update(users).where(users.c.id == user_id).values(**values))


# ---------------------------------------------------------------- threads


def update_thread(conn: Connection, thread_key: str, **values: Any) -> None:
    conn.execute(update(threads).where(threads.c.thread_key == thread_key).values(**values))


# ---------------------------------------------------------------- actions


def insert_action(conn: Connection, row: Mapping[str, Any]) -> None:
    sql = _sql(conn)
    conn.execute(sql.insert_action, dict(row))
    conn.execute(sql.actions_until, {"person": row["user_id"], "until": row["expires_at"]})


def record_action(
    conn: Connection,
    *,
    action_id: str | None = None,
    person_id: str,
    thread_key: str,
    draft: ActionDraft,
    at: datetime,
    max_items: int,
    typical_minutes: int | None = None,
    max_minutes: int | None = None,
    ttl: timedelta | None = None,
) -> tuple[str, datetime]:
    """Store a drafted action (overrides win over the draft), then compact; (id, expiry)."""
    row = action_row(
        action_id=action_id, person_id=person_id, thread_key=thread_key, draft=draft, at=at,
        typical_minutes=typical_minutes, max_minutes=max_minutes, ttl=ttl,
    )  # fmt: skip
    insert_action(conn, row)
    compact_actions(conn, person_id, now=at, max_items=max_items)
    return row["id"], row["expires_at"]


def action_row(
    *,
    action_id: str | None = None,
    person_id: str,
    thread_key: str,
    draft: ActionDraft,
    at: datetime,
    typical_minutes: int | None = None,
    max_minutes: int | None = None,
    ttl: timedelta | None = None,
) -> dict[str, Any]:
    """The `actions` row of a drafted action, as `record_action` stores it (a new id if none)."""
    return {
        "id": action_id or "act_" + secrets.token_hex(6),
        "user_id": person_id,
        "thread_key": thread_key,
        "label": draft.label,
        "type": "temporal_action",
        "status": draft.status,
        "activity": draft.activity,
        "source": draft.source,
        "quote": draft.quote,
        "recorded_at": at,
        "expires_at": at + (ttl if ttl is not None else draft.ttl),
        "expected_typical_minutes": typical_minutes or draft.expected_typical_minutes,
        "expected_max_minutes": max_minutes or draft.expected_max_minutes,
    }


def compacted(
    stored: Sequence[Mapping[str, Any]], new: Mapping[str, Any], *, now: datetime, max_items: int
) -> tuple[list[Mapping[str, Any]], list[str]]:
    """`compact_actions` worked out in Python: (the rows left, newest first; ids it deletes).

    `stored` is every action row of the person before `new` is added. The rule
    is the statement's: the newest `max_items` by (recorded_at, id) are kept
    unless expired, and everything else goes.
    """
    ordered = sorted([*stored, new], key=lambda r: (r["recorded_at"], r["id"]), reverse=True)
    kept = [row for row in ordered[:max_items] if row["expires_at"] > now]
    left = {row["id"] for row in kept}
    return kept, [row["id"] for row in stored if row["id"] not in left]


def compact_actions(conn: Connection, user_id: str, *, now: datetime, max_items: int) -> None:
    """Drop expired actions and the oldest beyond `max_items`, in one statement.

    docs/clock-spec.md §10.3.
    """
    params = {"person": user_id, "now": now, "max_items": max_items}
    conn.execute(_sql(conn).compact_actions, params)


def calibration_for(conn: Connection, user_id: str) -> dict[str, tuple[int, int]]:
    rows = conn.execute(_sql(conn).calibration, {"person": user_id})
    return {activity: (typical, most) for activity, typical, most in rows}


# ---------------------------------------------------------------- memory


def insert_memory(
    conn: Connection,
    *,
    item_id: int,
    user_id: str,
    content: str,
    now: datetime,
    due_at: datetime | None,
    group: str | None = None,
) -> int:
    if due_at is not None:
        conn.execute(update(users).where(users.c.id == user_id).values(has_due_items=True))
    conn.execute(
        memory.insert().values(
            id=item_id,
            user_id=user_id,
            content=content,
            created_at=now,
            due_at=due_at,
            thread_key=group,
        )
    )
    return item_id


def mark_reminded(conn: Connection, item_id: int, at: datetime) -> bool:
    result = conn.execute(update(memory).where(memory.c.id == item_id).values(reminded_at=at))
    return bool(result.rowcount)


# ---------------------------------------------------------------- linking


def merge_people(conn: Connection, *, keep: str, absorb: str) -> None:
    """Make person `absorb` part of person `keep` (docs/clock-spec.md §7.0 linking)."""
    kept = conn.execute(select(users).where(users.c.id == keep)).mappings().one()
    gone = conn.execute(select(users).where(users.c.id == absorb)).mappings().one()
    overrides = {**dict(gone["policy_overrides"] or {}), **dict(kept["policy_overrides"] or {})}
    stamps = [
        s
        for s in (kept["last_interaction_any_channel_at"], gone["last_interaction_any_channel_at"])
        if s
    ]
    latest = max(stamps) if stamps else None
    channel = (
        gone["last_interaction_any_channel"]
        if latest is not None and latest == gone["last_interaction_any_channel_at"]
        else kept["last_interaction_any_channel"]
    )
    conn.execute(
        update(users)
        .where(users.c.id == keep)
        .values(
            default_tz=kept["default_tz"] or gone["default_tz"],
            policy_overrides=overrides,
            known_locations=list(
                dict.fromkeys([*(kept["known_locations"] or []), *(gone["known_locations"] or [])])
            )[:MAX_KNOWN_PLACES],
            last_interaction_any_channel_at=latest,
            last_interaction_any_channel=channel,
            actions_until=max(
                [t for t in (kept["actions_until"], gone["actions_until"]) if t], default=None
            ),
            has_due_items=bool(kept["has_due_items"] or gone["has_due_items"]),
        )
    )
    for table in (identities, actions, memory, schedules):
        conn.execute(update(table).where(table.c.user_id == absorb).values(user_id=keep))
    taken = select(calibration.c.activity).where(calibration.c.user_id == keep)
    conn.execute(
        update(calibration)
        .where(calibration.c.user_id == absorb, calibration.c.activity.not_in(taken))
        .values(user_id=keep)
    )
    conn.execute(delete(calibration).where(calibration.c.user_id == absorb))
    conn.execute(delete(users).where(users.c.id == absorb))


def split_identity(conn: Connection, *, user_key: str, new_user_id: str, now: datetime) -> bool:
    """Give `user_key` a person of its own again, carrying the zone and policy; False if alone."""
    row = (
        conn.execute(select(identities.c.user_id).where(identities.c.user_key == user_key))
    ).first()
    if row is None:
        return False
    shared = row.user_id
    count = (
        conn.execute(
            select(func.count()).select_from(identities).where(identities.c.user_id == shared)
        )
    ).scalar_one()
    if count < 2:
        return False
    person = conn.execute(select(users).where(users.c.id == shared)).mappings().one()
    conn.execute(
        users.insert().values(
            id=new_user_id,
            default_tz=person["default_tz"],
            policy_overrides=person["policy_overrides"] or {},
            known_locations=[],
            created_at=now,
        )
    )
    conn.execute(
        update(identities).where(identities.c.user_key == user_key).values(user_id=new_user_id)
    )
    return True


# ---------------------------------------------------------------- tools


def memory_newest_first(
    conn: Connection, user_id: str, *, group: str | None = None
) -> Iterator[Mapping[str, Any]]:
    """The person's memory items, newest first, read as the caller consumes them.

    With `group` (a group thread's key), only the items remembered in that thread.
    """
    stmt = (
        select(
            memory.c.id,
            memory.c.content,
            memory.c.created_at,
            memory.c.due_at,
            memory.c.reminded_at,
        )
        .where(memory.c.user_id == user_id)
        .order_by(memory.c.created_at.desc(), memory.c.id.desc())
    )
    if group is not None:
        stmt = stmt.where(memory.c.thread_key == group)
    for row in conn.execute(stmt).mappings():
        yield dict(row)


def memory_item(
    conn: Connection, *, user_id: str, item_id: int, group: str | None = None
) -> Mapping[str, Any] | None:
    """One of the person's items (with `group`, only one remembered in that thread), or None."""
    stmt = select(
        memory.c.id, memory.c.content, memory.c.created_at, memory.c.due_at, memory.c.reminded_at
    ).where(memory.c.id == item_id, memory.c.user_id == user_id)
    if group is not None:
        stmt = stmt.where(memory.c.thread_key == group)
    row = conn.execute(stmt).mappings().first()
    return dict(row) if row is not None else None


def has_action(conn: Connection, *, user_id: str, action_id: str, group: str | None = None) -> bool:
    """Whether the person has an action `action_id` (with `group`, one clocked in that thread)."""
    stmt = select(actions.c.id).where(actions.c.id == action_id, actions.c.user_id == user_id)
    if group is not None:
        stmt = stmt.where(actions.c.thread_key == group)
    return conn.execute(stmt).first() is not None


def delete_memory(conn: Connection, *, user_id: str, item_id: int) -> bool:
    """Delete one of the person's items; False when they have no item `item_id`."""
    result = conn.execute(delete(memory).where(memory.c.id == item_id, memory.c.user_id == user_id))
    return bool(result.rowcount)


def set_action_status(conn: Connection, *, user_id: str, action_id: str, status: str) -> bool:
    """Change the status of one of the person's actions; False when they have no such action."""
    result = conn.execute(
        update(actions)
        .where(actions.c.id == action_id, actions.c.user_id == user_id)
        .values(status=status)
    )
    return bool(result.rowcount)


def set_thread_zone(
    conn: Connection,
    *,
    thread_key: str,
    agent_id: str,
    channel: str,
    thread_id: str,
    zone: str,
    delta_hours: float,
    now: datetime,
) -> None:
    """Set the thread's session zone override, creating a bare thread row when there is none.

    A created row has no stamps, so the thread's first message still starts its session.
    """
    row = insert_for(conn, threads).values(
        thread_key=thread_key,
        agent_id=agent_id,
        channel=channel,
        thread_id=thread_id,
        thread_kind="conversation",
        session_tz=zone,
        delta_hours=delta_hours,
        created_at=now,
    )
    conn.execute(
        row.on_conflict_do_update(
            index_elements=["thread_key"],
            set_={"session_tz": row.excluded.session_tz, "delta_hours": row.excluded.delta_hours},
        )
    )
