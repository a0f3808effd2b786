"""A meeting poll's answers and its decision: the slot most can make, announced, attendees reminded.

`vote_in` keeps a member's latest answer (the `MeetingVote` effect); the answer
that completes a poll decides it in the same transaction (`decide_in`), and
`close_due_in` decides the polls whose time has come (docs/meetings.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from wrapper.meeting_polls import (
    DECIDED,
    MeetingPoll,
    MeetingVote,
    PollOption,
    poll_in,
    poll_key,
    votes_in,
)
from wrapper.meetings import repeat_words, schedule_attendees_in
from wrapper.outbound.outbox import enqueue_in, item_values
from wrapper.people.members import reachable_in
from wrapper.store.queries.common import insert_for
from wrapper.store.queries.memory import insert_memory, new_memory_id
from wrapper.store.queries.per_message import load_person
from wrapper.store.tables import (
    identities,
    journal,
    meeting_attendees,
    meeting_polls,
    meeting_votes,
)

__all__ = ["REMIND_BEFORE", "close_due_in", "decide_in", "vote_in"]

REMIND_BEFORE = timedelta(minutes=15)
"""Each attendee's reminder of the chosen slot comes this long before it."""


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
        key=f"{poll_key(poll.id)}{DECIDED}",
        kind="reply",
        channel=poll.channel,
        thread_id=poll.thread_id,
        thread_key=poll.thread_key,
        user_key=None,
        user_id=None,
        text=text,
        due_at=now,
        memory_id=None,
        now=now,
    )
    enqueue_in(conn, values)
    if chosen is not None:
        attendees = [key for key, picked in sorted(votes.items()) if chosen in picked]
        conn.execute(
            insert_for(conn, meeting_attendees),
            [{"poll_id": poll.id, "user_key": key} for key in attendees],
        )
        if poll.repeat and poll.zone:
            schedule_attendees_in(
                conn,
                key=poll_key(poll.id),
                group=(poll.thread_key, poll.channel, poll.thread_id),
                start=poll.options[best].start,
                rule=poll.repeat,
                zone=poll.zone,
                attendees=attendees,
                remind_before=REMIND_BEFORE,
                now=now,
            )
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
            conn,
            item_id=item_id,
            user_id=person.user_id,
            content=text,
            now=now,
            due_at=slot.start,
            group=poll.thread_key,
        )
        group = (poll.thread_key, poll.channel, poll.thread_id)
        to = reachable_in(conn, person.user_id, user_key, group)
        values = item_values(
            key=f"{poll_key(poll.id)}:remind:{user_key}",
            kind="reminder",
            channel=to.channel,
            thread_id=to.thread_id,
            thread_key=to.thread_key,
            user_key=to.user_key,
            user_id=to.user_id,
            text=text,
            due_at=max(slot.start - REMIND_BEFORE, now),
            memory_id=item_id,
            now=now,
        )
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
