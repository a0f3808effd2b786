"""People and their identities: found or created, updated, linked and split."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection

from wrapper.store.queries.common import insert_for, own_user_id
from wrapper.store.queries.per_message import load_person
from wrapper.store.rows import MAX_KNOWN_PLACES, PersonRow
from wrapper.store.tables import (
    actions,
    calendar_feeds,
    calibration,
    identities,
    memory,
    schedules,
    users,
)


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


def name_identity(conn: Connection, user_key: str, name: str) -> None:
    """Keep `name` as what the identity's platform calls them now (the latest wins)."""
    conn.execute(
        update(identities).where(identities.c.user_key == user_key).values(display_name=name)
    )


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
    for table in (identities, actions, memory, schedules, calendar_feeds):
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
    # A feed URL showed the whole linked person: after the split neither side's URL may
    # show the other's data, so both stop working (docs/calendar.md); each asks anew.
    conn.execute(delete(calendar_feeds).where(calendar_feeds.c.user_id == shared))
    return True
