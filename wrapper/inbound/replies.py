"""Which thread a reply joins: through the messages it names, and only where its writer belongs.

An email names the mails it follows (``In-Reply-To``, ``References``), and the
sender writes those headers. Taking the thread from them alone let anyone who
learned another person's Message-ID read that person's thread through the
agent's answers and turn its route, reminders included, to themselves.

So a named message leads to its thread only when the writer is already a
participant of that thread (`thread_participants`: they wrote in it before),
or the thread's route names them among the people its answers go to (its
``cc``: a group mail that addressed them, where their reply-all joins).
The names are looked up among the messages people sent us (the journal) and
the ones we sent (`sent_messages`, kept with the outbox job), so a client that
sets only ``In-Reply-To`` to our reply finds its thread too. Participation is
checked rather than keying every thread by (sender, root): it needs no change
to the threads that exist, and the same rule holds for any channel whose
replies name earlier messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from wrapper.keys import group_mail_thread, split_thread_key, split_user_key, thread_key
from wrapper.store.tables import journal, outbox, participants, routes, sent_messages, threads

__all__ = ["MAX_NAMED", "group_threads_started", "thread_followed"]

MAX_NAMED = 25
"""Names looked at per message; a longer list is cut (nearest kept)."""


def thread_followed(
    conn: Connection, *, agent_id: str, channel: str, user_key: str, named: Sequence[str]
) -> str | None:
    """The thread id of the nearest named message whose thread `user_key` writes in, or None.

    `named` are platform message ids, nearest first; ours and theirs both count.
    """
    wanted = list(dict.fromkeys(n for n in named if n))[:MAX_NAMED]
    if not wanted:
        return None
    found: dict[str, str] = {}
    theirs = select(journal.c.message_id, journal.c.thread_key).where(
        journal.c.channel == channel, journal.c.message_id.in_(wanted)
    )
    ours = (
        select(sent_messages.c.platform_id, outbox.c.thread_key)
        .join(outbox, outbox.c.id == sent_messages.c.outbox_id)
        .where(sent_messages.c.channel == channel, sent_messages.c.platform_id.in_(wanted))
    )
    for query in (theirs, ours):
        for name, key in conn.execute(query):
            found.setdefault(name, key)
    if not found:
        return None
    threads = set(found.values())
    member = set(
        conn.execute(
            select(participants.c.thread_key).where(
                participants.c.user_key == user_key, participants.c.thread_key.in_(threads)
            )
        ).scalars()
    )
    member |= _addressed(conn, user_key, threads - member)
    for name in wanted:
        key = found.get(name)
        if key is not None and key in member:
            agent, on, thread_id = split_thread_key(key)
            if agent == agent_id and on == channel:
                return thread_id
    return None


def group_threads_started(
    conn: Connection, *, agent_id: str, channel: str, user_id: str, since: datetime, but: str
) -> int:
    """How many group mail threads `user_id`'s mails started since `since`, but thread id `but`.

    A group mail thread's id starts with its first writer (`wrapper.keys.group_mail_thread`),
    so this is one range scan on the threads' key.
    """
    prefix = thread_key(agent_id, channel, group_mail_thread(user_id, ""))
    found = conn.execute(
        select(func.count()).where(
            threads.c.thread_key.startswith(prefix, autoescape=True),
            threads.c.created_at >= since,
            threads.c.thread_key != thread_key(agent_id, channel, but),
        )
    ).scalar_one()
    return int(found)


def _addressed(conn: Connection, user_key: str, threads: set[str]) -> set[str]:
    """The threads among `threads` whose answers go to `user_key` too (their route's ``cc``)."""
    if not threads:
        return set()
    platform_id = split_user_key(user_key)[1]
    rows = conn.execute(
        select(routes.c.thread_key, routes.c.route).where(routes.c.thread_key.in_(threads))
    )
    return {
        key
        for key, route in rows
        if isinstance(route, dict)
        and platform_id in f"{route.get('cc', '')} {route.get('members', '')}".split()
    }
