"""Conversation history: byte-exact storage, order, compaction, concurrent appends, migration."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, select, text
from sqlalchemy.engine import Connection

from wrapper import InteractionWrapper
from wrapper.store.db import _MIGRATIONS, Database, resolve_url
from wrapper.turns.history import History, StoredMessage, append_in, history, replace_prefix_in

AT = datetime(2026, 5, 1, 12, tzinfo=UTC)
THREAD = "agent:main:telegram:dm:7"

TRICKY = [
    "  leading and trailing spaces  ",
    "line one\nline two\n\n",
    "windows\r\nline ends\r\n",
    "\ttabs\tand\u2028separators\u2029",
    "emoji 🕰️ and a family 👩\u200d👩\u200d👧",
    "cafe\u0301 (decomposed) vs caf\u00e9 (composed)",
    '{"a": [1,  2], "b": "\\u00e9", "c": null}',
    "",
    "   ",
    "ends with a backslash \\",
]


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(resolve_url(database_url))
    await database.migrate()
    try:
        yield database
    finally:
        await database.dispose()


async def _seqs(db: Database, thread_key: str) -> list[int]:
    def work(conn: Connection) -> list[int]:
        rows = conn.execute(
            select(history.c.seq).where(history.c.thread_key == thread_key).order_by("seq")
        )
        return [row.seq for row in rows]

    return await db.run(work)


def _msgs(prefix: str, count: int) -> list[StoredMessage]:
    return [StoredMessage("user", f"{prefix}-{i}") for i in range(count)]


async def _append(
    db: Database, thread_key: str, messages: list[StoredMessage], *, at: datetime
) -> None:
    """Add messages as a turn's commit does (`append_in`), in a transaction of their own."""
    await db.run(lambda conn: append_in(conn, thread_key, messages, at=at))


async def _replace_prefix(
    db: Database, thread_key: str, upto_seq: int, summary: list[StoredMessage], *, at: datetime
) -> None:
    """Compact as a turn's commit does (`replace_prefix_in`)."""
    await db.run(lambda conn: replace_prefix_in(conn, thread_key, upto_seq, summary, at=at))


async def test_round_trip_is_byte_exact(db: Database) -> None:
    store = History(db)
    sent = [StoredMessage("user", content) for content in TRICKY]
    sent.append(
        StoredMessage(
            "assistant",
            "calling\n",
            tool_calls=(
                ("call_1", "remember", '{"content":  "x\\n",\n "due": null}'),
                ("call_2", "clock_it", "{}"),
            ),
        )
    )
    sent.append(StoredMessage("tool", ' {"ok": true} ', tool_call_id="call_1", name="remember"))
    sent.append(StoredMessage("system", "stable prompt"))
    await _append(db, THREAD, sent, at=AT)

    loaded = await store.load(THREAD)

    assert loaded == sent
    for got, want in zip(loaded, sent, strict=True):
        assert got.content.encode() == want.content.encode()


async def test_appends_continue_the_sequence_per_thread(db: Database) -> None:
    store = History(db)
    assert await store.load(THREAD) == []
    await _append(db, THREAD, _msgs("a", 3), at=AT)
    await _append(db, "other-thread", _msgs("x", 2), at=AT)
    await _append(db, THREAD, [], at=AT)  # nothing to add, nothing changes
    await _append(db, THREAD, _msgs("b", 2), at=AT + timedelta(minutes=1))

    assert [m.content for m in await store.load(THREAD)] == ["a-0", "a-1", "a-2", "b-0", "b-1"]
    assert await _seqs(db, THREAD) == [0, 1, 2, 3, 4]
    assert [m.content for m in await store.load("other-thread")] == ["x-0", "x-1"]
    assert await _seqs(db, "other-thread") == [0, 1]


async def test_refused_messages_write_nothing(db: Database) -> None:
    store = History(db)
    with pytest.raises(ValueError, match="role"):
        await _append(db, THREAD, [StoredMessage("user", "ok"), StoredMessage("bot", "x")], at=AT)
    with pytest.raises(ValueError, match="NUL"):
        await _append(db, THREAD, [StoredMessage("user", "a\x00b")], at=AT)
    assert await store.load(THREAD) == []


async def test_replace_prefix_keeps_later_messages_exactly(db: Database) -> None:
    store = History(db)
    early = _msgs("early", 4)
    later = [StoredMessage("user", content) for content in TRICKY[:4]]
    later.append(StoredMessage("assistant", "", tool_calls=(("c", "n", '{"k": 1}'),)))
    await _append(db, THREAD, early + later, at=AT)
    summary = [StoredMessage("system", "Summary:\n- early 0..3\n"), StoredMessage("user", "ok")]

    await _replace_prefix(db, THREAD, 4, summary, at=AT + timedelta(hours=1))

    assert await store.load(THREAD) == summary + later
    assert await _seqs(db, THREAD) == list(range(len(summary) + len(later)))
    # Appends carry on after the renumbered tail.
    await _append(db, THREAD, [StoredMessage("user", "next")], at=AT + timedelta(hours=2))
    assert (await store.load(THREAD))[-1].content == "next"
    assert await _seqs(db, THREAD) == list(range(len(summary) + len(later) + 1))


async def test_replace_prefix_edges(db: Database) -> None:
    store = History(db)
    await _append(db, THREAD, _msgs("m", 5), at=AT)
    head = StoredMessage("system", "head")

    await _replace_prefix(db, THREAD, 0, [head], at=AT)  # nothing before 0: a prepend
    assert [m.content for m in await store.load(THREAD)] == ["head", *[f"m-{i}" for i in range(5)]]

    # Fewer summary messages than replaced ones: the tail moves down.
    await _replace_prefix(db, THREAD, 4, [], at=AT)
    assert [m.content for m in await store.load(THREAD)] == ["m-3", "m-4"]
    assert await _seqs(db, THREAD) == [0, 1]

    await _replace_prefix(db, THREAD, 99, [head], at=AT)  # past the end: everything
    assert await store.load(THREAD) == [head]

    with pytest.raises(ValueError, match="upto_seq"):
        await _replace_prefix(db, THREAD, -1, [], at=AT)
    assert await store.load(THREAD) == [head]


def _assert_batches_whole(loaded: list[StoredMessage], writers: int, batches: int) -> None:
    """Every batch `w<w>-b<b>-m<i>` is contiguous and in order, and each writer's are in order."""
    contents = [m.content for m in loaded]
    per_batch = len(contents) // (writers * batches)
    assert len(contents) == writers * batches * per_batch
    assert len(set(contents)) == len(contents)
    seen: dict[str, list[int]] = {}
    for start in range(0, len(contents), per_batch):
        chunk = contents[start : start + per_batch]
        writer, batch, _ = chunk[0].split("-")
        assert chunk == [f"{writer}-{batch}-m{i}" for i in range(per_batch)]
        seen.setdefault(writer, []).append(int(batch[1:]))
    assert seen == {f"w{w}": list(range(batches)) for w in range(writers)}


async def test_concurrent_appends_never_interleave(db: Database) -> None:
    store = History(db)
    tasks, size = 20, 3

    async def writer(w: int) -> None:
        batch = [StoredMessage("user", f"w{w}-b0-m{i}") for i in range(size)]
        await _append(db, THREAD, batch, at=AT)

    await asyncio.gather(*(writer(w) for w in range(tasks)))

    loaded = await store.load(THREAD)
    _assert_batches_whole(loaded, tasks, 1)
    assert await _seqs(db, THREAD) == list(range(tasks * size))


PROCESSES, BATCHES, BATCH_SIZE = 4, 25, 2


async def _append_many(url: str, worker: int) -> None:
    database = Database(resolve_url(url))
    try:
        for b in range(BATCHES):
            batch = [StoredMessage("user", f"w{worker}-b{b}-m{i}") for i in range(BATCH_SIZE)]
            await _append(database, THREAD, batch, at=AT + timedelta(seconds=b))
    finally:
        await database.dispose()


def _append_worker(url: str, worker: int) -> None:
    asyncio.run(_append_many(url, worker))


async def test_appends_from_many_processes_are_gap_free(database_url: str, db: Database) -> None:
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=_append_worker, args=(database_url, w)) for w in range(PROCESSES)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=300)
    assert [p.exitcode for p in processes] == [0] * PROCESSES

    loaded = await History(db).load(THREAD)
    _assert_batches_whole(loaded, PROCESSES, BATCHES)
    assert await _seqs(db, THREAD) == list(range(PROCESSES * BATCHES * BATCH_SIZE))


# ---------------------------------------------------------------- migration 0002


def _version_and_tables(conn: Connection) -> tuple[str, set[str]]:
    version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    return str(version), set(inspect(conn).get_table_names())


def _head() -> str:
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def _upgrade_to_0001(conn: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = conn
    command.upgrade(config, "0001")


@pytest.mark.fresh_store
async def test_fresh_database_is_migrated_to_head(database_url: str) -> None:
    assert _head() != "0001"
    opened = await InteractionWrapper.open(database_url, agent_tz="UTC")
    try:
        version, tables = await opened.database.run(_version_and_tables)
        assert version == _head()
        assert {"history", "outbox"} <= tables
        await _append(opened.database, THREAD, [StoredMessage("user", "hi")], at=AT)
        assert await History(opened.database).load(THREAD) == [StoredMessage("user", "hi")]
    finally:
        await opened.close()


@pytest.mark.fresh_store
async def test_a_0001_database_upgrades(database_url: str) -> None:
    old = Database(resolve_url(database_url))
    try:
        await old.run(_upgrade_to_0001)
        version, tables = await old.run(_version_and_tables)
        assert version == "0001"
        assert "history" not in tables
        assert "outbox" not in tables
    finally:
        await old.dispose()

    opened = await InteractionWrapper.open(database_url, agent_tz="UTC")
    try:
        version, tables = await opened.database.run(_version_and_tables)
        assert version == _head()
        assert {"history", "outbox", "threads"} <= tables
        await _append(opened.database, THREAD, _msgs("m", 2), at=AT)
        assert await _seqs(opened.database, THREAD) == [0, 1]
    finally:
        await opened.close()
