"""Zones in questions (issue 17): a zone named with a time anchors that time only; the session
moves only when the person places themselves, or says ``clock: tz``.

The real wrapper on SQLite and PostgreSQL, then the rules agent through the gateway.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from clockcore import MessageRef, SettableClock
from tests.bot.test_gateway import RecordingChannel, inbound
from wrapper import InteractionWrapper

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


@pytest.fixture
async def opened(database_url: str) -> AsyncIterator[tuple[InteractionWrapper, SettableClock]]:
    clock = SettableClock(START)
    wrapper = await InteractionWrapper.open(database_url, clock=clock)
    try:
        yield wrapper, clock
    finally:
        await wrapper.close()


def _sayer(
    wrapper: InteractionWrapper, clock: SettableClock, user: str
) -> Callable[..., Awaitable[tuple[str, str]]]:
    """`say(text, thread_id=…)`: a Telegram message from `user` a minute after the last,
    answered with the session zone it was read in and where that came from."""
    ids = itertools.count(1)

    async def say(text: str, *, thread_id: str = f"dm:{user}") -> tuple[str, str]:
        clock.advance(timedelta(minutes=1))
        ref = MessageRef(
            channel="telegram", thread_id=thread_id, user_id=user, message_id=str(next(ids)),
            text=text, received_at=clock.now(),
        )  # fmt: skip
        envelope = await wrapper.receive(ref)
        return envelope.session_tz, envelope.session_tz_source

    return say


async def test_a_converted_zone_leaves_the_session_and_placing_oneself_moves_it(
    opened: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = opened
    say = _sayer(wrapper, clock, "5")
    assert (await say("clock: home tz Europe/Berlin"))[0] == "Europe/Berlin"
    assert await say("what's 9am New York time in my zone?") == ("Europe/Berlin", "user")
    assert await say("and what time is it in Tokyo?") == ("Europe/Berlin", "user")
    assert await say("call at 9am Tokyo time") == ("Europe/Berlin", "user")
    assert await say("I'm in New York this week") == ("America/New_York", "message")
    assert await say("what time is it?") == ("America/New_York", "thread")  # it moved
    assert await say("what's 9am Berlin time here?") == ("America/New_York", "thread")
    assert await wrapper.people.user_timezone("telegram:5") == "Europe/Berlin"  # home stays
    assert await say("clock: tz Asia/Tokyo") == ("Asia/Tokyo", "thread")


async def test_the_first_place_they_put_themselves_in_is_their_home_in_a_direct_chat_only(
    opened: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = opened
    say = _sayer(wrapper, clock, "8")
    assert await say("I'm in Lisbon this week", thread_id="-200") == (
        "Europe/Lisbon", "message",
    )  # fmt: skip
    assert await wrapper.people.user_timezone("telegram:8") is None  # a group says nothing of home
    assert await say("hi! I live in Lisbon by the way") == ("Europe/Lisbon", "message")
    assert await wrapper.people.user_timezone("telegram:8") == "Europe/Lisbon"
    assert await say("I'm in Tokyo for the week") == ("Asia/Tokyo", "message")
    assert (
        await wrapper.people.user_timezone("telegram:8") == "Europe/Lisbon"
    )  # travel moves no home


async def test_a_bare_place_answers_where_they_are_in_a_direct_conversation_only(
    opened: tuple[InteractionWrapper, SettableClock],
) -> None:
    """The answer to "Which city are you in?" (docs/clock-spec.md §4.2, step 5)."""
    wrapper, clock = opened
    say = _sayer(wrapper, clock, "7")
    assert await say("Toronto", thread_id="-100") == ("UTC", "default")  # a group: chatter
    assert await say("remind me at 9am tomorrow") == ("UTC", "default")
    assert await say("Toronto") == ("America/Toronto", "message")
    assert await say("remind me at 9am tomorrow") == ("America/Toronto", "thread")
    assert await say("Paris") == ("America/Toronto", "thread")  # known: no answer
    # Their first zone is their home until they say otherwise: a new thread knows it.
    assert await wrapper.people.user_timezone("telegram:7") == "America/Toronto"
    assert await say("what time is it?", thread_id="dm:7:other") == ("America/Toronto", "user")


async def test_the_block_tells_the_time_in_a_zone_the_message_names(database_url: str) -> None:
    clock = SettableClock(START)  # 12:00 UTC: 13:00 in Berlin, 17:45 in Kathmandu
    wrapper = await InteractionWrapper.open(database_url, clock=clock)
    n = 0

    async def named(text: str) -> list[tuple[str, str]]:
        nonlocal n
        n += 1
        ref = MessageRef(
            channel="telegram", thread_id="dm:6", user_id="6", message_id=str(n), text=text,
            received_at=clock.now(),
        )  # fmt: skip
        envelope = await wrapper.receive(ref)
        lines = [line for line in envelope.render().splitlines() if line.startswith("- Time in")]
        assert len(lines) == len(envelope.other_zones)
        return [(z.name, z.zone) for z in envelope.other_zones]

    try:
        await named("clock: home tz Europe/Berlin")
        assert await named("what time is it in Kathmandu?") == [("Kathmandu", "Asia/Kathmandu")]
        assert await named("call at 9am Tokyo time, or is that late in Lima?") == [
            ("Tokyo", "Asia/Tokyo"), ("Lima", "America/Lima"),
        ]  # fmt: skip
        assert await named("what's 9am Berlin time for me?") == []  # the session's own zone
        assert await named("what time is it in Portland?") == []  # which Portland: no line
        assert await named("I'm in Lisbon this week") == []  # the session moved there instead
        assert await named("and in Berlin?") == [("Berlin", "Europe/Berlin")]
    finally:
        await wrapper.close()


async def test_the_rules_agent_reads_a_place_followed_by_other_words(tmp_path: Path) -> None:
    channel = RecordingChannel()
    settings = Settings(home=tmp_path, http_port=0)
    async with Gateway(settings, channels=[channel], poll_interval=0.05) as gateway:
        for n, question in enumerate(
            ("what time is it in Tokyo right now?", "what's the time in Berlin at the moment")
        ):
            await gateway.accept(inbound(question, message_id=f"q{n}"))
            await gateway.settle()
        answers = [m.text for m in channel.sent]
    assert len(answers) == 2
    assert "Asia/Tokyo" in answers[0], answers[0]
    assert "Europe/Berlin" in answers[1], answers[1]
    assert not any("don't know which timezone" in a for a in answers)
