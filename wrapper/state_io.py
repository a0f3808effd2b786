"""CLOCK-STATE.json v3 out of and into the store (docs/clock-spec.md §10): a backup.

The document's users are people (linked identities are one user); each
user's ``channels`` are their identities, keyed by ``user_key``
(``telegram:42``). A key without a colon, as a CLOCK skill writes it
(``"telegram"``), is read as that channel with the user's id. Memory items
travel in ``x_clockbot.memory``, and the rest of a person's data (reminders,
repeating reminders, routes, calendar feeds, meeting polls ...) in the backup
parts under ``x_clockbot`` (`clockcore.state_backup`; docs/data.md, "A backup").
`BACKED_UP` and `LEFT_OUT` name every table of the store, so a new table is a
decision (a test holds it).

An import is validated whole before anything is written and then written in
one transaction: a bad file changes nothing. A document with reminders,
repeating reminders, feeds or polls restores only into an empty store, so
their ids (``r21``, ``s5182``, a feed's URL) stay theirs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select, text, update
from sqlalchemy.engine import Connection

from clockcore.errors import StateError
from clockcore.state import (
    ActionState,
    CalibrationState,
    ChannelStamps,
    ClockState,
    MemoryState,
    ThreadState,
    UserState,
    dump_state,
    load_state,
)
from clockcore.state_backup import PARTS
from wrapper import queries as q
from wrapper import tables as t
from wrapper.errors import StateImportError
from wrapper.keys import is_private_thread, split_thread_key, split_user_key, user_key

__all__ = [
    "BACKED_UP",
    "LEFT_OUT",
    "RESTORED_ONLY_INTO_EMPTY",
    "export_state",
    "import_state",
    "user_key_for",
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
    "schedules", "reminders", "calendar_feeds", "meeting_polls", "meeting_votes",
    "meeting_attendees",
)  # fmt: skip
"""The parts whose ids a person holds (r21, s5182, a feed's URL): an import of any of them
needs an empty store."""


def user_key_for(channel_key: str, user_id: str) -> str:
    """The identity a CLOCK-STATE channel key names."""
    return channel_key if ":" in channel_key else user_key(channel_key, user_id)


def export_state(conn: Connection, *, person: str | None = None) -> dict[str, object]:
    """Read the whole store as a v3 document; with `person`, only that person's rows.

    A person's slice holds their user, identities, actions, calibration and
    memory, and the threads they take part in with only their own participation:
    each query reads their rows alone, so exporting one person costs the same in a
    store of ten people as of ten thousand.
    """
    identities, acts = t.identities, t.actions
    people_q = select(t.users).order_by(t.users.c.id)
    identity_q = select(identities)
    action_q = select(acts).order_by(acts.c.recorded_at, acts.c.id)
    calibration_q = select(t.calibration)
    thread_q = select(t.threads)
    participant_q = select(t.participants)
    memory_q = select(t.memory).order_by(t.memory.c.id)
    if person is not None:
        keys = select(identities.c.user_key).where(identities.c.user_id == person)
        joined = select(t.participants.c.thread_key).where(t.participants.c.user_key.in_(keys))
        people_q = people_q.where(t.users.c.id == person)
        identity_q = identity_q.where(identities.c.user_id == person)
        action_q = action_q.where(acts.c.user_id == person)
        calibration_q = calibration_q.where(t.calibration.c.user_id == person)
        thread_q = thread_q.where(t.threads.c.thread_key.in_(joined))
        participant_q = participant_q.where(t.participants.c.user_key.in_(keys))
        memory_q = memory_q.where(t.memory.c.user_id == person)
    backup = _export_parts(conn, person=person)  # before the loops below reuse the name
    people = conn.execute(people_q).mappings().all()
    identity_rows = conn.execute(identity_q).mappings().all()
    action_rows = conn.execute(action_q).mappings().all()
    calibration_rows = conn.execute(calibration_q).mappings().all()
    thread_rows = conn.execute(thread_q).mappings().all()
    participant_rows = conn.execute(participant_q).mappings().all()
    memory_rows = conn.execute(memory_q).mappings().all()

    person_of = {row["user_key"]: row["user_id"] for row in identity_rows}
    channels: dict[str, dict[str, ChannelStamps]] = defaultdict(dict)
    for row in identity_rows:
        channels[row["user_id"]][row["user_key"]] = ChannelStamps(
            row["last_user_message_at"], row["last_agent_message_at"]
        )
    actions: dict[str, list[ActionState]] = defaultdict(list)
    for row in action_rows:
        actions[row["user_id"]].append(q.row_as(ActionState, row))
    calibration: dict[str, dict[str, CalibrationState]] = defaultdict(dict)
    for row in calibration_rows:
        calibration[row["user_id"]][row["activity"]] = CalibrationState(
            row["typical_minutes"], row["max_minutes"], row["updated_at"]
        )
    users = {
        person["id"]: UserState(
            default_tz=person["default_tz"],
            policy_overrides=dict(person["policy_overrides"] or {}),
            last_interaction_any_channel_at=person["last_interaction_any_channel_at"],
            channels=dict(channels[person["id"]]),
            latest_actions=tuple(actions[person["id"]]),
            calibration=dict(calibration[person["id"]]),
        )
        for person in people
    }
    spoken: dict[str, dict[str, datetime]] = defaultdict(dict)
    for row in participant_rows:
        person = person_of.get(row["user_key"], row["user_key"])
        stamp = row["last_user_message_at"]
        previous = spoken[row["thread_key"]].get(person)
        if stamp is not None and (previous is None or stamp > previous):
            spoken[row["thread_key"]][person] = stamp
    members: dict[str, list[str]] = defaultdict(list)
    for row in sorted(participant_rows, key=lambda r: r["user_key"]):
        person = person_of.get(row["user_key"], row["user_key"])
        if person not in members[row["thread_key"]]:
            members[row["thread_key"]].append(person)
    threads = {
        row["thread_key"]: ThreadState(
            thread_kind=row["thread_kind"],
            session_tz=row["session_tz"],
            agent_tz=row["agent_tz"],
            delta_hours=row["delta_hours"],
            participants=tuple(members[row["thread_key"]]),
            last_interaction_at=row["last_interaction_at"],
            last_user_message_at_by_user=dict(spoken[row["thread_key"]]),
        )
        for row in thread_rows
    }
    memory = tuple(
        MemoryState(
            id=row["id"],
            user_id=row["user_id"],
            content=row["content"],
            created_at=row["created_at"],
            due_at=row["due_at"],
            reminded_at=row["reminded_at"],
            thread_key=row["thread_key"],
        )
        for row in memory_rows
    )
    return dump_state(ClockState(users=users, threads=threads, memory=memory, backup=backup))


def _export_parts(conn: Connection, *, person: str | None) -> dict[str, tuple[dict[str, Any], ...]]:
    """The backup parts' rows (`clockcore.state_backup.PARTS`), each part in a stable order."""
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
            "meeting_votes": t.meeting_votes.c.user_key.in_(keys),
            "meeting_attendees": t.meeting_attendees.c.user_key.in_(keys),
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


def import_state(conn: Connection, document: Mapping[str, object], *, now: datetime) -> None:
    """Validate `document` whole, then write it; the caller's transaction makes it all or nothing.

    Rows with the same keys are replaced; nothing else in the store is removed.

    Raises:
        StateImportError: the document does not validate (nothing was written).
    """
    try:
        state = load_state(document)
    except StateError as exc:
        raise StateImportError(exc.problems) from exc
    held = [name for name in RESTORED_ONLY_INTO_EMPTY if state.backup.get(name)]
    stored = conn.execute(select(func.count()).select_from(t.users)).scalar_one()
    if held and stored:
        where = f"$.x_clockbot.{held[0]}"
        raise StateImportError(
            [
                (
                    where,
                    f"this store already holds {stored} {'person' if stored == 1 else 'people'}; "
                    "a backup with reminders, repeating reminders, calendar feeds or meeting "
                    "polls restores only into an empty store (a new CLOCKBOT_HOME or database), "
                    "so that their ids stay theirs",
                )
            ]
        )
    for user_id, user in state.users.items():
        _upsert(
            conn,
            t.users,
            ["id"],
            id=user_id,
            default_tz=user.default_tz,
            policy_overrides=dict(user.policy_overrides),
            known_locations=[],
            last_interaction_any_channel_at=user.last_interaction_any_channel_at,
            created_at=now,
        )
        for channel_key, stamps in user.channels.items():
            identity = user_key_for(channel_key, user_id)
            channel, channel_user_id = split_user_key(identity)
            _upsert(
                conn,
                t.identities,
                ["user_key"],
                user_key=identity,
                channel=channel,
                channel_user_id=channel_user_id,
                user_id=user_id,
                last_user_message_at=stamps.last_user_message_at,
                last_agent_message_at=stamps.last_agent_message_at,
                created_at=now,
            )
        for action in user.latest_actions:
            _upsert(
                conn,
                t.actions,
                ["id"],
                id=action.id,
                user_id=user_id,
                thread_key=action.thread_key,
                label=action.label,
                type=action.type,
                status=action.status,
                source=action.source,
                recorded_at=action.recorded_at,
                expires_at=action.expires_at,
                expected_typical_minutes=action.expected_typical_minutes,
                expected_max_minutes=action.expected_max_minutes,
            )
        for activity, calibration in user.calibration.items():
            _upsert(
                conn,
                t.calibration,
                ["user_id", "activity"],
                user_id=user_id,
                activity=activity,
                typical_minutes=calibration.typical_minutes,
                max_minutes=calibration.max_minutes,
                updated_at=calibration.updated_at,
            )
    for thread_key, thread in state.threads.items():
        agent_id, channel, thread_id = split_thread_key(thread_key)
        _upsert(
            conn,
            t.threads,
            ["thread_key"],
            thread_key=thread_key,
            agent_id=agent_id,
            channel=channel,
            thread_id=thread_id,
            thread_kind=thread.thread_kind,
            session_tz=thread.session_tz,
            agent_tz=thread.agent_tz,
            delta_hours=thread.delta_hours,
            last_interaction_at=thread.last_interaction_at,
            created_at=now,
        )
        people = dict.fromkeys([*thread.participants, *thread.last_user_message_at_by_user])
        for person in people:
            member = _identity_on(conn, person, channel, now=now)
            _upsert(
                conn,
                t.participants,
                ["thread_key", "user_key"],
                thread_key=thread_key,
                user_key=member,
                last_user_message_at=thread.last_user_message_at_by_user.get(person),
            )
    for item in state.memory:
        _ensure_person(conn, item.user_id, now=now)
        _upsert(
            conn,
            t.memory,
            ["id"],
            id=item.id,
            user_id=item.user_id,
            content=item.content,
            created_at=item.created_at,
            due_at=item.due_at,
            reminded_at=item.reminded_at,
            thread_key=item.thread_key,
        )
    _import_parts(conn, state.backup, now=now)
    _refresh_hints(conn)
    if conn.dialect.name == "postgresql":
        # Explicit ids do not move a serial sequence; the next insert must not collide.
        if state.memory:
            conn.execute(text(_SEQUENCE_AFTER["memory_items"]))
        if state.backup.get("reminders"):
            conn.execute(text(_SEQUENCE_AFTER["outbox"]))


_SEQUENCE_AFTER = {
    table: f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"  # noqa: S608 (two constant names)
    for table in ("memory_items", "outbox")
}


def _import_parts(
    conn: Connection, parts: Mapping[str, tuple[Mapping[str, object], ...]], *, now: datetime
) -> None:
    """Write the backup parts in `PARTS` order (a vote after its poll); rows with the same
    keys are replaced."""
    for row in parts.get("people", ()):
        _ensure_person(conn, str(row["id"]), now=now)
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
        _upsert(conn, t.routes, ["thread_key"], **row)
    for row in parts.get("schedules", ()):
        _ensure_person(conn, str(row["user_id"]), now=now)
        _upsert(conn, t.schedules, ["id"], **row)
    for row in parts.get("reminders", ()):
        _upsert(conn, t.outbox, ["id"], **row)
    for row in parts.get("calendar_feeds", ()):
        _ensure_person(conn, str(row["user_id"]), now=now)
        _upsert(conn, t.calendar_feeds, ["token_hash"], **row)
    for row in parts.get("meeting_polls", ()):
        _upsert(conn, t.meeting_polls, ["id"], **row)
    for row in parts.get("meeting_votes", ()):
        _upsert(conn, t.meeting_votes, ["poll_id", "user_key"], **row)
    for row in parts.get("meeting_attendees", ()):
        conn.execute(
            q.insert_for(conn, t.meeting_attendees)
            .values(**row)
            .on_conflict_do_nothing(index_elements=["poll_id", "user_key"])
        )


def _refresh_hints(conn: Connection) -> None:
    """Recompute the per-person query hints (see `wrapper.tables.UserRow`) from the rows."""
    latest = (
        select(func.max(t.actions.c.expires_at))
        .where(t.actions.c.user_id == t.users.c.id)
        .scalar_subquery()
    )
    dated = (
        select(t.memory.c.id)
        .where(t.memory.c.user_id == t.users.c.id, t.memory.c.due_at.is_not(None))
        .exists()
    )
    theirs = select(t.identities.c.user_key).where(t.identities.c.user_id == t.users.c.id)
    waiting = (
        select(t.outbox.c.id)
        .where(t.outbox.c.kind.in_(q.REMINDER_KINDS), t.outbox.c.user_key.in_(theirs))
        .exists()
    )
    repeating = (
        select(t.schedules.c.id)
        .where(t.schedules.c.user_id == t.users.c.id, t.schedules.c.state != "ended")
        .exists()
    )
    conn.execute(
        update(t.users).values(actions_until=latest, has_due_items=dated | waiting | repeating)
    )


def _upsert(conn: Connection, table: Any, keys: list[str], **values: Any) -> None:
    stmt = q.insert_for(conn, table).values(**values)
    update = {k: v for k, v in values.items() if k not in keys and k != "created_at"}
    conn.execute(stmt.on_conflict_do_update(index_elements=keys, set_=update))


def _ensure_person(conn: Connection, user_id: str, *, now: datetime) -> None:
    conn.execute(
        q.insert_for(conn, t.users)
        .values(id=user_id, policy_overrides={}, known_locations=[], created_at=now)
        .on_conflict_do_nothing(index_elements=["id"])
    )


def _identity_on(conn: Connection, person: str, channel: str, *, now: datetime) -> str:
    """The person's identity on `channel`, created from the ids when the document has none."""
    found = (
        conn.execute(
            select(t.identities.c.user_key)
            .where(t.identities.c.user_id == person, t.identities.c.channel == channel)
            .order_by(t.identities.c.user_key)
            .limit(1)
        )
    ).scalar_one_or_none()
    if found is not None:
        return str(found)
    _ensure_person(conn, person, now=now)
    key = user_key(channel, person) if channel else person
    conn.execute(
        q.insert_for(conn, t.identities)
        .values(
            user_key=key, channel=channel, channel_user_id=person, user_id=person, created_at=now
        )
        .on_conflict_do_nothing(index_elements=["user_key"])
    )
    return key
