"""Turns: receive → answer → commit, and the retries. The one owner of a message's life.

A message arrives (`Turns.intake`): the wrapper journals it and puts it on the
waiting list, claimed by this worker, in one transaction; then the adapter
may confirm it to its platform. Its turn runs in the background, one turn at
a time per thread in arrival order: the agent answers from the envelope and
the history (reading, staging, writing nothing), and `commit` writes it all
at once (`InteractionWrapper.commit_turn`): the history, every staged tool
effect, the reply's outbox row and the message's removal from the waiting
list. A crash before that leaves the message waiting and nothing else; a
crash after it leaves nothing to do.

The waiting list is worked by `retry_forever`: messages whose model failed
(after a backoff), and messages a dead worker held (as soon as its heartbeat
stops, `wrapper.coordination.workers`). A message answered late says so in its envelope.

Proactive jobs (reminders, scheduled messages) come from the dispatcher
(`bot.app.dispatch`) through `proactive`, under the same per-thread order: one
model call decides the text or a deferral, committed with the job's claim.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import replace
from datetime import datetime, timedelta

from bot.agent import RETRY_LEASE, Agent, message_to_stored
from bot.agent.prompt import person_words, user_turn
from bot.app.duckling_pool import reading_for
from bot.llm.errors import LLMContextOverflow, LLMError
from bot.llm.everyday_words import said_in
from bot.replies import (
    GAVE_UP,
    OVER_LIMIT,
    TOO_LARGE,
    TOO_LONG_FOR_MODEL,
    UNAVAILABLE,
    Late,
    language_of,
)
from bot.turns.commands import NoModelCommands
from channels.base import Channel, Inbound
from clockcore import Clock, ContextEnvelope, MessageRef, format_elapsed, to_iso
from wrapper import InteractionWrapper, MessageTooLargeError
from wrapper.keys import (
    group_mail_thread,
    is_private_thread,
    private_mail_thread,
    thread_key,
    user_key,
)
from wrapper.meeting_polls import NewMeetingPoll
from wrapper.outbound.outbox import MAX_TEXT_CHARS, JobDecision, OutboxItem, new_job_key
from wrapper.turns.effects import Effect, Enqueue
from wrapper.turns.history import StoredMessage
from wrapper.turns.limits import Admission, TurnLimits
from wrapper.turns.pending import WaitingTurn
from wrapper.turns.turn_commit import TurnCommit

__all__ = ["MAX_TURN_ATTEMPTS", "Turns"]

log = logging.getLogger(__name__)

MAX_TURN_ATTEMPTS = 8
"""Failed turns of one message (with backoff, about half an hour) before it is given up, visibly."""
TYPING_EVERY = 4.0
"""Seconds between typing indicators while a turn runs (Telegram's lasts five)."""
GROUP_THREADS_PER_DAY = 10
"""Group mail threads one sender may start in 24 hours; the next mails are answered to
the sender alone (docs/SECURITY.md): clockbot is no relay to twenty strangers a mail."""
_RETRY_BASE = timedelta(seconds=5)
_RETRY_MAX = timedelta(minutes=5)


class Turns:
    """Runs every turn of one worker."""

    def __init__(
        self,
        *,
        wrapper: InteractionWrapper,
        agent: Agent,
        clock: Clock,
        worker: str,
        channels: Mapping[str, Channel],
        on_commit: Callable[[], None] = lambda: None,
        limits: TurnLimits | None = None,
        public_url: str | None = None,
    ) -> None:
        self._wrapper = wrapper
        self._agent = agent
        self._clock = clock
        self._worker = worker
        self._channels = channels
        self._on_commit = on_commit
        self._limits = limits
        self._tasks: set[asyncio.Task[None]] = set()
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        self._woken = asyncio.Event()
        self._commands = NoModelCommands(
            owner=self, wrapper=wrapper, clock=clock, channels=channels, public_url=public_url
        )

    @property
    def busy(self) -> bool:
        """A turn is running (or waiting for its thread) in this worker."""
        return bool(self._tasks)

    async def drain(self, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Wait for the turns in hand."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    # ------------------------------------------------------------- inbound

    async def intake(self, inbound: Inbound) -> None:
        """Record one message and start its turn (the adapters' `Sink`).

        Returns once the message is journaled and on the waiting list; raises
        when the store cannot record it, and then the adapter must not
        confirm it to its platform. A redelivered message starts nothing, but
        wakes the retry loop: its first worker may have died mid-turn.
        """
        if inbound.refers_to:
            inbound = await self._followed(inbound)
        now = self._clock.now()
        if inbound.thread_id == group_mail_thread(inbound.user_id, inbound.message_id):
            inbound = await self._within_group_cap(inbound, now=now)
        ref = inbound.ref
        respond = inbound.respond
        try:
            with reading_for(user_key(ref.channel, ref.user_id)):
                envelope = await self._wrapper.receive(
                    ref,
                    claim_for=self._worker if respond else None,
                    lease_until=now + RETRY_LEASE if respond else None,
                )
        except MessageTooLargeError as exc:
            await self._refuse_too_large(ref, exc)
            return
        if envelope.duplicate:
            self._woken.set()
            return
        if respond:
            waiting = WaitingTurn(ref, envelope, attempts=0, fence=1, worker=self._worker)
            self._start(waiting, late=False)

    async def _followed(self, inbound: Inbound) -> Inbound:
        """`inbound` in the thread of the message it follows, if its writer belongs there.

        A message to several people (a group mail) never continues a private thread:
        its answers would show that thread to all of them. It starts its own.
        """
        thread_id = await self._wrapper.threads.followed(
            channel=inbound.channel, user_id=inbound.user_id, named=inbound.refers_to
        )
        if thread_id is None or thread_id == inbound.thread_id:
            return inbound
        channel = inbound.channel
        if is_private_thread(channel, thread_id) and not is_private_thread(
            channel, inbound.thread_id
        ):
            return inbound
        return replace(inbound, thread_id=thread_id)

    async def _within_group_cap(self, inbound: Inbound, *, now: datetime) -> Inbound:
        """`inbound`, which starts a group mail thread, in a private one past the day's cap.

        Its answers then go to its sender alone, and say why (`channels.email.writing`);
        nothing the sender wrote is lost. The mail itself does not count: a redelivered
        one is looked at the same way.
        """
        started = await self._wrapper.threads.group_started(
            channel=inbound.channel,
            user_id=inbound.user_id,
            since=now - timedelta(days=1),
            but=inbound.thread_id,
        )
        if started < GROUP_THREADS_PER_DAY:
            return inbound
        log.warning("a sender started %d group mail threads in a day; answering alone", started)
        route = {k: v for k, v in inbound.route.items() if k not in ("cc", "members")}
        route["alone"] = "yes"
        return replace(inbound, thread_id=private_mail_thread(inbound.thread_id), route=route)

    def _start(self, waiting: WaitingTurn, *, late: bool) -> None:
        task = asyncio.create_task(self._in_order(waiting, late=late))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _in_order(self, waiting: WaitingTurn, *, late: bool) -> None:
        ref = waiting.ref
        key = waiting.envelope.thread_key if waiting.envelope else self._thread_key(ref)
        async with self._only_turn_of_thread(key, ref.channel, ref.thread_id, ref.message_id):
            try:
                with reading_for(user_key(ref.channel, ref.user_id)):
                    await self._turn(waiting, late=late)
            except Exception:
                # The store failed mid-turn: the message stays claimed by this live
                # worker until its lease ends; release it now if the store allows.
                log.exception("a %s turn failed; it will be retried", ref.channel)
                await self._release_quietly(waiting)

    async def _turn(self, waiting: WaitingTurn, *, late: bool) -> None:
        ref = waiting.ref
        envelope = waiting.envelope or await self._fresh_envelope(ref)
        if late:
            envelope = replace(envelope, notices=(*envelope.notices, self._late_notice(ref)))
        if waiting.attempts >= MAX_TURN_ATTEMPTS:
            await self._give_up(waiting, envelope)
            return
        # Every request counts against the person's budget, those answered without the
        # model too: an export reads their every row (issue 35, row 7).
        if not await self._admitted(waiting, envelope):
            return
        if await self._commands.answered(waiting, envelope):
            return
        history = await self._wrapper.history.load(envelope.thread_key)
        # "typing" only while the model thinks: a folded or held message of a flood would
        # otherwise send hundreds, queued in the platform's limits before the real answer.
        typing = asyncio.create_task(self._keep_typing(ref))
        await asyncio.sleep(0)  # the indicator goes out first, even before a fast answer
        try:
            output = await self._agent.answer(envelope, history, ref)
        except LLMContextOverflow as exc:
            # Compacting did not make it fit: say so once instead of retrying for ever.
            log.error("a %s message does not fit the model's context: %s", ref.channel, exc)
            await self.answer_plainly(waiting, envelope, TOO_LONG_FOR_MODEL.in_(language_of(ref)))
            return
        except LLMError as exc:
            log.warning("model unavailable for a %s message: %s", ref.channel, exc)
            await self._release(waiting, envelope, notify=True)
            return
        finally:
            typing.cancel()
        if output.effects and not ref.proven:
            # Read-only for a sender nobody proved: what the model would change waits for
            # the address to confirm, and its words about it are not sent (bot.turns.sender_check).
            await self._commands.hold_for_proof(waiting, envelope)
            return
        reply = self._enqueue(ref, envelope, "reply", output.reply)
        polls = tuple(e for e in output.effects if isinstance(e, NewMeetingPoll))
        others = tuple(e for e in output.effects if not isinstance(e, NewMeetingPoll))
        commit = TurnCommit(
            thread_key=envelope.thread_key,
            at=self._clock.now(),
            history=tuple(message_to_stored(m) for m in output.messages),
            compaction=output.compaction,
            effects=(*others, reply, *polls),  # a poll follows the answer that introduces it
            waiting=waiting,
        )
        await self.commit(commit)

    async def answer_plainly(
        self, waiting: WaitingTurn, envelope: ContextEnvelope, text: str, *also: Effect
    ) -> None:
        """Reply without the model, and without adding to the model's conversation.

        `also` are effects committed with the reply (a sign-in link).
        """
        reply = self._enqueue(waiting.ref, envelope, "plain", text)
        commit = TurnCommit(
            thread_key=envelope.thread_key,
            at=self._clock.now(),
            effects=(*also, reply),
            waiting=waiting,
        )
        await self.commit(commit)

    async def _admitted(self, waiting: WaitingTurn, envelope: ContextEnvelope) -> bool:
        """Whether the turn may ask the model (`wrapper.turns.limits`); else folded or held here.

        A folded message goes into the thread's history as the model would
        have seen it, unanswered, and the next message's answer sees it.
        """
        if self._limits is None:
            return True
        ref = waiting.ref
        notice = self._enqueue(ref, envelope, "over-limit", OVER_LIMIT.in_(language_of(ref)))
        verdict = await self._wrapper.admit_turn(
            waiting, user_key=envelope.user_key, limits=self._limits, notice=notice
        )
        if verdict.admission is Admission.RUN:
            return True
        if verdict.notify:
            self._on_commit()  # the notice is queued: wake the dispatcher
        if verdict.admission is Admission.FOLD:
            unanswered = user_turn(envelope.render(ids=True), ref.text)
            commit = TurnCommit(
                thread_key=envelope.thread_key,
                at=self._clock.now(),
                history=(message_to_stored(unanswered),),
                waiting=waiting,
            )
            await self.commit(commit)
            self._woken.set()  # more held messages may be waiting behind it
        elif verdict.admission is Admission.HOLD:
            log.info("a %s message is held for the turn limit", ref.channel)
        return False

    async def commit(self, commit: TurnCommit) -> bool:
        if await self._wrapper.commit_turn(commit):
            self._on_commit()
            return True
        log.warning("a turn lost its claim to another worker; its result is dropped")
        return False

    async def _release(
        self, waiting: WaitingTurn, envelope: ContextEnvelope, *, notify: bool
    ) -> None:
        wait = min(_RETRY_BASE * 2**waiting.attempts, _RETRY_MAX)
        notice = (
            self._enqueue(
                waiting.ref, envelope, "unavailable", UNAVAILABLE.in_(language_of(waiting.ref))
            )
            if notify
            else None
        )
        retry_at = self._clock.now() + wait
        if await self._wrapper.release_turn(waiting, retry_at=retry_at, notice=notice):
            self._on_commit()

    async def _release_quietly(self, waiting: WaitingTurn) -> None:
        try:
            envelope = waiting.envelope or await self._fresh_envelope(waiting.ref)
            await self._release(waiting, envelope, notify=False)
        except Exception:
            log.exception("could not give the message back; its lease will")

    async def _give_up(self, waiting: WaitingTurn, envelope: ContextEnvelope) -> None:
        ref = waiting.ref
        when = to_iso(ref.received_at, envelope.session_tz)
        log.error("giving up on a %s message after %d attempts", ref.channel, waiting.attempts)
        gave_up = GAVE_UP.in_(language_of(ref), when=when)
        reply = self._enqueue(ref, envelope, "reply", gave_up)
        commit = TurnCommit(
            thread_key=envelope.thread_key, at=self._clock.now(), effects=(reply,), waiting=waiting
        )
        await self.commit(commit)

    def _enqueue(self, ref: MessageRef, envelope: ContextEnvelope, what: str, text: str) -> Enqueue:
        if len(text) > MAX_TEXT_CHARS:
            text = text[: MAX_TEXT_CHARS - 1] + "…"
        return Enqueue.answering(
            ref,
            envelope,
            key=f"{ref.key}#{what}",
            kind="reply",
            text=text,
            due_at=self._clock.now(),
        )

    def _late_notice(self, ref: MessageRef) -> str:
        waited = max(self._clock.now() - ref.received_at, timedelta(0))
        return (
            f"Answering late: the person wrote this {format_elapsed(waited)} ago "
            f"({to_iso(self._clock.now(), 'UTC')} now); it could not be answered sooner."
        )

    async def _fresh_envelope(self, ref: MessageRef) -> ContextEnvelope:
        """The envelope of a journaled message kept without one (an older build's row)."""
        envelope = await self._wrapper.receive(ref)
        return replace(envelope, duplicate=False)

    def _thread_key(self, ref: MessageRef) -> str:
        return thread_key(self._wrapper.agent_id, ref.channel, ref.thread_id)

    async def _refuse_too_large(self, ref: MessageRef, exc: MessageTooLargeError) -> None:
        """Answer an oversized message without storing it (the journal refuses it)."""
        reply = Enqueue(
            key=f"{ref.key}#too-large" if ref.message_id else new_job_key(),
            kind="reply",
            channel=ref.channel,
            thread_id=ref.thread_id,
            thread_key=self._thread_key(ref),
            user_key=user_key(ref.channel, ref.user_id),
            user_id=ref.user_id,
            text=TOO_LARGE.in_(language_of(ref), size=exc.size, limit=exc.limit),
            due_at=self._clock.now(),
        )
        await self._wrapper.answer_unrecorded(ref, reply)
        self._on_commit()

    async def _keep_typing(self, ref: MessageRef) -> None:
        channel = self._channels.get(ref.channel)
        if channel is None or not ref.route:
            return
        while True:
            try:
                await channel.typing(ref.route)
            except Exception as exc:  # an indicator is never worth a failed turn
                log.debug("typing indicator failed: %s", type(exc).__name__)
            await asyncio.sleep(TYPING_EVERY)

    @asynccontextmanager
    async def _only_turn_of_thread(
        self, key: str, channel: str, thread_id: str, message_id: str | None
    ) -> AsyncIterator[None]:
        """One turn at a time per thread, in arrival order: in this worker (asyncio locks
        are FIFO), then among the workers on one PostgreSQL
        (`wrapper.coordination.thread_locks`)."""
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with (
                lock,
                self._wrapper.thread_locks.only_turn(
                    key,
                    channel=channel,
                    thread_id=thread_id,
                    message_id=message_id,
                    yield_to=lock,
                ),
            ):
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    # ------------------------------------------------------------- retries

    async def retry_once(self) -> int:
        """Take the waiting messages nobody live is answering and start their turns; how many."""
        taken = await self._wrapper.waiting.claim(
            worker=self._worker, now=self._clock.now(), lease=RETRY_LEASE
        )
        for waiting in taken:
            self._start(waiting, late=True)
        return len(taken)

    async def retry_forever(self, *, interval: float) -> None:
        """Work the waiting list every `interval` seconds, or at once when woken."""
        while True:
            self._woken.clear()
            try:
                await self.retry_once()
            except Exception:
                log.exception("retrying waiting messages failed; trying again later")
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow the
            # cancellation that stops this loop when its timeout fires at once.
            with suppress(TimeoutError):
                async with asyncio.timeout(interval):
                    await self._woken.wait()

    # ------------------------------------------------------------- proactive

    async def proactive(
        self, item: OutboxItem, *, worker: str, late: Late | None = None
    ) -> JobDecision | None:
        """The agent's decision on a claimed proactive job, committed; None if its claim is lost.

        A late job's note (`late`) goes after the text the agent chose, whatever it wrote,
        in the language of the person's words in the thread.
        """
        async with self._only_turn_of_thread(item.thread_key, item.channel, item.thread_id, None):
            history = await self._wrapper.history.load(item.thread_key)
            zone, window = None, None
            if item.user_key:
                zone = await self._wrapper.people.user_timezone(item.user_key)
                window = await self._wrapper.people.contact_window_of(item.user_key)
            output = await self._agent.proactive_turn(item, zone, history, window)
            note = late.said(_thread_language(history)) if late is not None else ""
            text = f"{output.text}\n\n{note}" if note else output.text
            decision = JobDecision(
                item_id=item.id,
                worker=worker,
                text=text,
                defer_until=output.defer_until,
                reason=output.reason,
            )
            commit = TurnCommit(
                thread_key=item.thread_key,
                at=self._clock.now(),
                history=tuple(message_to_stored(m) for m in output.messages),
                job=decision,
            )
            return decision if await self.commit(commit) else None


def _thread_language(history: Sequence[StoredMessage]) -> str | None:
    """The language of the person's newest words in the thread that say one (None: English)."""
    for message in reversed(history):
        if message.role == "user" and (found := said_in(person_words(message.content)[:2000])):
            return found
    return None
