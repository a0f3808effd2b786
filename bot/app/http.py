"""The gateway's one HTTP server: ``GET /healthz`` and the adapters' webhook routes.

`HttpServer` knows nothing of the store or the channels: the gateway hands it
the routes and a `Health` probe, and the server renders the probe's report
as ``/healthz`` (200 when nothing is wrong, 503 naming what is). aiohttp is
imported only when the server starts, so a console-only run never loads it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from channels.base import Channel, HttpRoute

__all__ = ["MAX_BODY_BYTES", "Health", "HealthReport", "HttpServer", "probe", "serve_channels"]

log = logging.getLogger(__name__)

METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""Prometheus' text exposition format."""
MAX_BODY_BYTES = 2 * 1024 * 1024
"""The largest request body read; a larger one is refused with 413."""
IDLE_TIMEOUT = 15.0
"""Seconds a connection may go without a whole request: from its opening (a client that
sends its headers a line at a time is cut off then) and between keep-alive requests.
Platforms send a webhook in one go; behind HAProxy its ``timeout http-request`` acts first."""


@dataclass(frozen=True, slots=True)
class HealthReport:
    """What ``/healthz`` shows.

    Attributes:
        channels: the names of the channels running here.
        problems: what is unwell (``store``, a channel's name) → one line saying how.
        leading: each single-reader intake here (``telegram:<bot>:polling``) and
            whether this worker reads it now (`bot.app.intake`).
    """

    channels: Sequence[str]
    problems: Mapping[str, str] = field(default_factory=dict)
    leading: Mapping[str, bool] = field(default_factory=dict)


Health = Callable[[], Awaitable[HealthReport]]
"""Probes the store and the channels; must not raise (a problem goes in the report)."""


async def probe(
    store: Callable[[], Awaitable[object]],
    channels: Sequence[Channel],
    leading: Callable[[], Mapping[str, bool]] | None = None,
) -> HealthReport:
    """Ask the store (any cheap read), every channel and the intakes' leadership; never raises."""
    problems: dict[str, str] = {}
    try:
        await store()
    except Exception as exc:
        problems["store"] = type(exc).__name__
    for channel in channels:
        try:
            trouble = await channel.health()
        except Exception as exc:
            trouble = type(exc).__name__
        if trouble:
            problems[channel.name] = trouble
    led = dict(leading()) if leading is not None else {}
    return HealthReport(channels=[c.name for c in channels], problems=problems, leading=led)


class HttpServer:
    """An aiohttp server on `host`:`port` serving `routes` and ``/healthz``; port 0 picks one."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        routes: Sequence[HttpRoute],
        health: Health,
        metrics: Callable[[], Awaitable[bytes]] | None = None,
        idle_timeout: float = IDLE_TIMEOUT,
    ) -> None:
        self._idle_timeout = idle_timeout
        self._metrics = metrics
        self._host = host
        self._requested_port = port
        self._routes = tuple(routes)
        self._health = health
        self._runner: Any = None
        self._port: int | None = None

    @property
    def port(self) -> int:
        """The port bound once started (the real one when 0 was asked for).

        Raises:
            RuntimeError: the server is not running.
        """
        if self._port is None:
            raise RuntimeError("the HTTP server is not running")
        return self._port

    async def start(self) -> None:
        """Bind and serve; returns once the port accepts connections."""
        from aiohttp import web

        app = web.Application(client_max_size=MAX_BODY_BYTES)
        app.router.add_get("/healthz", self._healthz)
        if self._metrics is not None:
            app.router.add_get("/metrics", self._serve_metrics)
        for route in self._routes:
            app.router.add_route(route.method, route.path, route.handler)
        # aiohttp starts the keep-alive timer when a connection opens, so it also bounds
        # the wait for the first request's headers (slow headers: issue 35, row 11).
        runner = web.AppRunner(app, access_log=None, keepalive_timeout=self._idle_timeout)
        await runner.setup()
        try:
            await web.TCPSite(runner, self._host, self._requested_port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self._port = int(runner.addresses[0][1])
        log.info("serving HTTP on %s:%s", self._host, self._port)

    async def stop(self) -> None:
        """Stop serving and release the port; does nothing when not running."""
        if self._runner is not None:
            await self._runner.cleanup()
        self._runner = None
        self._port = None

    async def _serve_metrics(self, request: Any) -> Any:
        from aiohttp import web

        assert self._metrics is not None
        body = await self._metrics()
        return web.Response(body=body, headers={"Content-Type": METRICS_CONTENT_TYPE})

    async def _healthz(self, request: Any) -> Any:
        from aiohttp import web

        report = await self._health()
        body: dict[str, object] = {
            "status": "ok" if not report.problems else "degraded",
            "channels": sorted(report.channels),
            "problems": dict(report.problems),
        }
        if report.leading:  # only where some intake takes one reader (bot.app.intake)
            body["leading"] = dict(report.leading)
        return web.json_response(body, status=503 if report.problems else 200, dumps=json.dumps)


async def serve_channels(
    channels: Sequence[Channel],
    *,
    host: str,
    port: int,
    store: Callable[[], Awaitable[object]],
    serve: bool | None = None,
    leading: Callable[[], Mapping[str, bool]] | None = None,
    metrics: Callable[[], Awaitable[bytes]] | None = None,
    pages: Callable[[Health], Sequence[HttpRoute]] | None = None,
) -> HttpServer | None:
    """Start the server for `channels`' webhook routes and ``/healthz``, or None.

    `serve` None serves when any channel has a route or any channel other than
    the console runs (an operator's ``/healthz``); `store` is the cheap read
    that `probe` makes of the store; `leading` says which intakes this worker reads;
    `metrics` renders ``/metrics`` (`bot.app.metrics`); `pages` makes the web pages'
    routes (`bot.web`) from the health probe, only when the server runs.
    """
    routes = [route for channel in channels for route in channel.http_routes()]
    if serve is None:
        serve = bool(routes) or any(c.name != "console" for c in channels)
    if not serve:
        return None

    async def health() -> HealthReport:
        return await probe(store, channels, leading)

    if pages is not None:
        routes.extend(pages(health))
    server = HttpServer(host, port, routes=routes, health=health, metrics=metrics)
    await server.start()
    return server
