"""The hot path on PostgreSQL: a known person's message in two round trips.

Through SQLAlchemy, a plain message in a known thread costs about 12 round
trips (seven statements, BEGIN, COMMIT, the pool's checkout) and ~2.4 ms of
client CPU, which caps one worker near 350 messages/s on two cores. Most
messages need nothing more than: read the person and the thread, stamp them,
journal the text (and, in the gateway, save the route and claim the message
for its turn). This module does that as

1. `READ`: one statement for the person, the thread, the participant's last
   message and whether the message id is already journaled;
2. `WRITE`: one statement (so one implicit transaction) whose data-modifying
   CTEs journal the message and, only if that insert happened, make every
   other write. A redelivery that won a race between the two makes the
   journal insert a no-op, and with it everything else. PostgreSQL runs
   data-modifying CTEs in no promised order, so each one reads the one
   before it (``(SELECT count(*) FROM prev) >= 0``, always true): rows are
   locked in the general chain's order (journal, thread, participant,
   identity, person, route, waiting list), and the two paths cannot deadlock.

It runs on asyncpg directly (`Database.pg_pool`), skipping SQLAlchemy's
greenlet bridge. `receive` (below) decides which messages qualify and computes
every value in Python with the same helpers as the general chain
(`wrapper.turns.turn` and `wrapper.inbound.values`); anything
else (a new person or thread, a directive other than "clock it", a place to
remember, a platform zone that changed, a duplicate) runs the general chain
before anything is written. Open actions and upcoming items, when the person
has any, are one more read each (`OPEN_ACTIONS`, `UPCOMING`). A message that
clocks an action reads the person's actions and calibration instead
(`ACTIONS`); WRITE then records the action, raises `actions_until` and deletes
what compaction would (`queries.compacted` works it out from that read).

The statements name the tables and columns of `wrapper.store.tables`; the tests in
`tests/wrapper/test_hot_path.py` hold them to the general chain row for row.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from clockcore.actions import OPEN_STATUSES, classify_activity
from clockcore.directives import Directives
from clockcore.envelope import ContextEnvelope
from wrapper.inbound import values
from wrapper.inbound.values import Intake
from wrapper.outbound.routes import clean_route
from wrapper.store import queries
from wrapper.store.db import Database
from wrapper.store.queries import UPCOMING_LIMIT
from wrapper.store.rows import PersonRow, ThreadView
from wrapper.turns.envelope_json import envelope_to_json
from wrapper.turns.turn import (
    INLINE_READ_CHARS,
    OPEN_STATUS_LIST,
    UPCOMING_HORIZON,
    Turn,
    action_to_clock,
    may_have_open_actions,
    moves_session,
    read_text,
    read_text_aside,
    read_zone,
    start_session,
    upcoming_item,
)

__all__ = ["ACTIONS", "OPEN_ACTIONS", "READ", "UPCOMING", "WRITE", "overlapped", "receive"]

T = TypeVar("T")
U = TypeVar("U")

READ = """
SELECT i.user_id, u.default_tz, u.platform_tz, u.policy_overrides, u.known_locations,
       u.last_interaction_any_channel_at, u.last_interaction_any_channel,
       u.actions_until, u.has_due_items, u.contact_window, i.display_name,
       t.thread_key, t.thread_kind, t.session_tz, t.session_started_at,
       t.last_interaction_at, t.delta_hours,
       p.last_user_message_at AS spoke_before,
       ($4::text IS NOT NULL AND EXISTS (
           SELECT 1 FROM inbound_journal j WHERE j.channel = $3 AND j.message_id = $4
       )) AS seen
FROM identities i
JOIN users u ON u.id = i.user_id
LEFT JOIN threads t ON t.thread_key = $2
LEFT JOIN thread_participants p ON p.thread_key = $2 AND p.user_key = $1
WHERE i.user_key = $1
"""
"""$1 user_key, $2 thread_key, $3 channel, $4 message_id."""

OPEN_ACTIONS = """
SELECT * FROM actions
WHERE user_id = $1 AND status = ANY($2::text[]) AND expires_at > $3
ORDER BY recorded_at DESC
"""
"""$1 person, $2 open statuses, $3 now: as `queries.open_actions`."""

ACTIONS = """
SELECT c.calibration, a.* FROM (
    SELECT coalesce(json_agg(json_build_array(activity, typical_minutes, max_minutes)), '[]')
           AS calibration
    FROM calibration WHERE user_id = $1 AND $2::boolean
) c LEFT JOIN actions a ON a.user_id = $1
ORDER BY a.recorded_at DESC, a.id DESC
"""
"""$1 person, $2 whether to read their calibration: one row per stored action (at least one
row; action columns NULL when there is none), each with the calibration as a JSON list of
[activity, typical_minutes, max_minutes]."""

UPCOMING = """
SELECT * FROM (
    SELECT m.id AS memory_id, NULL::integer AS job_id, NULL::bigint AS schedule_id,
           m.content, m.due_at, m.reminded_at
    FROM memory_items m
    WHERE m.user_id = $1 AND m.due_at IS NOT NULL AND m.due_at <= $3
      AND (m.reminded_at IS NULL OR (m.reminded_at < m.due_at AND m.due_at <= $2))
      AND NOT EXISTS (
          SELECT 1 FROM outbox o
          WHERE o.memory_id = m.id AND o.kind IN ('reminder', 'proactive')
      )
    UNION ALL
    SELECT NULL, o.id, o.schedule_id, o.text, o.due_at, NULL
    FROM outbox o
    WHERE o.status IN ('pending', 'deferred') AND o.due_at <= $3
      AND o.kind IN ('reminder', 'proactive')
      AND o.user_key IN (SELECT user_key FROM identities WHERE user_id = $1)
) due
ORDER BY due_at, memory_id, job_id
LIMIT $4
"""
"""$1 person, $2 now, $3 horizon, $4 limit: as `queries.upcoming`."""

WRITE = """
WITH j AS (
    INSERT INTO inbound_journal (channel, message_id, thread_key, user_key, received_at, text)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (channel, message_id) DO NOTHING
    RETURNING id
), t AS (
    UPDATE threads SET
        last_interaction_at = GREATEST(last_interaction_at, $5),
        last_user_message_at = GREATEST(last_user_message_at, $5),
        session_started_at = CASE
            WHEN last_interaction_at IS NULL OR last_interaction_at < $5 THEN $7
            ELSE session_started_at END,
        agent_tz = $8,
        delta_hours = $9
    WHERE thread_key = $3 AND $10::boolean AND EXISTS (SELECT 1 FROM j)
    RETURNING 1
), p AS (
    INSERT INTO thread_participants (thread_key, user_key, last_user_message_at)
    SELECT $3, $4, $5
    WHERE $10::boolean AND EXISTS (SELECT 1 FROM j) AND (SELECT count(*) FROM t) >= 0
    ON CONFLICT (thread_key, user_key) DO UPDATE SET last_user_message_at =
        GREATEST(thread_participants.last_user_message_at, EXCLUDED.last_user_message_at)
    RETURNING 1
), i AS (
    UPDATE identities SET last_user_message_at = GREATEST(last_user_message_at, $5)
    WHERE user_key = $4
      AND $10::boolean AND EXISTS (SELECT 1 FROM j) AND (SELECT count(*) FROM p) >= 0
    RETURNING 1
), u AS (
    UPDATE users SET
        last_interaction_any_channel = CASE
            WHEN $10::boolean AND $12::boolean AND (last_interaction_any_channel_at IS NULL
                 OR last_interaction_any_channel_at < $5)
            THEN $1 ELSE last_interaction_any_channel END,
        last_interaction_any_channel_at = CASE
            WHEN $10::boolean AND $12::boolean
            THEN GREATEST(last_interaction_any_channel_at, $5)
            ELSE last_interaction_any_channel_at END,
        actions_until = GREATEST(actions_until, $25)
    WHERE id = $11 AND (($10::boolean AND $12::boolean) OR $19::text IS NOT NULL)
      AND EXISTS (SELECT 1 FROM j) AND (SELECT count(*) FROM i) >= 0
    RETURNING 1
), a AS (
    INSERT INTO actions (
        id, user_id, thread_key, label, type, status, activity, source, quote,
        recorded_at, expires_at, expected_typical_minutes, expected_max_minutes
    )
    SELECT $19, $11, $3, $20, 'temporal_action', $21, $22, $23, $24, $5, $25, $26, $27
    WHERE $19::text IS NOT NULL AND EXISTS (SELECT 1 FROM j) AND (SELECT count(*) FROM u) >= 0
    RETURNING 1
), d AS (
    DELETE FROM actions
    WHERE user_id = $11 AND (expires_at <= $5 OR id = ANY($28::text[]))
      AND $19::text IS NOT NULL AND EXISTS (SELECT 1 FROM j) AND (SELECT count(*) FROM a) >= 0
    RETURNING 1
), r AS (
    INSERT INTO routes (thread_key, channel, route, updated_at)
    SELECT $3, $1, $13::json, $5 WHERE $13::json IS NOT NULL AND EXISTS (SELECT 1 FROM j)
      AND (SELECT count(*) FROM d) >= 0
    ON CONFLICT (thread_key) DO UPDATE SET route = EXCLUDED.route, updated_at = EXCLUDED.updated_at
    WHERE routes.updated_at <= EXCLUDED.updated_at
    RETURNING 1
), h AS (
    INSERT INTO pending_turns (
        channel, message_id, thread_id, user_id, text, received_at, retry_at,
        attempts, claimed_by, claim_expires_at, claims, envelope
    )
    SELECT $1, $2, $17, $18, $6, $5, $5, 0, $14::text, $15, 1, $16::json
    WHERE $14::text IS NOT NULL AND EXISTS (SELECT 1 FROM j) AND (SELECT count(*) FROM r) >= 0
    ON CONFLICT (channel, message_id) DO NOTHING
    RETURNING 1
)
SELECT EXISTS (SELECT 1 FROM j) AND (SELECT count(*) FROM h) >= 0
"""
"""One message's writes; returns whether the message was journaled (else nothing changed).

$1 channel, $2 message_id, $3 thread_key, $4 user_key, $5 received_at, $6 text,
$7 session_started_at, $8 agent_tz, $9 delta_hours, $10 stamp (the policy
keeps last-message stamps), $11 person, $12 cross-channel tracking, $13 route
(JSON or NULL), $14 the worker claiming the message (or NULL), $15 its lease,
$16 the envelope (JSON), $17 thread_id, $18 user_id; an action clocked by the message (all
NULL when none): $19 its id, $20 label, $21 status, $22 activity, $23 source, $24 quote,
$25 expires_at, $26 expected_typical_minutes, $27 expected_max_minutes, $28 the ids that
compaction deletes besides the expired (`queries.compacted`). The action is recorded at
$5 and its expiry raises the person's `actions_until`, as `queries.record_action` does.
"""


# --------------------------------------------------------------------------- the path


async def receive(database: Database, intake: Intake, turn: Turn) -> ContextEnvelope | None:
    """The common message in two round trips; None: the general chain runs it instead.

    The values are the chain's, from the same helpers. None comes before
    anything is written, or when a redelivery won the race to the journal.
    """
    pool = await database.pg_pool()
    if pool is None:
        return None
    notices = list(turn.notices)
    try:
        envelope = await _round_trips(intake, pool, turn)
    except database.pg_lost:
        # A connection the server closed. If the write got through, the
        # chain finds the message journaled and says it is a duplicate: a
        # claimed message is then answered from the waiting list.
        envelope = None
    if envelope is None:
        turn.notices[:] = notices
    return envelope


async def _round_trips(intake: Intake, pool: Any, turn: Turn) -> ContextEnvelope | None:
    """READ and WRITE, each overlapped with the Python work that does not need its answer.

    The text is read while READ is out (READ takes only the message's keys),
    and a message not claimed for a turn has its envelope built while WRITE is
    out. Once READ was sent, the text is read whatever READ's fate.
    """
    async with pool.acquire() as conn:
        read = conn.fetchrow(READ, turn.user_key, turn.thread_key, turn.channel, turn.message_id)
        if len(turn.text) > INLINE_READ_CHARS:
            row, _ = await asyncio.gather(read, read_text_aside(turn))
        else:
            row, _ = await overlapped(read, lambda: read_text(turn))
        if not _hot_directives(turn.directives):
            return None
        if row is None or row["thread_key"] is None or row["seen"]:
            return None
        person, thread = PersonRow.from_row(row), ThreadView.from_row(row)
        values.adopt_rows(intake, turn, person, thread, row["spoke_before"])
        if (
            turn.platform_zone not in (None, turn.person.platform_tz)
            or turn.ref.sender_name not in (None, turn.person.display_name)
            or read_zone(turn) is not None
            or moves_session(turn)
        ):
            return None
        started = start_session(turn)
        now = turn.received_at
        # As the chain: an unproven sender clocks nothing (`MessageChain._track_actions`).
        clocked = action_to_clock(turn) if turn.ref.proven else None
        action: dict[str, Any] | None = None
        dropped: list[str] = []
        opened: list[Mapping[str, Any]] = []
        if clocked is not None:
            action, opened, dropped = await _clock(conn, turn, *clocked)
        elif may_have_open_actions(turn):
            opened = await conn.fetch(OPEN_ACTIONS, turn.person.user_id, OPEN_STATUS_LIST, now)
        values.decide(turn, opened)
        if turn.private and turn.person.has_due_items:
            rows = await conn.fetch(
                UPCOMING, turn.person.user_id, now, now + UPCOMING_HORIZON, UPCOMING_LIMIT
            )
            turn.upcoming = [upcoming_item(row, now) for row in rows]
        claimed = turn.claim_for is not None and turn.lease_until is not None
        made = values.envelope(intake, turn) if claimed else None  # a claimed message stores it
        write = conn.fetchval(
            WRITE,
            turn.channel,
            turn.message_id,
            turn.thread_key,
            turn.user_key,
            now,
            turn.text,
            started or now,
            intake.agent_tz,
            values.stamp_delta(intake, turn),
            turn.policy.store.last_message_timestamps,
            turn.person.user_id,
            turn.policy.cross_channel_tracking,
            clean_route(turn.ref.route) if turn.ref.route else None,
            turn.claim_for if claimed else None,
            turn.lease_until,
            envelope_to_json(made) if made is not None else None,
            turn.thread_id,
            turn.user_id,
            *_action_arguments(action),
            dropped,
        )
        journaled, envelope = await overlapped(write, lambda: made or values.envelope(intake, turn))
    return envelope if journaled else None


async def _clock(
    conn: Any, turn: Turn, phrase: str, source: str
) -> tuple[dict[str, Any], list[Mapping[str, Any]], list[str]]:
    """`_track_actions` and the open actions after it, from one read (`ACTIONS`).

    Returns the new action's row, the open actions as `queries.open_actions`
    would read them after it is stored, and the ids compaction deletes.
    """
    known = classify_activity(phrase) is not None
    rows = await conn.fetch(ACTIONS, turn.person.user_id, known)
    calibration = {activity: (typical, most) for activity, typical, most in rows[0][0]}
    stored = [dict(row) for row in rows if row["id"] is not None]
    for row in stored:
        del row["calibration"]
    settings = turn.policy.store.latest_actions
    action = queries.action_row(
        person_id=turn.person.user_id,
        thread_key=turn.thread_key,
        draft=values.draft(turn, phrase, source, calibration),
        at=turn.received_at,
    )
    kept, dropped = queries.compacted(
        stored, action, now=turn.received_at, max_items=settings.max_items
    )
    values.extend_actions(turn, action["expires_at"])
    opened = [row for row in kept if row["status"] in OPEN_STATUSES]
    return action, opened, dropped


async def overlapped(query: Awaitable[T], work: Callable[[], U]) -> tuple[T, U]:
    """`query`'s answer and `work()`'s result, `work` done while the server answers.

    One step of the query's task puts it on the socket; `work` then runs in
    time the worker would otherwise spend waiting, and the answer is taken
    after it. With one message in hand a worker alternates between its own CPU
    and the server's; this lets the two overlap (bench/cluster_bench.py).
    The query is always settled before this returns or raises, so the
    connection goes back to the pool with nothing in flight: awaited when
    `work` raises, cancelled (as an awaited query would be) when the caller is.
    """
    answer = asyncio.ensure_future(query)
    try:
        await asyncio.sleep(0)
        done = work()
    except BaseException as exc:
        if isinstance(exc, asyncio.CancelledError):
            answer.cancel()
        with contextlib.suppress(BaseException):
            await answer
        raise
    return await answer, done


def _hot_directives(directives: Directives) -> bool:
    """Whether the hot path can take a message with these directives: none, or "clock it"."""
    return directives == Directives(clock_it=directives.clock_it)


def _action_arguments(action: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """WRITE's $19-$27: the clocked action's columns, or NULLs."""
    columns = (
        "id",
        "label",
        "status",
        "activity",
        "source",
        "quote",
        "expires_at",
        "expected_typical_minutes",
        "expected_max_minutes",
    )
    return tuple(action[c] for c in columns) if action else (None,) * len(columns)
