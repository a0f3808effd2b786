"""The store's statements, in SQLAlchemy Core for the hot path.

Every stamp is written with "later wins" (`_later`), inside the same
``INSERT … ON CONFLICT DO UPDATE`` as the row, so two workers handling two
messages of one thread can interleave freely and the stored stamp is still the
latest instant that should set it. Nothing reads a row to decide a stamp.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from wrapper.tables import (
    ActionRow,
    CalibrationRow,
    IdentityRow,
    JournalRow,
    LinkCodeRow,
    MemoryRow,
    ParticipantRow,
    ThreadRow,
    UserRow,
)

users = UserRow.__table__  # type: ignore[attr-defined]
identities = IdentityRow.__table__  # type: ignore[attr-defined]
link_codes = LinkCodeRow.__table__  # type: ignore[attr-defined]
threads = ThreadRow.__table__  # type: ignore[attr-defined]
participants = ParticipantRow.__table__  # type: ignore[attr-defined]
actions = ActionRow.__table__  # type: ignore[attr-defined]
calibration = CalibrationRow.__table__  # type: ignore[attr-defined]
memory = MemoryRow.__table__  # type: ignore[attr-defined]
journal = JournalRow.__table__  # type: ignore[attr-defined]

UPCOMING_LIMIT = 50


def own_user_id(user_key: str) -> str:
    """The person id an identity starts with: derived, so two workers agree without a lock."""
    return "u_" + hashlib.sha256(user_key.encode()).hexdigest()[:24]


def insert_for(conn: AsyncConnection, table: Any) -> sqlite.Insert | postgresql.Insert:
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


# ---------------------------------------------------------------- journal


async def journal_message(
    conn: AsyncConnection,
    *,
    channel: str,
    message_id: str | None,
    thread_key: str,
    user_key: str,
    received_at: datetime,
    text: str,
) -> bool:
    """Write the message to the journal; False when `(channel, message_id)` is already there."""
    row = {
        "channel": channel,
        "message_id": message_id,
        "thread_key": thread_key,
        "user_key": user_key,
        "received_at": received_at,
        "text": text,
    }
    if message_id is None:
        await conn.execute(journal.insert().values(row))
        return True
    stmt = (
        insert_for(conn, journal)
        .values(row)
        .on_conflict_do_nothing(index_elements=["channel", "message_id"])
        .returning(journal.c.id)
    )
    return (await conn.execute(stmt)).first() is not None


# ---------------------------------------------------------------- people


async def person_for(
    conn: AsyncConnection, *, user_key: str, channel: str, channel_user_id: str, now: datetime
) -> Mapping[str, Any]:
    """The identity joined with its person, created (with a person of its own) when new.

    Creation is safe under races: the person id is derived from the key and both
    inserts skip on conflict, so two workers meeting a new identity agree.
    """
    found = await load_person(conn, user_key)
    if found is not None:
        return found
    person = own_user_id(user_key)
    await conn.execute(
        insert_for(conn, users)
        .values(id=person, policy_overrides={}, known_locations=[], created_at=now)
        .on_conflict_do_nothing(index_elements=["id"])
    )
    await conn.execute(
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
    created = await load_person(conn, user_key)
    assert created is not None
    return created


async def load_person(conn: AsyncConnection, user_key: str) -> Mapping[str, Any] | None:
    """The identity joined with its person, or None."""
    stmt = (
        select(
            identities.c.user_id,
            identities.c.last_user_message_at.label("identity_last_user_message_at"),
            users.c.default_tz,
            users.c.policy_overrides,
            users.c.known_locations,
            users.c.last_interaction_any_channel_at,
            users.c.last_interaction_any_channel,
        )
        .join(users, users.c.id == identities.c.user_id)
        .where(identities.c.user_key == user_key)
    )
    row = (await conn.execute(stmt)).mappings().first()
    return dict(row) if row is not None else None


async def stamp_identity(
    conn: AsyncConnection, user_key: str, *, user_at: datetime | None, agent_at: datetime | None
) -> None:
    values: dict[str, Any] = {}
    if user_at is not None:
        values["last_user_message_at"] = _later(identities.c.last_user_message_at, _bind(user_at))
    if agent_at is not None:
        values["last_agent_message_at"] = _later(
            identities.c.last_agent_message_at, _bind(agent_at)
        )
    await conn.execute(update(identities).where(identities.c.user_key == user_key).values(values))


async def stamp_person(conn: AsyncConnection, user_id: str, *, at: datetime, channel: str) -> None:
    """The cross-channel stamp (CLOCK §4.1), with the channel it came from."""
    newer = or_(
        users.c.last_interaction_any_channel_at.is_(None),
        users.c.last_interaction_any_channel_at < _bind(at),
    )
    await conn.execute(
        update(users)
        .where(users.c.id == user_id)
        .values(
            last_interaction_any_channel_at=_later(
                users.c.last_interaction_any_channel_at, _bind(at)
            ),
            last_interaction_any_channel=case(
                (newer, channel), else_=users.c.last_interaction_any_channel
            ),
        )
    )


async def update_person(conn: AsyncConnection, user_id: str, **values: Any) -> None:
    await conn.execute(update(users).where(users.c.id == user_id).values(**values))


def _bind(value: datetime) -> Any:
    from sqlalchemy import literal

    from wrapper.types import UTCDateTime

    return literal(value, UTCDateTime())


# ---------------------------------------------------------------- threads


async def load_thread(
    conn: AsyncConnection, thread_key: str, user_key: str
) -> tuple[Mapping[str, Any] | None, datetime | None]:
    """The thread row (or None) and this user's previous message instant in it."""
    thread = (
        (await conn.execute(select(threads).where(threads.c.thread_key == thread_key)))
        .mappings()
        .first()
    )
    spoke = (
        await conn.execute(
            select(participants.c.last_user_message_at).where(
                participants.c.thread_key == thread_key, participants.c.user_key == user_key
            )
        )
    ).scalar_one_or_none()
    return (dict(thread) if thread is not None else None), spoke


async def stamp_thread(
    conn: AsyncConnection,
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
    stmt = insert_for(conn, threads).values(
        thread_key=thread_key,
        agent_id=agent_id,
        channel=channel,
        thread_id=thread_id,
        thread_kind="conversation",
        session_started_at=session_started_at,
        last_interaction_at=at,
        agent_tz=agent_tz,
        delta_hours=delta_hours,
        created_at=at,
        **{stamp: at},
    )
    excluded = stmt.excluded
    newer = or_(threads.c.last_interaction_at.is_(None), threads.c.last_interaction_at < _bind(at))
    await conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["thread_key"],
            set_={
                "last_interaction_at": _later(
                    threads.c.last_interaction_at, excluded.last_interaction_at
                ),
                stamp: _later(threads.c[stamp], excluded[stamp]),
                "session_started_at": case(
                    (newer, excluded.session_started_at), else_=threads.c.session_started_at
                ),
                "agent_tz": excluded.agent_tz,
                "delta_hours": excluded.delta_hours,
            },
        )
    )


async def stamp_participant(
    conn: AsyncConnection, *, thread_key: str, user_key: str, at: datetime
) -> None:
    stmt = insert_for(conn, participants).values(
        thread_key=thread_key, user_key=user_key, last_user_message_at=at
    )
    await conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["thread_key", "user_key"],
            set_={
                "last_user_message_at": _later(
                    participants.c.last_user_message_at, stmt.excluded.last_user_message_at
                )
            },
        )
    )


async def update_thread(conn: AsyncConnection, thread_key: str, **values: Any) -> None:
    await conn.execute(update(threads).where(threads.c.thread_key == thread_key).values(**values))


# ---------------------------------------------------------------- actions


async def open_actions(
    conn: AsyncConnection, user_id: str, *, now: datetime, open_statuses: Sequence[str]
) -> list[Mapping[str, Any]]:
    """The person's unexpired open actions, newest first."""
    stmt = (
        select(actions)
        .where(
            actions.c.user_id == user_id,
            actions.c.status.in_(list(open_statuses)),
            actions.c.expires_at > _bind(now),
        )
        .order_by(actions.c.recorded_at.desc())
    )
    return [dict(r) for r in (await conn.execute(stmt)).mappings()]


async def insert_action(conn: AsyncConnection, row: Mapping[str, Any]) -> None:
    await conn.execute(actions.insert().values(dict(row)))


async def compact_actions(
    conn: AsyncConnection, user_id: str, *, now: datetime, max_items: int
) -> None:
    """CLOCK §10.3: drop expired actions, then the oldest beyond `max_items`."""
    await conn.execute(
        delete(actions).where(actions.c.user_id == user_id, actions.c.expires_at <= _bind(now))
    )
    keep = (
        select(actions.c.id)
        .where(actions.c.user_id == user_id)
        .order_by(actions.c.recorded_at.desc(), actions.c.id.desc())
        .limit(max_items)
        .scalar_subquery()
    )
    await conn.execute(
        delete(actions).where(actions.c.user_id == user_id, actions.c.id.not_in(keep))
    )


async def calibration_for(conn: AsyncConnection, user_id: str) -> dict[str, tuple[int, int]]:
    rows = await conn.execute(
        select(calibration.c.activity, calibration.c.typical_minutes, calibration.c.max_minutes)
        .where(calibration.c.user_id == user_id)
    )  # fmt: skip
    return {activity: (typical, most) for activity, typical, most in rows}


# ---------------------------------------------------------------- memory


async def insert_memory(
    conn: AsyncConnection, *, user_id: str, content: str, now: datetime, due_at: datetime | None
) -> int:
    stmt = (
        memory.insert()
        .values(user_id=user_id, content=content, created_at=now, due_at=due_at)
        .returning(memory.c.id)
    )
    return int((await conn.execute(stmt)).scalar_one())


async def mark_reminded(conn: AsyncConnection, item_id: int, at: datetime) -> bool:
    result = await conn.execute(update(memory).where(memory.c.id == item_id).values(reminded_at=at))
    return bool(result.rowcount)


async def upcoming(
    conn: AsyncConnection, user_id: str, *, now: datetime, horizon: datetime
) -> list[Mapping[str, Any]]:
    """Due by `horizon` or overdue, and not reminded since it fell due (seed 001).

    An item reminded before its due time stays quiet until it is overdue, then
    comes back once. Boundaries are bound as instants, never compared as text.
    """
    now_, horizon_ = _bind(now), _bind(horizon)
    stmt = (
        select(memory.c.id, memory.c.content, memory.c.due_at, memory.c.reminded_at)
        .where(
            memory.c.user_id == user_id,
            memory.c.due_at.is_not(None),
            memory.c.due_at <= horizon_,
            or_(
                memory.c.reminded_at.is_(None),
                and_(memory.c.reminded_at < memory.c.due_at, memory.c.due_at <= now_),
            ),
        )
        .order_by(memory.c.due_at, memory.c.id)
        .limit(UPCOMING_LIMIT)
    )
    return [dict(r) for r in (await conn.execute(stmt)).mappings()]


# ---------------------------------------------------------------- linking


async def save_link_code(
    conn: AsyncConnection, *, code: str, user_key: str, expires_at: datetime
) -> None:
    await conn.execute(delete(link_codes).where(link_codes.c.user_key == user_key))
    await conn.execute(
        link_codes.insert().values(code=code, user_key=user_key, expires_at=expires_at)
    )


async def take_link_code(conn: AsyncConnection, code: str, *, now: datetime) -> str | None:
    """Use up a code: the issuing identity's key, or None when unknown or expired."""
    row = (
        await conn.execute(
            delete(link_codes)
            .where(link_codes.c.code == code)
            .returning(link_codes.c.user_key, link_codes.c.expires_at)
        )
    ).first()
    await conn.execute(delete(link_codes).where(link_codes.c.expires_at <= _bind(now)))
    if row is None or row.expires_at <= now:
        return None
    return str(row.user_key)


async def merge_people(conn: AsyncConnection, *, keep: str, absorb: str) -> None:
    """Make person `absorb` part of person `keep` (CLOCK §7.0 linking)."""
    kept = (await conn.execute(select(users).where(users.c.id == keep))).mappings().one()
    gone = (await conn.execute(select(users).where(users.c.id == absorb))).mappings().one()
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
    await conn.execute(
        update(users)
        .where(users.c.id == keep)
        .values(
            default_tz=kept["default_tz"] or gone["default_tz"],
            policy_overrides=overrides,
            known_locations=list(
                dict.fromkeys([*(kept["known_locations"] or []), *(gone["known_locations"] or [])])
            )[:5],
            last_interaction_any_channel_at=latest,
            last_interaction_any_channel=channel,
        )
    )
    for table in (identities, actions, memory):
        await conn.execute(update(table).where(table.c.user_id == absorb).values(user_id=keep))
    taken = select(calibration.c.activity).where(calibration.c.user_id == keep)
    await conn.execute(
        update(calibration)
        .where(calibration.c.user_id == absorb, calibration.c.activity.not_in(taken))
        .values(user_id=keep)
    )
    await conn.execute(delete(calibration).where(calibration.c.user_id == absorb))
    await conn.execute(delete(users).where(users.c.id == absorb))


async def split_identity(
    conn: AsyncConnection, *, user_key: str, new_user_id: str, now: datetime
) -> bool:
    """Give `user_key` a person of its own again, carrying the zone and policy; False if alone."""
    row = (
        await conn.execute(select(identities.c.user_id).where(identities.c.user_key == user_key))
    ).first()
    if row is None:
        return False
    shared = row.user_id
    count = (
        await conn.execute(
            select(func.count()).select_from(identities).where(identities.c.user_id == shared)
        )
    ).scalar_one()
    if count < 2:
        return False
    person = (await conn.execute(select(users).where(users.c.id == shared))).mappings().one()
    await conn.execute(
        users.insert().values(
            id=new_user_id,
            default_tz=person["default_tz"],
            policy_overrides=person["policy_overrides"] or {},
            known_locations=[],
            created_at=now,
        )
    )
    await conn.execute(
        update(identities).where(identities.c.user_key == user_key).values(user_id=new_user_id)
    )
    return True
