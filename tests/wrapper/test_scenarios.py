"""The issue's scenarios, end to end through the wrapper, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from clockcore import SettableClock
from wrapper import InteractionWrapper

TG = {"channel": "telegram", "thread_id": "dm:42", "user_id": "42"}


async def test_first_message_is_short_and_quiet(wrapper: InteractionWrapper) -> None:
    env = await wrapper.on_user_message(text="hello there", message_id="1", **TG)
    assert env.thread_key == "agent:main:telegram:dm:42"
    assert env.user_key == "telegram:42"
    assert env.elapsed_since_last_interaction is None
    assert env.triggered_rules == ()
    assert env.temporal_awareness is False
    assert env.open_actions == ()
    assert env.duplicate is False
    assert env.session_tz == "UTC"
    assert env.session_tz_source == "default"
    block = env.render().splitlines()
    assert block[0].startswith("[Runtime time context")
    assert len(block) <= 8


async def test_gym_soreness_project_gap_and_long_gap(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await wrapper.on_user_message(text="clock: home tz America/Los_Angeles", message_id="1", **TG)
    clocked = await wrapper.on_user_message(text="clock it: going to the gym", message_id="2", **TG)
    assert [a.label for a in clocked.open_actions] == ["gym"]
    assert clocked.open_actions[0].source == "clock_it"

    clock.advance(hours=3)
    sore = await wrapper.on_user_message(text="I'm sore", message_id="3", **TG)
    assert "action_gap_2h" in sore.triggered_rules
    assert sore.allow_hedged_reference is True
    assert sore.temporal_awareness is True
    assert [a.label for a in sore.open_actions] == ["gym"]
    assert "hedged" in sore.render()
    assert sore.session_tz == "America/Los_Angeles"
    assert sore.session_tz_source == "user"

    await wrapper.on_user_message(text="clock: kind project", message_id="4", **TG)
    clock.advance(days=2)
    later = await wrapper.on_user_message(text="back on the project", message_id="5", **TG)
    assert later.thread_kind == "project"
    assert "project_gap_1d" in later.triggered_rules
    assert later.ask_for_updates is True
    assert later.open_actions == ()  # the gym action expired after 24 h
    assert "action_gap_2h" not in later.triggered_rules

    clock.advance(days=40)
    very_late = await wrapper.on_user_message(text="hi again", message_id="6", **TG)
    assert "long_gap_30d" in very_late.triggered_rules
    assert very_late.offer_recap is True
    assert very_late.elapsed_since_last_interaction == timedelta(days=40)


async def test_group_members_never_see_each_others_actions(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    group = {"channel": "telegram", "thread_id": "group:-100"}
    mine = await wrapper.on_user_message(
        text="clock it: heading to the dentist", user_id="1", message_id="g1", **group
    )
    assert [a.label for a in mine.open_actions] != []
    clock.advance(minutes=5)
    theirs = await wrapper.on_user_message(
        text="anyone around?", user_id="2", message_id="g2", **group
    )
    assert theirs.open_actions == ()
    assert "dentist" not in theirs.render()
    clock.advance(minutes=5)
    again = await wrapper.on_user_message(text="back", user_id="1", message_id="g3", **group)
    assert [a.label for a in again.open_actions] == [a.label for a in mine.open_actions]


async def test_private_actions_stay_out_of_groups(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await wrapper.on_user_message(text="clock it: therapy session", message_id="p1", **TG)
    clock.advance(minutes=1)
    group = await wrapper.on_user_message(
        channel="telegram", thread_id="group:-7", user_id="42", text="hi all", message_id="p2"
    )
    assert group.open_actions == ()


async def test_identities_stay_apart_until_linked(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    slack = {"channel": "slack", "thread_id": "dm:T1:D1", "user_id": "U1"}
    await wrapper.on_user_message(text="hi from telegram", message_id="t1", **TG)
    clock.advance(minutes=10)
    first_slack = await wrapper.on_user_message(text="hi from slack", message_id="s1", **slack)
    assert first_slack.elapsed_since_last_interaction_any_channel is None  # separate people

    issued = await wrapper.on_user_message(text="clock: link", message_id="t2", **TG)
    code_notice = next(n for n in issued.notices if "Link code" in n)
    code = code_notice.split()[2]
    clock.advance(minutes=1)
    asked = await wrapper.on_user_message(text=f"clock: link {code}", message_id="s2", **slack)
    assert any("asked to confirm" in n for n in asked.notices)
    linked = await wrapper.on_user_message(text="clock: link yes", message_id="t2b", **TG)
    assert any("Linked with slack:U1" in n for n in linked.notices)

    clock.advance(minutes=30)
    on_telegram = await wrapper.on_user_message(text="still me", message_id="t3", **TG)
    # the latest interaction anywhere was the link, 30 minutes ago
    assert on_telegram.elapsed_since_last_interaction_any_channel == timedelta(minutes=30)
    assert on_telegram.user_key == "telegram:42"

    clock.advance(minutes=1)
    unlinked = await wrapper.on_user_message(text="clock: unlink", message_id="s3", **slack)
    assert any("unlinked" in n for n in unlinked.notices)
    clock.advance(minutes=1)
    await wrapper.on_user_message(text="slack only now", message_id="s4", **slack)
    clock.advance(minutes=1)
    apart = await wrapper.on_user_message(text="hello?", message_id="t4", **TG)
    # the unlink message was still the shared person's; the one after it is not
    assert apart.elapsed_since_last_interaction_any_channel == timedelta(minutes=2)


async def test_a_wrong_link_code_links_nothing(wrapper: InteractionWrapper) -> None:
    env = await wrapper.on_user_message(text="clock: link ZZZZZZ", message_id="x", **TG)
    assert any("unknown or expired" in n for n in env.notices)


async def test_an_expired_link_code_is_refused(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    issued = await wrapper.on_user_message(text="clock: link", message_id="t1", **TG)
    code = next(n for n in issued.notices if "Link code" in n).split()[2]
    clock.advance(minutes=11)
    env = await wrapper.on_user_message(
        channel="slack", thread_id="dm:T:D", user_id="U", text=f"clock: link {code}", message_id="s"
    )
    assert any("unknown or expired" in n for n in env.notices)


async def test_replayed_message_changes_nothing_and_is_flagged(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await wrapper.on_user_message(text="clock it: going to the gym", message_id="m1", **TG)
    before = await wrapper.export_state()
    clock.advance(hours=5)
    again = await wrapper.on_user_message(text="clock it: going to the gym", message_id="m1", **TG)
    assert again.duplicate is True
    assert await wrapper.export_state() == before


async def test_thread_zone_directive_wins_over_home(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await wrapper.on_user_message(text="clock: home tz Europe/Berlin", message_id="1", **TG)
    env = await wrapper.on_user_message(text="clock: tz Asia/Tokyo", message_id="2", **TG)
    assert (env.session_tz, env.session_tz_source) == ("Asia/Tokyo", "thread")
    assert env.user_tz == "Europe/Berlin"
    bad = await wrapper.on_user_message(text="clock: tz EST", message_id="3", **TG)
    assert bad.session_tz == "Asia/Tokyo"
    assert any("America/New_York" in n for n in bad.notices)
