"""A crash at every step of a turn, then a restart on the same store: each effect lands once.

The model (the fake OpenAI server's `Responder`, answering at once) calls ``remind``,
``clock_it`` and ``remind`` again in one answer, then replies. A crash is a
`Crash`, a BaseException no handler in clockbot catches, raised at one step; the gateway is
then dropped the way a killed process leaves it (no drain, no clean retire: its heartbeat
row stays until it goes stale) and a new gateway opens the same store. The platform delivers
the message once more after the restart, as Telegram does for an update it saw no confirm for.

Afterwards, whatever the step: one reply delivered, one reminder (item and job), one action,
a second reminder, and the person's message once in the history. SQLite and PostgreSQL.

The one step that repeats is the platform send itself (docs/ARCHITECTURE.md): a crash after the platform
took the message but before it was marked sent sends it again, under the same key.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import bot.agent.conversation
from bot.agent import Agent
from bot.app.gateway import Gateway
from bot.config.settings import Settings, WorkerSettings
from bot.llm import OpenAIProvider
from channels.base import Inbound, Outgoing
from tests.bot.test_gateway import RecordingChannel
from tests.support.fake_llm import FakeLLMServer, Responder
from wrapper import InteractionWrapper

THREAD_KEY = "agent:main:test:dm:7"
USER_KEY = "test:7"


class Crash(BaseException):
    """The process dies here: not an Exception, so no handler in clockbot catches it."""


class Injector:
    """Raises `Crash` once, at the named step, and tells the test it did."""

    def __init__(self, step: str) -> None:
        self.step = step
        self.fired = asyncio.Event()
        self.tool_calls = 0

    def at(self, step: str) -> None:
        if step == self.step and not self.fired.is_set():
            self.fired.set()
            raise Crash(step)


STEPS = [
    "after tool 1 (remind)",
    "after tool 2 (clock_it)",
    "after tool 3 (remind)",
    "after the model's answer",
    "before the commit",
    "after the commit",
    "between enqueue and delivery",
]


@pytest.fixture
async def model() -> AsyncIterator[FakeLLMServer]:
    async with FakeLLMServer(responder=Responder(delay=(0.0, 0.0))) as server:
        yield server


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    # Beats every 0.1 s, dead after 0.5 s: the restart takes the dead worker's claims at once.
    return Settings(
        home=tmp_path, database_url=database_url, http_port=0,
        worker=WorkerSettings(heartbeat=0.1, dead_after=0.5),
    )  # fmt: skip


class CrashingChannel(RecordingChannel):
    """A RecordingChannel whose send can crash before or after the platform takes the message."""

    def __init__(self, injector: Injector | None) -> None:
        super().__init__()
        self.injector = injector

    async def send(self, message: Outgoing) -> None:
        if self.injector is not None:
            self.injector.at("between enqueue and delivery")
        await super().send(message)


def _install(monkeypatch: pytest.MonkeyPatch, injector: Injector) -> None:
    """Put the crash points into the real code paths (undone before the restart)."""
    run_tool = bot.agent.conversation.run_tool

    async def counting_run_tool(call: Any, session: Any) -> str:
        result = await run_tool(call, session)
        injector.tool_calls += 1
        names = {1: "remind", 2: "clock_it", 3: "remind"}
        injector.at(f"after tool {injector.tool_calls} ({names.get(injector.tool_calls)})")
        return result

    answer = Agent.answer

    async def answering(self: Agent, *args: Any, **kwargs: Any) -> Any:
        output = await answer(self, *args, **kwargs)
        injector.at("after the model's answer")
        return output

    commit_turn = InteractionWrapper.commit_turn

    async def committing(self: InteractionWrapper, commit: Any) -> bool:
        injector.at("before the commit")
        done = await commit_turn(self, commit)
        injector.at("after the commit")
        return done

    monkeypatch.setattr(bot.agent.conversation, "run_tool", counting_run_tool)
    monkeypatch.setattr(Agent, "answer", answering)
    monkeypatch.setattr(InteractionWrapper, "commit_turn", committing)


def _provider(model: FakeLLMServer) -> OpenAIProvider:
    return OpenAIProvider(base_url=model.openai_base_url, model="m", api_key="k", max_retries=0)


def _message() -> Inbound:
    return Inbound(
        channel="test", thread_id="dm:7", user_id="7", text="msg 1", message_id="m1",
        received_at=datetime.now(UTC), route={"chat": "7"},
    )  # fmt: skip


async def _kill(gateway: Gateway) -> None:
    """Leave `gateway` as a killed process would: tasks gone, no drain, no retire.

    Reaches into the gateway's private parts on purpose: no public path stops it this badly.
    """
    tasks = [*gateway.turns._tasks, *gateway._background]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)  # a Crash among them ends here
    for channel in gateway._started:
        await channel.stop()
    await gateway.provider.aclose()
    await gateway.wrapper.close()


async def _until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    for _ in range(500):
        if await check():
            return
        await asyncio.sleep(0.04)
    pytest.fail(f"no {what} within 20 s")


async def _run_with_crash(
    settings: Settings,
    model: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    step: str,
    *,
    first: CrashingChannel,
) -> CrashingChannel:
    """One message; a crash at `step`; a restart; the message delivered again. The second channel."""
    injector = first.injector
    assert injector is not None
    _install(monkeypatch, injector)
    gateway = Gateway(
        settings, channels=[first], provider=_provider(model), poll_interval=0.02,
        retry_interval=0.05, serve_http=False,
    )  # fmt: skip
    await gateway.start()
    try:
        await gateway.accept(_message())
        async with asyncio.timeout(20):
            await injector.fired.wait()
    finally:
        await _kill(gateway)
    monkeypatch.undo()

    second = CrashingChannel(None)
    async with Gateway(
        settings, channels=[second], provider=_provider(model), poll_interval=0.02,
        retry_interval=0.05, serve_http=False,
    ) as gateway:  # fmt: skip
        await gateway.accept(_message())  # the platform's redelivery

        async def answered() -> bool:
            await gateway.settle(timeout=None)
            jobs = await gateway.wrapper.outbox.listing()
            return any(job.kind == "reply" and job.status == "sent" for job in jobs)

        await _until(answered, "the reply")
        await gateway.settle(timeout=None)
        await asyncio.sleep(0.3)  # a second answer, were there one, would be under way by now
        await gateway.settle(timeout=None)
        await _assert_effects_once(gateway.wrapper)
    return second


async def _assert_effects_once(wrapper: InteractionWrapper) -> None:
    jobs = await wrapper.outbox.listing()
    assert Counter(job.kind for job in jobs) == {"reply": 1, "reminder": 2}
    (reply,) = [job for job in jobs if job.kind == "reply"]
    assert (reply.text, reply.status, reply.key) == ("answer to msg 1", "sent", "test:m1#reply")
    (item,) = await wrapper.recall(user_key=USER_KEY, query="reminder 1")
    (reminder,) = [job for job in jobs if job.text == "reminder 1"]
    assert (reminder.kind, reminder.memory_id) == ("reminder", item.id)
    (scheduled,) = [job for job in jobs if job.text == "scheduled 1"]
    assert scheduled.kind == "reminder"
    state = await wrapper.export_state()
    labels = [a["label"] for user in state["users"].values() for a in user["latest_actions"]]
    assert labels == ["action 1"]
    history = await wrapper.history.load(THREAD_KEY)
    users = [m for m in history if m.role == "user"]
    assert len(users) == 1
    assert users[0].content.endswith("msg 1")
    assert await wrapper.waiting.count() == 0


@pytest.mark.parametrize("step", STEPS)
async def test_a_crash_at_any_step_repeats_the_turn_never_its_effects(
    settings: Settings, model: FakeLLMServer, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    first = CrashingChannel(Injector(step))
    second = await _run_with_crash(settings, model, monkeypatch, step, first=first)
    delivered = [m for m in [*first.sent, *second.sent] if m.kind == "reply"]
    assert [m.text for m in delivered] == ["answer to msg 1"]
    assert delivered[0].route == {"chat": "7"}


class SentThenCrash(CrashingChannel):
    """The platform takes the message, then the process dies before marking it sent."""

    async def send(self, message: Outgoing) -> None:
        await RecordingChannel.send(self, message)
        assert self.injector is not None
        self.injector.at("after the platform took it")


async def test_a_crash_between_the_send_and_its_mark_repeats_only_the_send_under_its_key(
    settings: Settings, model: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The one at-least-once window (docs/ARCHITECTURE.md): Telegram and Slack take no
    # idempotency key, so the repeat carries the same key for whoever can fold it.
    first = SentThenCrash(Injector("after the platform took it"))
    second = await _run_with_crash(
        settings, model, monkeypatch, "after the platform took it", first=first
    )
    assert [(m.text, m.key) for m in first.sent] == [("answer to msg 1", "test:m1#reply")]
    assert [(m.text, m.key) for m in second.sent] == [("answer to msg 1", "test:m1#reply")]
