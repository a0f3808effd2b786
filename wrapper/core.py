"""The CLOCK interaction wrapper (docs/clock-spec.md §4.1, §4.5, §5–§7), as a facade.

`InteractionWrapper` opens the store and holds its parts: the chain, workers, waiting
list, history, outbox, reminders, routes, and `wrapper.parts` (people, meetings,
feeds, model calls, threads, memory); a caller uses the part it needs. Left here: a
turn's commit, a delivery's record, the agent's reads of memory and actions, state
I/O. A turn's writes are effects committed in one transaction (`wrapper.turns.effects`,
`wrapper.turns.turn_commit`); tests build state the same way (tests/support/staged.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError

from clockcore import (
    DEFAULT_CONTACT_WINDOW,
    DEFAULT_POLICY,
    Clock,
    ContactWindow,
    MessageRef,
    Policy,
    SystemClock,
    agent_timezone,
    as_utc,
    require_zone,
)
from clockcore.envelope import ContextEnvelope
from wrapper import keys
from wrapper.coordination.thread_locks import ThreadLocks
from wrapper.coordination.workers import Workers
from wrapper.errors import StoreUnavailableError
from wrapper.inbound.chain import MessageChain
from wrapper.outbound.outbox import Outbox, OutboxItem, count_reminders, enqueue_in, mark_sent_in
from wrapper.outbound.routes import ChannelState, Routes, save_route
from wrapper.parts import (
    Feeds,
    Meetings,
    Memory,
    MemoryItem,
    ModelCalls,
    People,
    Reminders,
    Threads,
    query_words,
)
from wrapper.people.members import ThreadMember, thread_members_in
from wrapper.store import queries
from wrapper.store.db import Database, resolve_url
from wrapper.turns import effects
from wrapper.turns.effect_writes import actions_enabled, apply_effect
from wrapper.turns.effects import SETTABLE_ACTION_STATUSES, ActionsDisabledError
from wrapper.turns.history import History
from wrapper.turns.limits import LimitDecision, TurnLimits, admit
from wrapper.turns.model_calls import (
    last_in,
)
from wrapper.turns.pending import WaitingTurn, WaitingTurns
from wrapper.turns.turn import SESSION_IDLE
from wrapper.turns.turn_commit import TurnCommit, commit_in, release_in

__all__ = [
    "SESSION_IDLE",
    "SETTABLE_ACTION_STATUSES",
    "ActionsDisabledError",
    "InteractionWrapper",
    "MemoryItem",
]


class InteractionWrapper:
    """Keys, stamps, zones, directives, actions, policy and the envelope, for every message."""

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
        self.chain = MessageChain(
            database,
            agent_id=agent_id,
            policy=policy,
            agent_tz=agent_tz,
            clock=clock,
            contact_window=contact_window,
        )
        self.workers = Workers(database)
        self.waiting = WaitingTurns(database, self.workers)
        self.history = History(database)
        self.outbox = Outbox(database)
        self.reminders = Reminders(database)
        self.routes = Routes(database)
        self.thread_locks = ThreadLocks(database)
        self.channel_state = ChannelState(database, clock_now=clock.now)
        self.people = People(database, clock=clock, contact_window=contact_window)
        self.meetings = Meetings(database)
        self.feeds = Feeds(database)
        self.calls = ModelCalls(database)
        self.threads = Threads(database, agent_id=agent_id)
        self.memory = Memory(database, clock=clock)

    @classmethod
    async def open(
        cls,
        database_url: str | None = None,
        *,
        agent_id: str = "main",
        policy: Policy | None = None,
        agent_tz: str | None = None,
        clock: Clock | None = None,
        contact_window: ContactWindow | None = None,
    ) -> InteractionWrapper:
        """Open the store (migrating it to the newest schema) and return a wrapper.

        Args:
            database_url: a SQLAlchemy URL; None is SQLite under ``$CLOCKBOT_HOME``.
            agent_id: the agent's name in thread keys.
            policy: the CLOCK policy for everyone (per-user overrides apply on top).
            agent_tz: the host's IANA zone; None asks the OS (else UTC).
            clock: where "now" comes from; the system clock by default.
            contact_window: the default contact window.

        Raises:
            DatabaseURLError: the URL is unusable.
            StoreUnavailableError: the database cannot be opened or migrated.
            UnknownTimezoneError: `agent_tz` is not an IANA id.
        """
        url = resolve_url(database_url)
        database = Database(url)
        try:
            await database.migrate()
        except (DBAPIError, OSError) as exc:
            await database.dispose()
            shown = make_url(url).render_as_string(hide_password=True)
            reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            raise StoreUnavailableError(shown, reason) from exc
        except BaseException:
            await database.dispose()
            raise
        return cls(
            database,
            agent_id=agent_id,
            policy=policy or DEFAULT_POLICY,
            agent_tz=require_zone(agent_tz) if agent_tz else agent_timezone(),
            clock=clock or SystemClock(),
            contact_window=contact_window or DEFAULT_CONTACT_WINDOW,
        )

    async def close(self) -> None:
        """Release the database connections."""
        await self.thread_locks.close()
        await self._db.dispose()

    @property
    def agent_id(self) -> str:
        """The agent's name in thread keys."""
        return self._agent_id

    @property
    def database(self) -> Database:
        """The store, for tools that read it directly (benchmarks, tests)."""
        return self._db

    @property
    def clock(self) -> Clock:
        """The clock every default "now" of the wrapper reads."""
        return self._clock

    @property
    def policy(self) -> Policy:
        """The operator's default policy (each person's overrides apply on top)."""
        return self._policy

    @property
    def agent_tz(self) -> str:
        """The agent's zone (docs/clock-spec.md §4.2)."""
        return self._agent_tz

    # ------------------------------------------------------------- outbound

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
        """Record an inbound message and return its context envelope (`MessageChain.receive`).

        Raises:
            ValueError: an empty channel, thread or user id.
            MessageTooLargeError: `text` is over 100,000 characters (nothing is stored).
            NaiveDatetimeError: `received_at` is naive.
        """
        return await self.chain.receive(
            MessageRef(
                channel=channel,
                thread_id=thread_id,
                user_id=user_id,
                message_id=message_id,
                text=text,
                received_at=as_utc(received_at) if received_at else self._clock.now(),
            )
        )

    async def receive(
        self, ref: MessageRef, *, claim_for: str | None = None, lease_until: datetime | None = None
    ) -> ContextEnvelope:
        """Record `ref` as the gateway receives it (`MessageChain.receive`)."""
        return await self.chain.receive(ref, claim_for=claim_for, lease_until=lease_until)

    def _stamp_agent_message(
        self, conn: Connection, channel: str, thread_id: str, at: datetime, user_id: str | None
    ) -> None:
        thread_key = keys.thread_key(self._agent_id, channel, thread_id)
        thread, _ = queries.load_thread(conn, thread_key, "")
        previous = thread.last_interaction_at if thread else None
        started = thread.session_started_at if thread else None
        if previous is None or at - previous >= SESSION_IDLE:
            started = at
        queries.stamp_thread(
            conn,
            thread_key=thread_key,
            agent_id=self._agent_id,
            channel=channel,
            thread_id=thread_id,
            at=at,
            from_user=False,
            session_started_at=started or at,
            agent_tz=self._agent_tz,
            delta_hours=(thread.delta_hours if thread else None) or 0.0,
        )
        if user_id is not None:
            queries.stamp_identity(conn, keys.user_key(channel, user_id), user_at=None, agent_at=at)

    # ------------------------------------------------------------- turns

    async def commit_turn(self, commit: TurnCommit) -> bool:
        """Write everything one turn changed in one transaction; False if its claim was lost.

        Only `bot.turns.lifecycle` calls this (a structure test holds it to that).
        """
        return await self._db.run(
            lambda conn: commit_in(conn, commit, policy=self._policy, agent_tz=self._agent_tz)
        )

    async def admit_turn(
        self, turn: WaitingTurn, *, user_key: str, limits: TurnLimits, notice: effects.Enqueue
    ) -> LimitDecision:
        """Whether `turn` may ask the model under `limits` (`wrapper.turns.limits.admit`).

        One transaction: the turns are taken, or the message is held back; a
        person over the limit for the first time in a while gets `notice`.
        """
        now = self._clock.now()

        def work(conn: Connection) -> LimitDecision:
            person = queries.load_person(conn, user_key)
            person_id = person.user_id if person is not None else user_key
            verdict = admit(conn, turn, person_id=person_id, limits=limits, now=now)
            if verdict.notify:
                enqueue_in(conn, effects.outbox_values(notice, now))
            return verdict

        return await self._db.run(work)

    async def release_turn(
        self, turn: WaitingTurn, *, retry_at: datetime, notice: effects.Enqueue | None = None
    ) -> bool:
        """Give a failed turn's message back for a retry at `retry_at`; queue `notice` once."""
        now = self._clock.now()
        return await self._db.run(
            lambda conn: release_in(conn, turn, retry_at=retry_at, notice=notice, at=now)
        )

    async def record_delivery(
        self, item: OutboxItem, *, worker: str, text: str, platform_ids: Sequence[str] = ()
    ) -> bool:
        """A job was sent: mark it sent and stamp the thread's agent message, in one transaction.

        `platform_ids` are the platform's ids of what went out (a reply to one
        of them then finds the job). False (and nothing stamped) unless
        `worker` still holds the job.
        """
        at = self._clock.now()

        def work(conn: Connection) -> bool:
            if not mark_sent_in(
                conn,
                item.id,
                worker=worker,
                sent_at=at,
                channel=item.channel,
                platform_ids=platform_ids,
            ):
                return False
            self._stamp_agent_message(conn, item.channel, item.thread_id, at, item.user_id)
            return True

        return await self._db.run(work)

    async def find_memory(
        self, *, user_key: str, item_id: int, group: str | None = None
    ) -> MemoryItem | None:
        """The person's item `item_id` (with `group`, one remembered in that thread), or None."""

        def read(conn: Connection) -> MemoryItem | None:
            person = queries.load_person(conn, user_key)
            if person is None:
                return None
            row = queries.memory_item(conn, user_id=person.user_id, item_id=item_id, group=group)
            return queries.row_as(MemoryItem, row) if row is not None else None

        return await self._db.run(read, inline=True)

    async def waiting_reminders(self, item_id: int) -> int:
        """How many reminders of item `item_id` wait to be sent (what `forget` would cancel)."""
        return await self._db.run(lambda conn: count_reminders(conn, item_id), inline=True)

    async def actions_enabled(self, user_key: str) -> bool:
        """Whether the person's policy lets actions be recorded."""
        return await self._db.run(
            lambda conn: actions_enabled(conn, policy=self._policy, user_key=user_key),
            inline=True,
        )

    async def has_action(self, *, user_key: str, action_id: str, group: str | None = None) -> bool:
        """Whether the person has an action `action_id` (with `group`: clocked in that thread)."""

        def read(conn: Connection) -> bool:
            person = queries.load_person(conn, user_key)
            if person is None:
                return False
            return queries.has_action(
                conn, user_id=person.user_id, action_id=action_id, group=group
            )

        return await self._db.run(read, inline=True)

    async def thread_members(self, thread_key: str) -> tuple[ThreadMember, ...]:
        """Who spoke in a thread, with their names, zones and hours (`wrapper.people.members`)."""
        return await self._db.run(
            lambda conn: thread_members_in(conn, thread_key, self._window), inline=True
        )

    async def last_model_call(self, thread_key: str) -> tuple[int | None, int | None] | None:
        """(prompt, completion) tokens of the thread's newest model request, or None."""
        return await self._db.run(lambda conn: last_in(conn, thread_key), inline=True)

    # ------------------------------------------------------------- memory

    async def recall(
        self, *, user_key: str, query: str, limit: int = 20, group: str | None = None
    ) -> list[MemoryItem]:
        """The person's items whose content holds every word of `query`, newest first.

        With `group` (a group thread's key) only the items remembered in that thread.

        Words match case-insensitively anywhere in the content (``"dent"`` finds
        "Dentist"); punctuation around a word is ignored. Linked identities share
        one person, so they share what is found.

        Raises:
            ValueError: `query` has no words, or `limit` is below 1.
        """
        words = query_words(query)
        if not words:
            raise ValueError("query must contain at least one word")
        if limit < 1:
            raise ValueError(f"limit must be >= 1, not {limit}")

        def read(conn: Connection) -> list[MemoryItem]:
            person = queries.load_person(conn, user_key)
            if person is None:
                return []
            found: list[MemoryItem] = []
            for row in queries.memory_newest_first(conn, person.user_id, group=group):
                content = str(row["content"]).casefold()
                if all(word in content for word in words):
                    found.append(queries.row_as(MemoryItem, row))
                    if len(found) == limit:
                        break
            return found

        return await self._db.run(read)

    async def answer_unrecorded(self, ref: MessageRef, reply: effects.Enqueue) -> None:
        """Answer a message the journal refused (too large to keep): the thread's route and
        `reply` in one transaction. Nothing of the message itself is stored, so there is no
        turn to commit this with; a redelivery makes the same reply, which its key folds."""
        now = self._clock.now()

        def work(conn: Connection) -> None:
            save_route(
                conn, thread_key=reply.thread_key, channel=ref.channel, route=ref.route, at=now
            )
            apply_effect(conn, reply, policy=self._policy, agent_tz=self._agent_tz, now=now)

        await self._db.run(work)

    async def save_settings(
        self, *changes: effects.ZoneChange | effects.WindowChange | effects.NewCalendarFeed
    ) -> None:
        """A person's settings changed outside a conversation (the web settings page, an
        eval's set-up, a new calendar link from the web page): the effects a turn's tools
        stage for the same change, written in one transaction, all or none."""
        now = self._clock.now()

        def work(conn: Connection) -> None:
            for change in changes:
                apply_effect(conn, change, policy=self._policy, agent_tz=self._agent_tz, now=now)

        await self._db.run(work)

    # ------------------------------------------------------------- state

    async def export_state(self) -> dict[str, object]:
        """The whole store as a CLOCK-STATE.json v3 document."""
        from wrapper.state_io import export_state

        return await self._db.run(export_state)

    async def import_state(self, state: Mapping[str, object]) -> None:
        """Load a CLOCK-STATE.json v3 document; all or nothing.

        Raises:
            StateImportError: the document is refused; the store is unchanged.
        """
        from wrapper.state_io import import_state

        now = self._clock.now()
        await self._db.run(lambda conn: import_state(conn, state, now=now))
