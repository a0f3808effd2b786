"""The shipped `deploy/haproxy.cfg` as the internet sees it: what it serves, refuses and cuts off.

Issue 35, rows 11 and 14: the public frontend passed ``/metrics`` and ``/healthz`` through,
and a client trickling its headers in kept its connection. The real HAProxy runs the file
compose uses; behind it, one small aiohttp server stands in for the three workers (this test
is about the balancer's rules, not the workers; test_workers_behind_haproxy runs real ones).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from tests.bot.test_workers_behind_haproxy import _wait_healthy as wait_healthy
from tests.support.bot_process import REPO_ROOT, free_port
from tests.support.peers import require_peer

pytestmark = [pytest.mark.peer("haproxy"), pytest.mark.timeout(60)]


async def _ok(request: web.Request) -> web.Response:
    forwarded = request.headers.get("X-Forwarded-For")
    return web.Response(
        text=f"worker saw {request.path}" + (f" for {forwarded}" if forwarded else "")
    )


@pytest.fixture
async def front(tmp_path: Path) -> AsyncIterator[str]:
    """The balancer's base URL, with the stand-in worker behind it."""
    binary = shutil.which("haproxy", path=f"{os.environ.get('PATH', '')}:/usr/sbin")
    if binary is None:
        require_peer("haproxy", "not installed (apt-get install haproxy; .ci/run does)")
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", _ok)
    runner = web.AppRunner(app)
    await runner.setup()
    worker = free_port()
    await web.TCPSite(runner, "127.0.0.1", worker).start()
    bind = free_port()
    env = {
        **os.environ,
        "CLOCKBOT_LB_BIND": f"127.0.0.1:{bind}",
        **{f"CLOCKBOT_WORKER_{n}": f"127.0.0.1:{worker}" for n in (1, 2, 3)},
    }
    log = (tmp_path / "haproxy.log").open("ab")
    process = await asyncio.create_subprocess_exec(
        binary, "-db", "-f", str(REPO_ROOT / "deploy" / "haproxy.cfg"),
        env=env, stdout=log, stderr=log, stdin=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{bind}"
    try:
        async with aiohttp.ClientSession() as session:
            await wait_healthy(session, base, timeout=10)
        yield base
    finally:
        process.terminate()
        await process.wait()
        log.close()
        await runner.cleanup()


@pytest.mark.parametrize(
    "path", ["/metrics", "/healthz", "/healthz?verbose=1", "/%68ealthz", "/metrics/x", "/%6Detrics"]
)
async def test_the_workers_health_and_metrics_are_not_public(front: str, path: str) -> None:
    async with aiohttp.ClientSession() as session, session.get(f"{front}{path}") as response:
        assert response.status == 403, path


async def test_webhooks_and_the_balancers_own_health_are_served(front: str) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{front}/telegram/webhook", data=b"{}") as response:
            assert (response.status, await response.text()) == (
                200,
                "worker saw /telegram/webhook for 127.0.0.1",
            )
        async with session.get(f"{front}/lb-healthz") as response:
            assert response.status == 200


async def test_a_client_trickling_its_headers_is_answered_408_and_cut_off(front: str) -> None:
    host, port = front.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"POST /telegram/webhook HTTP/1.1\r\nHost: x\r\n")
    await writer.drain()
    answer = b""
    for line in range(30):  # a header every half second, for up to 15 s
        await asyncio.sleep(0.5)
        try:
            writer.write(f"X-Slow-{line}: 1\r\n".encode())
            await writer.drain()
        except ConnectionError:
            break
        try:
            answer = await asyncio.wait_for(reader.read(200), 0.01)
        except TimeoutError:
            continue
        break
    writer.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer


async def test_the_log_masks_feed_and_sign_in_tokens_and_the_client_is_forwarded(
    front: str, tmp_path: Path
) -> None:
    """Issue 59, row 12: the proxy's log held feed and sign-in tokens; row 11: the workers
    saw only the proxy's address."""
    secrets = ("feedsecret0123456789", "signinsecret987654321")
    async with aiohttp.ClientSession() as session:
        for path in (f"/calendar/{secrets[0]}.ics", f"/ui/signin/{secrets[1]}"):
            async with session.get(f"{front}{path}") as response:
                assert await response.text() == f"worker saw {path} for 127.0.0.1"
    await asyncio.sleep(0.5)  # the log line is written after the response
    logged = (tmp_path / "haproxy.log").read_text(errors="replace")
    assert "/calendar/***" in logged and "/ui/signin/***" in logged
    assert not [secret for secret in secrets if secret in logged]
