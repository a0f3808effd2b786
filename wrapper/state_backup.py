"""The backup parts of a state export (`clockcore.state.backup`) out of and into the store.

`BACKED_UP` and `LEFT_OUT` name every table of the store, each with where it goes in the
document or why it stays out (docs/data.md, "A backup"); a test compares them with
`wrapper.store.tables.metadata`, so a new table is a decision. `wrapper.state_io` writes CLOCK's
part of the document and calls these for the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.engine import Connection

from clockcore.state.backup import PARTS
from wrapper.keys import is_private_thread, split_thread_key
from wrapper.store import queries as q
from wrapper.store import tables as t

__all__ = [
    "BACKED_UP",
    "LEFT_OUT",
    "RESTORED_ONLY_INTO_EMPTY",
    "ensure_person",
    "export_parts",
    "import_parts",
    "upsert",
]

BACKED_UP: dict[str, str] = {
    "users": "users (CLOCK) and x_clockbot.people",
    "identities": "users.<id>.channels (CLOCK) and x_clockbot.identity_names",
    "threads": "threads (CLOCK) and x_clockbot.thread_stamps",
    "thread_participants": "threads.<key>.participants (CLOCK)",
    "actions": "users.<id>.latest_actions (CLOCK) and x_clockbot.action_details",
    "calibration": "users.<id>.calibration (CLOCK)",
    "memory_items": "x_clockbot.memory",
    "routes": "x_clockbot.routes",
    "schedules": "x_clockbot.schedules",
    "outbox": "x_clockbot.reminders: the reminders still to go out",
    "calendar_feeds": "x_clockbot.calendar_feeds",
    "meeting_polls": "x_clockbot.meeting_polls",
    "meeting_votes": "x_clockbot.meeting_votes",
    "meeting_attendees": "x_clockbot.meeting_attendees",
}
"""Each table a backup holds, and where in the document."""

LEFT_OUT: dict[str, str] = {
    "inbound_journal": "which messages were handled: a new home answers its own channels' ids",
    "history": "the conversation the model saw; a restored home starts new conversations",
    "pending_turns": "messages being answered at that moment",
    "sent_messages": "platform ids of sent messages, for replies to them",
    "rate_buckets": "turn limits refill on their own",
    "channel_state": "an adapter's cursor (an IMAP UIDVALIDITY), for that server",
    "workers": "running processes",
    "model_calls": "model usage, for the operator's metrics",
    "link_codes": "linking codes expire in minutes: link again",
    "web_links": "sign-in links expire: ask for a new one",
    "web_sessions": "signed-in browsers: sign in again",
    "sender_checks": "a mailed token waits minutes and expires: ask again",
}
"""Each table a backup leaves out, and why (docs/data.md, "A backup")."""

RESTORED_ONLY_INTO_EMPTY = (
    "schedules",
    "reminders",
    "calendar_feeds",
    "meeting_polls",
    "meeting_votes",
    "meeting_attendees",
)
"""The parts whose ids a person holds (r21, s5182, a feed's URL): an import of any of them
needs an empty store."""


def export_parts(conn: Connection, *, person: str | None) -> dict[str, tuple[dict[str, Any], ...]]:
    """The backup parts' rows (`clockcore.state.backup.PARTS`), each part in a stable order."""
    outbox, polls = t.outbox, t.meeting_polls
    keys = select(t.identities.c.user_key).where(t.identities.c.user_id == person)
    joined = select(t.participants.c.thread_key).where(t.participants.c.user_key.in_(keys))
    reminders = (
        select(outbox)
        .where(outbox.c.kind.in_(q.REMINDER_KINDS), outbox.c.status.in_(_STILL_TO_GO))
        .order_by(outbox.c.id)
    )
    queries: dict[str, Any] = {
        "people": select(t.users).order_by(t.users.c.id),
        "identity_names": select(t.identities)
        .where(t.identities.c.display_name.is_not(None))
        .order_by(t.identities.c.user_key),
        "thread_stamps": select(t.threads).order_by(t.threads.c.thread_key),
        "action_details": select(t.actions)
        .where(or_(t.actions.c.activity.is_not(None), t.actions.c.quote.is_not(None)))
        .order_by(t.actions.c.id),
        "routes": select(t.routes).order_by(t.routes.c.thread_key),
        "schedules": select(t.schedules).order_by(t.schedules.c.id),
        "reminders": reminders,
        "calendar_feeds": select(t.calendar_feeds).order_by(t.calendar_feeds.c.token_hash),
        "meeting_polls": select(polls).order_by(polls.c.id),
        "meeting_votes": select(t.meeting_votes).order_by(
            t.meeting_votes.c.poll_id, t.meeting_votes.c.user_key
        ),
        "meeting_attendees": select(t.meeting_attendees).order_by(
            t.meeting_attendees.c.poll_id, t.meeting_attendees.c.user_key
        ),
    }
    if person is not None:
        their_polls = select(polls.c.id).where(polls.c.thread_key.in_(joined))
        filters = {
            "people": t.users.c.id == person,
            "identity_names": t.identities.c.user_id == person,
            "thread_stamps": t.threads.c.thread_key.in_(joined),
            "action_details": t.actions.c.user_id == person,
            "routes": t.routes.c.thread_key.in_(joined),
            "schedules": t.schedules.c.user_id == person,
            "reminders": outbox.c.user_key.in_(keys),
            "calendar_feeds": t.calendar_feeds.c.user_id == person,
            "meeting_polls": polls.c.id.in_(their_polls),
            "meeting_votes": t.meeting_votes.c.user_key.in_(keys)
            & t.meeting_votes.c.poll_id.in_(their_polls),
            "meeting_attendees": t.meeting_attendees.c.user_key.in_(keys)
            & t.meeting_attendees.c.poll_id.in_(their_polls),
        }
        queries = {name: query.where(filters[name]) for name, query in queries.items()}
    parts: dict[str, tuple[dict[str, Any], ...]] = {}
    for part in PARTS:
        rows = conn.execute(queries[part.name]).mappings().all()
        parts[part.name] = tuple({name: row[name] for name in part.names} for row in rows)
    # A person with nothing beyond CLOCK's fields needs no row.
    parts["people"] = tuple(
        row for row in parts["people"] if any(v for k, v in row.items() if k != "id")
    )
    if person is not None:
        parts = _only_theirs(parts, set(conn.execute(keys).scalars()))
    # A job claimed as the backup was taken was being sent: restored, it waits again
    # (at least once, as every send: docs/ARCHITECTURE.md).
    parts["reminders"] = tuple(
        {**row, "status": "pending"} if row["status"] == "claimed" else row
        for row in parts["reminders"]
    )
    return parts


def _only_theirs(
    parts: dict[str, tuple[dict[str, Any], ...]], keys: set[str]
) -> dict[str, tuple[dict[str, Any], ...]]:
    """A person's slice names nobody else: a group's route (its members' addresses) stays out,
    and a poll of their group shows them alone among its voters and organiser."""
    routes = parts["routes"]
    parts["routes"] = tuple(
        row for row in routes if is_private_thread(*split_thread_key(row["thread_key"])[1:])
    )
    parts["meeting_polls"] = tuple(
        {
            **row,
            "voters": [voter for voter in row["voters"] or [] if voter in keys],
            "organiser": row["organiser"] if row["organiser"] in keys else "",
        }
        for row in parts["meeting_polls"]
    )
    return parts


_STILL_TO_GO = ("pending", "deferred", "claimed")
"""The outbox states of a reminder a backup keeps."""


def import_parts(
    conn: Connection, parts: Mapping[str, tuple[Mapping[str, object], ...]], *, now: datetime
) -> None:
    """Write the backup parts in `PARTS` order (a vote after its poll); rows with the same
    keys are replaced."""
    for row in parts.get("people", ()):
        ensure_person(conn, str(row["id"]), now=now)
        values = {k: v for k, v in row.items() if k != "id"}
        conn.execute(update(t.users).where(t.users.c.id == row["id"]).values(**values))
    for row in parts.get("identity_names", ()):
        conn.execute(
            update(t.identities)
            .where(t.identities.c.user_key == row["user_key"])
            .values(display_name=row["display_name"])
        )
    for row in parts.get("thread_stamps", ()):
        values = {k: v for k, v in row.items() if k != "thread_key"}
        conn.execute(
            update(t.threads).where(t.threads.c.thread_key == row["thread_key"]).values(**values)
        )
    for row in parts.get("action_details", ()):
        values = {k: v for k, v in row.items() if k != "id"}
        conn.execute(update(t.actions).where(t.actions.c.id == row["id"]).values(**values))
    for row in parts.get("routes", ()):
        upsert(conn, t.routes, ["thread_key"], **row)
    for row in parts.get("schedules", ()):
        ensure_person(conn, str(row["user_id"]), now=now)
        upsert(conn, t.schedules, ["id"], **row)
    for row in parts.get("reminders", ()):
        upsert(conn, t.outbox, ["id"], **row)
    for row in parts.get("calendar_feeds", ()):
        ensure_person(conn, str(row["user_id"]), now=now)
        upsert(conn, t.calendar_feeds, ["token_hash"], **row)
    for row in parts.get("meeting_polls", ()):
        upsert(conn, t.meeting_polls, ["id"], **row)
    for row in parts.get("meeting_votes", ()):
        upsert(conn, t.meeting_votes, ["poll_id", "user_key"], **row)
    for row in parts.get("meeting_attendees", ()):
        conn.execute(
            q.insert_for(conn, t.meeting_attendees)
            .values(**row)
            .on_conflict_do_nothing(index_elements=["poll_id", "user_key"])
        )


def upsert(conn: Connection, table: Any, keys: list[str], **values: Any) -> None:
    stmt = q.insert_for(conn, table).values(**values)
    update = {k: v for k, v in values.items() if k not in keys and k != "created_at"}
    conn.execute(stmt.on_conflict_do_update(index_elements=keys, set_=update))


def ensure_person(conn: Connection, user_id: str, *, now: datetime) -> None:
    conn.execute(
        q.insert_for(conn, t.users)
        .values(id=user_id, policy_overrides={}, known_locations=[], created_at=now)
        .on_conflict_do_nothing(index_elements=["id"])
    )
