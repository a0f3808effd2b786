"""Meeting polls in the store: answers kept per member, decided once all have answered.

On SQLite and PostgreSQL. The conversation around them is tests/bot/test_meeting_time.py.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from channels.poll_votes import read_vote, vote_words
from clockcore import MessageRef, SettableClock
from tests.support import staged
from wrapper import InteractionWrapper
from wrapper.meeting_polls import (
    MeetingVote,
    NewMeetingPoll,
    PollOption,
    poll_id_of,
    poll_key,
    votes_in,
)

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
        "Answer with the numbers that work for you.",
    ]  # fmt: skip
    await staged.commit(wrapper, MeetingVote(9, ANA, (1, 3)), MeetingVote(9, BEN, (3,)))
    assert await _announced(wrapper) == []  # Chen has not answered
    poll = await wrapper.meeting_poll(9)
    assert poll is not None and poll.status == "open"
    await staged.commit(wrapper, MeetingVote(9, BEN, (1, 2)))  # Ben changes his answer
    await staged.commit(wrapper, MeetingVote(9, CHEN, (2, 7)))  # 7 is no option: dropped
    assert await _announced(wrapper) == ["Decided: slot 1. 2 of 3 can make it."]  # tie: the better
    poll = await wrapper.meeting_poll(9)
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
    await staged.commit(wrapper, MeetingVote(9, ANA, ()))  # "vote none": Ana takes hers back
    await staged.commit(wrapper, MeetingVote(9, CHEN, (2,)))
    assert await _announced(wrapper) == []  # Ana's answer is missing again
    await staged.commit(wrapper, MeetingVote(9, ANA, (2,)))
    assert await _announced(wrapper) == ["Decided: slot 2. Everyone can make it."]


async def test_a_vote_on_no_poll_changes_nothing(wrapper: InteractionWrapper) -> None:
    await staged.commit(wrapper, MeetingVote(404, ANA, (1,)))
    assert await wrapper.meeting_poll(404) is None
    assert await wrapper.database.run(lambda conn: votes_in(conn, 404)) == {}


@pytest.mark.parametrize(
    ("text", "choices"),
    [
        ("vote 1 3", (1, 3)), ("Vote: 3, 1", (1, 3)), ("vote 2 and 2", (2,)),
        ("vote none", ()), ("vote 11", None), ("vote 0", None), ("I vote 2", None),
        ("vote for 2", None), ("vote", None),
    ],
)  # fmt: skip
def test_the_words_of_a_vote(text: str, choices: tuple[int, ...] | None) -> None:
    assert read_vote(text) == choices
    if choices is not None:
        assert read_vote(vote_words(choices)) == choices


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
    assert await wrapper.close_due_polls(clock.now() + timedelta(hours=23)) == 0
    assert await wrapper.close_due_polls(clock.now() + timedelta(days=1)) == 2
    texts = sorted(await _announced(wrapper))
    assert texts == [
        "Decided: slot 3. 1 of 3 can make it.",
        "The poll closed without answers: no time was chosen.",
    ]
    nobody = await wrapper.meeting_poll(10)
    assert nobody is not None and (nobody.status, nobody.chosen) == ("decided", None)
    assert await wrapper.close_due_polls(clock.now() + timedelta(days=2)) == 0
    await staged.commit(wrapper, MeetingVote(10, ANA, (1,)))  # too late: nothing decided again
    assert len(await _announced(wrapper)) == 2
