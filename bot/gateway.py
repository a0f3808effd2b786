"""The gateway: channels in, the agent in the middle, the outbox and its dispatcher out.

An adapter hands each message to `Gateway.accept`. The wrapper journals it in
one transaction with its route and a place on the waiting list, and only then
does `accept` return, so the adapter confirms the message to its platform
after it is safe (DESIGN.md: ingress at least once, handling exactly once).
The agent's turn runs in the background; its reply goes into the outbox, and
the message leaves the waiting list. A worker that dies mid-turn leaves the
message for the retry loop, which also answers messages the model failed on.

The dispatcher is the scheduler (`bot.scheduler`): it claims due outbox jobs,
lets the agent decide proactive ones, and sends through the job's channel with
the thread's stored route. One aiohttp server serves ``/healthz`` and the
adapters' webhooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
from collections.abc import Sequence
from typing import Any

from bot.agent import RETRY_LEASE, Agent, TurnResult
from bot.config import Settings
from bot.llm.types import Provider
from bot.providers import make_provider
from bot.scheduler import Scheduler
from channels.base import Channel, ChannelError, Inbound, Outgoing
from clockcore import Clock, ContextEnvelope, SystemClock
from wrapper import InteractionWrapper, MessageTooLargeError, Outbox
from wrapper.keys import thread_key
from wrapper.outbox import MAX_TEXT_CHARS, OutboxItem
from wrapper.pending import PendingTurns
from wrapper.routes import ChannelState, Routes

__all__ = ["TOO_LARGE_REPLY", "Gateway", "build_channels"]

log = logging.getLogger(__name__)

TOO_LARGE_REPLY = (
    "That message is too long for me ({size:,} characters; I read up to {limit:,}). "
    "Could you send it in parts?"
)
TYPING_EVERY = 4.0
"""Seconds between typing indicators while a turn runs (Telegram's lasts five)."""


def build_channels(settings: Settings, *, clock: Clock) -> list[Channel]:
    """An adapter for every channel whose settings are present.

    Each adapter's module is imported only when its channel is configured, so
    a deployment needs only the extras of the channels it runs.
    """
    built: list[Channel] = []
    tg = settings.telegram
    if tg.enabled and tg.token is not None:
        from channels.telegram import TelegramChannel

        built.append(
            TelegramChannel(
                tg.token.get_secret_value(),
                api_url=tg.api_url,
                mode=tg.mode,
                webhook_url=tg.webhook_url,
                webhook_secret=_secret(tg.webhook_secret),
                allowed_users=tg.allowed_users,
                clock=clock,
            )
        )
    sl = settings.slack
    if sl.enabled and sl.bot_token is not None:
        from channels.slack import SlackChannel

        built.append(
            SlackChannel(
                sl.bot_token.get_secret_value(),
                mode=sl.mode,
                app_token=_secret(sl.app_token),
                signing_secret=_secret(sl.signing_secret),
                api_url=sl.api_url,
                allowed_users=sl.allowed_users,
                allowed_channels=sl.allowed_channels,
                clock=clock,
            )
        )
    em = settings.email
    if em.enabled and em.address is not None:
        from channels.email import EmailChannel

        assert em.imap_host is not None  # validated by the settings
        assert em.smtp_host is not None
        built.append(
            EmailChannel(
                em.address,
                imap_host=em.imap_host,
                imap_port=em.imap_port,
                imap_user=em.imap_user,
                imap_password=_secret(em.imap_password),
                imap_security=em.imap_security,
                smtp_host=em.smtp_host,
                smtp_port=em.smtp_port,
                smtp_user=em.smtp_user,
                smtp_password=_secret(em.smtp_password),
                smtp_security=em.smtp_security,
                allowed_senders=em.allowed_senders,
                require_auth_results=em.require_auth_results,
                clock=clock,
            )
        )
    return built


def _secret(value: Any) -> str | None:
    return None if value is None else str(value.get_secret_value())


class Gateway:
    """Runs channels, turns, the dispatcher and the HTTP server over one store.

    `channels` None builds them from `settings`; `provider` None makes the
    configured one. `serve_http` None serves HTTP when any channel other than
    the console runs (for webhooks and ``/healthz``).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        channels: Sequence[Channel] | None = None,
        clock: Clock | None = None,
        provider: Provider | None = None,
        poll_interval: float = 0.5,
        retry_interval: float = 15.0,
        serve_http: bool | None = None,
    ) -> None:
        self._settings = settings
        self._clock = clock or SystemClock()
        self._channel_list = list(channels) if channels is not None else None
        self._provider_given = provider
        self._poll_interval = poll_interval
        self._retry_interval = retry_interval
        self._serve_http = serve_http
        self._turns: set[asyncio.Task[None]] = set()
        self._thread_locks: dict[str, tuple[asyncio.Lock, int]] = {}
        self._background: list[asyncio.Task[None]] = []
        self._runner: Any = None
        self._started: list[Channel] = []
        self.http_port: int | None = None

    # ------------------------------------------------------------- life

    async def start(self) -> None:
        """Open the store, start the dispatcher, the channels and the HTTP server."""
        s = self._settings
        self.wrapper = await InteractionWrapper.open(
            s.store_url, agent_id=s.agent_id, policy=s.clock, clock=self._clock,
            contact_window=s.contact_window,
        )  # fmt: skip
        database = self.wrapper.database
        self.provider = self._provider_given or make_provider(s.llm)
        self.outbox = Outbox(database)
        self.state = ChannelState(database, clock_now=self._clock.now)
        self._routes = Routes(database)
        self._pending = PendingTurns(database)
        self.agent = Agent(
            wrapper=self.wrapper, provider=self.provider, clock=self._clock,
            contact_window=s.contact_window, outbox=self.outbox,
        )  # fmt: skip
        self.scheduler = Scheduler(
            wrapper=self.wrapper, outbox=self.outbox, provider=self.provider,
            deliver=self._deliver, clock=self._clock, contact_window=s.contact_window,
        )  # fmt: skip
        if self._channel_list is None:
            self._channel_list = build_channels(s, clock=self._clock)
        self.channels = {channel.name: channel for channel in self._channel_list}
        try:
            for channel in self._channel_list:
                await channel.start(self.accept, self.state)
                self._started.append(channel)
                log.info("channel %s started", channel.name)
            await self._start_http()
        except BaseException:
            await self.stop()
            raise
        self._background = [
            asyncio.create_task(self.scheduler.run_forever(interval=self._poll_interval)),
            asyncio.create_task(self._retry_forever()),
        ]

    async def stop(self) -> None:
        """Stop receiving, finish the turns in hand, then stop sending and close the store."""
        for channel in reversed(self._started):
            try:
                await channel.stop()
            except Exception:
                log.exception("channel %s did not stop cleanly", channel.name)
        self._started.clear()
        if self._turns:
            await asyncio.wait(set(self._turns), timeout=30)
        if hasattr(self, "scheduler"):
            self.scheduler.stop()
        for task in self._background[1:]:  # the retry loop; the dispatcher ends on its own
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._background = []
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if hasattr(self, "provider"):
            await self.provider.aclose()
        if hasattr(self, "wrapper"):
            await self.wrapper.close()

    async def __aenter__(self) -> Gateway:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def run_until_stopped(self) -> None:
        """Start, run until SIGINT or SIGTERM, then stop cleanly."""
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stopping.set)
        await self.start()
        try:
            await stopping.wait()
        finally:
            await self.stop()

    async def settle(self, *, timeout: float | None = 10.0) -> None:  # noqa: ASYNC109
        """Wait until no turn runs and no outbox job is due or in hand (tests, the console).

        Raises:
            TimeoutError: still busy after `timeout` seconds (None waits as long as it takes).
        """
        async with asyncio.timeout(timeout):
            while True:
                if self._turns:
                    await asyncio.wait(set(self._turns))
                    continue
                handled = await self.scheduler.run_once()
                if handled == 0 and not self._turns and self.scheduler.idle:
                    return
                if handled == 0:
                    await asyncio.sleep(0.01)  # another claimer holds a job: let it finish

    # ------------------------------------------------------------- inbound

    async def accept(self, inbound: Inbound) -> None:
        """Record one message and start its answer (the adapters' `Sink`).

        Returns once the message is journaled; raises when the store cannot
        record it, and then the adapter must not confirm it to its platform.
        """
        now = self._clock.now()
        try:
            envelope = await self.wrapper.receive(
                channel=inbound.channel, thread_id=inbound.thread_id, user_id=inbound.user_id,
                text=inbound.text, received_at=inbound.received_at,
                message_id=inbound.message_id, route=inbound.route,
                answer_by=now + RETRY_LEASE if inbound.respond else None,
                platform_zone=inbound.user_zone, hint=inbound.hint,
            )  # fmt: skip
        except MessageTooLargeError as exc:
            await self._refuse_too_large(inbound, exc)
            return
        if envelope.duplicate or not inbound.respond:
            return
        task = asyncio.create_task(self._answer(inbound, envelope))
        self._turns.add(task)
        task.add_done_callback(self._turns.discard)

    async def _answer(self, inbound: Inbound, envelope: ContextEnvelope) -> None:
        """One turn at a time per thread, in arrival order, so history and replies stay in order."""
        key = envelope.thread_key
        lock, users = self._thread_locks.get(key, (asyncio.Lock(), 0))
        self._thread_locks[key] = (lock, users + 1)
        try:
            async with lock:
                await self._run_turn(inbound, envelope)
        finally:
            lock, users = self._thread_locks[key]
            if users == 1:
                del self._thread_locks[key]
            else:
                self._thread_locks[key] = (lock, users - 1)

    async def _run_turn(self, inbound: Inbound, envelope: ContextEnvelope) -> None:
        typing = asyncio.create_task(self._keep_typing(inbound))
        try:
            result = await self.agent.answer(
                envelope, thread_id=inbound.thread_id, user_id=inbound.user_id,
                text=inbound.text, message_id=inbound.message_id,
            )  # fmt: skip
            await self._enqueue_reply(result)
            if not result.model_failed:
                await self._pending.done(channel=inbound.channel, message_id=inbound.message_id)
        except Exception:
            # The message stays on the waiting list; the retry loop answers it.
            log.exception("turn failed for a %s message; it will be retried", inbound.channel)
        finally:
            typing.cancel()
        self.scheduler.wake()

    async def _keep_typing(self, inbound: Inbound) -> None:
        channel = self.channels.get(inbound.channel)
        if channel is None:
            return
        while True:
            try:
                await channel.typing(inbound.route)
            except Exception as exc:  # an indicator is never worth a failed turn
                log.debug("typing indicator failed: %s", type(exc).__name__)
            await asyncio.sleep(TYPING_EVERY)

    async def _enqueue_reply(self, result: TurnResult) -> None:
        if not result.reply:
            return
        envelope = result.envelope
        text = result.reply
        if len(text) > MAX_TEXT_CHARS:
            text = text[: MAX_TEXT_CHARS - 1] + "…"
        now = self._clock.now()
        await self.outbox.enqueue(
            kind="reply", channel=envelope.channel, thread_id=result.thread_id,
            thread_key=envelope.thread_key, user_key=envelope.user_key, text=text,
            due_at=now, now=now,
        )  # fmt: skip

    async def _refuse_too_large(self, inbound: Inbound, exc: MessageTooLargeError) -> None:
        """Answer an oversized message without storing it (the journal refuses it)."""
        now = self._clock.now()
        key = thread_key(self._settings.agent_id, inbound.channel, inbound.thread_id)
        await self._routes.put(thread_key=key, channel=inbound.channel, route=inbound.route, at=now)
        await self.outbox.enqueue(
            kind="reply", channel=inbound.channel, thread_id=inbound.thread_id, thread_key=key,
            user_key=f"{inbound.channel}:{inbound.user_id}",
            text=TOO_LARGE_REPLY.format(size=exc.size, limit=exc.limit), due_at=now, now=now,
        )  # fmt: skip
        self.scheduler.wake()

    async def _retry_forever(self) -> None:
        """Answer waiting messages (model failures, turns a dead worker left)."""
        while True:
            await asyncio.sleep(self._retry_interval)
            try:
                if await self.agent.retry_pending(deliver=self._enqueue_reply):
                    self.scheduler.wake()
            except Exception:
                log.exception("retrying waiting messages failed; trying again later")

    # ------------------------------------------------------------- outbound

    async def _deliver(self, item: OutboxItem, text: str) -> None:
        channel = self.channels.get(item.channel)
        if channel is None:
            raise ChannelError(f"the {item.channel} channel is not running here")
        user_id = item.user_key.partition(":")[2] if item.user_key else None
        route = await self._routes.get(item.thread_key)
        await channel.send(
            Outgoing(
                kind=item.kind,
                thread_id=item.thread_id,
                user_id=user_id,
                text=text,
                route=route,
                key=f"outbox-{item.id}",
            )
        )

    # ------------------------------------------------------------- HTTP

    async def _start_http(self) -> None:
        routes = [route for channel in self._started for route in channel.http_routes()]
        serve = self._serve_http
        if serve is None:
            serve = bool(routes) or any(c.name != "console" for c in self._started)
        if not serve:
            return
        from aiohttp import web

        app = web.Application(client_max_size=2 * 1024 * 1024)
        app.router.add_get("/healthz", self._healthz)
        for route in routes:
            app.router.add_route(route.method, route.path, route.handler)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self._settings.http_host, self._settings.http_port)
        await site.start()
        self._runner = runner
        self.http_port = int(runner.addresses[0][1])
        log.info("serving HTTP on %s:%s", self._settings.http_host, self.http_port)

    async def _healthz(self, request: Any) -> Any:
        from aiohttp import web

        problems: dict[str, str] = {}
        try:
            await self.outbox.listing(limit=1)
        except Exception as exc:
            problems["store"] = type(exc).__name__
        for channel in self._started:
            try:
                trouble = await channel.health()
            except Exception as exc:
                trouble = type(exc).__name__
            if trouble:
                problems[channel.name] = trouble
        body = {
            "status": "ok" if not problems else "degraded",
            "channels": sorted(self.channels),
            "problems": problems,
        }
        return web.json_response(
            body, status=200 if not problems else 503, dumps=lambda v: json.dumps(v)
        )
