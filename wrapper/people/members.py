"""Who is in a thread: each person who spoke there, with their name, zone and hours.

The meeting finder (`bot.agent.tools.meeting_tools`) asks it for a group's members. A member
is a person, not an identity: two linked identities in one group are one member.
Each member comes with a private thread of theirs that clockbot may write to (the
one they wrote in last), so a question meant for them alone, their zone, never
goes to the group.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.engine import Connection

from clockcore import ContactWindow
from clockcore.message import speaker_label
from wrapper.keys import is_private_thread, split_thread_key, split_user_key
from wrapper.store.rows import PersonRow
from wrapper.store.tables import identities, participants, users

__all__ = [
    "PrivateThread",
    "ThreadMember",
    "private_thread_in",
    "private_threads_in",
    "reachable_in",
    "thread_members_in",
]

_NEVER = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class PrivateThread:
    """A direct conversation with a member: where a message to them alone goes."""

    thread_key: str
    channel: str
    thread_id: str
    user_key: str
    user_id: str


@dataclass(frozen=True, slots=True)
class ThreadMember:
    """One person in a thread.

    Attributes:
        user_key: the identity they wrote in this thread with (the latest, if several).
        person: their person id.
        name: what their platform calls them, else their channel and id (`speaker_label`).
        zone: the zone they set, else their platform's; None when unknown.
        window: their contact window, else the deployment's default.
        last_spoke: their last message in this thread.
        private: a direct conversation with them, or None when they have none.
    """

    user_key: str
    person: str
    name: str
    zone: str | None
    window: ContactWindow
    last_spoke: datetime | None
    private: PrivateThread | None


def thread_members_in(
    conn: Connection, thread_key: str, default_window: ContactWindow
) -> tuple[ThreadMember, ...]:
    """The people who spoke in `thread_key`, the most recent speaker first."""
    rows = conn.execute(
        select(
            participants.c.user_key,
            participants.c.last_user_message_at,
            identities.c.user_id,
            identities.c.display_name,
            users.c.default_tz,
            users.c.platform_tz,
            users.c.contact_window,
        )
        .join(identities, identities.c.user_key == participants.c.user_key)
        .join(users, users.c.id == identities.c.user_id)
        .where(participants.c.thread_key == thread_key)
    ).all()
    latest_first = sorted(rows, key=lambda row: row.last_user_message_at or _NEVER, reverse=True)
    private = private_threads_in(conn, {row.user_id for row in rows})
    members: dict[str, ThreadMember] = {}
    for row in latest_first:
        if row.user_id in members:
            continue  # a linked identity of someone already listed
        person = PersonRow(
            user_id=row.user_id,
            default_tz=row.default_tz,
            platform_tz=row.platform_tz,
            contact_window=row.contact_window,
        )
        members[row.user_id] = ThreadMember(
            user_key=row.user_key,
            person=row.user_id,
            name=speaker_label(row.display_name, *split_user_key(row.user_key)),
            zone=person.own_zone,
            window=person.window(default_window),
            last_spoke=row.last_user_message_at,
            private=private.get(row.user_id),
        )
    return tuple(members.values())


def private_thread_in(conn: Connection, person: str) -> PrivateThread | None:
    """The direct conversation the person wrote in last, on any of their identities."""
    return private_threads_in(conn, [person]).get(person)


def private_threads_in(conn: Connection, persons: Iterable[str]) -> dict[str, PrivateThread]:
    """`private_thread_in` for several people in one query: person id to their thread.

    Someone with no direct conversation is not in the result.
    """
    rows = conn.execute(
        select(participants.c.thread_key, participants.c.user_key, identities.c.user_id)
        .join(identities, identities.c.user_key == participants.c.user_key)
        .where(identities.c.user_id.in_(list(persons)))
        .order_by(participants.c.last_user_message_at.desc())
    ).all()
    found: dict[str, PrivateThread] = {}
    for thread_key, user_key, person in rows:
        _, channel, thread_id = split_thread_key(thread_key)
        if person not in found and is_private_thread(channel, thread_id):
            _, user_id = split_user_key(user_key)
            found[person] = PrivateThread(thread_key, channel, thread_id, user_key, user_id)
    return found


def reachable_in(
    conn: Connection, person: str, user_key: str, group: tuple[str, str, str]
) -> PrivateThread:
    """Where a message for one member goes: their direct conversation, else the group.

    `group` is the group's thread key, channel and thread id; `user_key` the
    member's identity there, to address them.
    """
    return private_thread_in(conn, person) or PrivateThread(
        *group, user_key, split_user_key(user_key)[1]
    )
