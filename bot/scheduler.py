"""Proactive sends and delivery: claim due outbox jobs, let the agent decide, send.

Every job ends in one of three visible states: sent, deferred by the agent
(with its reason), or failed with the error kept. Nothing here holds or drops
a message because of the hour: outside the person's contact window the agent
is told so, in the advisory, and only its own ``defer`` keeps the message back.
If the model cannot be reached, a reminder goes out as written.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.agent import message_to_stored, stored_to_message
from bot.llm.errors import LLMError
from bot.llm.types import Message, Provider, ToolCall
from bot.prompt import SYSTEM_PROMPT
from bot.tools import TOOLS
from channels.base import ChannelError
from clockcore import Clock, ContactWindow, parse_anchored_time, runtime_time_context
from wrapper import InteractionWrapper
from wrapper.history import History
from wrapper.outbox import Outbox, OutboxItem

__all__ = ["MAX_ATTEMPTS", "Delivery", "DeliveryError", "Scheduler", "proactive_prompt"]

log = logging.getLogger(__name__)

Delivery = Callable[[OutboxItem, str], Awaitable[None]]
"""Sends `text` for a job through its channel; raises `DeliveryError` when it cannot."""


DeliveryError = ChannelError
"""A channel could not deliver (`channels.base.ChannelError`): retried, or failed if permanent."""

MAX_ATTEMPTS = 12
"""Sends of one job before it is marked failed (with backoff, about an hour of trying)."""


@dataclass(frozen=True, slots=True)
class _Decision:
    text: str
    defer_until: datetime | None = None
    reason: str = ""


def proactive_prompt(item: OutboxItem, advisory: str, now_line: str) -> str:
    """The user-role message that starts a proactive turn (facts, then the job)."""
    facts = [
        "[Runtime time context: facts, not instructions]",
        f"- Current time: {now_line}",
    ]
    if advisory:
        facts.append(f"- Advisory: {advisory}")
    facts.append("[/Runtime time context]")
    what = "reminder the person asked for" if item.kind == "reminder" else "scheduled message"
    return (
        "\n".join(facts)
        + f"\n\nA {what} is due now: {item.text}\n"
        + "Reply with the message to send, or call defer with a time and a reason."
    )


class Scheduler:
    """Claims due jobs and delivers them, one worker of possibly many."""

    def __init__(
        self,
        *,
        wrapper: InteractionWrapper,
        outbox: Outbox,
        provider: Provider | None,
        deliver: Delivery,
        clock: Clock,
        contact_window: ContactWindow,
        lease: timedelta = timedelta(minutes=2),
    ) -> None:
        self._wrapper = wrapper
        self._outbox = outbox
        self._provider = provider
        self._deliver = deliver
        self._clock = clock
        self._window = contact_window
        self._lease = lease
        self._history = History(wrapper.database)
        self.worker = "w-" + secrets.token_hex(4)
        self._stopping = asyncio.Event()
        self._woken = asyncio.Event()
        self._running = 0

    async def run_once(self) -> int:
        """Claim and handle every job due now; the number handled."""
        self._running += 1
        try:
            items = await self._outbox.claim_due(
                now=self._clock.now(), worker=self.worker, lease=self._lease
            )
            for item in items:
                await self._handle(item)
            return len(items)
        finally:
            self._running -= 1

    @property
    def idle(self) -> bool:
        """No job is being handled in this process right now."""
        return self._running == 0

    async def run_forever(self, *, interval: float = 1.0) -> None:
        """Poll for due jobs until `stop` is called; a job in hand is always finished."""
        while not self._stopping.is_set():
            self._woken.clear()
            try:
                await self.run_once()
            except Exception:  # the store is down: keep the loop, try again next round
                log.exception("dispatching failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), timeout=interval)

    def wake(self) -> None:
        """A job was just enqueued: look now rather than at the next interval."""
        self._woken.set()

    def stop(self) -> None:
        """Ask `run_forever` to return after the job it is handling, if any."""
        self._stopping.set()
        self._woken.set()

    async def _handle(self, item: OutboxItem) -> None:
        text = item.text
        if item.kind in ("reminder", "proactive"):
            decision = await self._decide(item)
            if decision.defer_until is not None:
                await self._outbox.defer(
                    item.id,
                    worker=self.worker,
                    until=decision.defer_until,
                    reason=decision.reason,
                )
                return
            text = decision.text
        try:
            await self._deliver(item, text)
        except ChannelError as exc:
            if exc.permanent or item.attempts >= MAX_ATTEMPTS:
                log.warning("job %s failed for good: %s", item.id, exc)
                await self._outbox.fail(item.id, worker=self.worker, error=str(exc))
                return
            wait = timedelta(seconds=exc.retry_after or min(2**item.attempts, 600))
            await self._outbox.retry_later(
                item.id, worker=self.worker, error=str(exc), at=self._clock.now() + wait
            )
            return
        except Exception as exc:  # an adapter bug must not take the dispatcher down
            log.exception("job %s: the channel raised", item.id)
            await self._outbox.retry_later(
                item.id, worker=self.worker, error=f"unexpected error: {type(exc).__name__}",
                at=self._clock.now() + timedelta(seconds=min(2**item.attempts, 600)),
            )  # fmt: skip
            return
        sent_at = self._clock.now()
        await self._outbox.mark_sent(item.id, worker=self.worker, sent_at=sent_at)
        await self._wrapper.on_agent_message(
            channel=item.channel,
            thread_id=item.thread_id,
            text=text,
            sent_at=sent_at,
            relates_to_user_id=item.user_key.partition(":")[2] if item.user_key else None,
        )

    async def _decide(self, item: OutboxItem) -> _Decision:
        """The agent's call for a proactive job: the text to send, or a deferral.

        The request is the thread's own conversation (the same bytes its
        turns sent, so a prompt cache serves it) plus one user message with
        the time facts and the job. The job message and the agent's answer
        are added to the thread's history, so the next turn sees what was
        sent or deferred, and the next request still begins with this one.
        """
        if self._provider is None:
            return _Decision(item.text)
        now = self._clock.now()
        zone = await self._user_zone(item)
        context = runtime_time_context(now, zone, self._window)
        prompt = Message(
            role="user",
            content=proactive_prompt(item, context.advisory, str(context.to_dict()["now"])),
        )
        earlier = [stored_to_message(m) for m in await self._history.load(item.thread_key)]
        try:
            completion = await self._provider.complete(
                [Message(role="system", content=SYSTEM_PROMPT), *earlier, prompt], TOOLS
            )
        except LLMError as exc:
            log.warning(
                "model unavailable for job %s, sending as written: %s", item.id, type(exc).__name__
            )
            return _Decision(item.text)
        answer = completion.message
        decision = _Decision(answer.content.strip() or item.text)
        for call in answer.tool_calls:
            if call.name == "defer":
                decision = _deferral(call, zone, now) or decision
                if decision.defer_until is not None:
                    break
        results = [
            Message("tool", _tool_outcome(call, decision), tool_call_id=call.id, name=call.name)
            for call in answer.tool_calls
        ]
        await self._history.append(
            item.thread_key, [message_to_stored(m) for m in (prompt, answer, *results)], at=now
        )
        return decision

    async def _user_zone(self, item: OutboxItem) -> str | None:
        if item.user_key is None:
            return None
        return await self._wrapper.user_timezone(item.user_key)


def _tool_outcome(call: ToolCall, decision: _Decision) -> str:
    """What a tool call in a proactive turn came to (only ``defer`` acts there)."""
    if call.name != "defer":
        return json.dumps({"ok": False, "error": "only defer takes effect in a proactive turn"})
    if decision.defer_until is None:
        return json.dumps({"ok": False, "error": "could not read that time; the message was sent"})
    return json.dumps({"ok": True, "deferred_until": decision.defer_until.isoformat()})


def _deferral(call: ToolCall, zone: str | None, now: datetime) -> _Decision | None:
    try:
        arguments = json.loads(call.arguments or "{}")
    except json.JSONDecodeError:
        return None
    until_text, reason = arguments.get("until"), arguments.get("reason")
    if not isinstance(until_text, str) or not isinstance(reason, str):
        return None
    parsed = parse_anchored_time(until_text, zone or "UTC", now)
    if parsed.start_instant is None or parsed.needs_clarification:
        return None
    return _Decision("", defer_until=parsed.start_instant, reason=reason.strip()[:300])
