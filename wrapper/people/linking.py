"""Linking two identities into one person, both ways (docs/clock-spec.md §7.0; docs/SECURITY.md).

1. **Issue.** ``clock: link`` in a *private* thread gives a code: 12 characters
   from 32 (60 bits), shown as ``ABCD-EFGH-JKLM``, valid `LINK_CODE_TTL`. Only its
   SHA-256 is stored, with the issuing identity and thread; a new code replaces the
   identity's old one. In a group anyone could read it, so none is given there.
2. **Redeem.** ``clock: link ABCD-EFGH-JKLM`` from the other identity. Each try
   takes one of `LINK_ATTEMPTS` (five, then one every twelve minutes, per
   identity), so a code cannot be guessed in its lifetime. A right code links
   nothing yet: the issuer is asked, in the thread the code came from, whether
   this identity may join them.
3. **Answer.** ``clock: link yes`` (or ``no``) from the issuing identity, within
   the code's lifetime. Yes merges the redeemer's person into the issuer's
   (`queries.merge_people`); both are told, each in their own thread.

So a code that leaks (shown in a group, read over a shoulder) links nobody the
issuer did not agree to, and the issuer always knows who asked.

Everything here runs in the chain's transaction (`wrapper.inbound.chain`): notices for
the person writing, outbox rows for the other side.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from wrapper import messages
from wrapper.keys import split_thread_key, split_user_key
from wrapper.outbound.outbox import item_values
from wrapper.store import queries as q
from wrapper.store import tables as t
from wrapper.turns.limits import Bucket, take

__all__ = [
    "LINK_ASK_KEY",
    "LINK_ATTEMPTS",
    "LINK_CODE_TTL",
    "Linked",
    "answer_in",
    "code_hash",
    "issue_in",
    "new_code",
    "redeem_in",
]

LINK_CODE_TTL = timedelta(minutes=10)
"""How long a code may be redeemed and its redemption answered."""
LINK_ATTEMPTS = Bucket(per_minute=5 / 60, burst=5)
"""Tries at redeeming a code, per identity: five, then one every twelve minutes."""
LINK_ASK_KEY = "link-ask:"
"""How the outbox key of a question to an issuer begins: adapters draw yes/no buttons under it."""
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
_CODE_LENGTH = 12


@dataclass(slots=True)
class Linked:
    """What a link step says: notices for the writer, outbox rows for the other side.

    `merged` is set when two people became one: (the person kept, the person absorbed).
    """

    notices: list[str] = field(default_factory=list)
    outbox: list[dict[str, Any]] = field(default_factory=list)
    merged: tuple[str, str] | None = None


def new_code() -> str:
    """A fresh code, ``ABCD-EFGH-JKLM``."""
    raw = "".join(secrets.choice(_ALPHABET) for _ in range(_CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, _CODE_LENGTH, 4))


def code_hash(code: str) -> str:
    """What is stored of a code: the SHA-256 of its letters, upper case, without dashes."""
    plain = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(plain.encode()).hexdigest()


def issue_in(
    conn: Connection, *, user_key: str, thread_key: str, private: bool, now: datetime
) -> Linked:
    """``clock: link``: a new code for `user_key`, only in a private thread."""
    if not private:
        return Linked([messages.LINK_CODE_PRIVATE_ONLY])
    code = new_code()
    conn.execute(delete(t.link_codes).where(t.link_codes.c.expires_at <= now))
    conn.execute(delete(t.link_codes).where(t.link_codes.c.user_key == user_key))
    conn.execute(
        t.link_codes.insert().values(
            code_hash=code_hash(code),
            user_key=user_key,
            thread_key=thread_key,
            expires_at=now + LINK_CODE_TTL,
        )
    )
    return Linked([messages.LINK_CODE_ISSUED.format(code=code)])


def redeem_in(
    conn: Connection, *, code: str, user_key: str, person_id: str, thread_key: str, now: datetime
) -> Linked:
    """``clock: link CODE`` from `user_key`: the issuer is asked; nothing is linked yet."""
    if take(conn, f"link:{user_key}", LINK_ATTEMPTS, now) is not None:
        return Linked([messages.LINK_TOO_MANY_TRIES])
    # A code is redeemed once: a second redeemer must not take the place of the one the
    # issuer was asked about.
    row = (
        conn.execute(
            select(t.link_codes).where(
                t.link_codes.c.code_hash == code_hash(code),
                t.link_codes.c.expires_at > now,
                t.link_codes.c.redeemer.is_(None),
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        return Linked([messages.LINK_CODE_UNKNOWN])
    issuer = str(row["user_key"])
    if issuer == user_key:
        return Linked([messages.LINK_CODE_SAME_IDENTITY])
    theirs = q.load_person(conn, issuer)
    if theirs is None or theirs.user_id == person_id:
        return Linked([messages.ALREADY_LINKED])
    conn.execute(
        update(t.link_codes)
        .where(t.link_codes.c.code_hash == row["code_hash"])
        .values(redeemer=user_key, redeemer_thread=thread_key)
    )
    ask = messages.LINK_ASK_ISSUER.format(other=user_key)
    return Linked(
        [messages.LINK_ASKED.format(other=issuer)],
        [_to(issuer, str(row["thread_key"]), ask, now, LINK_ASK_KEY + str(row["code_hash"]))],
    )


def answer_in(conn: Connection, *, user_key: str, yes: bool, now: datetime) -> Linked:
    """``clock: link yes|no`` from the issuer: link the redeemer, or tell them no."""
    row = (
        conn.execute(
            select(t.link_codes).where(
                t.link_codes.c.user_key == user_key,
                t.link_codes.c.redeemer.is_not(None),
                t.link_codes.c.expires_at > now,
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        return Linked([messages.LINK_NOTHING_TO_ANSWER])
    conn.execute(delete(t.link_codes).where(t.link_codes.c.code_hash == row["code_hash"]))
    redeemer, where = str(row["redeemer"]), str(row["redeemer_thread"])
    key = f"link-answer:{row['code_hash']}"
    if not yes:
        told = _to(redeemer, where, messages.LINK_DECLINED.format(other=user_key), now, key)
        return Linked([messages.LINK_YOU_DECLINED.format(other=redeemer)], [told])
    mine, theirs = q.load_person(conn, user_key), q.load_person(conn, redeemer)
    if mine is None or theirs is None or mine.user_id == theirs.user_id:
        return Linked([messages.ALREADY_LINKED])
    q.merge_people(conn, keep=mine.user_id, absorb=theirs.user_id)
    told = _to(redeemer, where, messages.LINKED.format(other=user_key), now, key)
    return Linked([messages.LINKED.format(other=redeemer)], [told], (mine.user_id, theirs.user_id))


def _to(user_key: str, thread_key: str, text: str, now: datetime, key: str) -> dict[str, Any]:
    """An outbox row that tells `user_key`, in `thread_key`, what happened."""
    _, channel, thread_id = split_thread_key(thread_key)
    return item_values(
        kind="reply",
        channel=channel,
        thread_id=thread_id,
        thread_key=thread_key,
        user_key=user_key,
        user_id=split_user_key(user_key)[1],
        text=text,
        due_at=now,
        memory_id=None,
        now=now,
        key=key,
    )
