"""The container image, built and run for real: podman, a Debian base from mmdebstrap, PostgreSQL.

`deploy/build-image.sh` builds `deploy/Dockerfile` on a Debian base made from this host's apt
sources (no registry is reachable here). The container then runs `clockbot run` with host
networking against the suite's PostgreSQL and the fake Bot API in webhook mode, and must
answer ``/healthz`` and a Telegram webhook update with a reply.

Minutes long, so `make test` leaves it out (marker ``image``); `make test-image` runs it, and
`.ci/run` calls both. Without podman or mmdebstrap it skips with the reason, and fails under
``CLOCKBOT_REQUIRE_PEERS=1``. Issue 14, "The image, built and run for real".
"""

from __future__ import annotations

import asyncio
import json
import secrets
import shutil
import urllib.request

import pytest

from tests.support.bot_process import REPO_ROOT, free_port
from tests.support.fake_telegram import FakeTelegram
from tests.support.peers import require_peer

pytestmark = [pytest.mark.image, pytest.mark.peer("podman"), pytest.mark.timeout(1200)]

TAG = "localhost/clockbot:test"
SECRET = "image-webhook-secret"


async def _run(*command: str, within: float) -> str:
    process = await asyncio.create_subprocess_exec(
        *command, cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await asyncio.wait_for(process.communicate(), within)
    text = out.decode(errors="replace")
    if process.returncode != 0:
        pytest.fail(f"{' '.join(command)} exited with {process.returncode}:\n{text[-4000:]}")
    return text


async def _healthz(port: int, within: float) -> dict[str, object]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within

    def get() -> dict[str, object] | None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                return dict(json.load(r))
        except OSError:
            return None

    while loop.time() < deadline:
        if (body := await asyncio.to_thread(get)) is not None:
            return body
        await asyncio.sleep(0.5)
    pytest.fail(f"the container answered no /healthz within {within} s")


async def test_the_image_builds_and_answers_healthz_and_a_webhook(postgres_url: str) -> None:
    for tool in ("podman", "mmdebstrap"):
        if shutil.which(tool) is None:
            require_peer("podman", f"{tool} is not installed (apt-get install podman mmdebstrap)")
    await _run(str(REPO_ROOT / "deploy" / "build-image.sh"), TAG, within=1000)
    name = f"clockbot-test-{secrets.token_hex(4)}"
    port = free_port()
    async with FakeTelegram() as tg:
        alice = tg.user(42, "alice")
        env = {
            "CLOCKBOT_DATABASE_URL": postgres_url,
            "CLOCKBOT_HTTP_HOST": "127.0.0.1",
            "CLOCKBOT_HTTP_PORT": str(port),
            "CLOCKBOT_LLM_PROVIDER": "none",
            "CLOCKBOT_TELEGRAM_TOKEN": tg.token,
            "CLOCKBOT_TELEGRAM_API_URL": tg.api_url,
            "CLOCKBOT_TELEGRAM_MODE": "webhook",
            "CLOCKBOT_TELEGRAM_WEBHOOK_URL": "https://bot.example.test/telegram/webhook",
            "CLOCKBOT_TELEGRAM_WEBHOOK_SECRET": SECRET,
        }
        settings = [arg for key, value in env.items() for arg in ("-e", f"{key}={value}")]
        await _run(
            # Limits below the host's: podman's defaults raise them, which a host without
            # CAP_SYS_RESOURCE (this sandbox) refuses with "error setting rlimit".
            "podman", "run", "--detach", "--network", "host",
            "--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096",
            "--name", name, *settings, TAG,
            within=120,
        )  # fmt: skip
        try:
            health = await _healthz(port, within=60)
            assert health.get("status") == "ok", health
            update = tg.private(alice, "what time is it in Tokyo")
            url = f"http://127.0.0.1:{port}/telegram/webhook"
            assert await tg.post_webhook(url, update) == 200
            (reply,) = await tg.wait_sent(1, timeout=30)
            assert "Asia/Tokyo" in reply.plain
        finally:
            logs = await _run("podman", "logs", name, within=60)
            await _run("podman", "rm", "--force", name, within=60)
    assert "Traceback" not in logs, logs[-4000:]
