"""Meeting polls: the slots proposed to a group, and who is asked to answer.

`find_meeting_time` (bot.agent.tools.meeting_tools) stages a `NewMeetingPoll` when it found
slots for at least two members; the turn's commit stores the poll and queues
its message in the group (an outbox job keyed `poll_key`), so the poll goes out
once, after the agent's answer, and never if the turn is repeated or fails.
The dispatcher gives an adapter the poll's options (`poll_of`): Telegram sends
a native poll, the others the numbered text.

Answers are kept per member (`meeting_votes`, the latest answer wins) by the
`MeetingVote` effect; the answer that completes the poll decides it in the
same transaction, queues the announcement and keeps who attends (`decide_in`;
the meeting as feeds and timelines read it: `wrapper.meetings`). Docs:
docs/meetings.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from wrapper.meetings import repeat_words, schedule_attendees_in
from wrapper.outbound.outbox import enqueue_in, item_values, sent_item_in
from wrapper.people.members import reachable_in
from wrapper.store.queries.common import chosen_id, insert_for
from wrapper.store.queries.memory import insert_memory, new_memory_id
from wrapper.store.queries.per_message import load_person
from wrapper.store.tables import (
    identities,
    journal,
    meeting_attendees,
    meeting_polls,
    meeting_votes,
)

__all__ = [
    "ANSWER_HOW",
    "POLL_KEY",
    "MeetingPoll",
    "MeetingVote",
    "NewMeetingPoll",
    "PollOption",
    "close_due_in",
    "decide_in",
    "decided_poll_of",
    "new_poll_id",
    "poll_id_of",
    "poll_in",
    "poll_key",
    "poll_replied_in",
    "poll_text",
    "store_poll_in",
    "vote_in",
    "votes_in",
]

POLL_KEY = "poll:"
"""The outbox key prefix of a poll's message: ``poll:<id>``."""

ANSWER_HOW = (
    'Reply to this message with the numbers that work for you, such as "vote 1 3", or "vote none".'
)
"""The last line of a poll sent as text: `channels.poll_votes` reads only words that say vote."""

DECIDED = ":decided"
"""The suffix of a poll's announcement job: ``poll:<id>:decided``."""

REMIND_BEFORE = timedelta(minutes=15)
"""Each attendee's reminder of the chosen slot comes this long before it."""

MAX_OPTION_CHARS = 100
"""Telegram's limit for a poll option; every channel's label is cut to it."""


def new_poll_id() -> int:
    """A poll's id, chosen before it is stored (the tool names it in its result)."""
    return chosen_id()


def poll_key(poll_id: int) -> str:
    return f"{POLL_KEY}{poll_id}"


def poll_id_of(key: str) -> int | None:
    """The poll an outbox key posts (``poll:<id>``), or None (its announcement is not it)."""
    number = key.removeprefix(POLL_KEY)
    return int(number) if key.startswith(POLL_KEY) and number.isdigit() else None


def decided_poll_of(key: str) -> int | None:
    """The poll whose decision an outbox key announces (``poll:<id>:decided``), or None."""
    return poll_id_of(key.removesuffix(DECIDED)) if key.endswith(DECIDED) else None


@dataclass(frozen=True, slots=True)
class PollOption:
    """One proposed slot: its start (aware UTC) and how it reads in every member's time."""

    start: datetime
    label: str


@dataclass(frozen=True, slots=True)
class NewMeetingPoll:
    """A turn's effect: store the poll and queue its message in the group thread.

    Attributes:
        id: from `new_poll_id`.
        thread_key, channel, thread_id: the group.
        organiser: the user key of the person who asked.
        minutes: the meeting's length.
        question: the poll's first line ("When can we meet? (45 min)").
        options: the slots, best first.
        voters: the user keys asked to answer (the members with a known zone).
        closes_at: when the poll is decided whatever the answers.
        repeat: for a repeating meeting, its RRULE (`wrapper.meetings.REPEATS`);
            the options are then its first occurrence.
        zone: where a repeating meeting keeps its wall time (the organiser's zone).
    """

    id: int
    thread_key: str
    channel: str
    thread_id: str
    organiser: str
    minutes: int
    question: str
    options: tuple[PollOption, ...]
    voters: tuple[str, ...]
    closes_at: datetime
    repeat: str | None = None
    zone: str | None = None


@dataclass(frozen=True, slots=True)
class MeetingVote:
    """A member's answer: the options (1-based) they can make, () none of them.

    `choices` None takes their answer back: the poll waits for them again.
    """

    poll_id: int
    user_key: str
    choices: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class MeetingPoll:
    """A stored poll, as the dispatcher and the vote counter read it."""

    id: int
    thread_key: str
    channel: str
    thread_id: str
    question: str
    minutes: int
    options: tuple[PollOption, ...]
    voters: tuple[str, ...]
    status: Literal["open", "decided"]
    chosen: int | None
    closes_at: datetime
    repeat: str | None = None
    zone: str | None = None


def poll_text(question: str, options: Sequence[PollOption]) -> str:
    """The poll as text, for a channel without native polls: the question, numbered options."""
    lines = [question, *(f"{n}. {option.label}" for n, option in enumerate(options, 1))]
    lines.append(ANSWER_HOW)
    return "\n".join(lines)


def store_poll_in(conn: Connection, poll: NewMeetingPoll, *, now: datetime) -> None:
    """Store `poll` and queue its message (the `NewMeetingPoll` effect)."""
    conn.execute(
        insert_for(conn, meeting_polls)
        .values(
            id=poll.id,
            thread_key=poll.thread_key,
            channel=poll.channel,
            thread_id=poll.thread_id,
            organiser=poll.organiser,
            minutes=poll.minutes,
            options={
                "question": poll.question,
                "slots": [
                    {"start": o.start.isoformat(), "label": o.label[:MAX_OPTION_CHARS]}
                    for o in poll.options
                ],
                "repeat": poll.repeat if poll.zone else None,
                "zone": poll.zone if poll.repeat else None,
            },
            voters=list(poll.voters),
            status="open",
            closes_at=poll.closes_at,
            created_at=now,
        )
        .on_conflict_do_nothing(index_elements=["id"])
    )
    values = item_values(
        key=poll_key(poll.id), kind="reply", channel=poll.channel, thread_id=poll.thread_id,
        thread_key=poll.thread_key, user_key=None, user_id=None,
        text=poll_text(poll.question, poll.options), due_at=now, memory_id=None, now=now,
    )  # fmt: skip
    enqueue_in(conn, values)


def poll_in(conn: Connection, poll_id: int, *, lock: bool = False) -> MeetingPoll | None:
    """The stored poll, or None; with `lock`, its row locked until the transaction ends
    (``FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already has one writer)."""
    query = select(meeting_polls).where(meeting_polls.c.id == poll_id)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        return None
    stored = row.options
    return MeetingPoll(
        id=row.id,
        thread_key=row.thread_key,
        channel=row.channel,
        thread_id=row.thread_id,
        question=stored["question"],
        minutes=row.minutes,
        options=tuple(
            PollOption(datetime.fromisoformat(o["start"]), o["label"]) for o in stored["slots"]
        ),
        voters=tuple(row.voters),
        status=row.status,
        chosen=row.chosen,
        closes_at=row.closes_at,
        repeat=stored.get("repeat"),
        zone=stored.get("zone"),
    )


def poll_replied_in(conn: Connection, channel: str, platform_id: str) -> MeetingPoll | None:
    """The poll whose message went out as the platform's `platform_id`, or None."""
    item = sent_item_in(conn, channel, platform_id)
    poll_id = poll_id_of(item.key) if item is not None else None
    return poll_in(conn, poll_id) if poll_id is not None else None


def votes_in(conn: Connection, poll_id: int) -> dict[str, tuple[int, ...]]:
    """Each member's latest answer to the poll: user key → options (1-based)."""
    rows = conn.execute(
        select(meeting_votes.c.user_key, meeting_votes.c.choices).where(
            meeting_votes.c.poll_id == poll_id
        )
    )
    return {str(key): tuple(int(n) for n in choices) for key, choices in rows}


def vote_in(conn: Connection, vote: MeetingVote, *, now: datetime) -> None:
    """Keep a member's latest answer (the `MeetingVote` effect); decide once all answered.

    Only a member of the poll's thread counts (`_member_in`): anyone else's vote
    changes nothing, so a stranger never decides a poll nor becomes an attendee.
    Choices None withdraws the answer; an option the poll does not have is
    dropped, and a vote naming none of its options changes nothing (it was
    meant for another poll, not "none of these"). When every voter has
    answered an open poll, it is decided in the same transaction (`decide_in`). The poll's
    row is locked first: two members answering at once on PostgreSQL each read the answers
    before the other's commit, and neither decided.
    """
    poll = poll_in(conn, vote.poll_id, lock=True)
    if poll is None or not _member_in(conn, poll, vote.user_key):
        return
    choices = [n for n in vote.choices or () if 1 <= n <= len(poll.options)]
    if vote.choices and not choices:
        return
    conn.execute(
        delete(meeting_votes).where(
            meeting_votes.c.poll_id == vote.poll_id, meeting_votes.c.user_key == vote.user_key
        )
    )
    if vote.choices is not None:
        conn.execute(
            insert_for(conn, meeting_votes).values(
                poll_id=vote.poll_id, user_key=vote.user_key, choices=choices, at=now
            )
        )
    if poll.status == "open" and set(poll.voters) <= set(votes := votes_in(conn, poll.id)):
        decide_in(conn, poll, now=now, votes=votes)


def _member_in(conn: Connection, poll: MeetingPoll, user_key: str) -> bool:
    """Whether `user_key` (or an identity linked to it) was a member of the poll's thread
    when the poll went out: one it asked, or one who had written there by then.

    A vote names the poll, not the thread: a forwarded Telegram poll, a reply to the
    poll's mail or a button in a channel reach people who are not in the group
    (docs/SECURITY.md, the review of December 2026, row 5).
    """
    person = select(identities.c.user_id).where(identities.c.user_key == user_key)
    keys = set(
        conn.execute(select(identities.c.user_key).where(identities.c.user_id.in_(person)))
        .scalars()
        .all()
    ) | {user_key}
    if keys & set(poll.voters):
        return True
    created = select(meeting_polls.c.created_at).where(meeting_polls.c.id == poll.id)
    spoke = conn.execute(
        select(journal.c.id)
        .where(journal.c.thread_key == poll.thread_key, journal.c.user_key.in_(keys))
        .where(journal.c.received_at <= created.scalar_subquery())
        .limit(1)
    ).first()
    return spoke is not None


def decide_in(
    conn: Connection,
    poll: MeetingPoll,
    *,
    now: datetime,
    votes: Mapping[str, tuple[int, ...]] | None = None,
) -> int | None:
    """Choose the slot most voters can make (the better-ranked on a tie) and announce it.

    Returns the chosen option (1-based); None when nobody answered (the group is
    told no time was chosen) or another worker decided the poll first. The
    announcement goes to the poll's thread as one outbox job keyed
    ``poll:<id>:decided``, so a poll is announced once. `votes`: the answers,
    when the caller has just read them.
    """
    if votes is None:
        votes = votes_in(conn, poll.id)
    numbers = range(1, len(poll.options) + 1)
    counts = [sum(n in chosen for chosen in votes.values()) for n in numbers]
    best = max(range(len(counts)), key=lambda i: (counts[i], -i))
    chosen = best + 1 if counts[best] else None
    decided = conn.execute(
        update(meeting_polls)
        .where(meeting_polls.c.id == poll.id, meeting_polls.c.status == "open")
        .values(status="decided", chosen=chosen)
    ).rowcount
    if not decided:
        return None
    # A member the poll did not ask (no zone known when it went out) may answer
    # anyway: their answer counts, and so do they in "N of M" (docs/meetings.md);
    # a vote from outside the thread was never stored (`_member_in`).
    counted = len(set(poll.voters) | set(votes))
    if chosen is None:
        text = "The poll closed without answers: no time was chosen."
    else:
        then = f", then {repeat_words(poll.repeat)}" if poll.repeat and poll.zone else ""
        who = "Everyone can" if counts[best] == counted else f"{counts[best]} of {counted} can"
        text = f"Decided: {poll.options[best].label}{then}. {who} make it."
    values = item_values(
        key=f"{poll_key(poll.id)}{DECIDED}", kind="reply", channel=poll.channel,
        thread_id=poll.thread_id, thread_key=poll.thread_key, user_key=None, user_id=None,
        text=text, due_at=now, memory_id=None, now=now,
    )  # fmt: skip
    enqueue_in(conn, values)
    if chosen is not None:
        attendees = [key for key, picked in sorted(votes.items()) if chosen in picked]
        conn.execute(
            insert_for(conn, meeting_attendees),
            [{"poll_id": poll.id, "user_key": key} for key in attendees],
        )
        if poll.repeat and poll.zone:
            schedule_attendees_in(
                conn, key=poll_key(poll.id),
                group=(poll.thread_key, poll.channel, poll.thread_id),
                start=poll.options[best].start, rule=poll.repeat, zone=poll.zone,
                attendees=attendees, remind_before=REMIND_BEFORE, now=now,
            )  # fmt: skip
        else:
            _remind_attendees(conn, poll, poll.options[best], attendees, now=now)
    return chosen


def _remind_attendees(
    conn: Connection,
    poll: MeetingPoll,
    slot: PollOption,
    attendees: Sequence[str],
    *,
    now: datetime,
) -> None:
    """A reminder for each member who can make the slot, `REMIND_BEFORE` it.

    Each is a one-shot reminder of theirs (a memory item due at the meeting, and
    its job), so it is listed, snoozed and cancelled like any other and its
    send takes the same advisory path. It goes to their direct conversation
    with clockbot, else to the group, addressed to them.
    """
    for user_key in attendees:
        person = load_person(conn, user_key)
        if person is None:
            continue  # erased since answering
        text = f"Meeting: {slot.label}"
        item_id = new_memory_id()
        insert_memory(
            conn, item_id=item_id, user_id=person.user_id, content=text, now=now,
            due_at=slot.start, group=poll.thread_key,
        )  # fmt: skip
        group = (poll.thread_key, poll.channel, poll.thread_id)
        to = reachable_in(conn, person.user_id, user_key, group)
        values = item_values(
            key=f"{poll_key(poll.id)}:remind:{user_key}", kind="reminder", channel=to.channel,
            thread_id=to.thread_id, thread_key=to.thread_key, user_key=to.user_key,
            user_id=to.user_id, text=text, due_at=max(slot.start - REMIND_BEFORE, now),
            memory_id=item_id, now=now,
        )  # fmt: skip
        enqueue_in(conn, values)


def close_due_in(conn: Connection, *, now: datetime) -> int:
    """Decide every open poll whose closing time has come, with the answers it has; how many."""
    due = conn.execute(
        select(meeting_polls.c.id).where(
            meeting_polls.c.status == "open", meeting_polls.c.closes_at <= now
        )
    ).scalars()
    closed = 0
    for poll_id in list(due):
        poll = poll_in(conn, poll_id)
        if poll is not None:
            decide_in(conn, poll, now=now)
            closed += 1
    return closed
