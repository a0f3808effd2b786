"""Meeting polls in the store: answers kept per member, decided once all have answered.

On SQLite and PostgreSQL. The conversation around them is tests/bot/test_meeting_time.py.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import recurring_ical_events
from icalendar import Calendar

from bot.calendar_ics import build_feed
from channels.poll_votes import WITHDRAW, Vote, read_vote, vote_words
from clockcore import MessageRef, SettableClock
from tests.support import staged
from wrapper import InteractionWrapper
from wrapper.calendar_feeds import NewCalendarFeed
from wrapper.meeting_polls import (
    ANSWER_HOW,
    MeetingVote,
    NewMeetingPoll,
    PollOption,
    poll_id_of,
    poll_key,
    votes_in,
)
from wrapper.meetings import meetings_in
from wrapper.store.queries.per_message import load_person
from wrapper.turns.effects import ZoneChange
from wrapper.web import timeline_in, token_hash

ANA, BEN, CHEN = "telegram:42", "telegram:43", "telegram:44"


async def _poll(wrapper: InteractionWrapper, clock: SettableClock, poll_id: int = 9) -> None:
    for n, (user_key, thread) in enumerate(
        [(ANA, "dm:42"), (ANA, "group:-100"), (BEN, "group:-100"), (CHEN, "group:-100")]
    ):
        clock.advance(timedelta(seconds=1))
        ref = MessageRef(
            channel="telegram", thread_id=thread, user_id=user_key.split(":")[1],
            message_id=f"{poll_id}-{n}", text="hello", received_at=clock.now(),
        )  # fmt: skip
        await wrapper.receive(ref)
    start = clock.now() + timedelta(days=3)
    options = tuple(PollOption(start + timedelta(days=n), f"slot {n + 1}") for n in range(3))
    poll = NewMeetingPoll(
        id=poll_id, thread_key="agent:main:telegram:group:-100", channel="telegram",
        thread_id="group:-100", organiser=ANA, minutes=30, question="When can we meet? (30 min)",
        options=options, voters=(ANA, BEN, CHEN), closes_at=clock.now() + timedelta(days=1),
    )  # fmt: skip
    await staged.commit(wrapper, poll)


async def _announced(wrapper: InteractionWrapper) -> list[str]:
    jobs = await wrapper.outbox.listing(limit=50)
    return [job.text for job in jobs if job.key.endswith(":decided")]


async def test_the_last_answer_decides_for_the_slot_most_can_make(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _poll(wrapper, clock)
    [posted] = [j for j in await wrapper.outbox.listing(limit=50) if j.key == poll_key(9)]
    assert posted.text.splitlines() == [
        "When can we meet? (30 min)", "1. slot 1", "2. slot 2", "3. slot 3",
        ANSWER_HOW,
    ]  # fmt: skip
    await staged.commit(wrapper, MeetingVote(9, ANA, (1, 3)), MeetingVote(9, BEN, (3,)))
    assert await _announced(wrapper) == []  # Chen has not answered
    poll = await wrapper.meetings.poll(9)
    assert poll is not None and poll.status == "open"
    await staged.commit(wrapper, MeetingVote(9, BEN, (1, 2)))  # Ben changes his answer
    await staged.commit(wrapper, MeetingVote(9, CHEN, (2, 7)))  # 7 is no option: dropped
    assert await _announced(wrapper) == ["Decided: slot 1. 2 of 3 can make it."]  # tie: the better
    poll = await wrapper.meetings.poll(9)
    assert poll is not None and (poll.status, poll.chosen) == ("decided", 1)
    votes = await wrapper.database.run(lambda conn: votes_in(conn, 9))
    assert votes == {ANA: (1, 3), BEN: (1, 2), CHEN: (2,)}
    # Ana and Ben chose slot 1: a reminder each, 15 minutes before, Ana's in her direct chat.
    slot = poll.options[0].start
    reminders = sorted(
        (j.user_key, j.thread_id, j.due_at, j.text)
        for j in await wrapper.outbox.listing(limit=50)
        if j.kind == "reminder"
    )
    assert reminders == [
        (ANA, "dm:42", slot - timedelta(minutes=15), "Meeting: slot 1"),
        (BEN, "group:-100", slot - timedelta(minutes=15), "Meeting: slot 1"),
    ]
    mine = await wrapper.recall(user_key=ANA, query="meeting")
    assert [(m.content, m.due_at) for m in mine] == [("Meeting: slot 1", slot)]
    await staged.commit(wrapper, MeetingVote(9, CHEN, (1,)))  # a late change decides nothing again
    assert await _announced(wrapper) == ["Decided: slot 1. 2 of 3 can make it."]


async def test_everyone_on_one_slot_and_an_answer_taken_back(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _poll(wrapper, clock)
    await staged.commit(wrapper, MeetingVote(9, ANA, (2,)), MeetingVote(9, BEN, (2, 3)))
    await staged.commit(wrapper, MeetingVote(9, ANA, None))  # "vote withdraw": hers taken back
    await staged.commit(wrapper, MeetingVote(9, CHEN, (2,)))
    assert await _announced(wrapper) == []  # Ana's answer is missing again
    await staged.commit(wrapper, MeetingVote(9, ANA, (9,)))  # no such option: changes nothing
    assert await _announced(wrapper) == []
    await staged.commit(wrapper, MeetingVote(9, ANA, (2,)))
    assert await _announced(wrapper) == ["Decided: slot 2. Everyone can make it."]


async def test_none_of_these_is_an_answer(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _poll(wrapper, clock)
    await staged.commit(wrapper, MeetingVote(9, ANA, (3,)), MeetingVote(9, BEN, (2, 3)))
    await staged.commit(wrapper, MeetingVote(9, CHEN, ()))  # "vote none": none works for Chen
    assert await _announced(wrapper) == ["Decided: slot 3. 2 of 3 can make it."]
    votes = await wrapper.database.run(lambda conn: votes_in(conn, 9))
    assert votes[CHEN] == ()


async def test_a_member_not_asked_is_counted_when_they_answer(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    dan = "telegram:45"  # in the group before the poll, no zone known: not one of its voters
    ref = MessageRef(
        channel="telegram", thread_id="group:-100", user_id="45", message_id="dan-1",
        text="hi all", received_at=clock.now(),
    )  # fmt: skip
    await wrapper.receive(ref)
    await _poll(wrapper, clock)
    await staged.commit(wrapper, MeetingVote(9, dan, (1,)), MeetingVote(9, ANA, (1,)))
    await staged.commit(wrapper, MeetingVote(9, BEN, (1,)))
    assert await _announced(wrapper) == []  # Chen was asked and has not answered
    await staged.commit(wrapper, MeetingVote(9, CHEN, (2,)))
    assert await _announced(wrapper) == ["Decided: slot 1. 3 of 4 can make it."]
    reminded = {j.user_key for j in await wrapper.outbox.listing(limit=50) if j.kind == "reminder"}
    assert reminded == {ANA, BEN, dan}


async def test_a_voter_from_outside_the_thread_neither_counts_nor_attends(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    """Issue 59, row 5: a stranger (a forwarded poll, a reply to its mail) and someone who
    came in only after the poll went out decided it "2 of 3" and became attendees."""
    await _poll(wrapper, clock)
    stranger, late = "telegram:66", "telegram:67"
    clock.advance(timedelta(seconds=1))
    ref = MessageRef(
        channel="telegram", thread_id="group:-100", user_id="67", message_id="late-1",
        text="hi, just joined", received_at=clock.now(),
    )  # fmt: skip
    await wrapper.receive(ref)
    await staged.commit(wrapper, MeetingVote(9, stranger, (2,)), MeetingVote(9, late, (2,)))
    await staged.commit(wrapper, MeetingVote(9, ANA, (1,)), MeetingVote(9, BEN, (1,)))
    await staged.commit(wrapper, MeetingVote(9, CHEN, (2,)))
    votes = await wrapper.database.run(lambda conn: votes_in(conn, 9))
    assert set(votes) == {ANA, BEN, CHEN}
    assert await _announced(wrapper) == ["Decided: slot 1. 2 of 3 can make it."]
    reminded = {j.user_key for j in await wrapper.outbox.listing(limit=50) if j.kind == "reminder"}
    assert reminded == {ANA, BEN}


async def test_a_vote_on_no_poll_changes_nothing(wrapper: InteractionWrapper) -> None:
    await staged.commit(wrapper, MeetingVote(404, ANA, (1,)))
    assert await wrapper.meetings.poll(404) is None
    assert await wrapper.database.run(lambda conn: votes_in(conn, 404)) == {}


@pytest.mark.parametrize(
    ("text", "vote"),
    [
        ("vote 1 3", Vote((1, 3))), ("Vote: 3, 1", Vote((1, 3))), ("vote 2 and 2", Vote((2,))),
        ("vote none", Vote(())), ("Vote withdraw", Vote((), withdrawn=True)),
        ("vote 11", None), ("vote 0", None), ("I vote 2", None), ("vote for 2", None),
        ("vote", None), ("vote none 2", None),
    ],
)  # fmt: skip
def test_the_words_of_a_vote(text: str, vote: Vote | None) -> None:
    assert read_vote(text) == vote
    if vote is not None and not vote.withdrawn:
        assert read_vote(vote_words(vote.choices)) == vote
    assert read_vote(WITHDRAW) == Vote((), withdrawn=True)


def test_only_a_polls_own_key_names_it() -> None:
    assert poll_id_of(poll_key(12)) == 12
    assert poll_id_of(f"{poll_key(12)}:decided") is None
    assert poll_id_of("telegram:-100:4#reply") is None


async def test_at_its_closing_time_a_poll_is_decided_with_the_answers_it_has(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _poll(wrapper, clock, poll_id=9)
    await _poll(wrapper, clock, poll_id=10)
    await staged.commit(wrapper, MeetingVote(9, BEN, (3,)))
    assert await wrapper.meetings.close_due(clock.now() + timedelta(hours=23)) == 0
    assert await wrapper.meetings.close_due(clock.now() + timedelta(days=1)) == 2
    texts = sorted(await _announced(wrapper))
    assert texts == [
        "Decided: slot 3. 1 of 3 can make it.",
        "The poll closed without answers: no time was chosen.",
    ]
    nobody = await wrapper.meetings.poll(10)
    assert nobody is not None and (nobody.status, nobody.chosen) == ("decided", None)
    assert await wrapper.meetings.close_due(clock.now() + timedelta(days=2)) == 0
    await staged.commit(wrapper, MeetingVote(10, ANA, (1,)))  # too late: nothing decided again
    assert len(await _announced(wrapper)) == 2


async def test_the_meeting_is_in_each_attendees_feed_and_timeline_and_nobody_elses(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _poll(wrapper, clock)
    await staged.commit(wrapper, MeetingVote(9, ANA, (2,)), MeetingVote(9, BEN, (2, 3)))
    await staged.commit(wrapper, MeetingVote(9, CHEN, (3,)))  # decides slot 2: Ana and Ben
    await staged.commit(wrapper, MeetingVote(9, CHEN, (2,)))  # too late to attend
    poll = await wrapper.meetings.poll(9)
    assert poll is not None and poll.chosen == 2
    start = poll.options[1].start
    ana, chen = [await _person_of(wrapper, key) for key in (ANA, CHEN)]
    for key, person in ((ANA, ana), (CHEN, chen)):
        await staged.commit(wrapper, NewCalendarFeed(key, token_hash(person)))
    now = clock.now()

    [meeting] = await wrapper.database.run(lambda conn: meetings_in(conn, ana, ending_after=now))
    assert (meeting.id, meeting.start, meeting.end) == (9, start, start + timedelta(minutes=30))
    assert meeting.title == "Meeting with telegram user 43"
    assert meeting.label == "slot 2"
    assert await wrapper.database.run(lambda conn: meetings_in(conn, chen, ending_after=now)) == []

    async def feed(person: str, at: datetime) -> list[tuple[str, datetime, datetime, str]]:
        items = await wrapper.feeds.items(token_hash(person), now=at)
        assert items is not None
        calendar = Calendar.from_ical(build_feed(items, now=at, public_url="https://c.example"))
        return [
            (str(e["UID"]), e.start, e.end, str(e["TRANSP"]))
            for e in calendar.walk("VEVENT")
            if str(e["UID"]).startswith("meeting-")
        ]

    end = start + timedelta(minutes=30)
    assert await feed(ana, now) == [("meeting-9@c.example", start, end, "OPAQUE")]
    assert await feed(chen, now) == []
    # It stays in the feed a month after it ended, so calendars keep it; then it goes.
    assert len(await feed(ana, end + timedelta(days=29))) == 1
    assert await feed(ana, end + timedelta(days=31)) == []
    # The web timeline shows it at its start, until its end, to Ana alone.
    entries = await wrapper.database.run(
        lambda conn: timeline_in(conn, ana, since=now - timedelta(days=14))
    )
    [shown] = [e for e in entries if e.kind == "meeting"]
    assert (shown.at, shown.until, shown.note) == (start, end, "slot 2")
    entries = await wrapper.database.run(
        lambda conn: timeline_in(conn, chen, since=now - timedelta(days=14))
    )
    assert [e for e in entries if e.kind == "meeting"] == []


async def _person_of(wrapper: InteractionWrapper, user_key: str) -> str:
    person = await wrapper.database.run(lambda conn: load_person(conn, user_key))
    assert person is not None
    return person.user_id


async def test_a_repeating_meeting_keeps_its_zones_time_and_warns_whose_clock_moves(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    """Every other Tuesday at 16:00 London time, agreed on 25 Feb 2027.

    New York changes two weeks before London in March (11:00 → 12:00 → 11:00); Berlin
    changes with London; Sydney changes in April and October, London in March and
    October. Each member with a moving clock is told a week before each change.
    """
    clock.advance(datetime(2027, 2, 25, 12, tzinfo=UTC) - clock.now())
    zones = {ANA: "America/New_York", BEN: "Europe/Berlin", CHEN: "Australia/Sydney"}
    await _poll(wrapper, clock)
    for user_key, zone in zones.items():
        await staged.commit(wrapper, ZoneChange(user_key, None, zone, "home"))
    first = datetime(2027, 3, 2, 16, tzinfo=UTC)  # a Tuesday, 16:00 in London (GMT)
    poll = NewMeetingPoll(
        id=11, thread_key="agent:main:telegram:group:-100", channel="telegram",
        thread_id="group:-100", organiser=BEN, minutes=60,
        question="When can we meet? (60 min, every other week)",
        options=(PollOption(first, "Tue 2 Mar: 16:00 London"),), voters=tuple(zones),
        closes_at=first, repeat="FREQ=WEEKLY;INTERVAL=2", zone="Europe/London",
    )  # fmt: skip
    await staged.commit(wrapper, poll)
    await staged.commit(wrapper, *(MeetingVote(11, key, (1,)) for key in zones))

    jobs = await wrapper.outbox.listing(limit=200)
    [decided] = [j.text for j in jobs if j.key == "poll:11:decided"]
    assert (
        decided == "Decided: Tue 2 Mar: 16:00 London, then every other week. Everyone can make it."
    )

    def warned(user_key: str) -> list[datetime]:
        return sorted(j.due_at for j in jobs if j.key.startswith(f"poll:11:shift:{user_key}:"))

    week = timedelta(days=7)
    new_york = [datetime(2027, 3, 16, 16, tzinfo=UTC), datetime(2027, 3, 30, 15, tzinfo=UTC),
                datetime(2028, 3, 14, 16, tzinfo=UTC), datetime(2028, 3, 28, 15, tzinfo=UTC)]  # fmt: skip
    assert warned(ANA) == [at - week for at in new_york]
    assert warned(BEN) == []  # Berlin moves with London
    assert len(warned(CHEN)) == 5  # Sydney: April, October; London: March, October, March
    [spring] = [j.text for j in jobs if j.key == f"poll:11:shift:{ANA}:0"]
    assert spring == (
        "Heads-up: from Tue 16 Mar your meeting every other week starts at 12:00 on your clock "
        "instead of 11:00 (it stays at 16:00 Europe/London time, where it was agreed)."
    )
    # Each attendee has it as a repeating reminder of their own, 15 minutes before, fixed
    # in London: over the whole year it goes out at 15:45 London time.
    for user_key in zones:
        [schedule], _ = await wrapper.reminders.reminders(user_key)
        assert (schedule.rrule, schedule.zone) == ("FREQ=WEEKLY;INTERVAL=2", "Europe/London")
        assert schedule.text == "Meeting every other week: Tuesday 16:00 Europe/London time"
        assert schedule.dtstart == datetime(2027, 3, 2, 15, 45)  # noqa: DTZ001 (wall time)
    # The feed holds it once, with its rule in London's zone.
    person = await _person_of(wrapper, ANA)
    await staged.commit(wrapper, NewCalendarFeed(ANA, token_hash(person)))
    items = await wrapper.feeds.items(token_hash(person), now=clock.now())
    assert items is not None
    calendar = Calendar.from_ical(build_feed(items, now=clock.now(), public_url="https://c.x"))
    [event] = [e for e in calendar.walk("VEVENT") if str(e["UID"]).startswith("meeting-")]
    expanded = recurring_ical_events.of(calendar).between(first, first + timedelta(days=60))
    starts = [e.start for e in expanded if str(e["UID"]).startswith("meeting-")]
    assert [s.astimezone(ZoneInfo("Europe/London")).hour for s in starts] == [16] * 5
    assert starts[2] == datetime(2027, 3, 30, 15, tzinfo=UTC)  # BST
    assert str(event["DTSTART"].params["TZID"]) == "Europe/London"


async def test_the_last_answers_arriving_together_still_decide(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    """Two members answer at once, each in a transaction of its own: the later transaction
    sees the earlier answer (the poll's row is locked first), so the poll is decided. Without
    the lock, each read the answers before the other's commit and neither decided."""
    for poll_id in range(20, 30):
        await _poll(wrapper, clock, poll_id)
        await staged.commit(wrapper, MeetingVote(poll_id, ANA, (1,)))
        await asyncio.gather(
            staged.commit(wrapper, MeetingVote(poll_id, BEN, (1,))),
            staged.commit(wrapper, MeetingVote(poll_id, CHEN, (2,))),
        )
        poll = await wrapper.meetings.poll(poll_id)
        assert poll is not None and poll.status == "decided", poll_id
