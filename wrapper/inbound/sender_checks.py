"""Privileged requests from a sender the channel could not prove, held until the address confirms.

Anyone can write any ``From:`` line. When a mail's sender is not proven
(`channels.email.proof`), a request that links, unlinks, erases, exports or
opens the web pages is not carried out. Instead the reply (which goes to the
address, so to its real owner) carries a one-time token; the request waits
here under the token's SHA-256 for `CHECK_LIFETIME`. Only a private thread
holds one, and only a later message from the same identity *in that thread*
that carries the token confirms it (a group thread's answers reach everyone in
it, so a token mailed there would reach a stranger in ``Cc``), and the request runs again
as proven (`bot.turns.sender_check`). Whoever forged the first mail never sees the
token (docs/SECURITY.md).

`NewSenderCheck` is a turn's effect, committed with the reply that carries the
token, so no token is stored that was not sent; `TakeSenderCheck` is the
confirming turn's, committed with its answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from wrapper.store.tables import sender_checks

__all__ = [
    "CHECK_LIFETIME",
    "NewSenderCheck",
    "TakeSenderCheck",
    "check_in",
    "pending_check_in",
    "sender_checks",
    "take_check_in",
]

CHECK_LIFETIME = timedelta(hours=1)
"""How long a held request waits for its confirmation (mail can be slow)."""
_PER_IDENTITY = 5  # held requests an identity may have at once; the oldest go first


@dataclass(frozen=True, slots=True)
class NewSenderCheck:
    """A turn's effect: hold `request` from `user_key`, asked in the private thread
    `thread_key`, under a token's hash."""

    user_key: str
    token_hash: str
    request: str
    expires_at: datetime
    thread_key: str


@dataclass(frozen=True, slots=True)
class TakeSenderCheck:
    """A turn's effect: the held request under `token_hash` is confirmed and done."""

    user_key: str
    token_hash: str


def check_in(conn: Connection, check: NewSenderCheck, *, now: datetime) -> None:
    """Store a held request (the `NewSenderCheck` effect), dropping expired and surplus ones."""
    conn.execute(delete(sender_checks).where(sender_checks.c.expires_at <= now))
    older = (
        select(sender_checks.c.token_hash)
        .where(sender_checks.c.user_key == check.user_key)
        .order_by(sender_checks.c.created_at.desc())
        .offset(_PER_IDENTITY - 1)
    )
    surplus = list(conn.execute(older).scalars())
    if surplus:
        conn.execute(delete(sender_checks).where(sender_checks.c.token_hash.in_(surplus)))
    conn.execute(
        insert(sender_checks).values(
            token_hash=check.token_hash,
            user_key=check.user_key,
            request=check.request,
            thread_key=check.thread_key,
            created_at=now,
            expires_at=check.expires_at,
        )
    )


def pending_check_in(
    conn: Connection, *, user_key: str, thread_key: str, token_hashes: list[str], now: datetime
) -> tuple[str, str] | None:
    """The first of `token_hashes` held for `user_key` in `thread_key` and not expired:
    (hash, request), or None.

    Another identity's token confirms nothing, and neither does the token in another thread:
    a held request belongs to the address it was mailed to, in the private thread it was
    asked in.
    """
    if not token_hashes:
        return None
    query = select(sender_checks.c.token_hash, sender_checks.c.request).where(
        sender_checks.c.user_key == user_key,
        sender_checks.c.thread_key == thread_key,
        sender_checks.c.token_hash.in_(token_hashes),
        sender_checks.c.expires_at > now,
    )
    row = conn.execute(query).first()
    return (str(row.token_hash), str(row.request)) if row is not None else None


def take_check_in(conn: Connection, take: TakeSenderCheck) -> None:
    """Remove a confirmed request (the `TakeSenderCheck` effect)."""
    conn.execute(
        delete(sender_checks).where(
            sender_checks.c.token_hash == take.token_hash,
            sender_checks.c.user_key == take.user_key,
        )
    )
