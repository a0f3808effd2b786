"""`clockbot chat`: the console channel.

Each line typed (or piped in) is one message to the agent; its reply and any
proactive message (a reminder falling due) are printed as they come. Replies
and reminders go through the outbox and the same dispatcher as every channel,
so the console shows exactly what a chat app would receive. At the end of
piped input, chat exits once every message it took in is answered and every
reply printed, or stays ``--linger`` long to print proactive messages.
With a public URL set (`Settings.public_url`), the web pages are served beside
it on the HTTP port, so "dashboard" gives a link that opens on this machine.

The console is the operator's own terminal: the per-person and per-channel
turn limits (`bot.config.settings.LimitSettings`) do not apply to it. With them, forty
piped lines met "You're writing faster than I can answer" from the 21st on,
and chat ended with those unanswered (issue 36).
"""

from __future__ import annotations

import asyncio
import getpass
import sys
import uuid
from datetime import timedelta
from typing import TextIO

from bot.app.gateway import Gateway
from bot.config.settings import LimitSettings, Settings
from channels.base import Inbound
from channels.console import ConsoleChannel
from clockcore import Clock, SystemClock

__all__ = ["ENDS", "NO_LIMIT", "banner", "chat", "wait_answered"]


def _read_line(source: TextIO, interactive: bool) -> str:
    """One line, "" at the end; on a terminal through input(), with editing and history."""
    if not interactive:
        return source.readline()
    try:
        return input(PROMPT) + "\n"
    except EOFError:
        return ""


PROMPT = "you> "
ENDS = frozenset({"exit", "quit", "/exit", "/quit"})
"""A line that is one of these ends the console, as Ctrl-D does."""


def banner(settings: Settings) -> str:
    """Two lines a person reads first: what to type and how to stop, where the data lives."""
    from bot.app.redact import masked_db

    store = settings.store_url
    where = store.removeprefix("sqlite:///") if store.startswith("sqlite:///") else masked_db(store)
    model = (
        "no language model: the built-in rules answer"
        if settings.llm.provider == "none"
        else f"model {settings.llm.model} ({settings.llm.provider})"
    )
    pages = (
        f" Web pages at {settings.public_url.rstrip('/')}/ui/ (say “dashboard” to sign in)."
        if settings.public_url
        else ""
    )
    return (
        "clockbot: type a message, e.g. “remind me in 10 minutes to stretch”; "
        "exit, quit or Ctrl-D ends it.\n"
        f"Data: {where}; {model}.{pages}\n"
    )


RETRY_INTERVAL = 15.0
"""Seconds between attempts to answer messages the model failed on."""
NO_LIMIT = LimitSettings(turns_per_minute=0, burst=0, channel_turns_per_minute=0, channel_burst=0)
"""The console's turn limits: none (it is the operator's own terminal)."""


async def wait_answered(gateway: Gateway) -> None:
    """Wait until every message taken in is answered: none left on the waiting list.

    A message the model failed on is retried every `RETRY_INTERVAL` and given up,
    visibly, after `bot.turns.lifecycle.MAX_TURN_ATTEMPTS`: this ends.
    """
    while True:
        await gateway.settle(timeout=None)
        if await gateway.wrapper.waiting.count() == 0:
            return
        await asyncio.sleep(0.1)


async def chat(
    settings: Settings,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    linger: timedelta = timedelta(0),
    clock: Clock | None = None,
    poll_interval: float = 0.5,
    show_banner: bool | None = None,
) -> None:
    """Run the console until end of input or an `ENDS` line (plus `linger`).

    `show_banner`: print `banner` first (None: when a person types at a terminal).
    """
    source, sink = stdin or sys.stdin, stdout or sys.stdout
    clock = clock or SystemClock()
    user = getpass.getuser() or "me"
    gateway = Gateway(
        settings.model_copy(update={"limit": NO_LIMIT}),
        channels=[ConsoleChannel(sink)],
        clock=clock,
        poll_interval=poll_interval,
        retry_interval=RETRY_INTERVAL,
        serve_http=settings.public_url is not None,  # the web pages, beside the console
    )
    interactive = source is sys.stdin and source.isatty()
    if interactive:
        import readline  # noqa: F401  - line editing and history for input()
    if interactive if show_banner is None else show_banner:
        sink.write(banner(settings))
        sink.flush()
    await gateway.start()
    try:
        while True:
            line = await asyncio.to_thread(_read_line, source, interactive)
            if not line:
                break
            text = line.strip()
            if not text:
                continue
            if text.lower() in ENDS:
                break
            message = Inbound(
                channel="console",
                thread_id=f"dm:{user}",
                user_id=user,
                text=text,
                message_id=uuid.uuid4().hex,
                received_at=clock.now(),
            )
            await gateway.accept(message)
            await gateway.settle(timeout=None)
        await wait_answered(gateway)
        if linger > timedelta(0):
            await asyncio.sleep(linger.total_seconds())
        await gateway.settle(timeout=None)
    finally:
        await gateway.stop()
