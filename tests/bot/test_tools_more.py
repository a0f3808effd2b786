"""The memory, action, timezone and messaging tools, against a real SQLite store."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.llm.types import ToolCall
from bot.tools import ToolContext, run_tool
from clockcore import DEFAULT_CONTACT_WINDOW, DEFAULT_POLICY, Policy, SettableClock
from clockcore.envelope import ContextEnvelope
from wrapper import InteractionWrapper, Outbox

NIGHT = datetime(2026, 4, 29, 9, 14, tzinfo=UTC)  # 02:14 in Los Angeles
LA = "America/Los_Angeles"


@dataclass
class World:
    wrapper: InteractionWrapper
    clock: SettableClock
    outbox: Outbox

    async def say(
        self, text: str, *, user: str = "me", thread: str | None = None
    ) -> ContextEnvelope:
        return await self.wrapper.on_user_message(
            channel="console", thread_id=thread or f"dm:{user}", user_id=user, text=text
        )

    async def context(self, *, user: str = "me", outbox: bool = True) -> ToolContext:
        return ToolContext(
            wrapper=self.wrapper,
            envelope=await self.say("hi", user=user),
            clock=self.clock,
            contact_window=DEFAULT_CONTACT_WINDOW,
            outbox=self.outbox if outbox else None,
        )


async def _open(tmp_path: Path, policy: Policy | None = None) -> World:
    clock = SettableClock(NIGHT)
    wrapper = await InteractionWrapper.open(
        f"sqlite:///{tmp_path / 't.db'}", agent_tz="UTC", clock=clock, policy=policy
    )
    world = World(wrapper, clock, Outbox(wrapper.database))
    await world.say(f"clock: home tz {LA}")
    return world


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    opened = await _open(tmp_path)
    try:
        yield opened
    finally:
        await opened.wrapper.close()


@pytest.fixture
async def context(world: World) -> ToolContext:
    return await world.context()


async def _call(context: ToolContext, name: str, **arguments: object) -> dict[str, object]:
    result = json.loads(await run_tool(ToolCall("c1", name, json.dumps(arguments)), context))
    assert isinstance(result, dict)
    return result


def _error(result: dict[str, object], kind: str, needle: str) -> None:
    assert result["error"] == kind, result
    assert needle in str(result["message"]), result


def _items(result: dict[str, object]) -> list[dict[str, object]]:
    items = result["items"]
    assert isinstance(items, list)
    assert result["count"] == len(items)
    return items


# ------------------------------------------------------------------ recall


async def test_recall_needs_every_word_newest_first(world: World, context: ToolContext) -> None:
    first = await _call(context, "remember", content="Dentist on Tuesday", due_at="tomorrow 9am")
    world.clock.advance(timedelta(minutes=1))
    await _call(context, "remember", content="buy milk")
    world.clock.advance(timedelta(minutes=1))
    last = await _call(context, "remember", content="call the DENTIST back")

    both = _items(await _call(context, "recall", query="dentist"))
    assert [item["id"] for item in both] == [last["id"], first["id"]]
    assert both[0] == {"id": last["id"], "content": "call the DENTIST back"}

    one = _items(await _call(context, "recall", query="tuesday, Dentist?"))
    assert one == [
        {"id": first["id"], "content": "Dentist on Tuesday", "due_at": "2026-04-30T09:00:00-07:00"}
    ]
    assert _items(await _call(context, "recall", query="dentist milk")) == []


async def test_recall_shows_reminded_at_and_stops_at_twenty(context: ToolContext) -> None:
    ids = [(await _call(context, "remember", content=f"note {n}"))["id"] for n in range(25)]
    await _call(context, "update_memory", id=ids[-1], reminded_at="now")
    found = _items(await _call(context, "recall", query="NOTE"))
    assert len(found) == 20
    assert found[0]["reminded_at"] == "2026-04-29T02:14:00-07:00"
    assert "reminded_at" not in found[1]


@pytest.mark.parametrize("query", ["", "   ", "?! ..."])
async def test_recall_without_words_is_bad_arguments(context: ToolContext, query: str) -> None:
    _error(await _call(context, "recall", query=query), "bad_arguments", "query")


async def test_another_person_cannot_recall_my_items(world: World, context: ToolContext) -> None:
    await _call(context, "remember", content="secret plan")
    theirs = await world.context(user="you")
    assert _items(await _call(theirs, "recall", query="secret")) == []
    assert len(_items(await _call(context, "recall", query="secret"))) == 1


async def test_linked_identities_share_what_recall_finds(
    world: World, context: ToolContext
) -> None:
    await _call(context, "remember", content="passport renewal")
    issued = await world.say("clock: link")
    code = re.search(r"Link code (\w+)", " ".join(issued.notices))
    assert code is not None
    linked = await world.wrapper.on_user_message(
        channel="telegram", thread_id="dm:7", user_id="7", text=f"clock: link {code.group(1)}"
    )
    assert any("Linked" in notice for notice in linked.notices)
    other = replace(context, envelope=linked)
    assert [i["content"] for i in _items(await _call(other, "recall", query="passport"))] == [
        "passport renewal"
    ]


# ------------------------------------------------------------------ forget


async def test_forget_deletes_only_my_item_and_cancels_its_reminder(
    world: World, context: ToolContext
) -> None:
    item = await _call(context, "remember", content="pills", due_at="tomorrow 9am", notify=True)
    (reminder,) = await world.outbox.listing()
    assert (reminder.kind, reminder.status, reminder.memory_id) == (
        "reminder",
        "pending",
        item["id"],
    )

    theirs = await world.context(user="you")
    _error(await _call(theirs, "forget", id=item["id"]), "bad_arguments", str(item["id"]))
    (still,) = await world.outbox.listing()
    assert still.status == "pending"
    assert len(_items(await _call(context, "recall", query="pills"))) == 1

    gone = await _call(context, "forget", id=item["id"])
    assert gone == {"id": item["id"], "forgotten": True, "reminders_canceled": 1}
    (canceled,) = await world.outbox.listing()
    assert (canceled.status, canceled.last_error) == ("failed", "canceled")
    assert _items(await _call(context, "recall", query="pills")) == []
    _error(await _call(context, "forget", id=item["id"]), "bad_arguments", str(item["id"]))


@pytest.mark.parametrize("bad", ["7", 1.5, True, None])
async def test_forget_needs_an_integer_id(context: ToolContext, bad: object) -> None:
    _error(await _call(context, "forget", id=bad), "bad_arguments", "integer")


# ------------------------------------------------------------------ actions


async def test_clock_it_shows_in_the_next_envelope(world: World, context: ToolContext) -> None:
    result = await _call(context, "clock_it", label="going to the gym", expected_minutes=150)
    action = result["id"]
    assert isinstance(action, str)
    assert action.startswith("act_")
    assert result["recorded"] is True
    world.clock.advance(timedelta(minutes=5))
    envelope = await world.say("back")
    (shown,) = envelope.open_actions
    assert shown.id == action
    assert shown.source == "clock_it"
    assert shown.thread_key == context.envelope.thread_key
    assert shown.expected_typical_minutes == 150
    assert shown.expected_max_minutes is not None
    assert shown.expected_max_minutes >= 150
    assert shown.expires_at >= NIGHT + timedelta(minutes=150)
    # Another person's thread does not see it.
    assert (await world.say("hi", user="you")).open_actions == ()


async def test_expected_minutes_stretches_the_expiry(world: World, context: ToolContext) -> None:
    await _call(context, "clock_it", label="long hike", expected_minutes=48 * 60)
    world.clock.advance(timedelta(hours=40))
    (shown,) = (await world.say("back")).open_actions
    assert shown.expires_at >= NIGHT + timedelta(hours=48)
    assert shown.expected_max_minutes == 48 * 60


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        ({"label": ""}, "label"),
        ({"label": "gym", "expected_minutes": 0}, "expected_minutes"),
        ({"label": "gym", "expected_minutes": "ten"}, "expected_minutes"),
        ({"label": "gym", "expected_minutes": 10**9}, "expected_minutes"),
    ],
)
async def test_clock_it_bad_arguments(
    context: ToolContext, arguments: dict[str, object], needle: str
) -> None:
    _error(await _call(context, "clock_it", **arguments), "bad_arguments", needle)


async def test_clock_it_respects_the_policy_cap(tmp_path: Path) -> None:
    policy = DEFAULT_POLICY.with_overrides({"store": {"latest_actions": {"max_items": 2}}})
    world = await _open(tmp_path, policy)
    try:
        context = await world.context()
        ids = []
        for label in ("laundry", "cooking", "reading"):
            ids.append((await _call(context, "clock_it", label=label))["id"])
            world.clock.advance(timedelta(minutes=1))
        envelope = await world.say("still here")
        assert {a.id for a in envelope.open_actions} == set(ids[1:])
    finally:
        await world.wrapper.close()


async def test_clock_it_is_not_available_when_actions_are_off(tmp_path: Path) -> None:
    policy = DEFAULT_POLICY.with_overrides({"store": {"latest_actions": {"enabled": False}}})
    world = await _open(tmp_path, policy)
    try:
        context = await world.context()
        _error(await _call(context, "clock_it", label="gym"), "not_available", "turned off")
    finally:
        await world.wrapper.close()


async def test_update_action_changes_only_my_action(world: World, context: ToolContext) -> None:
    action = (await _call(context, "clock_it", label="cooking dinner"))["id"]
    theirs = await world.context(user="you")
    _error(
        await _call(theirs, "update_action", id=action, status="done"), "bad_arguments", "no action"
    )
    world.clock.advance(timedelta(minutes=1))
    assert [a.id for a in (await world.say("hm")).open_actions] == [action]

    changed = await _call(context, "update_action", id=action, status="in_progress")
    assert changed == {"id": action, "status": "in_progress"}
    (shown,) = (await world.say("hm")).open_actions
    assert shown.status == "in_progress"

    assert (await _call(context, "update_action", id=action, status="done"))["status"] == "done"
    assert (await world.say("done")).open_actions == ()


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        ({"id": "act_000000000000", "status": "done"}, "act_000000000000"),
        ({"id": "", "status": "done"}, "id"),
        ({"id": "act_1", "status": "expired"}, "status must be one of"),
    ],
)
async def test_update_action_bad_arguments(
    context: ToolContext, arguments: dict[str, object], needle: str
) -> None:
    _error(await _call(context, "update_action", **arguments), "bad_arguments", needle)


# ------------------------------------------------------------------ timezones


async def test_set_timezone_thread_changes_the_session_zone(
    world: World, context: ToolContext
) -> None:
    result = await _call(context, "set_timezone", zone="asia/tokyo", scope="thread")
    assert result["zone"] == "Asia/Tokyo"
    assert result["now"] == "2026-04-29T18:14:00+09:00"
    envelope = await world.say("ok")
    assert envelope.session_tz == "Asia/Tokyo"
    assert envelope.user_tz == LA
    assert (await world.say("hi", user="you")).session_tz != "Asia/Tokyo"


async def test_set_timezone_home_changes_the_person_zone(
    world: World, context: ToolContext
) -> None:
    result = await _call(context, "set_timezone", zone="Europe/Berlin", scope="home")
    assert result["zone"] == "Europe/Berlin"
    envelope = await world.say("ok")
    assert envelope.user_tz == "Europe/Berlin"
    assert envelope.session_tz == "Europe/Berlin"
    assert await world.wrapper.user_timezone(context.envelope.user_key) == "Europe/Berlin"


async def test_set_timezone_on_a_thread_not_seen_yet(world: World) -> None:
    thread_key = "agent:main:console:room"
    zone = await world.wrapper.set_timezone(
        user_key="console:me", thread_key=thread_key, zone="Asia/Kathmandu", scope="thread"
    )
    assert zone == "Asia/Kathmandu"
    envelope = await world.say("first words", thread="room")
    assert envelope.thread_key == thread_key
    assert envelope.session_tz == "Asia/Kathmandu"
    assert envelope.elapsed_since_last_interaction is None
    assert envelope.session_started_at == NIGHT


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        ({"zone": "Mars/Base", "scope": "thread"}, "Mars/Base"),
        ({"zone": "EST", "scope": "home"}, "EST"),
        ({"zone": "Europe/Paris", "scope": "world"}, "scope"),
        ({"zone": "", "scope": "home"}, "zone"),
    ],
)
async def test_set_timezone_bad_arguments(
    world: World, context: ToolContext, arguments: dict[str, object], needle: str
) -> None:
    _error(await _call(context, "set_timezone", **arguments), "bad_arguments", needle)
    assert (await world.say("ok")).user_tz == LA


# ------------------------------------------------------------------ messages


async def test_schedule_message_at_night_carries_the_advisory(
    world: World, context: ToolContext
) -> None:
    result = await _call(context, "schedule_message", text="wake up!", at="tomorrow 3am")
    assert result["scheduled"] is True
    assert result["at"] == "2026-04-30T03:00:00-07:00"
    timing = result["time_context"]
    assert isinstance(timing, dict)
    assert timing["now"] == "2026-04-30T03:00:00-07:00"
    assert timing["within_contact_window"] is False
    assert "03:00" in str(timing["advisory"])
    (job,) = await world.outbox.listing()
    assert job.id == result["id"]
    assert (job.kind, job.status, job.text) == ("proactive", "pending", "wake up!")
    assert job.due_at == datetime(2026, 4, 30, 10, 0, tzinfo=UTC)
    assert (job.channel, job.thread_id, job.thread_key) == (
        "console",
        "dm:me",
        context.envelope.thread_key,
    )
    assert job.user_key == "console:me"


async def test_schedule_message_in_the_day_has_no_advisory(context: ToolContext) -> None:
    result = await _call(context, "schedule_message", text="lunch?", at="tomorrow 12pm")
    timing = result["time_context"]
    assert isinstance(timing, dict)
    assert timing["within_contact_window"] is True
    assert timing["advisory"] == ""


@pytest.mark.parametrize(
    ("at", "needle"),
    [
        ("2026-04-28T10:00:00-07:00", "already passed"),
        ("9am EST", "EST"),
        ("at 25:00", "25:00"),
        ("", "at"),
    ],
)
async def test_schedule_message_bad_arguments(
    world: World, context: ToolContext, at: str, needle: str
) -> None:
    _error(await _call(context, "schedule_message", text="x", at=at), "bad_arguments", needle)
    assert await world.outbox.listing() == []


async def test_messages_need_an_outbox(world: World) -> None:
    bare = await world.context(outbox=False)
    _error(await _call(bare, "send_message", text="hi"), "not_available", "send_message")
    _error(
        await _call(bare, "schedule_message", text="hi", at="tomorrow 9am"),
        "not_available",
        "schedule_message",
    )
    assert await world.outbox.listing() == []


async def test_send_message_queues_now_with_the_time_context(
    world: World, context: ToolContext
) -> None:
    result = await _call(context, "send_message", text="quick note")
    assert result["queued"] is True
    timing = result["time_context"]
    assert isinstance(timing, dict)
    assert timing["within_contact_window"] is False
    assert "02:14" in str(timing["advisory"])
    (job,) = await world.outbox.listing()
    assert (job.id, job.kind, job.due_at, job.text) == (
        result["id"],
        "proactive",
        NIGHT,
        "quick note",
    )
    _error(await _call(context, "send_message", text="  "), "bad_arguments", "text")
    _error(await _call(context, "send_message", text="a\x00b"), "bad_arguments", "NUL")


async def test_defer_in_an_ordinary_turn_is_not_applicable(
    world: World, context: ToolContext
) -> None:
    result = await _call(context, "defer", until="tomorrow 9am", reason="night")
    _error(result, "not_applicable", "schedule_message")
    assert "proactive message" in str(result["message"])
    assert await world.outbox.listing() == []
