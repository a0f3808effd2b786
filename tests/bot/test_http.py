"""`bot.app.http.HttpServer`: a real aiohttp server on 127.0.0.1, port 0, and a real client."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.app.http import MAX_BODY_BYTES, HealthReport, HttpServer
from channels.base import HttpRoute

Serve = Callable[..., Any]


async def _echo_length(request: web.Request) -> web.Response:
    return web.Response(text=str(len(await request.read())))


@pytest.fixture
async def serve() -> AsyncIterator[Serve]:
    """Start an `HttpServer` with the given report and routes; stopped after the test."""
    servers: list[HttpServer] = []

    async def start(report: HealthReport, routes: Sequence[HttpRoute] = ()) -> str:
        async def health() -> HealthReport:
            return report

        server = HttpServer("127.0.0.1", 0, routes=routes, health=health)
        await server.start()
        servers.append(server)
        return f"http://127.0.0.1:{server.port}"

    yield start
    for server in servers:
        await server.stop()


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_healthz_is_200_and_lists_the_channels_sorted(serve: Serve) -> None:
    base = await serve(HealthReport(channels=["telegram", "email"]))
    status, text = await _get(base + "/healthz")
    assert status == 200
    assert json.loads(text) == {"status": "ok", "channels": ["email", "telegram"], "problems": {}}


async def test_healthz_is_503_and_names_what_is_unwell(serve: Serve) -> None:
    report = HealthReport(channels=["slack"], problems={"store": "OperationalError"})
    status, text = await _get(await serve(report) + "/healthz")
    assert status == 503
    assert json.loads(text) == {
        "status": "degraded",
        "channels": ["slack"],
        "problems": {"store": "OperationalError"},
    }


async def test_healthz_says_which_single_reader_intakes_this_worker_reads(serve: Serve) -> None:
    leading = {"telegram:1:polling": True, "email:bot@example.org": False}
    status, text = await _get(
        await serve(HealthReport(channels=["telegram"], leading=leading)) + "/healthz"
    )
    assert status == 200
    assert json.loads(text)["leading"] == leading


async def test_an_unknown_path_is_404(serve: Serve) -> None:
    status, _ = await _get(await serve(HealthReport(channels=[])) + "/nowhere")
    assert status == 404


async def test_an_adapter_route_is_served(serve: Serve) -> None:
    base = await serve(HealthReport(channels=[]), [HttpRoute("POST", "/hook", _echo_length)])
    async with aiohttp.ClientSession() as session:
        async with session.post(base + "/hook", data=b"x" * 1000) as response:
            assert (response.status, await response.text()) == (200, "1000")
        async with session.get(base + "/hook") as response:
            assert response.status == 405


async def test_a_body_over_the_limit_is_refused_with_413(serve: Serve) -> None:
    base = await serve(HealthReport(channels=[]), [HttpRoute("POST", "/hook", _echo_length)])
    async with aiohttp.ClientSession() as session:
        async with session.post(base + "/hook", data=io.BytesIO(b"x" * MAX_BODY_BYTES)) as response:
            assert response.status == 200
        async with session.post(
            base + "/hook", data=io.BytesIO(b"x" * (MAX_BODY_BYTES + 1))
        ) as response:
            assert response.status == 413


async def test_the_port_is_known_only_while_running() -> None:
    async def health() -> HealthReport:
        return HealthReport(channels=[])

    server = HttpServer("127.0.0.1", 0, routes=(), health=health)
    with pytest.raises(RuntimeError):
        _ = server.port
    await server.start()
    assert server.port > 0
    await server.stop()
    await server.stop()  # twice is harmless
    with pytest.raises(RuntimeError):
        _ = server.port


async def test_a_client_sending_its_headers_a_line_at_a_time_is_cut_off() -> None:
    """Issue 35, row 11: a header line every few seconds kept the connection open for ever."""

    async def health() -> HealthReport:
        return HealthReport(channels=[])

    server = HttpServer("127.0.0.1", 0, routes=(), health=health, idle_timeout=1.0)
    await server.start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        await writer.drain()
        closed_after = None
        for line in range(20):  # up to 10 s of a header every half second
            await asyncio.sleep(0.5)
            if reader.at_eof():
                closed_after = line
                break
            try:
                writer.write(f"X-Slow-{line}: 1\r\n".encode())
                await writer.drain()
            except ConnectionError:
                closed_after = line
                break
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.01):
                    if await reader.read(1) == b"":
                        closed_after = line
                        break
        writer.close()
        assert closed_after is not None, "the server kept a slow-header connection open"
        # A whole request on a fresh connection is served as before.
        status, _ = await _get(f"http://127.0.0.1:{server.port}/healthz")
        assert status == 200
    finally:
        await server.stop()
