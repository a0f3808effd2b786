"""Latest actions (docs/clock-spec.md §6.3): stored, compacted, looked up, their status changed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from clockcore.actions import ActionDraft
from wrapper.store.queries.common import chosen_hex
from wrapper.store.queries.per_message import prepared
from wrapper.store.tables import (
    actions,
)


def new_action_id() -> str:
    """An action's id: ``act_`` and 12 hex digits."""
    return "act_" + chosen_hex(6)


def insert_action(conn: Connection, row: Mapping[str, Any]) -> None:
    sql = prepared(conn)
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
        action_id=action_id,
        person_id=person_id,
        thread_key=thread_key,
        draft=draft,
        at=at,
        typical_minutes=typical_minutes,
        max_minutes=max_minutes,
        ttl=ttl,
    )
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
        "id": action_id or new_action_id(),
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
    conn.execute(prepared(conn).compact_actions, params)


def calibration_for(conn: Connection, user_id: str) -> dict[str, tuple[int, int]]:
    rows = conn.execute(prepared(conn).calibration, {"person": user_id})
    return {activity: (typical, most) for activity, typical, most in rows}


def has_action(conn: Connection, *, user_id: str, action_id: str, group: str | None = None) -> bool:
    """Whether the person has an action `action_id` (with `group`, one clocked in that thread)."""
    stmt = select(actions.c.id).where(actions.c.id == action_id, actions.c.user_id == user_id)
    if group is not None:
        stmt = stmt.where(actions.c.thread_key == group)
    return conn.execute(stmt).first() is not None


def set_action_status(conn: Connection, *, user_id: str, action_id: str, status: str) -> bool:
    """Change the status of one of the person's actions; False when they have no such action."""
    result = conn.execute(
        update(actions)
        .where(actions.c.id == action_id, actions.c.user_id == user_id)
        .values(status=status)
    )
    return bool(result.rowcount)
