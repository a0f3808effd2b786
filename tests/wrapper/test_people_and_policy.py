"""Linked people share their state; groups keep zones per person; policy gates context, not records."""

from __future__ import annotations

from datetime import timedelta

import pytest

from clockcore import (
    DEFAULT_POLICY,
    ContactWindow,
    InvalidContactWindowError,
    SettableClock,
    UnknownTimezoneError,
)
from tests.support import staged
from wrapper import InteractionWrapper
from wrapper.turns.effects import WindowChange, ZoneChange

TG = {"channel": "telegram", "thread_id": "dm:42", "user_id": "42"}
SLACK = {"channel": "slack", "thread_id": "dm:T1:D1", "user_id": "U1"}


async def _link(wrapper: InteractionWrapper) -> None:
    issued = await wrapper.on_user_message(text="clock: link", message_id="t-link", **TG)
    code = next(n for n in issued.notices if "Link code" in n).split()[2]
    await wrapper.on_user_message(text=f"clock: link {code}", message_id="s-link", **SLACK)
    await wrapper.on_user_message(text="clock: link yes", message_id="t-link-yes", **TG)


async def test_linked_identities_share_memory_actions_zone_and_policy(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await wrapper.on_user_message(text="clock: home tz Asia/Tokyo", message_id="t1", **TG)
    await wrapper.on_user_message(text="clock: mode normal", message_id="t2", **TG)
    await wrapper.on_user_message(text="clock it: call the bank", message_id="t3", **TG)
    due = clock.now() + timedelta(days=1)
    await staged.remember(wrapper, user_key="telegram:42", content="dentist", due_at=due)
    assert await wrapper.memory.upcoming(user_key="slack:U1") == []  # strangers so far

    await _link(wrapper)
    clock.advance(minutes=5)
    env = await wrapper.on_user_message(text="hi from slack", message_id="s1", **SLACK)
    assert env.user_tz == "Asia/Tokyo"
    assert env.session_tz == "Asia/Tokyo"
    assert [a.label for a in env.open_actions] == ["call the bank"]
    assert [i.content for i in await wrapper.memory.upcoming(user_key="slack:U1")] == ["dentist"]
    document = await wrapper.export_state()
    people = document["users"]
    assert isinstance(people, dict)
    assert len(people) == 1
    (person,) = people.values()
    assert sorted(person["channels"]) == ["slack:U1", "telegram:42"]
    assert person["policy_overrides"] == {"mode": "normal"}


async def test_group_zones_are_per_person(wrapper: InteractionWrapper) -> None:
    group = {"channel": "telegram", "thread_id": "group:-9"}
    # A home zone is set in a direct conversation (in a group it is refused: below).
    for user_id, zone in (("a", "Asia/Kolkata"), ("b", "America/Chicago")):
        await wrapper.on_user_message(
            text=f"clock: home tz {zone}",
            channel="telegram",
            thread_id=f"dm:{user_id}",
            user_id=user_id,
            message_id=f"home-{user_id}",
        )
    a = await wrapper.on_user_message(text="when?", user_id="a", message_id="3", **group)
    b = await wrapper.on_user_message(text="when?", user_id="b", message_id="4", **group)
    assert (a.session_tz, b.session_tz) == ("Asia/Kolkata", "America/Chicago")
    document = await wrapper.export_state()
    thread = document["threads"]["agent:main:telegram:group:-9"]  # type: ignore[index]
    assert len(thread["participants"]) == 2


async def test_person_wide_directives_in_a_group_change_nothing(
    wrapper: InteractionWrapper,
) -> None:
    """Home zone, mode and link steps act on the person: only in a direct conversation
    (docs/SECURITY.md; the turn runner answers "write to me directly")."""
    group = {"channel": "telegram", "thread_id": "group:-9", "user_id": "a"}
    for n, text in enumerate(["clock: home tz Asia/Kolkata", "clock: mode off", "clock: link"]):
        await wrapper.on_user_message(text=text, message_id=f"g{n}", **group)
    document = await wrapper.export_state()
    [person] = document["users"].values()  # type: ignore[union-attr]
    assert person.get("default_tz") is None
    assert not person.get("policy_overrides")
    assert await wrapper.on_user_message(text="hi", message_id="g9", **group)


async def test_mode_off_hides_context_but_still_records(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await wrapper.on_user_message(text="clock: mode off", message_id="1", **TG)
    clock.advance(days=45)
    env = await wrapper.on_user_message(text="hello after ages", message_id="2", **TG)
    assert env.temporal_awareness is False
    assert env.triggered_rules == ()
    assert "Last message" not in env.render()
    assert env.elapsed_since_last_interaction == timedelta(days=45)  # the record is still kept
    clock.advance(minutes=1)
    after = await wrapper.on_user_message(text="and again", message_id="3", **TG)
    assert after.elapsed_since_last_interaction == timedelta(minutes=1)


async def test_a_question_about_time_turns_awareness_on(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    """ "Which day did I last write?" names no time, yet the block must carry the answer."""
    await wrapper.on_user_message(text="clock: home tz Europe/Berlin", message_id="1", **TG)
    await wrapper.on_user_message(text="off on a trip, talk soon", message_id="2", **TG)
    clock.advance(days=2, hours=3)
    asked = await wrapper.on_user_message(
        text="back! which day did I last message you?", message_id="3", **TG
    )
    assert asked.temporal_awareness is True
    shown = "- Last message in this thread: 2 d 3 h ago (Wednesday 2026-04-29 17:34)\n"
    assert shown in asked.render()
    clock.advance(minutes=1)
    plain = await wrapper.on_user_message(text="nice to be home", message_id="4", **TG)
    assert plain.temporal_awareness is False
    assert "Last message" not in plain.render()


async def test_auto_detected_actions_and_the_cap(database_url: str, clock: SettableClock) -> None:
    policy = DEFAULT_POLICY.with_overrides({"store": {"latest_actions": {"max_items": 3}}})
    wrapper = await InteractionWrapper.open(
        database_url, policy=policy, agent_tz="UTC", clock=clock
    )
    try:
        auto = await wrapper.on_user_message(text="heading to the gym now", message_id="a", **TG)
        assert [(a.label, a.source) for a in auto.open_actions] == [("gym", "auto")]
        plain = await wrapper.on_user_message(
            text="I went to the gym yesterday", message_id="b", **TG
        )
        assert len(plain.open_actions) == 1
        for n in range(5):
            clock.advance(minutes=1)
            await wrapper.on_user_message(text=f"clock it: task {n}", message_id=f"c{n}", **TG)
        document = await wrapper.export_state()
        (person,) = document["users"].values()  # type: ignore[union-attr]
        assert [a["label"] for a in person["latest_actions"]] == ["task 2", "task 3", "task 4"]
    finally:
        await wrapper.close()


async def test_quotes_are_kept_only_when_the_policy_says_so(
    database_url: str, clock: SettableClock
) -> None:
    policy = DEFAULT_POLICY.with_overrides({"store": {"latest_actions": {"store_quotes": True}}})
    wrapper = await InteractionWrapper.open(
        database_url, policy=policy, agent_tz="UTC", clock=clock
    )
    try:
        await wrapper.on_user_message(text="clock it: going to the gym", message_id="q", **TG)
        from sqlalchemy import select

        from wrapper.store import tables as t

        quote = await wrapper.database.run(
            lambda conn: conn.execute(select(t.actions.c.quote)).scalar_one()
        )
        assert quote is not None
        assert "gym" in quote
    finally:
        await wrapper.close()


def test_a_settings_change_is_checked_when_it_is_made() -> None:
    home = ZoneChange(user_key="telegram:42", thread_key=None, zone="asia/tokyo", scope="home")
    assert home.zone == "Asia/Tokyo"
    with pytest.raises(UnknownTimezoneError):
        ZoneChange(user_key="telegram:42", thread_key=None, zone="Mars/Olympus", scope="home")
    with pytest.raises(ValueError, match="thread key"):
        ZoneChange(user_key="telegram:42", thread_key=None, zone="UTC", scope="thread")
    with pytest.raises(ValueError, match="scope"):
        ZoneChange(user_key="telegram:42", thread_key=None, zone="UTC", scope="planet")  # type: ignore[arg-type]
    with pytest.raises(InvalidContactWindowError):
        WindowChange("telegram:42", "9 to 5")


async def test_settings_saved_together_are_both_written(wrapper: InteractionWrapper) -> None:
    zone = ZoneChange(user_key="telegram:42", thread_key=None, zone="Asia/Tokyo", scope="home")
    window = WindowChange.of("telegram:42", ContactWindow.parse("09:00-21:00"))
    await wrapper.save_settings(zone, window)
    assert await wrapper.people.user_timezone("telegram:42") == "Asia/Tokyo"
    envelope = await wrapper.on_user_message(
        channel="telegram", thread_id="dm:42", user_id="42", text="hi", message_id="w1"
    )
    assert envelope.contact.contact_window == ContactWindow.parse("09:00-21:00")
