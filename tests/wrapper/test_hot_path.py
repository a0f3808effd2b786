"""The PostgreSQL hot path (`wrapper.inbound.hot`) against the general chain, on a real server.

The same conversation goes through two stores, one with the hot path and one
without; every envelope and every row must come out the same. Then: a plain
message costs two statements and no SQLAlchemy at all, a redelivery and a new
thread still go the general way, and both paths running on one thread at once
neither deadlock nor lose a stamp.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest
from sqlalchemy import Engine, event, func, select, text
from sqlalchemy.engine import Connection, make_url

from clockcore import DEFAULT_POLICY, SettableClock
from clockcore.message import MessageRef
from tests.support import staged
from tests.support.postgres import PostgresServer
from wrapper import keys
from wrapper.core import InteractionWrapper
from wrapper.store import queries as q
from wrapper.store import tables as t
from wrapper.turns.envelope_json import envelope_to_json

pytestmark = pytest.mark.peer("postgres")

START = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
TABLES = (
    "users", "identities", "threads", "thread_participants", "inbound_journal", "routes",
    "pending_turns", "actions", "memory_items",
)  # fmt: skip


@pytest.fixture
def second_url(postgres_server: PostgresServer) -> Iterator[str]:
    name = postgres_server.create_database()
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.drop_database(name)


@pytest.fixture
async def pair(
    postgres_url: str, second_url: str
) -> AsyncIterator[tuple[InteractionWrapper, InteractionWrapper, SettableClock]]:
    clock = SettableClock(START)
    hot = await InteractionWrapper.open(postgres_url, agent_tz="Europe/Berlin", clock=clock)
    general = await InteractionWrapper.open(second_url, agent_tz="Europe/Berlin", clock=clock)
    general.chain.hot_path = False
    try:
        yield hot, general, clock
    finally:
        await hot.close()
        await general.close()


def _no_ids(value: Any) -> Any:
    """`value` without "id" keys: memory and action ids are random on each store."""
    if isinstance(value, dict):
        return {k: _no_ids(v) for k, v in value.items() if k != "id"}
    if isinstance(value, list):
        return [_no_ids(v) for v in value]
    return value


def _rows(conn: Connection) -> dict[str, list[dict[str, Any]]]:
    dumped = {}
    for table in TABLES:
        result = conn.execute(text(f"SELECT * FROM {table}")).mappings()  # noqa: S608 (constants)
        rows = [_no_ids(dict(row)) for row in result]
        dumped[table] = sorted(rows, key=repr)
    return dumped


# (seconds after START, channel, thread, user, message id, text, extras)
CONVERSATION: list[tuple[int, str, str, str, str | None, str, dict[str, Any]]] = [
    (0, "telegram", "100", "100", "1", "hello there", {}),
    (5, "telegram", "100", "100", "2", "how are you today?", {}),
    (9, "telegram", "100", "100", "2", "how are you today?", {}),  # redelivered
    (20, "telegram", "100", "100", "3", "ok thanks", {"route": {"chat_id": "100"}}),
    (40, "telegram", "-5", "100", "4", "hi group", {"name": "Ana Lima"}),
    (41, "telegram", "-5", "200", "5", "hi all", {}),
    (50, "telegram", "-5", "100", "6", "what's new", {"hold": True, "name": "Ana Lima"}),
    (60, "telegram", "-5", "200", "7", "same here", {"hold": True, "route": {"chat_id": "-5"}}),
    (65, "telegram", "-5", "200", "7b", "renamed", {"name": "Ben\nOkafor"}),
    (66, "telegram", "-5", "200", "7c", "still Ben", {"name": "Ben Okafor"}),
    (70, "slack", "D1", "U1", "8", "morning", {"zone": "America/New_York"}),
    (80, "slack", "D1", "U1", "9", "anything due?", {"zone": "America/New_York"}),
    (90, "slack", "D1", "U1", "10", "moving on", {"zone": "Asia/Tokyo"}),
    (100, "telegram", "100", "100", "11", "I'm in Lisbon this week", {}),
    (110, "telegram", "100", "100", "12", "heading to lunch", {}),
    (130, "telegram", "100", "100", "13", "back, what did I say?", {}),
    (135, "telegram", "100", "100", "13b", "and what time is it in Kathmandu?", {}),
    (140, "telegram", "100", "100", "14", "clock: home tz Asia/Kolkata", {}),
    (4000, "telegram", "100", "100", "15", "after a long break", {"hint": "Sent while offline."}),
    (4005, "telegram", "100", "100", None, "no id on this one", {}),
    (4010, "email", "a@x.test/root", "a@x.test", "<m1@x>", "first mail", {}),
    (4020, "email", "a@x.test/root", "a@x.test", "<m2@x>", "second mail", {}),
    (4030, "email", "a@x.test/root", "a@x.test", "<m0@x>", "an older mail, late", {"late": 60}),
    (4040, "telegram", "-5", "200", "16", "early", {"late": 4020, "route": {"chat_id": "x"}}),
]


async def test_the_hot_path_writes_and_answers_what_the_chain_does(
    pair: tuple[InteractionWrapper, InteractionWrapper, SettableClock],
) -> None:
    hot, general, clock = pair
    for wrapper in (hot, general):
        await staged.remember(
            wrapper,
            user_key="telegram:100",
            content="dentist",
            due_at=START + timedelta(days=1),
        )
        # A reminder's note is due as its reminder is (docs/reminders.md, "What is due").
        bank = await staged.remember(
            wrapper,
            user_key="email:a@x.test",
            content="call the bank",
            due_at=START + timedelta(hours=1),
        )
        await staged.queued(
            wrapper.outbox, kind="reminder", channel="email", thread_id="a@x.test/root",
            thread_key=keys.thread_key(wrapper.agent_id, "email", "a@x.test/root"),
            user_key="email:a@x.test",
            text="call the bank", due_at=START + timedelta(hours=2), now=START, memory_id=bank,
        )  # fmt: skip
    for seconds, channel, thread, user, message_id, words, extras in CONVERSATION:
        clock.set(START + timedelta(seconds=seconds))
        at = clock.now() - timedelta(seconds=extras.get("late", 0))
        ref = MessageRef(
            channel=channel, thread_id=thread, user_id=user, message_id=message_id,
            text=words, received_at=at, route=extras.get("route", {}),
            user_zone=extras.get("zone"), hint=extras.get("hint"), sender_name=extras.get("name"),
        )  # fmt: skip
        held = {"claim_for": "w1", "lease_until": at + timedelta(minutes=5)}
        kwargs: dict[str, Any] = held if extras.get("hold") else {}
        envelopes = [await wrapper.receive(ref, **kwargs) for wrapper in (hot, general)]
        shown = [_no_ids(envelope_to_json(e)) for e in envelopes]
        assert shown[0] == shown[1], words
        if words == "first mail":
            [due] = envelopes[0].upcoming
            assert (due.content, due.due_at) == ("call the bank", START + timedelta(hours=2))
            assert isinstance(due.id, str) and due.id.startswith("r")
    stored = [await wrapper.database.run(_rows) for wrapper in (hot, general)]
    for table in TABLES:
        assert stored[0][table] == stored[1][table], table
    assert len(stored[0]["inbound_journal"]) == len(CONVERSATION) - 1  # one was redelivered
    assert len(stored[0]["pending_turns"]) == 2
    assert stored[0]["routes"], "routes were saved"


# (minutes after START, thread, user, text): actions clocked, kept, compacted and expired.
CLOCKING = [
    (0, "100", "100", "brb, grabbing a coffee"),
    (1, "100", "100", "clock it: going to the gym"),
    (2, "-5", "100", "heading to lunch"),
    (3, "100", "100", "back, anything new?"),
    (4, "-5", "200", "I'm going for a run now"),
    (5, "100", "100", "heading to dinner"),  # the fourth: compaction keeps three
    (6, "100", "100", "walking the dog"),
    (7, "-5", "100", "clock it: call mum"),
    (8, "100", "100", "what was I doing?"),
    (300, "100", "100", "off to bed"),  # hours later: the earlier ones have expired
    (301, "-5", "100", "brb, grabbing a coffee"),
    (302, "100", "100", "morning"),
]


async def test_clocked_actions_take_the_hot_path_and_store_what_the_chain_does(
    postgres_url: str, second_url: str
) -> None:
    clock = SettableClock(START)
    policy = DEFAULT_POLICY.with_overrides({"store": {"latest_actions": {"max_items": 3}}})
    hot, general = [
        await InteractionWrapper.open(url, agent_tz="UTC", clock=clock, policy=policy)
        for url in (postgres_url, second_url)
    ]
    general.chain.hot_path = False
    counted: list[str] = []

    def count(*args: Any) -> None:
        counted.append(str(args[2]))

    try:
        for wrapper in (hot, general):
            for user, thread in (("100", "100"), ("100", "-5"), ("200", "-5")):
                await wrapper.on_user_message(
                    channel="telegram", thread_id=thread, user_id=user, text="hi",
                    message_id=f"hi-{user}{thread}", received_at=START - timedelta(minutes=1),
                )  # fmt: skip
            await wrapper.database.run(_calibrate_dinner)
        for n, (minutes, thread, user, words) in enumerate(CLOCKING):
            clock.set(START + timedelta(minutes=minutes))
            envelopes = []
            for wrapper in (hot, general):
                if wrapper is hot:
                    event.listen(Engine, "before_cursor_execute", count)
                try:
                    envelopes.append(
                        await wrapper.on_user_message(
                            channel="telegram", thread_id=thread, user_id=user, text=words,
                            message_id=str(n),
                        )
                    )  # fmt: skip
                finally:
                    if wrapper is hot:
                        event.remove(Engine, "before_cursor_execute", count)
            shown = [_no_ids(envelope_to_json(e)) for e in envelopes]
            assert shown[0] == shown[1], words
        if words == "first mail":
            [due] = envelopes[0].upcoming
            assert (due.content, due.due_at) == ("call the bank", START + timedelta(hours=2))
            assert isinstance(due.id, str) and due.id.startswith("r")
        assert counted == [], "every message took the hot path"
        stored = [await wrapper.database.run(_rows) for wrapper in (hot, general)]
        for table in TABLES:
            assert stored[0][table] == stored[1][table], table
        # Person 100's three newest, the expired gone; person 200's run stays until they
        # next clock something (compaction runs on a clocking message).
        labels = sorted(row["label"] for row in stored[0]["actions"])
        assert labels == ["be right back", "call mum", "run", "sleep"], labels
        assert all(row["actions_until"] is not None for row in stored[0]["users"])
    finally:
        await hot.close()
        await general.close()


def _calibrate_dinner(conn: Connection) -> None:
    """The person of telegram:100 takes two hours over dinner (CLOCK-STATE calibration)."""
    person = q.load_person(conn, "telegram:100")
    assert person is not None
    conn.execute(
        t.calibration.insert().values(
            user_id=person.user_id, activity="meal:dinner", typical_minutes=120,
            max_minutes=240, updated_at=START,
        )
    )  # fmt: skip


async def test_a_plain_message_is_two_statements_and_no_sqlalchemy(postgres_url: str) -> None:
    clock = SettableClock(START)
    wrapper = await InteractionWrapper.open(postgres_url, agent_tz="UTC", clock=clock)
    sqlalchemy_statements: list[str] = []

    def count(*args: Any) -> None:
        sqlalchemy_statements.append(str(args[2]))

    try:
        ref = MessageRef(
            channel="telegram", thread_id="7", user_id="7", message_id="1",
            text="hello", received_at=START, route={"chat_id": "7"},
        )  # fmt: skip
        await wrapper.receive(ref)  # new person and thread: the general chain
        pool = await wrapper.database.pg_pool()
        sent: list[str] = []
        async with pool.acquire() as connection:
            connection.add_query_logger(lambda record: sent.append(record.query))
        event.listen(Engine, "before_cursor_execute", count)
        for n in range(2, 12):
            clock.advance(timedelta(seconds=n))
            envelope = await wrapper.receive(
                MessageRef(
                    channel="telegram", thread_id="7", user_id="7", message_id=str(n),
                    text="and another thing", received_at=clock.now(), route={"chat_id": "7"},
                ),
                claim_for="w1",
                lease_until=clock.now() + timedelta(minutes=1),
            )  # fmt: skip
            assert not envelope.duplicate
        assert pool.get_size() == 1, "one message at a time uses one connection"
        assert len(sent) == 20, sent
        assert sqlalchemy_statements == []
        redelivered = await wrapper.receive(
            MessageRef(
                channel="telegram", thread_id="7", user_id="7", message_id="11",
                text="and another thing", received_at=clock.now(),
            )
        )  # fmt: skip
        assert redelivered.duplicate
        assert sqlalchemy_statements, "a redelivery goes through the general chain"

        def journaled(conn: Connection) -> int:
            return int(conn.execute(select(func.count()).select_from(t.journal)).scalar_one())

        assert await wrapper.database.run(journaled) == 11
    finally:
        event.remove(Engine, "before_cursor_execute", count)
        await wrapper.close()


async def test_both_paths_at_once_on_one_thread_lose_no_stamp(
    postgres_url: str,
) -> None:
    hot = await InteractionWrapper.open(postgres_url, agent_tz="UTC")
    general = await InteractionWrapper.open(postgres_url, agent_tz="UTC")
    general.chain.hot_path = False
    seen = START
    try:
        await hot.on_user_message(
            channel="telegram", thread_id="-9", user_id="1", text="hi", received_at=START
        )
        sends = []
        for n in range(200):
            at = START + timedelta(milliseconds=10 * (n + 1))
            seen = max(seen, at)
            wrapper = hot if n % 2 else general
            sends.append(
                wrapper.on_user_message(
                    channel="telegram", thread_id="-9", user_id=str(n % 3), text="hey",
                    received_at=at, message_id=f"m{n}",
                )
            )  # fmt: skip
        await asyncio.gather(*sends)

        def check(conn: Connection) -> None:
            count = conn.execute(select(func.count()).select_from(t.journal)).scalar_one()
            assert count == 201
            thread = conn.execute(select(t.threads)).mappings().one()
            assert thread["last_interaction_at"] == seen
            assert thread["last_user_message_at"] == seen

        await hot.database.run(check)
    finally:
        await hot.close()
        await general.close()


async def test_connections_the_server_closed_cost_no_message(postgres_url: str) -> None:
    """No ping before use: a dead connection fails, and the message goes through anyway."""
    clock = SettableClock(START)
    wrapper = await InteractionWrapper.open(postgres_url, agent_tz="UTC", clock=clock)

    async def terminate_the_wrappers_connections() -> int:
        own = await asyncpg.connect(
            make_url(postgres_url).set(drivername="postgresql").render_as_string(False)
        )
        try:
            killed = await own.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FILTER (WHERE backend_type = 'client backend') FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await own.close()
        return int(killed)

    try:
        for n in range(1, 7):
            clock.advance(timedelta(seconds=10))
            if n > 2:
                # The first time both pools hold one: SQLAlchemy's and the hot path's.
                killed = await terminate_the_wrappers_connections()
                assert killed == 2 if n == 3 else killed >= 1, killed
            envelope = await wrapper.on_user_message(
                channel="telegram", thread_id="3", user_id="3", text=f"message {n}",
                message_id=str(n),
            )  # fmt: skip
            assert not envelope.duplicate

        def journal(conn: Connection) -> list[str]:
            return list(conn.execute(select(t.journal.c.text).order_by(t.journal.c.id)).scalars())

        assert await wrapper.database.run(journal) == [f"message {n}" for n in range(1, 7)]
    finally:
        await wrapper.close()


class _UnreachablePool:
    """An asyncpg pool whose every checkout fails, as when the server cannot be reached."""

    def acquire(self) -> Any:
        raise ConnectionRefusedError("the server is not there")


async def test_a_checkout_that_fails_leaves_the_text_read_for_the_chain(
    pair: tuple[InteractionWrapper, InteractionWrapper, SettableClock],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hot path reads the text while READ is out; if READ never leaves, the general chain
    still gets the directives (here a home zone) and the clocked phrase."""
    hot, general, _ = pair

    async def unreachable() -> _UnreachablePool:
        return _UnreachablePool()

    await hot.database.pg_pool()  # the real one first: it names the errors of a lost server
    monkeypatch.setattr(hot.database, "pg_pool", unreachable)
    for wrapper in (hot, general):
        await wrapper.on_user_message(
            channel="telegram", thread_id="dm:100", user_id="100", message_id="1", text="hello"
        )
        envelope = await wrapper.on_user_message(
            channel="telegram", thread_id="dm:100", user_id="100", message_id="2",
            text="clock: home tz Asia/Kolkata",
        )  # fmt: skip
        assert envelope.session_tz == "Asia/Kolkata"
        clocked = await wrapper.on_user_message(
            channel="telegram", thread_id="dm:100", user_id="100", message_id="3",
            text="heading to lunch",
        )  # fmt: skip
        assert [a.label for a in clocked.open_actions] == ["lunch"]
