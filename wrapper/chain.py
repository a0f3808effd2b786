"""The chain every inbound message runs, in one transaction (docs/clock-spec.md §4.1, §4.5, §5–§7).

`MessageChain._chain` builds the ordered steps; reading it gives the order:
dedupe → identity → stamps → platform zone → directives → zone → actions →
policy, then the envelope. `InteractionWrapper` (`wrapper.core`) is the facade
that inherits it; every write of one message happens in one transaction, so a
message is either fully recorded or not at all, and a redelivered message
changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from clockcore import (
    DEFAULT_POLICY,
    Clock,
    ContactWindow,
    Decision,
    Policy,
    PolicyFacts,
    SessionZone,
    UnknownTimezoneError,
    as_utc,
    delta_hours,
    evaluate,
    mentions_time,
    require_zone,
    resolve_session_zone,
    runtime_time_context,
    zone_mentions,
)
from clockcore.actions import (
    OPEN_STATUSES,
    ActionDraft,
    classify_activity,
    detect_temporal_action,
    draft_action,
)
from clockcore.directives import Directives, parse_directives
from clockcore.envelope import ContextEnvelope, OpenAction, UpcomingItem
from clockcore.message import MessageRef
from clockcore.zonetext import ZoneMention
from wrapper import hot, keys, linking, messages, queries
from wrapper.db import Database
from wrapper.envelope_json import envelope_to_json
from wrapper.errors import (
    MessageTooLargeError,
)
from wrapper.keys import is_private_thread, split_thread_key
from wrapper.outbox import enqueue_in
from wrapper.pending import hold
from wrapper.queries import UPCOMING_LIMIT
from wrapper.routes import clean_route, save_route
from wrapper.rows import MAX_KNOWN_PLACES, MAX_NOTICE_CHARS, PersonRow, ThreadState
from wrapper.schedules import rezone_in

__all__ = [
    "MAX_TEXT",
    "SESSION_IDLE",
    "MessageChain",
    "Step",
    "Turn",
    "upcoming_item",
]

T = TypeVar("T")
U = TypeVar("U")

SESSION_IDLE = timedelta(hours=1)
"""A thread quiet this long starts a new session on its next message."""
MAX_TEXT = 100_000
UPCOMING_HORIZON = timedelta(days=7)
"""How far ahead the envelope lists a person's due items."""
_OPEN_STATUSES = sorted(OPEN_STATUSES)


@dataclass(slots=True)
class Turn:
    """The working state of one message as it moves through the chain."""

    ref: MessageRef
    thread_key: str
    user_key: str
    hold_for: str | None = None
    lease_until: datetime | None = None
    platform_zone: str | None = None
    duplicate: bool = False
    mentions: tuple[ZoneMention, ...] = ()
    temporal_phrase: str | None = None
    talks_about_time: bool = False
    person: PersonRow = field(default_factory=lambda: PersonRow(user_id=""))
    thread: ThreadState = field(default_factory=ThreadState)
    spoke_before: datetime | None = None
    session_started_at: datetime | None = None
    directives: Directives = field(default_factory=Directives)
    text_read: bool = False
    """Whether `_read_text` ran: directives, zone mentions, a clocked phrase."""
    zone: SessionZone | None = None
    policy: Policy = DEFAULT_POLICY
    notices: list[str] = field(default_factory=list)
    open_actions: list[OpenAction] = field(default_factory=list)
    upcoming: list[UpcomingItem] = field(default_factory=list)
    decision: Decision | None = None

    @property
    def channel(self) -> str:
        return self.ref.channel

    @property
    def thread_id(self) -> str:
        return self.ref.thread_id

    @property
    def user_id(self) -> str:
        return self.ref.user_id

    @property
    def text(self) -> str:
        return self.ref.text

    @property
    def received_at(self) -> datetime:
        return self.ref.received_at

    @property
    def message_id(self) -> str | None:
        return self.ref.message_id

    @property
    def user_tz(self) -> str | None:
        return self.person.own_zone

    @property
    def thread_kind(self) -> str:
        return self.thread.thread_kind

    @property
    def private(self) -> bool:
        return is_private_thread(self.channel, self.thread_id)


Step = Callable[[Turn, Connection], None]


class MessageChain:
    """The steps of `on_user_message` and `receive`; mixed into `InteractionWrapper`."""

    _db: Database
    _agent_id: str
    _policy: Policy
    _agent_tz: str
    _clock: Clock
    _window: ContactWindow
    _steps: list[Step]
    hot_path: bool = True
    """On PostgreSQL, take the common message through `wrapper.hot` (tests turn it off)."""

    def _chain(self) -> list[Step]:
        """The steps of `on_user_message`, in order.

        dedupe → identity → stamp → directives → zone → actions → policy.
        Directives come before the zone because ``clock: tz …`` changes it.
        """
        return [
            self._dedupe,
            self._identify,
            self._stamp,
            self._adopt_platform_zone,
            self._apply_directives,
            self._resolve_zone,
            self._track_actions,
            self._evaluate_policy,
        ]

    async def on_user_message(
        self,
        *,
        channel: str,
        thread_id: str,
        user_id: str,
        text: str,
        received_at: datetime | None = None,
        message_id: str | None = None,
    ) -> ContextEnvelope:
        """Record an inbound message and return its context envelope.

        Raises:
            ValueError: an empty channel, thread or user id.
            MessageTooLargeError: `text` is over 100,000 characters (nothing is stored).
            NaiveDatetimeError: `received_at` is naive.
        """
        return await self.receive(
            MessageRef(
                channel=channel, thread_id=thread_id, user_id=user_id, message_id=message_id,
                text=text, received_at=as_utc(received_at) if received_at else self._clock.now(),
            )
        )  # fmt: skip

    async def receive(
        self,
        ref: MessageRef,
        *,
        hold_for: str | None = None,
        lease_until: datetime | None = None,
    ) -> ContextEnvelope:
        """`on_user_message` with what the gateway adds, all in the one transaction.

        The route in `ref` is saved for the thread (`wrapper.routes`). On a
        new message, `ref.user_zone` becomes the person's default while they
        have not set one themselves (an unknown zone is ignored), and
        `ref.hint` one of the envelope's notices. With `hold_for`, a worker
        id, the message goes on the waiting list (`wrapper.pending`), claimed
        by that worker until `lease_until` or its death, and leaves it only
        with its turn's commit; that needs a message id.

        Raises:
            ValueError: an empty channel, thread or user id; `hold_for` without
                a message id or a `lease_until`.
            MessageTooLargeError: the text is over 100,000 characters (nothing is stored).
        """
        for name, value in (
            ("channel", ref.channel), ("thread_id", ref.thread_id), ("user_id", ref.user_id)
        ):  # fmt: skip
            if not value or not value.strip():
                raise ValueError(f"{name} must not be empty")
        if len(ref.text) > MAX_TEXT:
            raise MessageTooLargeError(len(ref.text), MAX_TEXT)
        if hold_for is not None and (ref.message_id is None or lease_until is None):
            raise ValueError("holding a message for an answer needs its id and a lease")
        turn = Turn(
            ref=ref,
            thread_key=keys.thread_key(self._agent_id, ref.channel, ref.thread_id),
            user_key=keys.user_key(ref.channel, ref.user_id),
            hold_for=hold_for,
            lease_until=lease_until,
            platform_zone=_known_zone(ref.user_zone),
        )
        if ref.hint:
            turn.notices.append(" ".join(ref.hint.split())[:MAX_NOTICE_CHARS])
        if self.hot_path:
            envelope = await self._receive_hot(turn)
            if envelope is not None:
                return envelope
        if not turn.text_read:  # the hot path reads it while its first statement is out
            await _read_text_aside(turn)
        notices = list(turn.notices)

        def handle(conn: Connection) -> ContextEnvelope:
            turn.notices[:] = notices  # as they were, if a dead connection repeats the work
            return self._handle(turn, conn)

        return await self._db.run(handle, inline=True)

    async def _receive_hot(self, turn: Turn) -> ContextEnvelope | None:
        """The common message in two round trips (`wrapper.hot`); None: run the chain.

        The values are the chain's, from the same helpers. None comes before
        anything is written, or when a redelivery won the race to the journal.
        """
        pool = await self._db.pg_pool()
        if pool is None:
            return None
        notices = list(turn.notices)
        try:
            envelope = await self._hot_round_trips(pool, turn)
        except self._db.pg_lost:
            # A connection the server closed. If the write got through, the
            # chain finds the message journaled and says it is a duplicate: a
            # held message is then answered from the waiting list.
            envelope = None
        if envelope is None:
            turn.notices[:] = notices
        return envelope

    async def _hot_round_trips(self, pool: Any, turn: Turn) -> ContextEnvelope | None:
        """READ and WRITE, each overlapped with the Python work that does not need its answer.

        The text is read while READ is out (READ takes only the message's keys),
        and a message not held for a turn has its envelope built while WRITE is
        out. Once READ was sent, the text is read whatever READ's fate.
        """
        async with pool.acquire() as conn:
            read = conn.fetchrow(
                hot.READ, turn.user_key, turn.thread_key, turn.channel, turn.message_id
            )
            if len(turn.text) > INLINE_READ_CHARS:
                row, _ = await asyncio.gather(read, _read_text_aside(turn))
            else:
                row, _ = await _overlapped(read, lambda: _read_text(turn))
            if not _hot_directives(turn.directives):
                return None
            if row is None or row["thread_key"] is None or row["seen"]:
                return None
            person, thread = PersonRow.from_row(row), ThreadState.from_row(row)
            self._take(turn, person, thread, row["spoke_before"])
            if turn.platform_zone not in (None, turn.person.platform_tz) or (
                _read_zone(turn) is not None
            ):
                return None
            started = _start_session(turn)
            now = turn.received_at
            clocked = _action_to_clock(turn)
            action: dict[str, Any] | None = None
            dropped: list[str] = []
            opened: list[Mapping[str, Any]] = []
            if clocked is not None:
                action, opened, dropped = await self._clock_hot(conn, turn, *clocked)
            elif _may_have_open_actions(turn):
                opened = await conn.fetch(
                    hot.OPEN_ACTIONS, turn.person.user_id, _OPEN_STATUSES, now
                )
            self._decide(turn, opened)
            if turn.private and turn.person.has_due_items:
                rows = await conn.fetch(
                    hot.UPCOMING, turn.person.user_id, now, now + UPCOMING_HORIZON, UPCOMING_LIMIT
                )
                turn.upcoming = [upcoming_item(row, now) for row in rows]
            held = turn.hold_for is not None and turn.lease_until is not None
            made = self._envelope(turn) if held else None  # a held message stores it
            write = conn.fetchval(
                hot.WRITE,
                turn.channel, turn.message_id, turn.thread_key, turn.user_key, now, turn.text,
                started or now, self._agent_tz, self._stamp_delta(turn),
                turn.policy.store.last_message_timestamps,
                turn.person.user_id, turn.policy.cross_channel_tracking,
                clean_route(turn.ref.route) if turn.ref.route else None,
                turn.hold_for if held else None, turn.lease_until,
                envelope_to_json(made) if made is not None else None,
                turn.thread_id, turn.user_id,
                *_action_arguments(action), dropped,
            )  # fmt: skip
            journaled, envelope = await _overlapped(write, lambda: made or self._envelope(turn))
        return envelope if journaled else None

    async def _clock_hot(
        self, conn: Any, turn: Turn, phrase: str, source: str
    ) -> tuple[dict[str, Any], list[Mapping[str, Any]], list[str]]:
        """`_track_actions` and the open actions after it, from one read (`hot.ACTIONS`).

        Returns the new action's row, the open actions as `queries.open_actions`
        would read them after it is stored, and the ids compaction deletes.
        """
        known = classify_activity(phrase) is not None
        rows = await conn.fetch(hot.ACTIONS, turn.person.user_id, known)
        calibration = {activity: (typical, most) for activity, typical, most in rows[0][0]}
        stored = [dict(row) for row in rows if row["id"] is not None]
        for row in stored:
            del row["calibration"]
        settings = turn.policy.store.latest_actions
        action = queries.action_row(
            person_id=turn.person.user_id,
            thread_key=turn.thread_key,
            draft=self._draft(turn, phrase, source, calibration),
            at=turn.received_at,
        )
        kept, dropped = queries.compacted(
            stored, action, now=turn.received_at, max_items=settings.max_items
        )
        self._extend_actions(turn, action["expires_at"])
        opened = [row for row in kept if row["status"] in OPEN_STATUSES]
        return action, opened, dropped

    def _handle(self, turn: Turn, conn: Connection) -> ContextEnvelope:
        for step in self._steps:
            step(turn, conn)
        self._gather(turn, conn)
        envelope = self._envelope(turn)
        if turn.duplicate:
            conn.rollback()
            return envelope
        if turn.ref.route:
            save_route(
                conn, thread_key=turn.thread_key, channel=turn.channel, route=turn.ref.route,
                at=turn.received_at,
            )  # fmt: skip
        if turn.hold_for is not None and turn.lease_until is not None:
            hold(
                conn, turn.ref, worker=turn.hold_for, lease_until=turn.lease_until,
                envelope=envelope,
            )  # fmt: skip
        return envelope

    def _dedupe(self, turn: Turn, conn: Connection) -> None:
        fresh = queries.journal_message(
            conn,
            channel=turn.channel,
            message_id=turn.message_id,
            thread_key=turn.thread_key,
            user_key=turn.user_key,
            received_at=turn.received_at,
            text=turn.text,
        )
        turn.duplicate = not fresh

    def _identify(self, turn: Turn, conn: Connection) -> None:
        if turn.duplicate:
            turn.person = queries.load_person(conn, turn.user_key) or PersonRow(
                user_id=queries.own_user_id(turn.user_key)
            )
        else:
            turn.person = queries.person_for(
                conn,
                user_key=turn.user_key,
                channel=turn.channel,
                channel_user_id=turn.user_id,
                now=turn.received_at,
            )
        thread, spoke_before = queries.load_thread(conn, turn.thread_key, turn.user_key)
        self._take(turn, turn.person, thread, spoke_before)

    def _take(
        self,
        turn: Turn,
        person: PersonRow,
        thread: ThreadState | None,
        spoke_before: datetime | None,
    ) -> None:
        turn.person = person
        turn.thread = thread or ThreadState()
        turn.spoke_before = spoke_before
        turn.policy = _effective_policy(self._policy, person.policy_overrides)

    def _stamp(self, turn: Turn, conn: Connection) -> None:
        """Recorded for every message, whatever the policy says (docs/clock-spec.md §4.1)."""
        started = _start_session(turn)
        if turn.duplicate or not turn.policy.store.last_message_timestamps:
            return
        queries.stamp_thread(
            conn,
            thread_key=turn.thread_key,
            agent_id=self._agent_id,
            channel=turn.channel,
            thread_id=turn.thread_id,
            at=turn.received_at,
            from_user=True,
            session_started_at=started or turn.received_at,
            agent_tz=self._agent_tz,
            delta_hours=self._stamp_delta(turn),
        )
        queries.stamp_participant(
            conn, thread_key=turn.thread_key, user_key=turn.user_key, at=turn.received_at
        )
        queries.stamp_identity(conn, turn.user_key, user_at=turn.received_at, agent_at=None)
        if turn.policy.cross_channel_tracking:
            queries.stamp_person(
                conn, turn.person.user_id, at=turn.received_at, channel=turn.channel
            )

    def _stamp_delta(self, turn: Turn) -> float:
        zone = turn.thread.session_tz or turn.user_tz or "UTC"
        return delta_hours(zone, self._agent_tz, turn.received_at)

    def _adopt_platform_zone(self, turn: Turn, conn: Connection) -> None:
        zone = turn.platform_zone
        if turn.duplicate or zone is None or turn.person.platform_tz == zone:
            return
        queries.update_person(conn, turn.person.user_id, platform_tz=zone)
        old = turn.person.own_zone
        turn.person = dataclasses.replace(turn.person, platform_tz=zone)
        if turn.person.own_zone != old:
            rezone_in(conn, turn.person.user_id, old=old, now=turn.received_at)

    def _apply_directives(self, turn: Turn, conn: Connection) -> None:
        directives = turn.directives
        if turn.duplicate or not directives.any:
            return
        turn.notices.extend(directives.errors)
        person_id = turn.person.user_id
        thread_changes: dict[str, Any] = {}
        if directives.kind is not None:
            thread_changes["thread_kind"] = directives.kind
        if directives.thread_tz is not None:
            thread_changes["session_tz"] = directives.thread_tz
        if thread_changes:
            queries.update_thread(conn, turn.thread_key, **thread_changes)
            turn.thread = dataclasses.replace(turn.thread, **thread_changes)
        if directives.home_tz is not None:
            queries.update_person(conn, person_id, default_tz=directives.home_tz)
            old = turn.person.own_zone
            turn.person = dataclasses.replace(turn.person, default_tz=directives.home_tz)
            if turn.person.own_zone != old:
                rezone_in(conn, person_id, old=old, now=turn.received_at)
        if directives.mode is not None:
            overrides = {**(turn.person.policy_overrides), "mode": directives.mode}
            queries.update_person(conn, person_id, policy_overrides=overrides)
            turn.person = dataclasses.replace(turn.person, policy_overrides=overrides)
            turn.policy = _effective_policy(self._policy, overrides)
        # An unproven sender's link steps wait for the address to confirm (bot.sender_check).
        proven = turn.ref.proven
        linked = None
        if directives.link_answer is not None and proven:
            linked = linking.answer_in(
                conn, user_key=turn.user_key, yes=directives.link_answer == "yes",
                now=turn.received_at,
            )  # fmt: skip
        elif directives.link_code is not None and proven:
            linked = linking.redeem_in(
                conn, code=directives.link_code, user_key=turn.user_key,
                person_id=person_id, thread_key=turn.thread_key, now=turn.received_at,
            )  # fmt: skip
        elif directives.link and directives.link_code is None:
            linked = linking.issue_in(
                conn, user_key=turn.user_key, thread_key=turn.thread_key, private=turn.private,
                now=turn.received_at,
            )  # fmt: skip
        if linked is not None:
            turn.notices.extend(linked.notices)
            for values in linked.outbox:
                enqueue_in(conn, values)
            if linked.merged is not None:
                turn.person = queries.load_person(conn, turn.user_key) or turn.person
                turn.policy = _effective_policy(self._policy, turn.person.policy_overrides)
        if directives.unlink and proven:
            alone = not queries.split_identity(
                conn,
                user_key=turn.user_key,
                new_user_id="u_" + secrets.token_hex(12),
                now=turn.received_at,
            )
            turn.notices.append(messages.NOT_LINKED if alone else messages.UNLINKED)
            turn.person = queries.load_person(conn, turn.user_key) or turn.person

    def _resolve_zone(self, turn: Turn, conn: Connection) -> None:
        remembered = _read_zone(turn)
        if turn.duplicate:
            return
        if remembered is not None:
            queries.update_person(conn, turn.person.user_id, known_locations=remembered)
        assert turn.zone is not None
        if turn.zone.source == "message" and turn.zone.zone != turn.thread.session_tz:
            # "I'm in Tokyo this week": the session moves there, as `clock: tz` would move it.
            queries.update_thread(conn, turn.thread_key, session_tz=turn.zone.zone)
            turn.thread = dataclasses.replace(turn.thread, session_tz=turn.zone.zone)

    def _track_actions(self, turn: Turn, conn: Connection) -> None:
        settings = turn.policy.store.latest_actions
        clocked = None if turn.duplicate else _action_to_clock(turn)
        if clocked is None:
            return
        phrase, source = clocked
        person_id = turn.person.user_id
        known = classify_activity(phrase) is not None
        calibration = queries.calibration_for(conn, person_id) if known else {}
        _, expires = queries.record_action(
            conn,
            person_id=person_id,
            thread_key=turn.thread_key,
            draft=self._draft(turn, phrase, source, calibration),
            at=turn.received_at,
            max_items=settings.max_items,
        )
        self._extend_actions(turn, expires)

    @staticmethod
    def _draft(
        turn: Turn, phrase: str, source: str, calibration: Mapping[str, tuple[int, int]]
    ) -> ActionDraft:
        return draft_action(
            phrase,
            source=source,  # type: ignore[arg-type]
            thread_kind=turn.thread_kind,  # type: ignore[arg-type]
            store_quotes=turn.policy.store.latest_actions.store_quotes,
            calibration=calibration,
        )

    @staticmethod
    def _extend_actions(turn: Turn, expires: datetime) -> None:
        until = turn.person.actions_until
        turn.person = dataclasses.replace(
            turn.person, actions_until=max(until, expires) if until else expires
        )

    def _evaluate_policy(self, turn: Turn, conn: Connection) -> None:
        rows = (
            queries.open_actions(conn, turn.person.user_id, now=turn.received_at)
            if _may_have_open_actions(turn)
            else []
        )
        self._decide(turn, rows)

    def _decide(self, turn: Turn, rows: list[Mapping[str, Any]]) -> None:
        turn.open_actions = [
            queries.row_as(OpenAction, row)
            for row in rows
            if row["thread_key"] == turn.thread_key
            or (turn.private and is_private_thread(*split_thread_key(row["thread_key"])[1:]))
        ]
        # The message that clocked an action does not count as returning to it.
        prior = [a for a in turn.open_actions if a.recorded_at < turn.received_at]
        thread_last = turn.thread.last_interaction_at
        any_last = turn.person.last_interaction_any_channel_at
        facts = PolicyFacts(
            thread_kind=turn.thread_kind,  # type: ignore[arg-type]
            elapsed_since_last_interaction=_elapsed(turn.received_at, thread_last),
            elapsed_since_last_interaction_any_channel=(
                _elapsed(turn.received_at, any_last) if turn.policy.cross_channel_tracking else None
            ),
            has_open_action=bool(prior),
            mentions_time=turn.talks_about_time,
            has_clock_directive=turn.directives.any,
        )
        turn.decision = evaluate(turn.policy, facts)

    def _gather(self, turn: Turn, conn: Connection) -> None:
        if turn.private and turn.person.has_due_items:
            horizon = turn.received_at + UPCOMING_HORIZON
            rows = queries.upcoming(
                conn, turn.person.user_id, now=turn.received_at, horizon=horizon
            )
            turn.upcoming = [upcoming_item(row, turn.received_at) for row in rows]

    def _envelope(self, turn: Turn) -> ContextEnvelope:
        assert turn.zone is not None
        assert turn.decision is not None
        zone = turn.zone.zone
        thread_last = turn.thread.last_interaction_at
        any_last = turn.person.last_interaction_any_channel_at
        decision = turn.decision
        return ContextEnvelope(
            thread_key=turn.thread_key,
            user_key=turn.user_key,
            channel=turn.channel,
            now=turn.received_at,
            session_tz=zone,
            session_tz_source=turn.zone.source,
            user_tz=turn.user_tz,
            agent_tz=self._agent_tz,
            delta_hours=delta_hours(zone, self._agent_tz, turn.received_at),
            thread_kind=turn.thread_kind,  # type: ignore[arg-type]
            elapsed_since_last_interaction=_elapsed(turn.received_at, thread_last),
            elapsed_since_last_interaction_any_channel=(
                _elapsed(turn.received_at, any_last) if turn.policy.cross_channel_tracking else None
            ),
            temporal_awareness=decision.temporal_awareness,
            triggered_rules=decision.triggered_rules,
            ask_for_updates=decision.ask_for_updates,
            offer_recap=decision.offer_recap,
            allow_hedged_reference=decision.allow_hedged_reference,
            open_actions=tuple(turn.open_actions),
            upcoming=tuple(turn.upcoming),
            contact=runtime_time_context(
                turn.received_at, turn.user_tz, turn.person.window(self._window)
            ),
            notices=tuple(dict.fromkeys(turn.notices)),
            duplicate=turn.duplicate,
            session_started_at=turn.session_started_at,
            elapsed_since_last_user_message=_elapsed(turn.received_at, turn.spoke_before),
            any_channel_last_channel=turn.person.last_interaction_any_channel,
            message=turn.ref,
        )


@lru_cache(maxsize=256)
def _cached_policy(base: Policy, overrides_key: str) -> Policy:
    return base.with_overrides(json.loads(overrides_key)) if overrides_key != "{}" else base


def _effective_policy(base: Policy, overrides: Mapping[str, Any]) -> Policy:
    return _cached_policy(base, json.dumps(overrides, sort_keys=True))


def _known_zone(zone: str | None) -> str | None:
    """`zone` when it is a known IANA id (canonical spelling), else None."""
    if not zone:
        return None
    try:
        return require_zone(zone)
    except UnknownTimezoneError:
        return None


async def _overlapped(query: Awaitable[T], work: Callable[[], U]) -> tuple[T, U]:
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


INLINE_READ_CHARS = 200
"""A text longer than this is read on a worker thread (`_read_text_aside`)."""


async def _read_text_aside(turn: Turn) -> None:
    """`_read_text`, on a worker thread when the text is long, so the event loop runs on.

    Reading a long text may wait for Duckling in its child process
    (`bot.duckling_pool`); a short one reads in well under a
    millisecond, less than the hop to a thread costs.
    """
    if len(turn.text) > INLINE_READ_CHARS:
        await asyncio.to_thread(_read_text, turn)
    else:
        _read_text(turn)


def _read_text(turn: Turn) -> None:
    """What the text says, worked out before the transaction: it needs no state."""
    turn.directives = parse_directives(turn.text)
    text = turn.directives.rest if turn.directives.any else turn.text
    turn.mentions = tuple(zone_mentions(text))
    turn.temporal_phrase = detect_temporal_action(turn.text)
    turn.talks_about_time = mentions_time(turn.text, language=turn.ref.language)
    turn.text_read = True


def _start_session(turn: Turn) -> datetime | None:
    """When the thread's session started, counting this message (SESSION_IDLE)."""
    previous = turn.thread.last_interaction_at
    started = turn.thread.session_started_at
    if previous is None or turn.received_at - previous >= SESSION_IDLE:
        started = turn.received_at
    turn.session_started_at = started
    return started


def _read_zone(turn: Turn) -> list[str] | None:
    """Set the session zone; the person's remembered places when this message adds one."""
    known = list(turn.person.known_locations)
    turn.zone = resolve_session_zone(
        turn.directives.rest if turn.directives.any else turn.text,
        thread_override=turn.thread.session_tz,
        user_default=turn.user_tz,
        known_locations=known,
        mentions=turn.mentions,
    )
    turn.notices.extend(turn.zone.notices)
    places = [m.text for m in turn.mentions if m.strength == "location" and m.zone]
    if not places:
        return None
    remembered = list(dict.fromkeys([_place_name(places[0]), *known]))[:MAX_KNOWN_PLACES]
    return remembered if remembered != known else None


def _action_to_clock(turn: Turn) -> tuple[str, str] | None:
    """The phrase this message clocks as an action, and how (docs/clock-spec.md §6.3), or None."""
    settings = turn.policy.store.latest_actions
    if not settings.enabled:
        return None
    if turn.directives.clock_it is not None:
        return turn.directives.clock_it, "clock_it"
    if settings.auto_clock_temporal_actions and turn.temporal_phrase is not None:
        return turn.temporal_phrase, "auto"
    return None


def _hot_directives(directives: Directives) -> bool:
    """Whether the hot path can take a message with these directives: none, or "clock it"."""
    return directives == Directives(clock_it=directives.clock_it)


def _action_arguments(action: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """WRITE's $19-$27: the clocked action's columns, or NULLs."""
    columns = (
        "id", "label", "status", "activity", "source", "quote", "expires_at",
        "expected_typical_minutes", "expected_max_minutes",
    )  # fmt: skip
    return tuple(action[c] for c in columns) if action else (None,) * len(columns)


def _may_have_open_actions(turn: Turn) -> bool:
    until = turn.person.actions_until
    return until is not None and until > turn.received_at


def _elapsed(now: datetime, then: datetime | None) -> timedelta | None:
    if then is None:
        return None
    return max(now - then, timedelta(0))


def _place_name(text: str) -> str:
    return text[3:] if text.lower().startswith("in ") else text


def upcoming_item(row: Mapping[str, Any], now: datetime) -> UpcomingItem:
    return UpcomingItem(
        id=int(row["id"]),
        content=str(row["content"]),
        due_at=row["due_at"],
        overdue=row["due_at"] <= now,
        reminded_at=row["reminded_at"],
    )
