"""A person's data: what is kept about them, exported for them or erased.

`export_person` is the person's slice of CLOCK-STATE v3: their person row,
the threads they are in (with only themselves as participant), their memory
items, and in ``x_clockbot.person`` their identities, every message of theirs
in the journal, the history of their private threads and every job addressed
to them. A group's conversation is not theirs alone and is left out.

`erase_person` takes the person behind one identity and removes, in one
transaction, everything keyed to them on every linked channel:

- their person row and every identity linked to it, and any link code they hold;
- their memory items, actions, calibration and schedules;
- their private threads whole (DMs, email threads, the console): the thread,
  its history, its route, its participants, every outbox job in it (sent or
  not) with the platform ids kept for replies, and its waiting messages;
- in group threads, their participation, their waiting messages and every
  job addressed to them not yet sent. The group's own conversation stays:
  the history is one text the model saw as a whole and it belongs to everyone
  in the group; only its ``Speaker`` lines that name them (their name, or
  their channel and id) now say `GONE_SPEAKER`;
- their turn-limit bucket, their web sign-in links and sessions, their calendar feed;
- their answers to meeting polls; a poll stays the group's, without them among its
  voters, and one they started names `ERASED` as its organiser.

Their journaled messages become tombstones: the row stays with its channel
and message id only (text, thread and sender blanked), so a platform that
delivers an old message again is recognised and nothing is answered or
stored for it. The message ids are the platform's own and carry nothing
else of the person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    ColumnElement,
    String,
    and_,
    cast,
    delete,
    false,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection

from clockcore.message import speaker_label
from wrapper.inbound.sender_checks import sender_checks
from wrapper.keys import is_private_thread, split_thread_key, split_user_key
from wrapper.state_io import export_state
from wrapper.store import queries as q
from wrapper.store import tables as t
from wrapper.store.tables import history, outbox, routes, sent_messages
from wrapper.store.tables import pending_turns as pending
from wrapper.store.tables import rate_buckets as buckets
from wrapper.web import web_links, web_sessions

__all__ = ["ERASED", "GONE_SPEAKER", "Erased", "erase_person", "export_person"]

ERASED = "erased"
"""What a tombstone's thread and sender read."""

GONE_SPEAKER = "someone who has left"
"""What a group's ``Speaker`` line says in place of an erased person."""


@dataclass(frozen=True, slots=True)
class Erased:
    """What was erased: the person (None: nobody had that identity) and rows per table."""

    person: str | None
    identities: tuple[str, ...] = ()
    rows: dict[str, int] = field(default_factory=dict)


def erase_person(conn: Connection, user_key: str) -> Erased:
    """Erase the person behind `user_key` in the caller's transaction; see the module."""
    person = q.load_person(conn, user_key)
    if person is None:
        return Erased(None)
    pid = person.user_id
    named = _identities_of(conn, pid)
    keys = tuple(key for key, _ in named)
    rows: dict[str, int] = {}

    def run(name: str, statement: object) -> None:
        rows[name] = rows.get(name, 0) + conn.execute(statement).rowcount  # type: ignore[call-overload]

    joined = set(
        conn.execute(
            select(t.participants.c.thread_key).where(t.participants.c.user_key.in_(keys))
        ).scalars()
    )
    private = sorted(key for key in joined if is_private_thread(*split_thread_key(key)[1:]))
    channel_ids = [split_user_key(key) for key in keys]
    mine = or_(
        false(), *(and_(pending.c.channel == c, pending.c.user_id == u) for c, u in channel_ids)
    )

    gone_jobs = select(outbox.c.id).where(
        or_(
            outbox.c.thread_key.in_(private),
            and_(outbox.c.user_key.in_(keys), outbox.c.status != "sent"),
        )
    )
    run("sent_messages", delete(sent_messages).where(sent_messages.c.outbox_id.in_(gone_jobs)))
    run("outbox", delete(outbox).where(outbox.c.id.in_(gone_jobs)))
    run("pending_turns", delete(pending).where(or_(mine, _pending_in(private))))
    run("history", delete(history).where(history.c.thread_key.in_(private)))
    groups = sorted(joined.difference(private))
    for key, name in named:
        labels = {speaker_label(None, *split_user_key(key))} | ({name} if name else set())
        for label in labels:
            run(
                "history_speakers",
                update(history)
                .where(
                    history.c.thread_key.in_(groups),
                    history.c.content.contains(f"Speaker: {label}\n", autoescape=True),
                )
                .values(
                    content=func.replace(
                        history.c.content, f"Speaker: {label}\n", f"Speaker: {GONE_SPEAKER}\n"
                    )
                ),
            )
    run("routes", delete(routes).where(routes.c.thread_key.in_(private)))
    _leave_routes(conn, keys, run)
    run(
        "thread_participants",
        delete(t.participants).where(
            or_(t.participants.c.user_key.in_(keys), t.participants.c.thread_key.in_(private))
        ),
    )
    run("threads", delete(t.threads).where(t.threads.c.thread_key.in_(private)))
    run(
        "inbound_journal",
        update(t.journal)
        .where(t.journal.c.user_key.in_(keys))
        .values(text="", user_key=ERASED, thread_key=ERASED),
    )
    for name, table in (
        ("memory_items", t.memory),
        ("actions", t.actions),
        ("calibration", t.calibration),
        ("schedules", t.schedules),
    ):
        run(name, delete(table).where(table.c.user_id == pid))
    run(
        "link_codes",
        delete(t.link_codes).where(
            or_(t.link_codes.c.user_key.in_(keys), t.link_codes.c.redeemer.in_(keys))
        ),
    )
    bucket_keys = [f"person:{pid}", *(f"link:{key}" for key in keys)]
    run("rate_buckets", delete(buckets).where(buckets.c.key.in_(bucket_keys)))
    run("web_links", delete(web_links).where(web_links.c.user_key.in_(keys)))
    run("sender_checks", delete(sender_checks).where(sender_checks.c.user_key.in_(keys)))
    run("web_sessions", delete(web_sessions).where(web_sessions.c.user_id == pid))
    run("calendar_feeds", delete(t.calendar_feeds).where(t.calendar_feeds.c.user_id == pid))
    run("meeting_votes", delete(t.meeting_votes).where(t.meeting_votes.c.user_key.in_(keys)))
    run(
        "meeting_attendees",
        delete(t.meeting_attendees).where(t.meeting_attendees.c.user_key.in_(keys)),
    )
    _leave_polls(conn, keys, sorted(joined), run)
    run("identities", delete(t.identities).where(t.identities.c.user_id == pid))
    run("users", delete(t.users).where(t.users.c.id == pid))
    return Erased(pid, keys, {name: count for name, count in rows.items() if count})


def _identities_of(conn: Connection, pid: str) -> list[tuple[str, str | None]]:
    """(user key, the name the platform gives) of each identity of the person."""
    query = select(t.identities.c.user_key, t.identities.c.display_name)
    return [(key, name) for key, name in conn.execute(query.where(t.identities.c.user_id == pid))]


def _leave_routes(conn: Connection, keys: Sequence[str], run: Any) -> None:
    """Group mail threads no longer write to them: out of each route's Cc and To.

    Read over every group thread's route, not only those they wrote in: a
    group mail names people who never wrote (`wrapper.inbound.replies`). When they
    were its To, the next in its Cc takes it; with nobody left, the route goes.
    """
    ids = {split_user_key(key)[1] for key in keys}
    text = cast(routes.c.route, String)
    naming = or_(false(), *(text.contains(i, autoescape=True) for i in ids))
    rows = conn.execute(select(routes.c.thread_key, routes.c.route).where(naming)).all()
    for thread_key, route in rows:
        if not isinstance(route, dict) or is_private_thread(*split_thread_key(thread_key)[1:]):
            continue
        cc = list(
            dict.fromkeys(
                [*str(route.get("cc", "")).split(), *str(route.get("members", "")).split()]
            )
        )
        to = route.get("to")
        if to not in ids and not ids.intersection(cc):
            continue
        left = [address for address in cc if address not in ids]
        members = [m for m in str(route.get("members", "")).split() if m not in ids]
        where = routes.c.thread_key == thread_key
        if to in ids and not left:
            run("routes", delete(routes).where(where))
            continue
        if to in ids:
            to, left = left[0], left[1:]
        changed = {**route, "to": to, "cc": " ".join(left)}
        if "members" in route:
            changed["members"] = " ".join(members)
        run("routes", update(routes).where(where).values(route=changed))


def _leave_polls(conn: Connection, keys: Sequence[str], threads: Sequence[str], run: Any) -> None:
    """Meeting polls stay the group's; they no longer name the person as organiser or voter.

    A poll's organiser and voters all wrote in its thread, so only those threads are read.
    """
    polls = conn.execute(
        select(t.meeting_polls.c.id, t.meeting_polls.c.voters, t.meeting_polls.c.organiser).where(
            t.meeting_polls.c.thread_key.in_(threads)
        )
    ).all()
    for poll_id, voters, organiser in polls:
        left = [voter for voter in voters if voter not in keys]
        if len(left) == len(voters) and organiser not in keys:
            continue
        run(
            "meeting_polls",
            update(t.meeting_polls)
            .where(t.meeting_polls.c.id == poll_id)
            .values(voters=left, organiser=ERASED if organiser in keys else organiser),
        )


def _pending_in(thread_keys: Sequence[str]) -> ColumnElement[bool]:
    """Waiting messages in these threads (the list keeps channel and thread id, not the key)."""
    parts = [split_thread_key(key) for key in thread_keys]
    return or_(
        false(),
        *(
            and_(pending.c.channel == channel, pending.c.thread_id == tid)
            for _, channel, tid in parts
        ),
    )


def export_person(conn: Connection, user_key: str) -> dict[str, Any] | None:
    """The person behind `user_key` as a CLOCK-STATE v3 slice (see the module); None: nobody."""
    person = q.load_person(conn, user_key)
    if person is None:
        return None
    pid = person.user_id
    document: dict[str, Any] = export_state(conn, person=pid)  # their rows only
    threads: dict[str, Any] = document["threads"]
    extension = document.setdefault("x_clockbot", {})
    named = _identities_of(conn, pid)
    keys = [key for key, _ in named]
    private = [key for key in threads if is_private_thread(*split_thread_key(key)[1:])]
    messages = conn.execute(
        select(
            t.journal.c.channel, t.journal.c.thread_key, t.journal.c.received_at, t.journal.c.text
        )
        .where(t.journal.c.user_key.in_(keys))
        .order_by(t.journal.c.received_at, t.journal.c.id)
    ).mappings()
    said = conn.execute(
        select(history.c.thread_key, history.c.role, history.c.content)
        .where(history.c.thread_key.in_(private))
        .order_by(history.c.thread_key, history.c.seq)
    ).mappings()
    jobs = conn.execute(
        select(outbox.c.kind, outbox.c.status, outbox.c.due_at, outbox.c.thread_key, outbox.c.text)
        .where(or_(outbox.c.user_key.in_(keys), outbox.c.thread_key.in_(private)))
        .order_by(outbox.c.due_at, outbox.c.id)
    ).mappings()
    conversations: dict[str, list[dict[str, str]]] = {}
    for row in said:
        conversations.setdefault(row["thread_key"], []).append(
            {"role": row["role"], "content": row["content"]}
        )
    extension["person"] = {
        "identities": sorted(keys),
        "names": {key: name for key, name in sorted(named) if name},
        "messages": [{**dict(m), "received_at": m["received_at"].isoformat()} for m in messages],
        "history": conversations,
        "jobs": [{**dict(j), "due_at": j["due_at"].isoformat()} for j in jobs],
    }
    return document
