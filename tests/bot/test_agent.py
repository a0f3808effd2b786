"""Agent turns against a real local fake LLM server, and proactive sends (seed 000, issue 4)."""

from __future__ import annotations

import io
import itertools
import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.agent import UNAVAILABLE_NO_ID_REPLY, UNAVAILABLE_REPLY, Agent
from bot.chat import chat
from bot.config import Settings
from bot.llm import OpenAIProvider
from bot.scheduler import Scheduler
from clockcore import DEFAULT_CONTACT_WINDOW, SettableClock
from tests.support.fake_llm import FakeLLMServer, Reply
from wrapper import InteractionWrapper, Outbox, OutboxItem

DAY_ONE = datetime(2026, 3, 7, 15, tzinfo=UTC)
DM = {"channel": "telegram", "thread_id": "dm:42", "user_id": "42"}


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[tuple[InteractionWrapper, SettableClock]]:
    clock = SettableClock(DAY_ONE)
    wrapper = await InteractionWrapper.open(
        f"sqlite:///{tmp_path / 'a.db'}", agent_tz="UTC", clock=clock
    )
    try:
        yield wrapper, clock
    finally:
        await wrapper.close()


async def test_requests_are_append_only_and_the_prefix_never_changes(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    async with FakeLLMServer() as server:
        provider = OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
        )
        agent = Agent(
            wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW
        )
        server.script(
            "hello!",
            Reply.tool_call("current_time", "{}"),
            "It is 15:05 UTC.",
            "Noted, Tokyo it is.",
            "Good morning!",
        )
        texts = ["hi", "what time is it?", "clock: home tz Asia/Tokyo", "morning again"]
        for n, text in enumerate(texts):
            clock.advance(minutes=5) if n < 3 else clock.advance(days=1)  # across two days
            result = await agent.on_message(text=text, message_id=f"m{n}", **DM)
            assert result.reply
        await provider.aclose()
        bodies = [r.json for r in server.completions]
    assert len(bodies) == 5  # one request per turn, plus the tool round
    systems = {json.dumps(b["messages"][0]) for b in bodies}
    tools = {json.dumps(b["tools"]) for b in bodies}
    assert len(systems) == 1
    assert len(tools) == 1
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}", bodies[0]["messages"][0]["content"])
    names = [t["function"]["name"] for t in bodies[0]["tools"]]
    assert len(names) == len(set(names))
    for earlier, later in itertools.pairwise(bodies):
        assert later["messages"][: len(earlier["messages"])] == earlier["messages"]
    newest = bodies[-1]["messages"][-1]["content"]
    assert newest.startswith("[Runtime time context: facts, not instructions]")
    assert "Asia/Tokyo" in newest  # the zone change shows in the newest block only
    assert "Asia/Tokyo" not in json.dumps(bodies[0]["messages"])


async def test_a_model_outage_gets_a_clear_reply(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    async with FakeLLMServer() as server:
        server.script(Reply.error(500))
        provider = OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
        )
        agent = Agent(
            wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW
        )
        result = await agent.on_message(text="hi", message_id="x", **DM)
        await provider.aclose()
    assert result.model_failed
    assert result.reply == UNAVAILABLE_REPLY


async def test_console_chat_with_no_llm(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(DAY_ONE)
    lines = "clock it: going for a run\nremind me in 1 minute to stretch\nwhat time is it in Tokyo\nwhat's coming up\n"
    out = io.StringIO()
    await chat(settings, stdin=io.StringIO(lines), stdout=out, clock=clock, poll_interval=0.01)
    replies = out.getvalue().splitlines()
    assert replies[0] == "clockbot> Clocked: going for a run."
    assert replies[1] == "clockbot> I'll remind you at 2026-03-07 15:01:00 (UTC+00:00)."
    assert replies[2] == "clockbot> It is 2026-03-08 00:00:00 (UTC+09:00) in Asia/Tokyo."
    assert replies[3] == "clockbot> [DUE 2026-03-07 15:01] stretch"
    clock.advance(minutes=1)
    later = io.StringIO()
    await chat(settings, stdin=io.StringIO(""), stdout=later, clock=clock, poll_interval=0.01)
    assert later.getvalue().splitlines() == ["clockbot (reminder)> Reminder: stretch"]


async def _night_reminder(wrapper: InteractionWrapper, clock: SettableClock, outbox: Outbox) -> int:
    await wrapper.on_user_message(text="clock: home tz America/Los_Angeles", message_id="tz", **DM)
    due = datetime(2026, 4, 29, 9, 14, tzinfo=UTC)  # 02:14 in Los Angeles
    return await outbox.enqueue(
        kind="reminder", channel="telegram", thread_id="dm:42",
        thread_key="agent:main:telegram:dm:42", user_key="telegram:42", text="take the pill",
        due_at=due, now=clock.now(),
    )  # fmt: skip


@pytest.mark.parametrize("defers", [False, True])
async def test_a_reminder_outside_the_window_goes_out_unless_the_agent_defers(
    store: tuple[InteractionWrapper, SettableClock], defers: bool
) -> None:
    wrapper, clock = store
    outbox = Outbox(wrapper.database)
    job = await _night_reminder(wrapper, clock, outbox)
    sent: list[tuple[int, str, datetime]] = []

    async def deliver(item: OutboxItem, text: str) -> None:
        sent.append((item.id, text, clock.now()))

    async with FakeLLMServer() as server:
        if defers:
            server.script(
                Reply.tool_call("defer", json.dumps({"until": "08:00", "reason": "asleep"}))
            )
        else:
            server.script("Time to take the pill.")
        provider = OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
        )
        scheduler = Scheduler(
            wrapper=wrapper, outbox=outbox, provider=provider, deliver=deliver, clock=clock,
            contact_window=DEFAULT_CONTACT_WINDOW,
        )  # fmt: skip
        clock.set(datetime(2026, 4, 29, 9, 14, tzinfo=UTC))
        assert await scheduler.run_once() == 1
        prompt = server.completions[0].json["messages"][-1]["content"]
        await provider.aclose()
    assert "outside their usual contact window" in prompt
    assert "02:14" in prompt
    (item,) = await outbox.listing()
    if not defers:
        assert sent == [(job, "Time to take the pill.", clock.now())]
        assert item.status == "sent"
        return
    assert sent == []
    assert item.status == "deferred"
    assert item.defer_reason == "asleep"
    assert item.due_at == datetime(2026, 4, 29, 15, 0, tzinfo=UTC)  # 08:00 in Los Angeles
    quiet = Scheduler(
        wrapper=wrapper, outbox=outbox, provider=None, deliver=deliver, clock=clock,
        contact_window=DEFAULT_CONTACT_WINDOW,
    )  # fmt: skip
    assert await quiet.run_once() == 0  # not before 08:00
    clock.set(datetime(2026, 4, 29, 15, 0, tzinfo=UTC))
    assert await quiet.run_once() == 1
    assert sent == [(job, "take the pill", clock.now())]


async def test_a_model_outage_sends_the_reminder_as_written(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    outbox = Outbox(wrapper.database)
    await _night_reminder(wrapper, clock, outbox)
    sent: list[str] = []

    async def deliver(item: OutboxItem, text: str) -> None:
        sent.append(text)

    provider = OpenAIProvider(
        base_url="http://127.0.0.1:9/v1", model="m", api_key="k", max_retries=0, timeout=2
    )
    scheduler = Scheduler(
        wrapper=wrapper, outbox=outbox, provider=provider, deliver=deliver, clock=clock,
        contact_window=DEFAULT_CONTACT_WINDOW,
    )  # fmt: skip
    clock.set(datetime(2026, 4, 29, 9, 14, tzinfo=UTC))
    assert await scheduler.run_once() == 1
    await provider.aclose()
    assert sent == ["take the pill"]
    (item,) = await outbox.listing()
    assert item.status == "sent"


async def test_a_message_the_model_failed_on_is_answered_when_it_returns(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    async with FakeLLMServer() as server:
        server.script(Reply.error(500), Reply.error(500), "Sorry for the wait: hello!")
        provider = OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
        )
        agent = Agent(
            wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW
        )
        first = await agent.on_message(text="hello?", message_id="kept-1", **DM)
        assert first.model_failed
        assert first.reply == UNAVAILABLE_REPLY
        redelivered = await agent.on_message(text="hello?", message_id="kept-1", **DM)
        assert redelivered.reply is None  # the channel's redelivery is not a second message
        clock.advance(seconds=30)
        assert await agent.retry_pending() == []  # still down: kept, tried again later
        clock.advance(seconds=30)
        (answered,) = await agent.retry_pending()
        assert answered.reply == "Sorry for the wait: hello!"
        assert await agent.retry_pending() == []  # answered once, then forgotten
        await provider.aclose()
        last = server.completions[-1].json["messages"][-1]["content"]
    assert last.endswith("hello?")
    assert last.startswith("[Runtime time context")


async def test_a_message_without_an_id_cannot_be_kept_and_says_so(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    async with FakeLLMServer() as server:
        server.script(Reply.error(500))
        provider = OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
        )
        agent = Agent(
            wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW
        )
        result = await agent.on_message(text="hi", **DM)
        await provider.aclose()
    assert result.reply == UNAVAILABLE_NO_ID_REPLY


async def test_a_channel_error_is_retried_not_dropped(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    from bot.scheduler import DeliveryError

    wrapper, clock = store
    outbox = Outbox(wrapper.database)
    job = await outbox.enqueue(
        kind="reply", channel="telegram", thread_id="dm:42", thread_key="agent:main:telegram:dm:42",
        user_key="telegram:42", text="hello", due_at=clock.now(), now=clock.now(),
    )  # fmt: skip
    attempts: list[datetime] = []

    async def flaky(item: OutboxItem, text: str) -> None:
        attempts.append(clock.now())
        if len(attempts) == 1:
            raise DeliveryError("429 Too Many Requests", retry_after=2)

    scheduler = Scheduler(
        wrapper=wrapper, outbox=outbox, provider=None, deliver=flaky, clock=clock,
        contact_window=DEFAULT_CONTACT_WINDOW,
    )  # fmt: skip
    assert await scheduler.run_once() == 1
    (waiting,) = await outbox.listing()
    assert waiting.status == "pending"
    assert waiting.last_error == "429 Too Many Requests"
    assert await scheduler.run_once() == 0  # not before retry_after
    clock.advance(seconds=2)
    assert await scheduler.run_once() == 1
    (sent,) = await outbox.listing()
    assert (sent.id, sent.status, len(attempts)) == (job, "sent", 2)


async def test_a_proactive_turn_sees_the_thread_and_the_next_turn_sees_it(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    outbox = Outbox(wrapper.database)
    sent: list[str] = []

    async def deliver(item: OutboxItem, text: str) -> None:
        sent.append(text)

    async with FakeLLMServer() as server:
        server.script("Sure, I'll nudge you.", "Time to stretch!", "Glad you did.")
        provider = OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
        )
        agent = Agent(
            wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW
        )
        await agent.on_message(text="nudge me to stretch at 15:30", message_id="p1", **DM)
        await outbox.enqueue(
            kind="reminder", channel="telegram", thread_id="dm:42",
            thread_key="agent:main:telegram:dm:42", user_key="telegram:42", text="stretch",
            due_at=clock.now(), now=clock.now(),
        )  # fmt: skip
        scheduler = Scheduler(
            wrapper=wrapper, outbox=outbox, provider=provider, deliver=deliver, clock=clock,
            contact_window=DEFAULT_CONTACT_WINDOW,
        )  # fmt: skip
        clock.advance(minutes=30)
        assert await scheduler.run_once() == 1
        clock.advance(minutes=5)
        await agent.on_message(text="done, thanks", message_id="p2", **DM)
        await provider.aclose()
    first, proactive, after = (c.json["messages"] for c in server.completions)
    assert sent == ["Time to stretch!"]
    # The proactive request is the conversation so far plus the job, after the same prefix.
    assert proactive[: len(first)] == first
    assert proactive[len(first)]["content"] == "Sure, I'll nudge you."
    assert "A reminder the person asked for is due now: stretch" in proactive[-1]["content"]
    # The next turn begins with the proactive request and what was sent.
    assert after[: len(proactive)] == proactive
    assert after[len(proactive)]["content"] == "Time to stretch!"
    assert after[-1]["content"].endswith("done, thanks")
