"""The chain every inbound message runs, in one transaction (docs/clock-spec.md §4.1, §4.5, §5–§7).

`MessageChain._chain` builds the ordered steps; reading it gives the order:
dedupe → identity → stamps → platform zone → directives → zone → actions →
policy, then the envelope. `InteractionWrapper` (`wrapper.core`) holds one and
hands it every inbound message; every write of one message happens in one
transaction, so a message is either fully recorded or not at all, and a
redelivered message changes nothing. On PostgreSQL the common message takes
the hot path instead (`wrapper.inbound.hot`); both take their values from
`wrapper.inbound.values` (`adopt_rows`, `decide`, `envelope`…), so both paths
derive the same values.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from clockcore import (
    Clock,
    ContactWindow,
    Policy,
)
from clockcore.actions import classify_activity
from clockcore.envelope import ContextEnvelope
from clockcore.message import MessageRef
from wrapper import keys, messages
from wrapper.errors import MessageTooLargeError
from wrapper.inbound import hot, values
from wrapper.outbound.outbox import enqueue_in
from wrapper.outbound.routes import save_route
from wrapper.outbound.schedule_changes import rezone_in
from wrapper.people import linking
from wrapper.store import queries
from wrapper.store.db import Database
from wrapper.store.rows import MAX_NOTICE_CHARS, PersonRow
from wrapper.turns.pending import add_claimed
from wrapper.turns.turn import (
    UPCOMING_HORIZON,
    Step,
    Turn,
    action_to_clock,
    known_zone,
    may_have_open_actions,
    moves_session,
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
    """On PostgreSQL, take the common message through `wrapper.inbound.hot` (tests turn it off)."""

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
        self._intake = values.Intake(
            agent_id=agent_id, policy=policy, agent_tz=agent_tz, window=contact_window
        )
        self._clock = clock
        self._steps: list[Step] = self._chain()

    @property
    def database(self) -> Database:
        """The store the chain writes to."""
        return self._db

    @property
    def agent_tz(self) -> str:
        """The host's IANA zone."""
        return self._intake.agent_tz

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

        The route in `ref` is saved for the thread (`wrapper.outbound.routes`). On a
        new message, `ref.user_zone` becomes the person's default while they
        have not set one themselves (an unknown zone is ignored),
        `ref.sender_name` what this identity is called, and `ref.hint` one of
        the envelope's notices. With `claim_for`, a worker
        id, the message goes on the waiting list (`wrapper.turns.pending`), claimed
        by that worker until `lease_until` or its death, and leaves it only
        with its turn's commit; that needs a message id.

        Raises:
            ValueError: an empty channel, thread or user id; `claim_for` without
                a message id or a `lease_until`.
            MessageTooLargeError: the text is over 100,000 characters (nothing is stored).
        """
        for name, value in (
            ("channel", ref.channel),
            ("thread_id", ref.thread_id),
            ("user_id", ref.user_id),
        ):
            if not value or not value.strip():
                raise ValueError(f"{name} must not be empty")
        if len(ref.text) > MAX_TEXT:
            raise MessageTooLargeError(len(ref.text), MAX_TEXT)
        if claim_for is not None and (ref.message_id is None or lease_until is None):
            raise ValueError("claiming a message for an answer needs its id and a lease")
        turn = Turn(
            ref=ref,
            thread_key=keys.thread_key(self._intake.agent_id, ref.channel, ref.thread_id),
            user_key=keys.user_key(ref.channel, ref.user_id),
            claim_for=claim_for,
            lease_until=lease_until,
            platform_zone=known_zone(ref.user_zone),
        )
        if ref.hint:
            turn.notices.append(" ".join(ref.hint.split())[:MAX_NOTICE_CHARS])
        if self.hot_path:
            envelope = await hot.receive(self._db, self._intake, turn)
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
        envelope = values.envelope(self._intake, turn)
        if turn.duplicate:
            conn.rollback()
            return envelope
        if turn.ref.route:
            save_route(
                conn,
                thread_key=turn.thread_key,
                channel=turn.channel,
                route=turn.ref.route,
                at=turn.received_at,
            )
        if turn.claim_for is not None and turn.lease_until is not None:
            add_claimed(
                conn,
                turn.ref,
                worker=turn.claim_for,
                lease_until=turn.lease_until,
                envelope=envelope,
            )
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
        values.adopt_rows(self._intake, turn, turn.person, thread, spoke_before)

    def _stamp(self, turn: Turn, conn: Connection) -> None:
        """Recorded for every message, whatever the policy says (docs/clock-spec.md §4.1)."""
        started = start_session(turn)
        if turn.duplicate or not turn.policy.store.last_message_timestamps:
            return
        queries.stamp_thread(
            conn,
            thread_key=turn.thread_key,
            agent_id=self._intake.agent_id,
            channel=turn.channel,
            thread_id=turn.thread_id,
            at=turn.received_at,
            from_user=True,
            session_started_at=started or turn.received_at,
            agent_tz=self._intake.agent_tz,
            delta_hours=values.stamp_delta(self._intake, turn),
        )
        queries.stamp_participant(
            conn, thread_key=turn.thread_key, user_key=turn.user_key, at=turn.received_at
        )
        queries.stamp_identity(conn, turn.user_key, user_at=turn.received_at, agent_at=None)
        if turn.policy.cross_channel_tracking:
            queries.stamp_person(
                conn, turn.person.user_id, at=turn.received_at, channel=turn.channel
            )

    def _adopt_platform_facts(self, turn: Turn, conn: Connection) -> None:
        """What the platform says of the writer: their name, and their zone as a default.

        Not from a sender their channel did not prove: anyone can write a mail's From
        name, and it would rename the person it claims (docs/SECURITY.md).
        """
        if turn.duplicate or not turn.ref.proven:
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
            if turn.thread.session_tz and turn.thread.session_tz == turn.person.own_zone:
                # On their old home's time, the conversation follows the new home.
                queries.update_thread(conn, turn.thread_key, session_tz=directives.home_tz)
                turn.thread = dataclasses.replace(turn.thread, session_tz=directives.home_tz)
            _set_home(turn, conn, directives.home_tz)
        if directives.mode is not None and person_wide:
            overrides = {**(turn.person.policy_overrides), "mode": directives.mode}
            queries.update_person(conn, person_id, policy_overrides=overrides)
            turn.person = dataclasses.replace(turn.person, policy_overrides=overrides)
            turn.policy = values.effective_policy(self._intake.policy, overrides)
        linked = None
        if directives.link_answer is not None and person_wide:
            linked = linking.answer_in(
                conn,
                user_key=turn.user_key,
                yes=directives.link_answer == "yes",
                now=turn.received_at,
            )
        elif directives.link_code is not None and person_wide:
            linked = linking.redeem_in(
                conn,
                code=directives.link_code,
                user_key=turn.user_key,
                person_id=person_id,
                thread_key=turn.thread_key,
                now=turn.received_at,
            )
        elif directives.link and directives.link_code is None:
            linked = linking.issue_in(
                conn,
                user_key=turn.user_key,
                thread_key=turn.thread_key,
                private=turn.private,
                now=turn.received_at,
            )
        if linked is not None:
            turn.notices.extend(linked.notices)
            for item in linked.outbox:
                enqueue_in(conn, item)
            if linked.merged is not None:
                turn.person = queries.load_person(conn, turn.user_key) or turn.person
                turn.policy = values.effective_policy(
                    self._intake.policy, turn.person.policy_overrides
                )
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
        # An unproven sender's place answers this turn only: remembering it, or moving
        # the thread there, would write for the person it claims (docs/SECURITY.md).
        if turn.duplicate or not turn.ref.proven:
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
            draft=values.draft(turn, phrase, source, calibration),
            at=turn.received_at,
            max_items=settings.max_items,
        )
        values.extend_actions(turn, expires)

    def _evaluate_policy(self, turn: Turn, conn: Connection) -> None:
        rows = (
            queries.open_actions(conn, turn.person.user_id, now=turn.received_at)
            if may_have_open_actions(turn)
            else []
        )
        values.decide(turn, rows)

    def _gather(self, turn: Turn, conn: Connection) -> None:
        if turn.private and turn.person.has_due_items:
            horizon = turn.received_at + UPCOMING_HORIZON
            rows = queries.upcoming(
                conn, turn.person.user_id, now=turn.received_at, horizon=horizon
            )
            turn.upcoming = [upcoming_item(row, turn.received_at) for row in rows]


def _set_home(turn: Turn, conn: Connection, zone: str) -> None:
    """Make `zone` the person's home, moving their floating occurrences when their zone changed."""
    old = turn.person.own_zone
    queries.update_person(conn, turn.person.user_id, default_tz=zone)
    turn.person = dataclasses.replace(turn.person, default_tz=zone)
    if turn.person.own_zone != old:
        rezone_in(conn, turn.person.user_id, old=old, now=turn.received_at)
