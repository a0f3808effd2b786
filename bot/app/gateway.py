"""The gateway: the composition root. It builds the parts and runs them; it decides nothing.

- channels (`build_channels`) hand messages to `bot.turns.lifecycle.Turns.intake`, which
  journals them before the adapter confirms them (docs/ARCHITECTURE.md: ingress at least
  once, handling exactly once) and runs their turns, each committed once;
- `bot.app.dispatch.Dispatcher` claims due outbox jobs and delivers them;
- this worker beats its heartbeat (`wrapper.coordination.workers`), so when it dies, any
  other worker, or its own restart, takes what it held within seconds;
- an intake a platform allows only one reader of (Telegram polling, Slack
  Socket Mode, a mailbox) is read by the worker that leads it (`bot.app.intake`);
- one HTTP server (`bot.app.http`) serves ``/healthz`` and the adapters' webhooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import timedelta

from bot.agent import Agent
from bot.app.cache_watch import WatchedProvider
from bot.app.channel_registry import build_channels, start_channels, stop_channels
from bot.app.dispatch import Dispatcher
from bot.app.duckling_pool import isolate as isolate_duckling
from bot.app.http import Health, HttpServer, serve_channels
from bot.app.intake import IntakeLeader
from bot.app.metrics import Metrics
from bot.app.redact import redact_http_logs
from bot.config.settings import Settings
from bot.llm.context import discover
from bot.llm.providers import make_provider
from bot.llm.types import Provider
from bot.turns.lifecycle import Turns
from channels.base import Channel, HttpRoute, Inbound
from clockcore import Clock, SystemClock
from wrapper import InteractionWrapper
from wrapper.coordination.leadership import Leadership
from wrapper.coordination.workers import new_worker_id

__all__ = ["Gateway"]

log = logging.getLogger(__name__)


class Gateway:
    """The composition root: one store, one agent, the turns, the dispatcher, the channels.

    `channels` None builds them from `settings`; `provider` None makes the
    configured one. `serve_http` None serves HTTP when any channel other than
    the console runs (for webhooks and ``/healthz``). `baseline` runs the agent
    as `clockbot eval --baseline` measures it (`bot.agent.Agent`), never in service.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        channels: Sequence[Channel] | None = None,
        clock: Clock | None = None,
        provider: Provider | None = None,
        poll_interval: float = 0.5,
        retry_interval: float | None = None,
        serve_http: bool | None = None,
        baseline: bool = False,
    ) -> None:
        self._settings = settings
        self._baseline = baseline
        self._clock = clock or SystemClock()
        self._channel_list = list(channels) if channels is not None else None
        self._provider_given = provider
        self._poll_interval = poll_interval
        self._retry_interval = retry_interval
        self._serve_http = serve_http
        self._background: list[asyncio.Task[None]] = []
        self._http: HttpServer | None = None
        self._started: list[Channel] = []
        self.intake: IntakeLeader | None = None
        self.worker = new_worker_id()
        self.channels: dict[str, Channel] = {}
        self.http_port: int | None = None
        self.metrics = Metrics()

    # ------------------------------------------------------------- life

    async def start(self) -> None:
        """Open the store, join the workers, start the dispatcher, the channels, HTTP."""
        redact_http_logs()
        # Duckling reads in child processes with a time limit: a text that is slow to read
        # never holds the event loop (bot.app.duckling_pool).
        isolate_duckling()
        s = self._settings
        self.wrapper = await InteractionWrapper.open(
            s.store_url,
            agent_id=s.agent_id,
            policy=s.clock,
            clock=self._clock,
            contact_window=s.contact_window,
        )
        self.outbox = self.wrapper.outbox
        self.wrapper.workers.dead_after = timedelta(seconds=s.worker.dead_after)
        await self.wrapper.workers.beat(self.worker, now=self._clock.now())
        provider = self._provider_given or make_provider(s.llm)
        self.provider = (
            provider
            if provider.name == "rules"
            else WatchedProvider(
                provider,
                wrapper=self.wrapper,
                clock=self._clock,
                model=s.llm.model or "",
                metrics=self.metrics,
            )
        )
        context = await discover(s.llm) if self.provider.name != "rules" else None
        if context is not None:
            log.info("the model's context window: %d tokens (%s)", *context)
        self.agent = Agent(
            wrapper=self.wrapper,
            provider=self.provider,
            clock=self._clock,
            contact_window=s.contact_window,
            context_tokens=context[0] if context else None,
            tools=s.llm.tools,
            baseline=self._baseline,
            text_calls=s.llm.reads_text_calls,
            reader_first=s.llm.mode == "reader-first",
        )
        self.turns = Turns(
            wrapper=self.wrapper,
            agent=self.agent,
            clock=self._clock,
            worker=self.worker,
            channels=self.channels,
            on_commit=self._committed,
            limits=s.limit.turn_limits(),
            public_url=s.public_url,
        )
        self.dispatcher = Dispatcher(
            wrapper=self.wrapper,
            turns=self.turns,
            channels=self.channels,
            clock=self._clock,
            worker=self.worker,
            retention=timedelta(days=s.retention_days) if s.retention_days else None,
            metrics=self.metrics,
            public_url=s.public_url,
        )
        try:
            if self._channel_list is None:
                self._channel_list = build_channels(s, clock=self._clock)
            self.channels.update((channel.name, channel) for channel in self._channel_list)
            await start_channels(
                self._channel_list,
                self.accept,
                self.wrapper.channel_state,
                started=self._started,
                intake=False,
            )
            self.intake = IntakeLeader(Leadership(self.wrapper.database), self._started)
            await self.intake.step()  # lead at once what no other worker leads
            self._http = await serve_channels(
                self._started,
                host=s.http_host,
                port=s.http_port,
                serve=self._serve_http,
                store=lambda: self.wrapper.outbox.listing(limit=1),
                leading=self.intake.status,
                metrics=self._render_metrics,
                pages=self._web_pages,
            )
            self.http_port = self._http.port if self._http is not None else None
        except BaseException:
            await self.stop()
            raise
        beat = s.worker.heartbeat
        self._background = [
            asyncio.create_task(job)
            for job in (
                self.dispatcher.run_forever(interval=self._poll_interval),
                self.turns.retry_forever(interval=self._retry_interval or beat),
                self.wrapper.workers.beat_forever(self.worker, clock=self._clock, every=beat),
                self.intake.run_forever(),
            )
        ]

    async def stop(self) -> None:
        """Stop receiving, finish the turns in hand, then stop sending and close the store."""
        if self.intake is not None:
            await self.intake.stop()
        await stop_channels(self._started)
        if hasattr(self, "turns"):
            await self.turns.drain(timeout=30)
        if hasattr(self, "dispatcher"):
            self.dispatcher.stop()
        for task in self._background[1:]:  # retries and heartbeat; the dispatcher ends itself
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._background = []
        if self._http is not None:
            await self._http.stop()
            self._http = None
        if hasattr(self, "provider"):
            await self.provider.aclose()
        if hasattr(self, "wrapper"):
            with contextlib.suppress(Exception):  # a store that is down frees the claims anyway
                await self.wrapper.workers.retire(self.worker)
            await self.wrapper.close()

    async def __aenter__(self) -> Gateway:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def settle(self, *, timeout: float | None = 10.0) -> None:  # noqa: ASYNC109
        """`bot.app.dispatch.Dispatcher.settle`: no turn running, no job due or in hand."""
        await self.dispatcher.settle(timeout=timeout)

    async def accept(self, inbound: Inbound) -> None:
        """The adapters' `Sink`: `bot.turns.lifecycle.Turns.intake`."""
        await self.turns.intake(inbound)
        self.metrics.messages.labels(inbound.channel).inc()

    def _committed(self) -> None:
        """A turn was committed: count it, and wake the dispatcher for its reply."""
        self.metrics.turns.inc()
        self.dispatcher.wake()

    def _web_pages(self, health: Health) -> list[HttpRoute]:
        """The ``/ui/`` routes (`bot.web`), made only when HTTP is served."""
        from bot.web.calendar import CalendarFeeds
        from bot.web.pages import WebPages

        s = self._settings
        admin = s.admin_token.get_secret_value() if s.admin_token else None
        pages = WebPages(
            wrapper=self.wrapper,
            clock=self._clock,
            public_url=s.public_url,
            admin_token=admin,
            health=health,
            wake=self.dispatcher.wake,
            worker=self.worker,
            trusted_proxies=s.trusted_proxies,
        )
        if s.public_url is None:
            return pages.routes()
        feeds = CalendarFeeds(wrapper=self.wrapper, clock=self._clock, public_url=s.public_url)
        return [*pages.routes(), *feeds.routes()]

    async def _render_metrics(self) -> bytes:
        leading = self.intake.status if self.intake is not None else None
        return await self.metrics.render(self.wrapper.outbox.counts, leading)
