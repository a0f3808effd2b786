"""`clockbot chat`: the console channel.

Each line typed (or piped in) is one message to the agent; its reply and any
proactive message (a reminder falling due) are printed as they come. Replies
and reminders go through the outbox and the same dispatcher as every channel,
so the console shows exactly what a chat app would receive. At the end of
piped input, chat exits once every reply is printed, or stays ``--linger``
long to print proactive messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import sys
import uuid
from datetime import timedelta
from typing import TextIO

from bot.agent import Agent, TurnResult
from bot.config import Settings
from bot.providers import make_provider
from bot.scheduler import Scheduler
from clockcore import Clock, SystemClock
from wrapper import InteractionWrapper
from wrapper.keys import thread_key
from wrapper.outbox import Outbox, OutboxItem

__all__ = ["chat"]


def _read_line(source: TextIO, interactive: bool) -> str:
    """One line, "" at the end; on a terminal through input(), with editing and history."""
    if not interactive:
        return source.readline()
    try:
        return input(PROMPT) + "\n"
    except EOFError:
        return ""


PROMPT = "you> "
RETRY_INTERVAL = 15.0
"""Seconds between attempts to answer messages the model failed on."""


async def chat(
    settings: Settings,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    linger: timedelta = timedelta(0),
    clock: Clock | None = None,
    poll_interval: float = 0.5,
) -> None:
    """Run the console until end of input (plus `linger`)."""
    source, sink = stdin or sys.stdin, stdout or sys.stdout
    clock = clock or SystemClock()
    wrapper = await InteractionWrapper.open(
        settings.store_url, agent_id=settings.agent_id, policy=settings.clock, clock=clock,
        contact_window=settings.contact_window,
    )  # fmt: skip
    provider = make_provider(settings.llm)
    outbox = Outbox(wrapper.database)
    user = getpass.getuser() or "me"
    thread_id = f"dm:{user}"

    async def deliver(item: OutboxItem, text: str) -> None:
        print(
            f"clockbot> {text}" if item.kind == "reply" else f"clockbot (reminder)> {text}",
            file=sink,
            flush=True,
        )

    agent = Agent(
        wrapper=wrapper, provider=provider, clock=clock, contact_window=settings.contact_window,
        outbox=outbox,
    )  # fmt: skip
    scheduler = Scheduler(
        wrapper=wrapper, outbox=outbox, provider=provider, deliver=deliver, clock=clock,
        contact_window=settings.contact_window,
    )  # fmt: skip

    async def reply(result: TurnResult) -> None:
        if result.reply:
            await outbox.enqueue(
                kind="reply", channel="console", thread_id=thread_id,
                thread_key=thread_key(settings.agent_id, "console", thread_id),
                user_key=result.envelope.user_key, text=result.reply, due_at=clock.now(),
                now=clock.now(),
            )  # fmt: skip

    async def retry_kept() -> None:
        """Answer messages the model failed on, once it is back."""
        while True:
            await asyncio.sleep(RETRY_INTERVAL)
            for result in await agent.retry_pending():
                await reply(result)

    background = asyncio.create_task(scheduler.run_forever(interval=poll_interval))
    retrying = asyncio.create_task(retry_kept())
    interactive = source is sys.stdin and source.isatty()
    if interactive:
        import readline  # noqa: F401  - line editing and history for input()
    try:
        while True:
            line = await asyncio.to_thread(_read_line, source, interactive)
            if not line:
                break
            text = line.strip()
            if not text:
                continue
            result = await agent.on_message(
                channel="console", thread_id=thread_id, user_id=user, text=text,
                message_id=uuid.uuid4().hex,
            )  # fmt: skip
            await reply(result)
            await scheduler.run_once()
        if linger > timedelta(0):
            await asyncio.sleep(linger.total_seconds())
        await scheduler.run_once()
    finally:
        scheduler.stop()
        await background
        retrying.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await retrying
        await provider.aclose()
        await wrapper.close()
