"""A state export is a backup: every table of a person's data, restored whole or refused.

On SQLite and PostgreSQL. A store is built the way turns build it (effects committed by
`tests.support.staged`), exported, imported into an empty store, and compared; the store's
table list is compared with what the backup declares, so a new table is a decision.
"""

from __future__ import annotations

import copy
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from clockcore import MessageRef, SettableClock, parse_recurrence
from clockcore.state.backup import BACKUP_VERSION, PARTS, backup_schema
from clockcore.state.check import schema
from tests.support import staged
from wrapper import InteractionWrapper, StateImportError
from wrapper.meeting_polls import MeetingVote, NewMeetingPoll, PollOption
from wrapper.outbound.schedules import new_schedule_id
from wrapper.state_io import BACKED_UP, LEFT_OUT
from wrapper.store import tables as t
from wrapper.turns.effects import (
    Enqueue,
    NewAction,
    NewCalendarFeed,
    NewMemory,
    NewSchedule,
    ReminderChange,
    WindowChange,
    ZoneChange,
    new_action_id,
)

ANA, BEN = "telegram:42", "telegram:77"
DM = "agent:main:telegram:dm:42"
GROUP = "agent:main:telegram:-100"

PART_TABLES = {
    "people": "users",
    "identity_names": "identities",
    "thread_stamps": "threads",
    "action_details": "actions",
    "routes": "routes",
    "schedules": "schedules",
    "reminders": "outbox",
    "calendar_feeds": "calendar_feeds",
    "meeting_polls": "meeting_polls",
    "meeting_votes": "meeting_votes",
    "meeting_attendees": "meeting_attendees",
}
# The columns CLOCK's own fields carry (clockcore.state.document), by table.
CLOCK_COLUMNS = {
    "users": {"id", "default_tz", "policy_overrides", "last_interaction_any_channel_at"},
    "identities": {
        "user_key", "channel", "channel_user_id", "user_id", "last_user_message_at",
        "last_agent_message_at",
    },
    "threads": {
        "thread_key", "agent_id", "channel", "thread_id", "thread_kind", "session_tz",
        "agent_tz", "delta_hours", "last_interaction_at",
    },
    "thread_participants": {"thread_key", "user_key", "last_user_message_at"},
    "actions": {
        "id", "user_id", "thread_key", "label", "type", "status", "source", "recorded_at",
        "expires_at", "expected_typical_minutes", "expected_max_minutes",
    },
    "calibration": {"user_id", "activity", "typical_minutes", "max_minutes", "updated_at"},
    "memory_items": {"id", "user_id", "content", "created_at", "due_at", "reminded_at",
                     "thread_key"},
}  # fmt: skip
# Columns a backup does not carry, and why they need not travel.
NOT_CARRIED = {
    "users": {"actions_until", "has_due_items"},  # hints, recomputed by the import
    # A claim and the send it decided belong to a running worker; only jobs still to go
    # out travel, and those were never sent.
    "outbox": {"claimed_by", "claim_expires_at", "final_text", "decided_at", "sent_at"},
}
CREATED_AT_IS_THE_IMPORT = {"users", "identities", "threads"}


def test_every_table_is_backed_up_or_left_out_with_a_reason() -> None:
    """A new table fails here until the backup says what it does with it."""
    assert set(BACKED_UP).isdisjoint(LEFT_OUT)
    assert set(t.metadata.tables) == set(BACKED_UP) | set(LEFT_OUT)
    assert all(reason.strip() for reason in LEFT_OUT.values())


def test_every_column_of_a_backed_up_table_travels() -> None:
    """A new column of a backed-up table fails here until a part (or CLOCK) carries it."""
    carried: dict[str, set[str]] = {name: set(columns) for name, columns in CLOCK_COLUMNS.items()}
    for part in PARTS:
        carried.setdefault(PART_TABLES[part.name], set()).update(part.names)
    for name in BACKED_UP:
        columns = set(t.metadata.tables[name].columns.keys())
        left = {"created_at"} if name in CREATED_AT_IS_THE_IMPORT else set()
        left |= NOT_CARRIED.get(name, set())
        assert columns - carried[name] - left == set(), name
        assert carried[name] <= columns, name


def test_the_schema_file_holds_the_parts_as_declared() -> None:
    generated = backup_schema()
    extension = schema()["properties"]["x_clockbot"]["properties"]
    for name, part_schema in generated["properties"].items():
        assert extension[name] == part_schema, name
    for name, definition in generated["$defs"].items():
        assert schema()["$defs"][name] == definition, name


async def _store(wrapper: InteractionWrapper, clock: SettableClock) -> dict[str, int]:
    """Two people with one of everything a person's data is; the ids a person names."""
    now = clock.now()
    for thread, user, message_id in (
        ("dm:42", "42", "1"),
        ("-100", "77", "2"),
        ("-100", "42", "3"),
    ):
        ref = MessageRef(
            channel="telegram", thread_id=thread, user_id=user, message_id=message_id,
            text="hello", received_at=clock.now(), route={"chat_id": thread},
            sender_name="Ana Lima" if user == "42" else None,
        )  # fmt: skip
        await wrapper.receive(ref)
    note = NewMemory.new(ANA, "dentist on Friday", due_at=now + timedelta(days=2))
    group_note = NewMemory.new(ANA, "bring the cake", group=GROUP)
    ping = NewMemory.new(ANA, "call mum", due_at=now + timedelta(hours=3))
    schedule = new_schedule_id()
    job = {
        "channel": "telegram", "thread_id": "dm:42", "thread_key": DM, "user_key": ANA,
        "user_id": "42", "kind": "reminder",
    }  # fmt: skip
    rule = parse_recurrence("every day at 8pm", "Europe/Lisbon", now)
    assert rule.rrule is not None and rule.dtstart is not None
    repeating = NewSchedule(
        id=schedule, user_key=ANA, thread_key=DM, channel="telegram", thread_id="dm:42",
        user_id="42", text="stretch", rrule=rule.rrule, dtstart=rule.dtstart, zone=rule.zone,
        origin_tz="Europe/Lisbon",
    )  # fmt: skip
    poll = NewMeetingPoll(
        id=9, thread_key=GROUP, channel="telegram", thread_id="-100", organiser=ANA, minutes=30,
        question="When can we meet? (30 min)",
        options=(PollOption(now + timedelta(days=3), "Fri 1 May: 10:00 Lisbon"),),
        voters=(ANA, BEN), closes_at=now + timedelta(days=1),
    )  # fmt: skip
    reminders = [
        Enqueue(key="k-ping", text="call mum", due_at=ping.due_at, memory_id=ping.id, **job),  # type: ignore[arg-type]
        Enqueue(key="k-pause", text="water the plants", due_at=now + timedelta(hours=5), **job),  # type: ignore[arg-type]
    ]
    await staged.commit(
        wrapper,
        ZoneChange(ANA, None, "Europe/Lisbon", "home"),
        WindowChange(ANA, "09:00-22:00"),
        note,
        group_note,
        ping,
        *reminders,
        repeating,
        NewAction(new_action_id(), ANA, DM, "going to the gym", 90, now),
        NewCalendarFeed(ANA, "ab" * 32),
        poll,
        MeetingVote(9, ANA, (1,)),
        MeetingVote(9, BEN, ()),
        now=now,
    )
    ids = dict(await wrapper.database.run(lambda c: list(c.execute(_JOB_IDS))))
    paused = ids["k-pause"]
    clock.advance(minutes=1)
    await staged.commit(
        wrapper,
        ReminderChange(ANA, f"r{paused}", "pause", until=now + timedelta(days=1)),
        ReminderChange(ANA, f"s{schedule}", "pause"),
    )
    return {"schedule": schedule, "ping": ids["k-ping"], "paused": paused}


_JOB_IDS = t.outbox.select().with_only_columns(t.outbox.c.key, t.outbox.c.id)


async def test_a_backup_restores_every_part_into_an_empty_store(
    wrapper: InteractionWrapper, clock: SettableClock, tmp_path: Path
) -> None:
    ids = await _store(wrapper, clock)
    exported = await wrapper.export_state()
    extension: dict[str, Any] = exported["x_clockbot"]  # type: ignore[assignment]
    assert extension["version"] == BACKUP_VERSION
    for name in PART_TABLES:
        if name != "action_details":  # an action of no known activity has none
            assert extension.get(name), name
    [paused] = [r for r in extension["reminders"] if r["id"] == ids["paused"]]
    assert (paused["status"], paused["defer_reason"]) == ("deferred", "paused by the person")
    [schedule] = extension["schedules"]
    assert schedule["state"] == "paused"

    fresh = await InteractionWrapper.open(
        f"sqlite:///{tmp_path / 'fresh.sqlite3'}", agent_tz="Europe/Berlin", clock=clock
    )
    try:
        await fresh.import_state(copy.deepcopy(exported))
        assert await fresh.export_state() == exported
        schedules, one_shots = await fresh.reminders.reminders(ANA)
        assert [s.id for s in schedules] == [ids["schedule"]]
        assert schedules[0].state == "paused"
        assert {ids["ping"], ids["paused"]} <= {j.id for j in one_shots}
        assert await fresh.reminders.reminders(ANA) == await wrapper.reminders.reminders(ANA)
        # the store works on: a new reminder takes a new id, clear of the restored ones
        await staged.commit(
            fresh,
            Enqueue(
                key="k-new", kind="reminder", channel="telegram", thread_id="dm:42",
                thread_key=DM, user_key=ANA, user_id="42", text="later",
                due_at=clock.now() + timedelta(hours=1),
            ),
        )  # fmt: skip
        _, after = await fresh.reminders.reminders(ANA)
        [added] = [job for job in after if job.key == "k-new"]
        assert added.id > max(job.id for job in one_shots)
        assert len(after) == len(one_shots) + 1
    finally:
        await fresh.close()


async def test_a_backup_is_refused_by_a_store_that_holds_people(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _store(wrapper, clock)
    exported = await wrapper.export_state()
    with pytest.raises(StateImportError) as refused:
        await wrapper.import_state(exported)
    [(path, problem)] = refused.value.problems
    assert path.startswith("$.x_clockbot.")
    assert "already holds 2 people" in problem and "empty store" in problem
    assert await wrapper.export_state() == exported


async def test_a_backup_of_a_newer_clockbot_is_refused_and_changes_nothing(
    wrapper: InteractionWrapper,
) -> None:
    document = {"version": 3, "x_clockbot": {"version": BACKUP_VERSION + 1, "gadgets": [1]}}
    with pytest.raises(StateImportError) as refused:
        await wrapper.import_state(document)
    [(path, problem)] = refused.value.problems
    assert path == "$.x_clockbot.version"
    assert "newer clockbot" in problem
    assert await wrapper.export_state() == {"version": 3, "users": {}, "threads": {}}


async def test_a_version_1_export_still_imports(wrapper: InteractionWrapper) -> None:
    """What clockbot wrote before backups held reminders: memory under x_clockbot, no version."""
    item = {"id": 5, "user_id": ANA, "content": "pay rent", "created_iso": "2026-04-01T10:00:00Z"}
    await wrapper.import_state({"version": 3, "x_clockbot": {"memory": [item]}})
    exported = await wrapper.export_state()
    assert exported["x_clockbot"] == {  # type: ignore[comparison-overlap]
        "version": BACKUP_VERSION,
        "memory": [{**item, "created_iso": "2026-04-01T10:00:00+00:00"}],
    }


@pytest.mark.parametrize(
    ("part", "row", "where"),
    [
        ("schedules", {"id": 1}, "$.x_clockbot.schedules[0].user_id"),
        ("meeting_votes", {"poll_id": 4, "user_key": ANA, "choices": [], "at": "2026-04-01T10:00:00Z"},
         "$.x_clockbot.meeting_votes[0].poll_id"),
        ("reminders", {"status": "sent"}, "$.x_clockbot.reminders[0].status"),
    ],
)  # fmt: skip
async def test_a_bad_part_is_refused_and_changes_nothing(
    wrapper: InteractionWrapper, clock: SettableClock, part: str, row: dict[str, Any], where: str
) -> None:
    await _store(wrapper, clock)
    good = await wrapper.export_state()
    document: dict[str, Any] = json.loads(json.dumps(good))
    rows = document["x_clockbot"][part]
    if part == "schedules":
        del rows[0]["user_id"]
    elif part == "reminders":
        rows[0]["status"] = "sent"
    else:
        rows[:] = [row]
    with pytest.raises(StateImportError) as refused:
        await wrapper.import_state(document)
    assert where in [path for path, _ in refused.value.problems]
    assert await wrapper.export_state() == good


async def test_text_the_store_cannot_keep_is_refused_by_its_path(
    wrapper: InteractionWrapper,
) -> None:
    """PostgreSQL refuses NUL in text: the import names where, on SQLite as well."""
    item = {
        "id": 5,
        "user_id": ANA,
        "content": "pay\x00rent",
        "created_iso": "2026-04-01T10:00:00Z",
    }
    with pytest.raises(StateImportError) as refused:
        await wrapper.import_state({"version": 3, "x_clockbot": {"memory": [item]}})
    assert refused.value.problems == (
        ("$.x_clockbot.memory[0].content", "contains a NUL character, which the store cannot keep"),
    )
    assert await wrapper.export_state() == {"version": 3, "users": {}, "threads": {}}


async def test_linked_identities_come_back_as_one_person(
    wrapper: InteractionWrapper, clock: SettableClock, tmp_path: Path
) -> None:
    """Alice linked her Telegram and her mail (tests/wrapper/test_erase.py builds her)."""
    from tests.wrapper.test_erase import ALICE, ALICE_MAIL, _alice_and_bob

    await _alice_and_bob(wrapper, clock)
    exported = await wrapper.export_state()
    fresh = await InteractionWrapper.open(
        f"sqlite:///{tmp_path / 'fresh.sqlite3'}", agent_tz="Europe/Berlin", clock=clock
    )
    try:
        await fresh.import_state(copy.deepcopy(exported))
        assert await fresh.export_state() == exported
        by_telegram, by_mail = (
            await fresh.people.export_person(ALICE),
            await fresh.people.export_person(ALICE_MAIL),
        )
        assert by_telegram is not None and by_telegram == by_mail
        assert by_telegram["x_clockbot"]["person"]["identities"] == [ALICE_MAIL, ALICE]
        assert await fresh.reminders.reminders(ALICE) == await wrapper.reminders.reminders(ALICE)
    finally:
        await fresh.close()
