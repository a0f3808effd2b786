"""The dispatcher: claim due outbox jobs, have proactive ones decided, deliver, count.

Every job ends in one of three visible states: sent, deferred by the agent
(with its reason), or failed with the error kept. Nothing here holds or drops
a message because of the hour: outside the person's contact window the agent
is told so, in the advisory, and only its own ``defer`` keeps the message back
(`bot.turns.lifecycle.Turns.proactive`, which also sends a reminder as written when the
model cannot be reached). A decision is committed before the send, so a
crash between them sends the decided text, decided once.

Jobs go out in lanes, one per thread, each on its own task: a lane's jobs in
order, lanes side by side, and claiming goes on while they send. Each send
first waits for the platform's limits (`bot.app.pacing`), so a chat at its limit
waits alone and every other chat's jobs still go.

Every failure counts toward `MAX_ATTEMPTS` (each claim is an attempt): a
channel error, an adapter's bug, a store error while deciding. A job whose
worker died is claimed again as soon as its heartbeat stops.

With a retention (``CLOCKBOT_RETENTION_DAYS``), the dispatcher deletes the
conversation older than it every `PRUNE_EVERY` (`wrapper.people.retention`).

A job of a recurring schedule has its next occurrence enqueued when it is
claimed (`wrapper.outbound.schedules.advance_in`), and may be skipped there. A job
sent more than `LATE_AFTER` after its time carries a note saying when it was
due (missed occurrences of a schedule fold into that one message).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from bot.app.metrics import Metrics
from bot.app.pacing import Pacer
from bot.calendar_ics import meeting_uid
from bot.replies import Late
from bot.turns.lifecycle import Turns
from channels.base import Channel, ChannelError, Invite, Outgoing, Poll
from clockcore import Clock
from wrapper import InteractionWrapper
from wrapper.meeting_polls import decided_poll_of, poll_id_of
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.schedules import LATE_AFTER
from wrapper.people.linking import LINK_ASK_KEY

__all__ = ["CLAIM_LEASE", "MAX_ATTEMPTS", "PRUNE_EVERY", "Dispatcher"]

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 12
"""Attempts at one job before it is marked failed (with backoff, about an hour of trying)."""
PRUNE_EVERY = timedelta(hours=6)
"""How often a worker applies the retention (``CLOCKBOT_RETENTION_DAYS``); each prune changes
an old thread's prompt prefix once, so not with every poll."""
CLOSE_POLLS_EVERY = timedelta(seconds=30)
"""How often a worker looks for meeting polls past their closing time (a write on SQLite)."""
CLAIM_LEASE = timedelta(minutes=2)
CLAIM_BATCH = 10
"""Jobs claimed at once."""
MAX_LANES = 64
"""Threads sending at once in one process; more wait for the next claim."""
"""The last resort: how long a live worker's claim on a job lasts."""


class Dispatcher:
    """Claims due jobs and delivers them, one worker of possibly many."""

    def __init__(
        self,
        *,
        wrapper: InteractionWrapper,
        turns: Turns,
        channels: Mapping[str, Channel],
        clock: Clock,
        worker: str,
        lease: timedelta = CLAIM_LEASE,
        retention: timedelta | None = None,
        metrics: Metrics | None = None,
        public_url: str | None = None,
    ) -> None:
        self._metrics = metrics
        self._public_url = public_url
        self._wrapper = wrapper
        self._turns = turns
        self._channels = channels
        self._clock = clock
        self.worker = worker
        self._lease = lease
        self._stopping = asyncio.Event()
        self._woken = asyncio.Event()
        self._running = 0
        self._lanes: dict[str, deque[OutboxItem]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._pacer = Pacer()
        self._retention = retention
        self._pruned_at: datetime | None = None
        self._polls_at: datetime | None = None

    @property
    def idle(self) -> bool:
        """No job is being claimed or handled in this process right now."""
        return self._running == 0 and not self._lanes

    async def run_once(self) -> int:
        """Claim the jobs due now and start sending them, each thread's in its lane; how many.

        A lane runs on its own task, so this returns while sends still wait for the
        platforms' limits; `settle` and `run_forever` wait for the lanes.
        """
        room = MAX_LANES - len(self._lanes)
        if room <= 0:
            return 0
        self._running += 1
        try:
            now = self._clock.now()
            await self._prune(now)
            await self._close_polls(now)
            items = await self._wrapper.outbox.claim_due(
                now=now,
                worker=self.worker,
                lease=self._lease,
                limit=min(CLAIM_BATCH, room),
                alive_since=self._wrapper.workers.liveness(now)["alive_since"],
            )
        finally:
            self._running -= 1
        for item in items:  # oldest due first, so each lane is in order
            lane = self._lanes.get(item.thread_key)
            if lane is None:
                lane = self._lanes[item.thread_key] = deque()
                task = asyncio.create_task(self._run_lane(item.thread_key, lane))
                self._tasks.add(task)
                task.add_done_callback(self._lane_done)
            lane.append(item)
        return len(items)

    async def run_forever(self, *, interval: float = 1.0) -> None:
        """Poll for due jobs until `stop` is called; the jobs in hand are always finished."""
        while not self._stopping.is_set():
            self._woken.clear()
            try:
                await self.run_once()
            except Exception:  # the store is down: keep the loop, try again next round
                log.exception("dispatching failed; trying again")
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow the
            # cancellation that stops this loop when its timeout fires at once.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(interval):
                    await self._woken.wait()
        if self._tasks:
            await asyncio.wait(set(self._tasks))

    async def settle(self, *, timeout: float | None = 10.0) -> None:  # noqa: ASYNC109
        """Wait until no turn runs and no job is due or in hand (tests, the console).

        Raises:
            TimeoutError: still busy after `timeout` seconds (None waits as long as it takes).
        """
        async with asyncio.timeout(timeout):
            while True:
                if self._turns.busy:
                    await self._turns.drain()
                    continue
                handled = await self.run_once()
                if self._tasks:
                    await asyncio.wait(set(self._tasks))
                    continue
                if handled == 0 and not self._turns.busy and self.idle:
                    return
                if handled == 0:
                    await asyncio.sleep(0.01)  # another claimer holds a job: let it finish

    def wake(self) -> None:
        """A job was just enqueued: look now rather than at the next interval."""
        self._woken.set()

    def stop(self) -> None:
        """Ask `run_forever` to return after the job it is handling, if any."""
        self._stopping.set()
        self._woken.set()

    async def _close_polls(self, now: datetime) -> None:
        """Decide the meeting polls whose time has come, once every `CLOSE_POLLS_EVERY`.

        Their announcements are outbox jobs, claimed with the others right after.
        """
        if self._polls_at is not None and now - self._polls_at < CLOSE_POLLS_EVERY:
            return
        self._polls_at = now
        if closed := await self._wrapper.meetings.close_due(now):
            log.info("closed %d meeting poll(s) at their closing time", closed)

    async def _prune(self, now: datetime) -> None:
        """With a retention set, delete the conversation older than it, once every `PRUNE_EVERY`.

        Every worker prunes; a second prune of the same moment finds nothing to delete.
        """
        if self._retention is None:
            return
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY:
            return
        self._pruned_at = now
        pruned = await self._wrapper.people.prune(before=now - self._retention)
        if pruned.rows:
            log.info("retention: deleted what was older than %s: %s", self._retention, pruned.rows)

    async def _run_lane(self, thread_key: str, lane: deque[OutboxItem]) -> None:
        """One thread's jobs, in order; other threads' lanes run beside it."""
        try:
            while lane:
                await self._handle(lane[0])
                lane.popleft()
        except Exception:  # the store failed: the claims lapse and the jobs are taken again
            log.exception("dispatching failed in %s; trying again", thread_key)
        finally:
            del self._lanes[thread_key]

    def _lane_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._woken.set()  # the thread's next reply may be claimed now

    async def _handle(self, item: OutboxItem) -> None:
        outbox = self._wrapper.outbox
        try:
            text = await self._text(item)
            if text is None:
                return  # deferred, or another worker has the job now
            platform_ids = await self._deliver(item, text)
        except _TakenOver as exc:
            log.warning("%s; not sending it", exc)
            return
        except Exception as exc:
            permanent = isinstance(exc, ChannelError) and exc.permanent
            if permanent or item.attempts >= MAX_ATTEMPTS:
                log.warning("job %s failed for good: %s", item.id, _error(exc))
                await outbox.fail(item.id, worker=self.worker, error=_error(exc))
                return
            retry_after = exc.retry_after if isinstance(exc, ChannelError) else None
            wait = timedelta(seconds=retry_after or min(2**item.attempts, 600))
            if not isinstance(exc, ChannelError):
                log.exception("job %s: unexpected error", item.id)
            await outbox.retry_later(
                item.id, worker=self.worker, error=_error(exc), at=self._clock.now() + wait
            )
            return
        await self._wrapper.record_delivery(
            item, worker=self.worker, text=text, platform_ids=platform_ids
        )
        if self._metrics is not None:
            due = item.occurs_at or item.due_at
            self._metrics.dispatch_delay.observe(max((self._clock.now() - due).total_seconds(), 0))

    async def _text(self, item: OutboxItem) -> str | None:
        """What to send: the decided text, deciding it first for a proactive job."""
        if item.kind == "reply":
            return item.text
        if item.decided_at is not None:
            return item.final_text or item.text
        now, late = self._clock.now(), None
        if item.schedule_id is not None:
            occurrence = await self._wrapper.reminders.advance(item, now=now, worker=self.worker)
            if not occurrence.send:
                return None  # skipped: missed with ``skip``, or its schedule paused or ended
            if occurrence.due is not None:
                late = Late(occurrence.due, occurrence.zone, occurrence.missed)
        elif now - (item.occurs_at or item.due_at) > LATE_AFTER:
            zone = (
                await self._wrapper.people.user_timezone(item.user_key) if item.user_key else None
            )
            late = Late(item.occurs_at or item.due_at, zone or "UTC")
        decision = await self._turns.proactive(item, worker=self.worker, late=late)
        if self._metrics is not None and decision is not None:
            if decision.defer_until is not None:
                self._metrics.deferrals.inc()
            elif late is not None:
                self._metrics.late.inc()
        if decision is None or decision.defer_until is not None:
            return None
        return decision.text

    async def _poll(self, item: OutboxItem) -> Poll | None:
        """A meeting poll's question and options, for an adapter that shows polls natively."""
        poll_id = poll_id_of(item.key)
        if poll_id is None:
            return None
        poll = await self._wrapper.meetings.poll(poll_id)
        if poll is None:
            return None
        return Poll(poll.question, tuple(option.label for option in poll.options))

    async def _invite(self, item: OutboxItem) -> Invite | None:
        """The meeting a poll's announcement names, for an adapter that attaches events.

        Its ``UID`` is the one in each attendee's calendar feed (`bot.calendar_ics`), so
        a calendar that has both shows one event.
        """
        poll_id = decided_poll_of(item.key)
        poll = await self._wrapper.meetings.poll(poll_id) if poll_id is not None else None
        if poll is None or poll.chosen is None:
            return None
        slot = poll.options[poll.chosen - 1]
        names = await self._wrapper.meetings.attendees(poll.id)
        return Invite(
            uid=meeting_uid(poll.id, self._public_url),
            start=slot.start,
            end=slot.start + timedelta(minutes=poll.minutes),
            title=f"Meeting: {', '.join(names)}" if names else "Meeting",
            description=slot.label,
            repeat=poll.repeat,
            zone=poll.zone,
        )

    async def _deliver(self, item: OutboxItem, text: str) -> Sequence[str]:
        """Send the job; the platform's ids of what went out (kept so replies can name it)."""
        channel = self._channels.get(item.channel)
        if channel is None:
            raise ChannelError(f"the {item.channel} channel is not running here")
        route = await self._wrapper.routes.get(item.thread_key)
        message = Outgoing(
            kind=item.kind,
            thread_id=item.thread_id,
            user_id=item.user_id,
            text=text,
            route=route,
            key=item.key,
            reminder=f"r{item.id}" if item.kind == "reminder" else None,
            question="link" if item.key.startswith(LINK_ASK_KEY) else None,
            poll=await self._poll(item),
            invite=await self._invite(item),
            attempt=item.attempts,
            queued_at=item.created_at,
        )
        await self._pacer.wait(channel.paces(message))
        now = self._clock.now()
        held = await self._wrapper.outbox.renew_claim(
            item.id, worker=self.worker, now=now, until=now + self._lease
        )
        if not held:
            raise _TakenOver(item.id)
        ids = await channel.send(message)
        return tuple(ids or ())


class _TakenOver(Exception):
    """Before its send, the job turned out to be another worker's (this one was taken for dead)."""

    def __init__(self, item_id: int) -> None:
        super().__init__(f"job {item_id} was taken over by another worker before its send")


def _error(exc: BaseException) -> str:
    if isinstance(exc, ChannelError):
        return str(exc)
    return f"unexpected error: {type(exc).__name__}"
