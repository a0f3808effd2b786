"""How many turns a person, and a channel, may cost: token buckets kept in the store.

A turn is a model call, so it is what a flood costs: money, and the time
everyone else waits. Each person has a bucket of `Bucket.burst` turns that
refills at `Bucket.per_minute`; each channel has one more, larger, that keeps
the whole model budget bounded whatever the number of people (a stolen bot
token's spam comes from many ids). The buckets live in the store
(`rate_buckets`), so every worker on one PostgreSQL draws from the same ones.

A message over the limit is never dropped: it is journaled and on the waiting
list like any other. Its turn (`admit`) then

- folds it, when a newer message of the same person in the same thread is
  waiting: it goes into the thread's history unanswered, and the newer
  message's answer sees it (`Admission.FOLD`);
- else holds it until the person's bucket has a turn again (`Admission.HOLD`).
  When its turn comes back and newer messages of the person wait behind it
  by then, it is folded too, without taking a turn; the newest is answered,
  with all the others in the history. So a flood costs the burst plus one
  turn per refill, however long it is.

The person hears it at most once per `TurnLimits.notice_every`: a short notice
goes out with the first message held. Clocks are the caller's (aware UTC).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import Connection

from clockcore import MessageRef
from wrapper.store import queries as q
from wrapper.store.tables import pending_turns as pending
from wrapper.store.tables import rate_buckets as buckets
from wrapper.turns.pending import WaitingTurn, hold_back

__all__ = ["Admission", "Bucket", "LimitDecision", "TurnLimits", "admit", "newer_waiting", "take"]


@dataclass(frozen=True, slots=True)
class Bucket:
    """`burst` turns at once, refilled at `per_minute`; either at 0 means no limit."""

    per_minute: float
    burst: int

    @property
    def limited(self) -> bool:
        return self.per_minute > 0 and self.burst > 0


@dataclass(frozen=True, slots=True)
class TurnLimits:
    """A person's bucket, a channel's bucket, and how often a held person hears of it."""

    person: Bucket
    channel: Bucket
    notice_every: timedelta = timedelta(minutes=10)


class Admission(enum.Enum):
    """What a turn may do (`admit`)."""

    RUN = "run"
    """Ask the model; a turn was taken from each bucket."""
    FOLD = "fold"
    """Over the limit, and a newer message of the person waits: into the history, unanswered."""
    HOLD = "hold"
    """Over the limit, and nothing newer waits: back on the list until a turn is there."""
    LOST = "lost"
    """Another worker took the message meanwhile: leave it to them."""


@dataclass(frozen=True, slots=True)
class LimitDecision:
    admission: Admission
    retry_at: datetime | None = None
    """HOLD: when the person's bucket has a turn again."""
    notify: bool = False
    """HOLD or FOLD: the first held message in `notice_every`; tell the person."""


def take(conn: Connection, key: str, bucket: Bucket, now: datetime) -> datetime | None:
    """Take one turn from bucket `key`: None when taken, else when the next one is there.

    In the caller's transaction, under the bucket row's lock (PostgreSQL's
    ``FOR UPDATE``, SQLite's single writer), so workers never both take the last one.
    """
    row = _locked(conn, key, bucket, now)
    tokens = _refilled(row.tokens, row.updated_at, bucket, now)
    stamp = max(row.updated_at, now)
    if tokens >= 1:
        conn.execute(
            update(buckets).where(buckets.c.key == key).values(tokens=tokens - 1, updated_at=stamp)
        )
        return None
    conn.execute(
        update(buckets).where(buckets.c.key == key).values(tokens=tokens, updated_at=stamp)
    )
    rate = bucket.per_minute / 60
    return now + timedelta(seconds=(1 - tokens) / rate)


def _give_back(conn: Connection, key: str, bucket: Bucket, now: datetime) -> None:
    row = _locked(conn, key, bucket, now)
    tokens = min(float(bucket.burst), row.tokens + 1)
    conn.execute(update(buckets).where(buckets.c.key == key).values(tokens=tokens))


def _locked(conn: Connection, key: str, bucket: Bucket, now: datetime) -> Any:
    """The bucket's row (tokens, updated_at, noticed_at), made full if new, locked."""
    conn.execute(
        q.insert_for(conn, buckets)
        .values(key=key, tokens=float(bucket.burst), updated_at=now)
        .on_conflict_do_nothing(index_elements=["key"])
    )
    return conn.execute(select(buckets).where(buckets.c.key == key).with_for_update()).one()


def _refilled(tokens: float, since: datetime, bucket: Bucket, now: datetime) -> float:
    elapsed = max((now - since).total_seconds(), 0.0)
    return min(float(bucket.burst), tokens + elapsed * bucket.per_minute / 60)


def newer_waiting(conn: Connection, ref: MessageRef) -> bool:
    """Whether a newer message of `ref`'s writer in `ref`'s thread is on the waiting list."""
    own = (
        select(pending.c.id)
        .where(pending.c.channel == ref.channel, pending.c.message_id == ref.message_id)
        .scalar_subquery()
    )
    found = conn.execute(
        select(pending.c.id)
        .where(
            pending.c.channel == ref.channel,
            pending.c.thread_id == ref.thread_id,
            pending.c.user_id == ref.user_id,
            or_(
                pending.c.received_at > ref.received_at,
                and_(pending.c.received_at == ref.received_at, pending.c.id > own),
            ),
        )
        .limit(1)
    ).first()
    return found is not None


def admit(
    conn: Connection, turn: WaitingTurn, *, person_id: str, limits: TurnLimits, now: datetime
) -> LimitDecision:
    """May `turn` (a message of person `person_id`) ask the model? See the module.

    In the caller's transaction. A HOLD gives the claim back here (until the
    bucket has a turn, no attempt counted); a RUN has taken its turns.
    """
    if turn.held and newer_waiting(conn, turn.ref):
        return LimitDecision(Admission.FOLD)  # its notice went out when it was held
    person_key, channel_key = f"person:{person_id}", f"channel:{turn.ref.channel}"
    retry_at = take(conn, person_key, limits.person, now) if limits.person.limited else None
    if retry_at is None and limits.channel.limited:
        retry_at = take(conn, channel_key, limits.channel, now)
        if retry_at is not None and limits.person.limited:
            _give_back(conn, person_key, limits.person, now)
    if retry_at is None:
        return LimitDecision(Admission.RUN)
    notify = _notice_due(conn, person_key, limits, now)
    if newer_waiting(conn, turn.ref):
        return LimitDecision(Admission.FOLD, notify=notify)
    if not hold_back(conn, turn, retry_at=retry_at, at=now):
        return LimitDecision(Admission.LOST)
    return LimitDecision(Admission.HOLD, retry_at=retry_at, notify=notify)


def _notice_due(conn: Connection, key: str, limits: TurnLimits, now: datetime) -> bool:
    """True once per `notice_every` per person (and stamps it)."""
    bucket = limits.person if limits.person.limited else limits.channel
    row = _locked(conn, key, bucket, now)
    if row.noticed_at is not None and now - row.noticed_at < limits.notice_every:
        return False
    conn.execute(update(buckets).where(buckets.c.key == key).values(noticed_at=now))
    return True
