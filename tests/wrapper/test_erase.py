"""Erasing a person (`wrapper.people.person_data`), on SQLite and PostgreSQL.

Alice writes on Telegram and by email (linked), in her DM and in a group with Bob; she has a
reminder waiting, a memory, an action, a message on the waiting list. After her erasure a full
export holds nothing of hers, her reminder cannot go out, an old message delivered again is
not stored or answered, and Bob has lost nothing.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from sqlalchemy import func, select, text
from sqlalchemy.engine import Connection

from clockcore import MessageRef, SettableClock
from tests.support import staged
from wrapper.core import InteractionWrapper
from wrapper.meeting_polls import MeetingVote, NewMeetingPoll, PollOption, poll_key
from wrapper.outbound.outbox import outbox
from wrapper.people.person_data import ERASED, GONE_SPEAKER, export_person
from wrapper.store import tables as t
from wrapper.turns.history import StoredMessage

ALICE, ALICE_MAIL, BOB = "telegram:42", "email:alice@example.test", "telegram:77"
SECRET = "account 4417-0092"
NAMES = {"42": "Alice Wren", "alice@example.test": "Alice W.", "77": "Bob Marsh"}


async def _say(
    wrapper: InteractionWrapper,
    clock: SettableClock,
    channel: str,
    thread: str,
    user: str,
    words: str,
    message_id: str,
    **kwargs: object,
) -> tuple[MessageRef, str]:
    clock.advance(timedelta(minutes=1))
    ref = MessageRef(
        channel=channel, thread_id=thread, user_id=user, message_id=message_id, text=words,
        received_at=clock.now(), route={"chat_id": thread}, sender_name=NAMES.get(user),
    )  # fmt: skip
    envelope = await wrapper.receive(ref, **kwargs)  # type: ignore[arg-type]
    if envelope.speaker is not None:  # a group: its history keeps who spoke, as a turn would
        said = StoredMessage(role="user", content=f"{envelope.render()}\n\n{words}")
        await staged.appended(wrapper, envelope.thread_key, [said], at=clock.now())
    return ref, " ".join(envelope.notices)


async def _alice_and_bob(wrapper: InteractionWrapper, clock: SettableClock) -> MessageRef:
    first, _ = await _say(wrapper, clock, "telegram", "dm:42", "42", f"my {SECRET}", "1")
    _, notices = await _say(wrapper, clock, "telegram", "dm:42", "42", "clock: link", "2")
    code = re.search(r"Link code ([A-Z0-9-]+)", notices)
    assert code is not None, notices
    await _say(
        wrapper, clock, "email", "alice@example.test/<a1@x>", "alice@example.test",
        f"clock: link {code.group(1)}", "<a1@x>",
    )  # fmt: skip
    await _say(wrapper, clock, "telegram", "dm:42", "42", "clock: link yes", "2b")
    await _say(wrapper, clock, "telegram", "-100", "42", "heading to lunch", "3")
    await _say(wrapper, clock, "telegram", "-100", "77", "bob in the group", "4")
    await _say(wrapper, clock, "telegram", "-100", "55", "carol, unnamed", "4b")
    await _say(wrapper, clock, "telegram", "dm:77", "77", "bob alone", "5")
    lease = {"claim_for": "w1", "lease_until": clock.now() + timedelta(minutes=5)}
    await _say(wrapper, clock, "telegram", "dm:42", "42", "still waiting", "6", **lease)
    slot = PollOption(clock.now() + timedelta(days=2), "Mon 1 Dec: 10:00 Lisbon")
    poll = NewMeetingPoll(
        id=7, thread_key="agent:main:telegram:-100", channel="telegram", thread_id="-100",
        organiser=ALICE, minutes=30, question="When can we meet? (30 min)",
        options=(slot, slot), voters=(ALICE, BOB), closes_at=clock.now() + timedelta(days=1),
    )  # fmt: skip
    await staged.commit(wrapper, poll, MeetingVote(7, ALICE, (1,)), MeetingVote(7, BOB, (1, 2)))
    await staged.remember(wrapper, user_key=ALICE, content=f"call the bank about {SECRET}")
    await staged.remember(wrapper, user_key=BOB, content="bob's dentist")
    now = clock.now()
    jobs = (
        (ALICE, "dm:42", SECRET),
        (ALICE, "-100", "to Alice in the group"),
        (BOB, "dm:77", "bob's reminder"),
    )
    for user_key, thread, words in jobs:
        await staged.queued(
            wrapper.outbox, kind="reminder", channel="telegram", thread_id=thread,
            thread_key=f"agent:main:telegram:{thread}", user_key=user_key,
            user_id=user_key.split(":")[1], text=f"Reminder: {words}",
            due_at=now + timedelta(hours=1), now=now, key=f"job-{thread}",
        )  # fmt: skip
    return first


def _all_rows(conn: Connection) -> str:
    tables = [
        "users", "identities", "threads", "thread_participants", "inbound_journal", "routes",
        "pending_turns", "actions", "memory_items", "outbox", "history", "schedules",
        "link_codes", "rate_buckets", "meeting_polls", "meeting_votes", "meeting_attendees",
    ]  # fmt: skip
    dumped = {
        table: [dict(row) for row in conn.execute(text(f"SELECT * FROM {table}")).mappings()]  # noqa: S608
        for table in tables
    }
    return json.dumps(dumped, default=str)


async def test_an_erased_person_leaves_nothing_and_is_not_brought_back(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    first = await _alice_and_bob(wrapper, clock)
    before = await wrapper.database.run(_all_rows)
    assert SECRET in before and "alice@example.test" in before

    erased = await wrapper.people.erase_person(ALICE_MAIL)  # through either linked identity

    assert set(erased.identities) == {ALICE, ALICE_MAIL}
    assert erased.rows["users"] == 1 and erased.rows["memory_items"] == 2  # a note, a meeting
    state = json.dumps(await wrapper.export_state())
    rows = await wrapper.database.run(_all_rows)
    traces = (
        SECRET, ALICE, ALICE_MAIL, "alice@example.test", "dm:42", "to Alice", erased.person,
        "Alice W",
    )  # fmt: skip
    for trace in traces:
        assert trace not in state, trace
        assert trace not in rows, trace
    # The group's conversation stays, her words in it too; it no longer says they were hers.
    assert "heading to lunch" in rows and "bob in the group" in rows
    assert f"Speaker: {GONE_SPEAKER}\\n" in rows
    assert "Speaker: Bob Marsh\\n" in rows and "Speaker: telegram user 55\\n" in rows
    # The group's poll stays, with Bob's answer; it no longer names her.
    polls = json.loads(rows)["meeting_polls"]
    voters = [v if isinstance(v := p["voters"], list) else json.loads(v) for p in polls]
    assert ([p["organiser"] for p in polls], voters) == ([ERASED], [[BOB]])
    assert [v["user_key"] for v in json.loads(rows)["meeting_votes"]] == [BOB]
    assert [v["user_key"] for v in json.loads(rows)["meeting_attendees"]] == [BOB]
    # Her reminder cannot go out: no job of hers is left, Bob's still is.
    due = await wrapper.outbox.listing(status="pending")
    assert [item.user_key for item in due if not item.key.startswith(poll_key(7))] == [BOB]
    # Bob keeps everything, the group thread included.
    assert "bob's dentist" in state and "bob in the group" in rows and "dm:77" in rows
    assert "agent:main:telegram:-100" in state

    # Telegram delivers her first message again: recognised, nothing stored.
    again = await wrapper.receive(first)
    assert again.duplicate

    def left(conn: Connection) -> tuple[int, int, list[str]]:
        people = conn.execute(
            select(func.count()).where(t.identities.c.user_key.in_([ALICE, ALICE_MAIL]))
        ).scalar_one()
        jobs = conn.execute(select(func.count()).where(outbox.c.user_key == ALICE)).scalar_one()
        journal = list(
            conn.execute(
                select(t.journal.c.user_key).where(t.journal.c.message_id.in_(["1", "2", "3"]))
            ).scalars()
        )
        return int(people), int(jobs), journal

    assert await wrapper.database.run(left) == (0, 0, [ERASED] * 3)
    assert SECRET not in await wrapper.database.run(_all_rows)


async def test_erasing_nobody_changes_nothing(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _alice_and_bob(wrapper, clock)
    before = await wrapper.database.run(_all_rows)
    erased = await wrapper.people.erase_person("telegram:999")
    assert (erased.person, erased.rows) == (None, {})
    assert await wrapper.database.run(_all_rows) == before


async def test_a_group_mail_stops_writing_to_whoever_is_erased(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    """Also the people it named who never wrote in it, and whoever was its To."""
    ana, ben, cy = "ana@example.test", "ben@example.test", "cy@example.test"
    for person in (ben, cy):
        await _say(wrapper, clock, "email", f"{person}/<{person}>", person, "hi", f"<{person}>")
    group = f"group/{ana}/<g1@x>"
    ref = MessageRef(
        channel="email", thread_id=group, user_id=ana, message_id="<g1@x>", text="hello all",
        received_at=clock.now(), route={"to": ana, "cc": f"{ben} {cy}", "subject": "s"},
    )  # fmt: skip
    await wrapper.receive(ref)
    key = f"agent:main:email:{group}"
    await wrapper.people.erase_person(f"email:{ben}")  # named in Cc, never wrote there
    assert await wrapper.routes.get(key) == {"to": ana, "cc": cy, "subject": "s"}
    await wrapper.people.erase_person(f"email:{ana}")  # the To: the next one takes it
    assert await wrapper.routes.get(key) == {"to": cy, "cc": "", "subject": "s"}
    await wrapper.people.erase_person(f"email:{cy}")  # nobody left to write to
    assert await wrapper.routes.get(key) == {}


async def test_a_persons_export_holds_all_of_theirs_and_nothing_of_anyone_else(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _alice_and_bob(wrapper, clock)
    document = await wrapper.people.export_person(ALICE)
    assert document is not None
    shown = json.dumps(document)
    for hers in (SECRET, "heading to lunch", "still waiting", "to Alice in the group", ALICE_MAIL):
        assert hers in shown, hers
    assert document["x_clockbot"]["person"]["identities"] == [ALICE_MAIL, ALICE]
    assert document["x_clockbot"]["person"]["names"] == {
        ALICE_MAIL: "Alice W.",
        ALICE: "Alice Wren",
    }
    bob = await wrapper.people.export_person(BOB)
    assert bob is not None
    for theirs in (
        "bob alone",
        "bob's dentist",
        "bob in the group",
        BOB,
        "Bob Marsh",
        *bob["users"],
    ):
        assert theirs not in shown, theirs
    assert sorted(document["threads"]) == [
        "agent:main:email:alice@example.test/<a1@x>",
        "agent:main:telegram:-100",
        "agent:main:telegram:dm:42",
    ]
    assert await wrapper.people.export_person("telegram:999") is None


class _Counting:
    """A connection that counts the rows its queries return (issue 35, row 7)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self.rows = 0

    def execute(self, statement: object, *args: object, **kwargs: object) -> object:
        frozen = self._conn.execute(statement, *args, **kwargs).freeze()  # type: ignore[call-overload]
        self.rows += len(frozen.data)
        return frozen()

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)


async def test_an_export_reads_that_persons_rows_and_no_one_elses(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    """It read every table whole: 310 ms with 200 people, 5.75 s with 4,000."""
    await _alice_and_bob(wrapper, clock)

    async def rows_read() -> tuple[int, dict[str, object] | None]:
        def work(conn: Connection) -> tuple[int, dict[str, object] | None]:
            counting = _Counting(conn)
            document = export_person(counting, ALICE)  # type: ignore[arg-type]
            return counting.rows, document

        return await wrapper.database.run(work)

    before, document = await rows_read()
    for n in range(40):  # other people, with threads, actions and memory of their own
        await _say(
            wrapper, clock, "telegram", f"dm:{1000 + n}", str(1000 + n), "clock it: run", f"o{n}"
        )
        await staged.remember(wrapper, user_key=f"telegram:{1000 + n}", content=f"other {n}")
    after, again = await rows_read()
    assert after == before
    assert again == document
