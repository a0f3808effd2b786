"""CLOCK-STATE.json v3 out of and into the store (docs/clock-spec.md §10): a backup.

The document's users are people (linked identities are one user); each
user's ``channels`` are their identities, keyed by ``user_key``
(``telegram:42``). A key without a colon, as a CLOCK skill writes it
(``"telegram"``), is read as that channel with the user's id. Memory items
travel in ``x_clockbot.memory``, and the rest of a person's data (reminders,
repeating reminders, routes, calendar feeds, meeting polls ...) in the backup
parts under ``x_clockbot`` (`clockcore.state.backup`; docs/data.md, "A backup").
`BACKED_UP` and `LEFT_OUT` name every table of the store, so a new table is a
decision (a test holds it).

An import is validated whole before anything is written and then written in
one transaction: a bad file changes nothing. A document with reminders,
repeating reminders, feeds or polls restores only into an empty store, so
their ids (``r21``, ``s5182``, a feed's URL) stay theirs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from datetime import datetime

from sqlalchemy import func, select, text, update
from sqlalchemy.engine import Connection

from clockcore.errors import StateError
from clockcore.state.document import (
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
from clockcore.state.problems import JsonPath, json_path
from wrapper.errors import StateImportError
from wrapper.keys import split_thread_key, split_user_key, user_key
from wrapper.state_backup import (
    BACKED_UP,
    LEFT_OUT,
    RESTORED_ONLY_INTO_EMPTY,
    ensure_person,
    export_parts,
    import_parts,
    upsert,
)
from wrapper.store import queries as q
from wrapper.store import tables as t

__all__ = [
    "BACKED_UP",
    "LEFT_OUT",
    "RESTORED_ONLY_INTO_EMPTY",
    "export_state",
    "import_state",
    "user_key_for",
]


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
    backup = export_parts(conn, person=person)  # before the loops below reuse the name
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
    unstorable = list(_nul_paths(document, ()))
    if unstorable:
        raise StateImportError(
            [
                (json_path(path), "contains a NUL character, which the store cannot keep")
                for path in unstorable
            ]
        )
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
        upsert(
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
            upsert(
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
            upsert(
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
            upsert(
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
        upsert(
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
            upsert(
                conn,
                t.participants,
                ["thread_key", "user_key"],
                thread_key=thread_key,
                user_key=member,
                last_user_message_at=thread.last_user_message_at_by_user.get(person),
            )
    for item in state.memory:
        ensure_person(conn, item.user_id, now=now)
        upsert(
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
    import_parts(conn, state.backup, now=now)
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


def _nul_paths(value: object, path: JsonPath) -> Iterator[JsonPath]:
    """Where a text (or a key) holds NUL: PostgreSQL refuses it, so neither store takes it."""
    if isinstance(value, str):
        if "\x00" in value:
            yield path
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and "\x00" in key:
                yield path
            yield from _nul_paths(item, (*path, str(key)))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _nul_paths(item, (*path, index))


def _refresh_hints(conn: Connection) -> None:
    """Recompute the per-person query hints (see `wrapper.store.tables.UserRow`) from the rows."""
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
    ensure_person(conn, person, now=now)
    key = user_key(channel, person) if channel else person
    conn.execute(
        q.insert_for(conn, t.identities)
        .values(
            user_key=key, channel=channel, channel_user_id=person, user_id=person, created_at=now
        )
        .on_conflict_do_nothing(index_elements=["user_key"])
    )
    return key
