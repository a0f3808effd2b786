"""Meeting polls: the slots proposed to a group, and who is asked to answer.

`find_meeting_time` (bot.agent.tools.meeting_tools) stages a `NewMeetingPoll` when it found
slots for at least two members; the turn's commit stores the poll and queues
its message in the group (an outbox job keyed `poll_key`), so the poll goes out
once, after the agent's answer, and never if the turn is repeated or fails.
The dispatcher gives an adapter the poll's options (`poll_of`): Telegram sends
a native poll, the others the numbered text.

Answers are kept per member (`meeting_votes`, the latest answer wins) by the
`MeetingVote` effect; the answer that completes the poll decides it in the
same transaction, queues the announcement and keeps who attends
(`wrapper.meeting_answers`; the meeting as feeds and timelines read it:
`wrapper.meetings`). Docs: docs/meetings.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.engine import Connection

from wrapper.outbound.outbox import enqueue_in, item_values, sent_item_in
from wrapper.store.queries.common import chosen_id, insert_for
from wrapper.store.tables import (
    meeting_polls,
    meeting_votes,
)

__all__ = [
    "ANSWER_HOW",
    "DECIDED",
    "POLL_KEY",
    "MeetingPoll",
    "MeetingVote",
    "NewMeetingPoll",
    "PollOption",
    "decided_poll_of",
    "new_poll_id",
    "poll_id_of",
    "poll_in",
    "poll_key",
    "poll_replied_in",
    "poll_text",
    "store_poll_in",
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
        key=poll_key(poll.id),
        kind="reply",
        channel=poll.channel,
        thread_id=poll.thread_id,
        thread_key=poll.thread_key,
        user_key=None,
        user_id=None,
        text=poll_text(poll.question, poll.options),
        due_at=now,
        memory_id=None,
        now=now,
    )
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
