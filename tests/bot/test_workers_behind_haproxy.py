"""Three `clockbot run` workers on one PostgreSQL behind HAProxy, killed -9 while they work.

The workers are real processes of this checkout with the same settings: Telegram in webhook
mode (the fake Bot API) and Slack HTTP events (the fake Slack), the responder model of
`tests/support/fake_llm.py` (it calls three writing tools, then answers "answer to msg N").
In front of their HTTP ports runs HAProxy with `deploy/haproxy.cfg`, the file compose uses,
round-robin and nothing sticky. MESSAGES messages go in over THREADS threads (Telegram
private chats and Slack DMs), each POSTed to the balancer and retried until it answers 200,
as both platforms do. Meanwhile a random worker is SIGKILLed and started again every few
seconds. Afterwards, judged from the platforms' records:

- every message answered, and only once. On Telegram a second copy is allowed only when the
  worker that sent the first was killed after sending it (up to IN_FLIGHT s before Telegram
  took it) and before the second went out: the one at-least-once window
  (docs/ARCHITECTURE.md, "At least once"), as the Bot API takes no idempotency key. Each
  worker talks to the fake Bot API under a path of its own, so the sender is known. On Slack
  no second copy is allowed: a job claimed again looks for its parts' metadata before posting
  (`channels.slack.sending.Sender._posted_parts`);
- each thread's answers in the order of its messages.

Issue 14, acceptance "Multi-worker kill -9" (the webhook configuration).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import time
from pathlib import Path

import aiohttp
import pytest

from tests.support.answers import IN_FLIGHT, Answer, settle, twice, when
from tests.support.bot_process import REPO_ROOT, free_port
from tests.support.bot_process import workers as start_workers
from tests.support.fake_llm import FakeLLMServer, Responder
from tests.support.fake_slack import FakeSlack, dm_event, event_body, signed_headers
from tests.support.fake_telegram import FakeTelegram
from tests.support.peers import require_peer

pytestmark = [
    pytest.mark.slow, pytest.mark.timed, pytest.mark.peer("haproxy"), pytest.mark.peer("postgres"),
    pytest.mark.timeout(300),
]  # fmt: skip

SEED = int(os.environ.get("WORKERS_SEED", "14"))
WORKERS = 3
THREADS = 30
MESSAGES = 300
SLACK_SHARE = 1 / 3
"""Of the threads, this share are Slack DMs; the rest Telegram private chats."""
GAP = (0.3, 2.0)
"""Seconds between two messages of one thread."""
KILL_EVERY = (2.0, 5.0)
"""Seconds between two kills."""
DOWN_FOR = (0.0, 1.5)
"""Seconds a killed worker stays down."""
SETTLE = 90.0
"""Seconds after the last message for every answer to arrive."""
HOOK_SECRET = "hook-secret-14"
SLACK_SECRET = "slack-signing-secret-14"
ANSWER_RE = re.compile(r"answer to msg (\d+)")

ENV = {
    "CLOCKBOT_LLM_PROVIDER": "openai",
    "CLOCKBOT_LLM_MODEL": "fake-model",
    "CLOCKBOT_LLM_API_KEY": "sk-fake",
    "CLOCKBOT_TELEGRAM_MODE": "webhook",
    "CLOCKBOT_TELEGRAM_WEBHOOK_URL": "https://bot.example.test/telegram/webhook",
    "CLOCKBOT_TELEGRAM_WEBHOOK_SECRET": HOOK_SECRET,
    "CLOCKBOT_SLACK_MODE": "http",
    "CLOCKBOT_SLACK_SIGNING_SECRET": SLACK_SECRET,
    "CLOCKBOT_HTTP_HOST": "127.0.0.1",
    "CLOCKBOT_LOG_LEVEL": "INFO",
    "CLOCKBOT_WORKER_HEARTBEAT": "1",
    "CLOCKBOT_WORKER_DEAD_AFTER": "3",
}


async def _haproxy(bind: int, ports: list[int], log: Path) -> asyncio.subprocess.Process:
    binary = shutil.which("haproxy", path=f"{os.environ.get('PATH', '')}:/usr/sbin")
    if binary is None:
        require_peer("haproxy", "not installed (apt-get install haproxy; .ci/run does)")
    env = {
        **os.environ,
        "CLOCKBOT_LB_BIND": f"127.0.0.1:{bind}",
        **{f"CLOCKBOT_WORKER_{n + 1}": f"127.0.0.1:{port}" for n, port in enumerate(ports)},
    }
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(
            binary, "-db", "-f", str(REPO_ROOT / "deploy" / "haproxy.cfg"),
            env=env, stdout=out, stderr=out, stdin=asyncio.subprocess.DEVNULL,
        )  # fmt: skip


async def _post_until_taken(
    session: aiohttp.ClientSession, url: str, body: bytes, headers: dict[str, str] | None = None
) -> int:
    """POST like a platform: again until a 2xx, a few hundred ms apart; the tries it took."""
    for attempt in range(1, 200):
        try:
            async with session.post(url, data=body, headers=headers) as response:
                if 200 <= response.status < 300:
                    return attempt
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.3)
    pytest.fail(f"{url} refused a delivery 200 times")


async def test_three_workers_killed_at_random_lose_nothing_and_keep_thread_order(
    tmp_path: Path, postgres_url: str
) -> None:
    rng = random.Random(SEED)
    responder = Responder(seed=SEED, delay=(0.2, 0.8))
    async with (
        FakeTelegram() as tg,
        FakeSlack() as slack,
        FakeLLMServer(responder=responder) as llm,
        aiohttp.ClientSession() as session,
    ):
        ports = [free_port() for _ in range(WORKERS)]
        front = free_port()
        workers = start_workers(tmp_path, ports, {
            **ENV, "CLOCKBOT_DATABASE_URL": postgres_url, "CLOCKBOT_LLM_BASE_URL": llm.openai_base_url,
            "CLOCKBOT_TELEGRAM_TOKEN": tg.token,
            "CLOCKBOT_SLACK_BOT_TOKEN": slack.bot_token, "CLOCKBOT_SLACK_API_URL": slack.api_url,
        }, each=lambda name: {"CLOCKBOT_TELEGRAM_API_URL": f"{tg.api_url}/{name}"})  # fmt: skip
        balancer = await _haproxy(front, ports, tmp_path / "haproxy.log")
        base = f"http://127.0.0.1:{front}"
        # thread -> its message numbers, in the order they are sent
        slack_threads = int(THREADS * SLACK_SHARE)
        plan: dict[int, list[int]] = {t: [] for t in range(THREADS)}
        for n in range(MESSAGES):
            plan[n % THREADS].append(n)
        kills: list[float] = []
        stop_killing = asyncio.Event()

        async def thread(t: int) -> None:
            await asyncio.sleep(rng.uniform(0, 3))
            for n in plan[t]:
                if t < slack_threads:
                    event = dm_event(f"msg {n}", user=f"U{t}", channel=f"D{t}")
                    raw = json.dumps(event_body(event)).encode()
                    headers = signed_headers(raw, SLACK_SECRET, int(time.time()))
                    await _post_until_taken(session, f"{base}/slack/events", raw, headers)
                else:
                    update = tg.private(tg.user(7000 + t, f"p{t}"), f"msg {n}")
                    headers = {
                        "Content-Type": "application/json",
                        "X-Telegram-Bot-Api-Secret-Token": HOOK_SECRET,
                    }
                    raw = json.dumps(update).encode()
                    await _post_until_taken(session, f"{base}/telegram/webhook", raw, headers)
                await asyncio.sleep(rng.uniform(*GAP))

        async def killer() -> None:
            while not stop_killing.is_set():
                await asyncio.sleep(rng.uniform(*KILL_EVERY))
                victim = rng.choice(workers)
                kills.append(await victim.kill())
                await asyncio.sleep(rng.uniform(*DOWN_FOR))
                await victim.start()

        try:
            for worker in workers:
                await worker.start()
            await _wait_healthy(session, base)
            killing = asyncio.create_task(killer())
            await asyncio.gather(*(thread(t) for t in range(THREADS)))
            stop_killing.set()
            await killing
            answers = await _settle(tg, slack)
        finally:
            for worker in workers:
                await worker.stop()
            balancer.terminate()
            await balancer.wait()

    sent = sorted(answers, key=lambda answer: answer[1])
    missing = sorted(set(range(MESSAGES)) - {n for n, _, _ in sent})
    assert not missing, f"never answered: {missing}; logs in {tmp_path}"
    killed = {worker.log.stem: worker.kills for worker in workers}
    doubles, unexplained = twice(sent, killed, IN_FLIGHT)
    assert not unexplained, (
        f"answered twice, the first sender not killed in between: {when(sent, killed, unexplained)}"
    )
    on_slack = {n for t in range(slack_threads) for n in plan[t]}
    assert not doubles & on_slack, f"Slack answered twice: {sorted(doubles & on_slack)}"
    disordered = {}
    for t, numbers in plan.items():
        order = list(dict.fromkeys(n for n, _, _ in sent if n in set(numbers)))
        if order != numbers:
            disordered[f"{'slack' if t < slack_threads else 'telegram'} {t}"] = order
    assert not disordered, f"answers out of their thread's order: {disordered}"
    print(
        f"{MESSAGES} messages over {THREADS} threads, {len(kills)} kills of {WORKERS} workers: "
        f"0 lost, {len(doubles)} sent twice on Telegram by a worker killed in the send window, "
        "none on Slack, thread order kept"
    )


async def _wait_healthy(session: aiohttp.ClientSession, base: str, timeout: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        try:
            async with session.get(f"{base}/lb-healthz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.2)
    pytest.fail("no worker became healthy behind the balancer")


async def _settle(tg: FakeTelegram, slack: FakeSlack) -> list[Answer]:
    """Every answer sent (message number, loop time), once all are in and all is quiet."""

    def collect() -> list[Answer]:
        found = [(m, s.at, s.via) for s in tg.sent if (m := ANSWER_RE.search(s.plain))]
        posted = [c for c in slack.calls_to("chat.postMessage") if c.status == 200]
        found += [
            (m, c.at, "") for c in posted if (m := ANSWER_RE.search(str(c.params.get("text"))))
        ]
        return [(int(match[1]), at, worker) for match, at, worker in found]

    return await settle(collect, MESSAGES, within=SETTLE)
