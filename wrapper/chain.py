"""The chain every inbound message runs, in one transaction (docs/clock-spec.md §4.1, §4.5, §5–§7).

`MessageChain._chain` builds the ordered steps; reading it gives the order:
dedupe → identity → stamps → platform zone → directives → zone → actions →
policy, then the envelope. `InteractionWrapper` (`wrapper.core`) holds one and
hands it every inbound message; every write of one message happens in one
transaction, so a message is either fully recorded or not at all, and a
redelivered message changes nothing. On PostgreSQL the common message takes
the hot path instead (`wrapper.hot`), which calls back into the chain's value
helpers (`adopt_rows`, `decide`, `envelope`…) so both paths derive the same values.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy.engine import Connection

from clockcore import (
    Clock,
    ContactWindow,
    Policy,
    PolicyFacts,
    delta_hours,
    evaluate,
    runtime_time_context,
)
from clockcore.actions import ActionDraft, classify_activity, draft_action
from clockcore.envelope import ContextEnvelope, OpenAction
from clockcore.message import MessageRef, speaker_label
from wrapper import hot, keys, linking, messages, queries
from wrapper.db import Database
from wrapper.errors import MessageTooLargeError
from wrapper.keys import is_private_thread, split_thread_key
from wrapper.outbox import enqueue_in
from wrapper.pending import add_claimed
from wrapper.routes import save_route
from wrapper.rows import MAX_NOTICE_CHARS, PersonRow, ThreadView
from wrapper.schedules import rezone_in
from wrapper.turn import (
    UPCOMING_HORIZON,
    Step,
    Turn,
    action_to_clock,
    known_zone,
    may_have_open_actions,
    moves_session,
    other_zones,
    read_text_aside,
    read_zone,
    start_session,
    upcoming_item,
)

__all__ = ["MAX_TEXT", "MessageChain"]

MAX_TEXT = 100_000
"""The longest text a message may have; a longer one is refused whole (`MessageTooLargeError`)."""


class MessageChain:
    """The steps every inbound message runs (`receive`), for one store and one agent.

    Args:
        database: the store.
        agent_id: the agent's name in thread keys.
        policy: the CLOCK policy for everyone (per-user overrides apply on top).
        agent_tz: the host's IANA zone.
        clock: where "now" comes from.
        contact_window: the default contact window.
    """

    hot_path: bool = True
    """On PostgreSQL, take the common message through `wrapper.hot` (tests turn it off)."""

    def __init__(
        self,
        database: Database,
        *,
        agent_id: str,
        policy: Policy,
        agent_tz: str,
        clock: Clock,
        contact_window: ContactWindow,
    ) -> None:
        self._db = database
        self._agent_id = agent_id
        self._policy = policy
        self._agent_tz = agent_tz
        self._clock = clock
        self._window = contact_window
        self._steps: list[Step] = self._chain()

    @property
    def database(self) -> Database:
        """The store the chain writes to."""
        return self._db

    @property
    def agent_tz(self) -> str:
        """The host's IANA zone."""
        return self._agent_tz

    def _chain(self) -> list[Step]:
        """The steps of `receive`, in order.

        dedupe → identity → stamp → directives → zone → actions → policy.
        Directives come before the zone because ``clock: tz …`` changes it.
        """
        return [
            self._dedupe,
            self._identify,
            self._stamp,
            self._adopt_platform_facts,
            self._apply_directives,
            self._resolve_zone,
            self._track_actions,
            self._evaluate_policy,
        ]

    async def receive(
        self,
        ref: MessageRef,
        *,
        claim_for: str | None = None,
        lease_until: datetime | None = None,
    ) -> ContextEnvelope:
        """Record `ref` and return its context envelope, all in one transaction.

        The route in `ref` is saved for the thread (`wrapper.routes`). On a
        new message, `ref.user_zone` becomes the person's default while they
        have not set one themselves (an unknown zone is ignored),
        `ref.sender_name` what this identity is called, and `ref.hint` one of
        the envelope's notices. With `claim_for`, a worker
        id, the message goes on the waiting list (`wrapper.pending`), claimed
        by that worker until `lease_until` or its death, and leaves it only
        with its turn's commit; that needs a message id.

        Raises:
            ValueError: an empty channel, thread or user id; `claim_for` without
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
        if claim_for is not None and (ref.message_id is None or lease_until is None):
            raise ValueError("claiming a message for an answer needs its id and a lease")
        turn = Turn(
            ref=ref,
            thread_key=keys.thread_key(self._agent_id, ref.channel, ref.thread_id),
            user_key=keys.user_key(ref.channel, ref.user_id),
            claim_for=claim_for,
            lease_until=lease_until,
            platform_zone=known_zone(ref.user_zone),
        )
        if ref.hint:
            turn.notices.append(" ".join(ref.hint.split())[:MAX_NOTICE_CHARS])
        if self.hot_path:
            envelope = await hot.receive(self, turn)
            if envelope is not None:
                return envelope
        if not turn.text_read:  # the hot path reads it while its first statement is out
            await read_text_aside(turn)
        notices = list(turn.notices)

        def handle(conn: Connection) -> ContextEnvelope:
            turn.notices[:] = notices  # as they were, if a dead connection repeats the work
            return self._handle(turn, conn)

        return await self._db.run(handle, inline=True)

    def _handle(self, turn: Turn, conn: Connection) -> ContextEnvelope:
        for step in self._steps:
            step(turn, conn)
        self._gather(turn, conn)
        envelope = self.envelope(turn)
        if turn.duplicate:
            conn.rollback()
            return envelope
        if turn.ref.route:
            save_route(
                conn, thread_key=turn.thread_key, channel=turn.channel, route=turn.ref.route,
                at=turn.received_at,
            )  # fmt: skip
        if turn.claim_for is not None and turn.lease_until is not None:
            add_claimed(
                conn, turn.ref, worker=turn.claim_for, lease_until=turn.lease_until,
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
        self.adopt_rows(turn, turn.person, thread, spoke_before)

    def adopt_rows(
        self,
        turn: Turn,
        person: PersonRow,
        thread: ThreadView | None,
        spoke_before: datetime | None,
    ) -> None:
        turn.person = person
        turn.thread = thread or ThreadView()
        turn.spoke_before = spoke_before
        turn.policy = _effective_policy(self._policy, person.policy_overrides)

    def _stamp(self, turn: Turn, conn: Connection) -> None:
        """Recorded for every message, whatever the policy says (docs/clock-spec.md §4.1)."""
        started = start_session(turn)
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
            delta_hours=self.stamp_delta(turn),
        )
        queries.stamp_participant(
            conn, thread_key=turn.thread_key, user_key=turn.user_key, at=turn.received_at
        )
        queries.stamp_identity(conn, turn.user_key, user_at=turn.received_at, agent_at=None)
        if turn.policy.cross_channel_tracking:
            queries.stamp_person(
                conn, turn.person.user_id, at=turn.received_at, channel=turn.channel
            )

    def stamp_delta(self, turn: Turn) -> float:
        zone = turn.thread.session_tz or turn.user_tz or "UTC"
        return delta_hours(zone, self._agent_tz, turn.received_at)

    def _adopt_platform_facts(self, turn: Turn, conn: Connection) -> None:
        """What the platform says of the writer: their name, and their zone as a default."""
        if turn.duplicate:
            return
        name = turn.ref.sender_name
        if name is not None and name != turn.person.display_name:
            queries.name_identity(conn, turn.user_key, name)
            turn.person = dataclasses.replace(turn.person, display_name=name)
        zone = turn.platform_zone
        if zone is None or turn.person.platform_tz == zone:
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
        # Nothing a sender's channel did not prove changes anything: the turn runner holds
        # the request until the address confirms, then it comes back proven
        # (docs/SECURITY.md, "What each channel proves"). Person-wide steps are taken only
        # in a private thread: a group thread's answers reach every member.
        proven = turn.ref.proven
        person_wide = proven and turn.private
        person_id = turn.person.user_id
        thread_changes: dict[str, Any] = {}
        if directives.kind is not None and proven:
            thread_changes["thread_kind"] = directives.kind
        if directives.thread_tz is not None and proven:
            thread_changes["session_tz"] = directives.thread_tz
        if thread_changes:
            queries.update_thread(conn, turn.thread_key, **thread_changes)
            turn.thread = dataclasses.replace(turn.thread, **thread_changes)
        if directives.home_tz is not None and person_wide:
            _set_home(turn, conn, directives.home_tz)
        if directives.mode is not None and person_wide:
            overrides = {**(turn.person.policy_overrides), "mode": directives.mode}
            queries.update_person(conn, person_id, policy_overrides=overrides)
            turn.person = dataclasses.replace(turn.person, policy_overrides=overrides)
            turn.policy = _effective_policy(self._policy, overrides)
        linked = None
        if directives.link_answer is not None and person_wide:
            linked = linking.answer_in(
                conn, user_key=turn.user_key, yes=directives.link_answer == "yes",
                now=turn.received_at,
            )  # fmt: skip
        elif directives.link_code is not None and person_wide:
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
        if directives.unlink and person_wide:
            alone = not queries.split_identity(
                conn,
                user_key=turn.user_key,
                new_user_id="u_" + secrets.token_hex(12),
                now=turn.received_at,
            )
            turn.notices.append(messages.NOT_LINKED if alone else messages.UNLINKED)
            turn.person = queries.load_person(conn, turn.user_key) or turn.person

    def _resolve_zone(self, turn: Turn, conn: Connection) -> None:
        remembered = read_zone(turn)
        if turn.duplicate:
            return
        if remembered is not None:
            queries.update_person(conn, turn.person.user_id, known_locations=remembered)
        if moves_session(turn):
            assert turn.zone is not None
            queries.update_thread(conn, turn.thread_key, session_tz=turn.zone.zone)
            turn.thread = dataclasses.replace(turn.thread, session_tz=turn.zone.zone)
            if turn.private and turn.ref.proven and turn.person.own_zone is None:
                # The first zone they give is theirs until they say otherwise: asked
                # again in every new thread otherwise (docs/clock-spec.md §4.2).
                _set_home(turn, conn, turn.zone.zone)

    def _track_actions(self, turn: Turn, conn: Connection) -> None:
        settings = turn.policy.store.latest_actions
        # An unproven sender's clock-it waits for the address to confirm, as every change.
        clocked = None if turn.duplicate or not turn.ref.proven else action_to_clock(turn)
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
            draft=self.draft(turn, phrase, source, calibration),
            at=turn.received_at,
            max_items=settings.max_items,
        )
        self.extend_actions(turn, expires)

    @staticmethod
    def draft(
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
    def extend_actions(turn: Turn, expires: datetime) -> None:
        until = turn.person.actions_until
        turn.person = dataclasses.replace(
            turn.person, actions_until=max(until, expires) if until else expires
        )

    def _evaluate_policy(self, turn: Turn, conn: Connection) -> None:
        rows = (
            queries.open_actions(conn, turn.person.user_id, now=turn.received_at)
            if may_have_open_actions(turn)
            else []
        )
        self.decide(turn, rows)

    def decide(self, turn: Turn, rows: list[Mapping[str, Any]]) -> None:
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

    def envelope(self, turn: Turn) -> ContextEnvelope:
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
            other_zones=other_zones(turn),
            speaker=None
            if turn.private
            else speaker_label(
                turn.ref.sender_name or turn.person.display_name, turn.channel, turn.user_id
            ),
        )


@lru_cache(maxsize=256)
def _cached_policy(base: Policy, overrides_key: str) -> Policy:
    return base.with_overrides(json.loads(overrides_key)) if overrides_key != "{}" else base


def _effective_policy(base: Policy, overrides: Mapping[str, Any]) -> Policy:
    return _cached_policy(base, json.dumps(overrides, sort_keys=True))


def _elapsed(now: datetime, then: datetime | None) -> timedelta | None:
    if then is None:
        return None
    return max(now - then, timedelta(0))


def _set_home(turn: Turn, conn: Connection, zone: str) -> None:
    """Make `zone` the person's home, moving their floating occurrences when their zone changed."""
    old = turn.person.own_zone
    queries.update_person(conn, turn.person.user_id, default_tz=zone)
    turn.person = dataclasses.replace(turn.person, default_tz=zone)
    if turn.person.own_zone != old:
        rezone_in(conn, turn.person.user_id, old=old, now=turn.received_at)
