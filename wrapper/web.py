"""What the web pages read and write: sign-in links, sessions, a timeline, the operator's view.

Sign-in without passwords. A person asks for a link in the chat; the turn that
answers stages `NewSignInLink`, committed with its reply, so a repeated turn
makes a new link and never leaves one nobody was sent. A link and a session are
random tokens (`new_token`, 256 bits); only their SHA-256 is stored, so a read of
the database gives nobody a way in. A link works once (`redeem_in` marks it
used in the same statement that checks it) and for `LINK_LIFETIME`; it opens a
session for `SESSION_LIFETIME`, scoped to the person behind the identity that
asked, which covers every identity linked to them. An operator's session has no
person (`WebSession.admin`).

Everything here scopes a person's reads by `user_id` through their identities;
nothing takes a row id alone.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from wrapper.keys import split_thread_key
from wrapper.meetings import meetings_in, starts_within
from wrapper.outbound.outbox import OutboxItem, outbox_item
from wrapper.outbound.schedules import LATE_AFTER
from wrapper.store import queries as q
from wrapper.store import tables as t
from wrapper.store.tables import outbox, web_links, web_sessions
from wrapper.store.tables import pending_turns as pending

__all__ = [
    "LINK_LIFETIME",
    "SESSION_LIFETIME",
    "Entry",
    "NewSignInLink",
    "Waiting",
    "WebSession",
    "admin_session_in",
    "end_session_in",
    "failed_jobs_in",
    "link_in",
    "message_times_in",
    "new_token",
    "operator_mark",
    "prune_web_in",
    "recent_words_in",
    "redeem_in",
    "retry_in",
    "session_in",
    "timeline_in",
    "token_hash",
    "waiting_in",
    "web_links",
    "web_sessions",
]

LINK_LIFETIME = timedelta(minutes=10)
"""How long a sign-in link works (once)."""
SESSION_LIFETIME = timedelta(hours=12)
"""How long a signed-in browser stays signed in."""


def new_token() -> str:
    """A fresh unguessable token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class NewSignInLink:
    """A turn's effect: a sign-in link for the person behind `user_key`, by its token's hash."""

    user_key: str
    token_hash: str
    expires_at: datetime


def link_in(conn: Connection, link: NewSignInLink, *, now: datetime) -> None:
    """Store a sign-in link (the `NewSignInLink` effect)."""
    conn.execute(
        insert(web_links).values(
            token_hash=link.token_hash,
            user_key=link.user_key,
            created_at=now,
            expires_at=link.expires_at,
        )
    )


@dataclass(frozen=True, slots=True)
class WebSession:
    """A signed-in browser: a person's (`user_id`, the identity that asked) or an operator's."""

    user_id: str | None
    user_key: str | None
    expires_at: datetime

    @property
    def admin(self) -> bool:
        """An operator's session (no person)."""
        return self.user_id is None


def redeem_in(
    conn: Connection, link_hash: str, session_hash: str, *, now: datetime
) -> WebSession | None:
    """Use a link once and open its person's session; None when it is unknown, used or expired.

    The link is marked used by the same UPDATE that checks it, so two browsers
    opening it at once get one session between them.
    """
    usable = and_(
        web_links.c.token_hash == link_hash,
        web_links.c.used_at.is_(None),
        web_links.c.expires_at > now,
    )
    user_key = conn.execute(
        update(web_links).where(usable).values(used_at=now).returning(web_links.c.user_key)
    ).scalar()
    if user_key is None:
        return None
    person = q.load_person(conn, str(user_key))
    if person is None:  # erased since the link was made
        return None
    return _open(conn, session_hash, person.user_id, str(user_key), now=now)


def operator_mark(admin_token: str) -> str:
    """What an operator's session keeps of the token it was opened with: a keyed digest.

    A session whose mark is not the current token's ends: changing
    ``CLOCKBOT_ADMIN_TOKEN`` signs every operator out.
    """
    digest = hashlib.sha256(b"clockbot-operator\x00" + admin_token.encode("utf-8", "replace"))
    return "operator:" + digest.hexdigest()[:32]


def admin_session_in(
    conn: Connection, session_hash: str, *, now: datetime, mark: str
) -> WebSession:
    """Open an operator's session (the caller has checked the admin token; `mark` is its)."""
    _open(conn, session_hash, None, mark, now=now)
    return WebSession(None, None, now + SESSION_LIFETIME)


def _open(
    conn: Connection, session_hash: str, user_id: str | None, user_key: str | None, *, now: datetime
) -> WebSession:
    until = now + SESSION_LIFETIME
    prune_web_in(conn, now=now)  # each sign-in clears what has expired: the tables stay small
    conn.execute(
        insert(web_sessions).values(
            token_hash=session_hash,
            user_id=user_id,
            user_key=user_key,
            created_at=now,
            expires_at=until,
        )
    )
    return WebSession(user_id, user_key, until)


def session_in(
    conn: Connection, session_hash: str, *, now: datetime, operator: str | None = None
) -> WebSession | None:
    """The live session with this token's hash, or None.

    A session ends, and None is returned, when what it was opened for no longer
    holds: a person's identity now belongs to another person (unlinked, or
    linked elsewhere) or was erased; an operator's was opened with another admin
    token than today's (`operator` is today's `operator_mark`, None: sign-in off).
    """
    row = (
        conn.execute(
            select(web_sessions).where(
                web_sessions.c.token_hash == session_hash, web_sessions.c.expires_at > now
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        return None
    if row["user_id"] is None:
        if operator is None or row["user_key"] != operator:
            end_session_in(conn, session_hash)
            return None
        return WebSession(None, None, row["expires_at"])
    person = q.load_person(conn, str(row["user_key"]))
    if person is None or person.user_id != row["user_id"]:
        end_session_in(conn, session_hash)
        return None
    return WebSession(row["user_id"], row["user_key"], row["expires_at"])


def end_session_in(conn: Connection, session_hash: str) -> None:
    """Sign a browser out."""
    conn.execute(delete(web_sessions).where(web_sessions.c.token_hash == session_hash))


def prune_web_in(conn: Connection, *, now: datetime) -> int:
    """Delete expired links and sessions; how many rows went."""
    links = conn.execute(delete(web_links).where(web_links.c.expires_at <= now)).rowcount
    gone = conn.execute(delete(web_sessions).where(web_sessions.c.expires_at <= now)).rowcount
    return int(links or 0) + int(gone or 0)


# --------------------------------------------------------------------------- the person's pages

MEETINGS_AHEAD = timedelta(days=21)
"""The timeline shows a repeating meeting's occurrences from its start this far on."""

EntryKind = Literal["you", "bot", "action", "reminder", "meeting"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a person's timeline.

    Attributes:
        at: when it happened (aware UTC).
        kind: ``you`` (their message), ``bot`` (a reply sent), ``reminder`` (a
            reminder or scheduled message: sent, late, deferred, failed or waiting),
            ``action`` (something they clocked), ``meeting`` (one they attend, at
            its start; `text` its title, `note` the slot in every member's time).
        channel: where (``telegram``, ``email`` …).
        text: what was said, or the action's label.
        state: ``sent``, ``late``, ``deferred``, ``failed``, ``waiting``, or an
            action's status.
        note: the agent's reason for a deferral, the last error, or None.
        until: an action's expiry, a deferred reminder's new time, a meeting's end.
    """

    at: datetime
    kind: EntryKind
    channel: str
    text: str
    state: str = ""
    note: str | None = None
    until: datetime | None = None


def _identity_keys_of(user_id: str) -> Any:
    return select(t.identities.c.user_key).where(t.identities.c.user_id == user_id)


def timeline_in(
    conn: Connection, user_id: str, *, since: datetime, limit: int = 200
) -> list[Entry]:
    """The person's messages, the bot's replies and reminders, their actions; newest first."""
    entries: list[Entry] = []
    j = t.journal.c
    for row in conn.execute(
        select(j.received_at, j.channel, j.text)
        .where(j.user_key.in_(_identity_keys_of(user_id)), j.received_at >= since)
        .order_by(j.received_at.desc())
        .limit(limit)
    ):
        entries.append(Entry(row.received_at, "you", row.channel, row.text))
    o = outbox.c
    shown = or_(
        and_(o.status == "sent", o.sent_at >= since),
        and_(o.kind != "reply", o.status.in_(("deferred", "failed", "pending", "claimed"))),
    )
    jobs = conn.execute(
        select(outbox)
        .where(o.user_key.in_(_identity_keys_of(user_id)), shown)
        .order_by(o.id.desc())
        .limit(limit)
    ).mappings()
    entries.extend(_job_entry(outbox_item(job)) for job in jobs)
    a = t.actions.c
    for act in conn.execute(
        select(a.recorded_at, a.thread_key, a.label, a.status, a.expires_at)
        .where(a.user_id == user_id, a.recorded_at >= since)
        .order_by(a.recorded_at.desc())
        .limit(limit)
    ):
        channel = split_thread_key(act.thread_key)[1]
        entries.append(
            Entry(act.recorded_at, "action", channel, act.label, act.status, until=act.expires_at)
        )
    for meeting in meetings_in(conn, user_id, ending_after=since):
        length, title, note = meeting.end - meeting.start, meeting.title, meeting.label
        for at in starts_within(meeting, since, since + MEETINGS_AHEAD):
            entry = Entry(at, "meeting", meeting.channel, title, note=note, until=at + length)
            entries.append(entry)
    # Platforms stamp a message to the second, and its reply often goes out within that
    # second: within one second, the bot's lines come after (above, newest first) the person's.
    entries.sort(key=lambda e: (e.at.replace(microsecond=0), e.kind != "you", e.at), reverse=True)
    return entries[:limit]


def _job_entry(item: OutboxItem) -> Entry:
    text = item.final_text or item.text
    if item.kind == "reply" or item.kind not in ("reminder", "proactive"):
        return Entry(item.sent_at or item.created_at, "bot", item.channel, text, "sent")
    meant = item.occurs_at or item.due_at
    if item.status == "sent" and item.sent_at is not None:
        late = item.sent_at - meant > LATE_AFTER
        held = item.defer_reason if item.deferred_from is not None else None
        return Entry(item.sent_at, "reminder", item.channel, text, "late" if late else "sent", held)
    if item.status == "deferred":
        at = item.deferred_from or item.decided_at or item.created_at
        return Entry(at, "reminder", item.channel, text, "deferred", item.defer_reason, meant)
    if item.status == "failed":
        return Entry(meant, "reminder", item.channel, text, "failed", item.last_error)
    return Entry(meant, "reminder", item.channel, text, "waiting")


def message_times_in(conn: Connection, user_id: str, *, since: datetime) -> list[datetime]:
    """When the person wrote (any channel) from `since` on: the chart's data."""
    j = t.journal.c
    return list(
        conn.execute(
            select(j.received_at).where(
                j.user_key.in_(_identity_keys_of(user_id)), j.received_at >= since
            )
        ).scalars()
    )


def recent_words_in(conn: Connection, user_id: str, *, limit: int = 20) -> str:
    """The person's last `limit` messages (any channel), joined: what language they write in."""
    j = t.journal.c
    texts = conn.execute(
        select(j.text)
        .where(j.user_key.in_(_identity_keys_of(user_id)))
        .order_by(j.received_at.desc())
        .limit(limit)
    ).scalars()
    return "\n".join(texts)


# --------------------------------------------------------------------------- the operator's page


def failed_jobs_in(conn: Connection, *, limit: int = 50) -> list[OutboxItem]:
    """Jobs that failed for good, newest first."""
    rows = conn.execute(
        select(outbox).where(outbox.c.status == "failed").order_by(outbox.c.id.desc()).limit(limit)
    ).mappings()
    return [outbox_item(row) for row in rows]


def retry_in(conn: Connection, job_id: int, *, now: datetime) -> bool:
    """Put a failed job back to be sent now; False when it is not (or no longer) failed."""
    where = and_(outbox.c.id == job_id, outbox.c.status == "failed")
    values = {"status": "pending", "due_at": now, "claimed_by": None, "claim_expires_at": None}
    return bool(conn.execute(update(outbox).where(where).values(**values)).rowcount)


@dataclass(frozen=True, slots=True)
class Waiting:
    """A message on the waiting list, without its words: where, since when, how it stands."""

    channel: str
    received_at: datetime | None
    attempts: int
    retry_at: datetime
    held: bool
    claimed_by: str | None


def waiting_in(conn: Connection, *, limit: int = 50) -> tuple[int, list[Waiting]]:
    """How many messages wait for a turn, and the oldest `limit` of them."""
    p = pending.c
    total = conn.execute(select(func.count()).select_from(pending)).scalar() or 0
    rows = conn.execute(
        select(p.channel, p.received_at, p.attempts, p.retry_at, p.held_at, p.claimed_by)
        .order_by(p.id)
        .limit(limit)
    )
    listed = [
        Waiting(
            r.channel, r.received_at, r.attempts, r.retry_at, r.held_at is not None, r.claimed_by
        )
        for r in rows
    ]
    return int(total), listed
