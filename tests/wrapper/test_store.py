"""Opening the store: URLs, the default home, corrupt files, bad input at the door."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from clockcore import NaiveDatetimeError
from wrapper import (
    DatabaseURLError,
    InteractionWrapper,
    MessageTooLargeError,
    StoreUnavailableError,
)
from wrapper.store import db as wrapper_db
from wrapper.store.db import Database, resolve_url
from wrapper.store.tables import metadata


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///x/clock.db", "sqlite:///x/clock.db"),
        ("sqlite+aiosqlite:///x/clock.db", "sqlite:///x/clock.db"),
        ("postgresql://u:p@h:5/db", "postgresql+asyncpg://u:p@h:5/db"),
        ("postgres://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("postgresql+asyncpg://u@h/db", "postgresql+asyncpg://u@h/db"),
    ],
)
def test_urls_are_upgraded_to_async_drivers(
    given: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_url(given) == expected


def test_default_is_sqlite_under_clockbot_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLOCKBOT_HOME", str(tmp_path / "home"))
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'home' / 'clockbot.sqlite3'}"
    assert (tmp_path / "home").is_dir()


@pytest.mark.parametrize("url", ["mysql://bob:hunter2@db/x", "not a url at all", "://"])
def test_unsupported_urls_are_refused_without_the_password(url: str) -> None:
    with pytest.raises(DatabaseURLError) as refused:
        resolve_url(url)
    assert "hunter2" not in str(refused.value)


async def test_a_corrupt_sqlite_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "clockbot.sqlite3"
    broken.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    with pytest.raises(StoreUnavailableError, match="not a database"):
        await InteractionWrapper.open(f"sqlite:///{broken}")
    assert broken.read_bytes().startswith(b"this is not a database")  # left as it was


async def test_an_unreachable_postgres_is_a_clear_error() -> None:
    with pytest.raises(StoreUnavailableError) as refused:
        await InteractionWrapper.open("postgresql://clockbot:secret@127.0.0.1:1/none")
    assert "secret" not in str(refused.value)


async def test_opening_twice_migrates_once(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    url = f"sqlite:///{path}"
    heads = ScriptDirectory.from_config(_alembic_config()).get_heads()
    wrapper = await InteractionWrapper.open(url, agent_tz="UTC")
    await wrapper.on_user_message(
        channel="telegram", thread_id="dm:1", user_id="1", text="hi", message_id="m1"
    )
    await wrapper.close()
    with closing(sqlite3.connect(path)) as db:
        tables = db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()

    wrapper = await InteractionWrapper.open(url, agent_tz="UTC")
    again = await wrapper.on_user_message(
        channel="telegram", thread_id="dm:1", user_id="1", text="hi", message_id="m1"
    )
    await wrapper.close()
    assert again.duplicate  # the second open kept what the first wrote
    with closing(sqlite3.connect(path)) as db:
        versions = [row[0] for row in db.execute("SELECT version_num FROM alembic_version")]
        assert db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall() == tables
    assert versions == heads  # one row, at the newest revision


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option(
        "script_location", str(Path(wrapper_db.__file__).with_name("migrations"))
    )
    return config


async def test_bad_messages_are_refused_before_anything_is_written(
    wrapper: InteractionWrapper,
) -> None:
    before = await wrapper.export_state()
    base = {"channel": "telegram", "thread_id": "dm:1", "user_id": "1"}
    with pytest.raises(MessageTooLargeError):
        await wrapper.on_user_message(text="x" * 100_001, **base)
    with pytest.raises(ValueError, match="user_id"):
        await wrapper.on_user_message(channel="telegram", thread_id="dm:1", user_id=" ", text="hi")
    with pytest.raises(NaiveDatetimeError):
        await wrapper.on_user_message(text="hi", received_at=datetime(2026, 1, 1), **base)  # noqa: DTZ001
    assert await wrapper.export_state() == before


async def test_messages_without_an_id_are_each_recorded(wrapper: InteractionWrapper) -> None:
    base = {"channel": "console", "thread_id": "dm:me", "user_id": "me"}
    first = await wrapper.on_user_message(text="one", **base)
    second = await wrapper.on_user_message(text="two", **base)
    assert (first.duplicate, second.duplicate) == (False, False)


async def test_a_locked_sqlite_file_waits_off_the_event_loop(tmp_path: Path) -> None:
    """Another process holds the write lock: the message waits on a worker, the loop runs on."""
    import asyncio
    import sqlite3

    path = tmp_path / "locked.sqlite3"
    wrapper = await InteractionWrapper.open(f"sqlite:///{path}", agent_tz="UTC")
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        pending = asyncio.create_task(
            wrapper.on_user_message(
                channel="console", thread_id="dm:me", user_id="me", text="hi", message_id="1"
            )
        )
        ticks = 0
        for _ in range(10):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 10  # the event loop kept turning
        assert not pending.done()  # the message is waiting for the lock
        blocker.execute("COMMIT")
        envelope = await asyncio.wait_for(pending, timeout=30)
        assert envelope.duplicate is False
        assert envelope.user_key == "console:me"
    finally:
        blocker.close()
        await wrapper.close()


async def test_the_migrations_build_exactly_the_declared_tables(database_url: str) -> None:
    """The migrations and `wrapper.store.tables` are two writings of one schema; they must agree.

    Alembic compares the migrated store with the declared tables: a column,
    index or table that one has and the other lacks is a difference.
    """
    database = Database(database_url)
    await database.migrate()
    try:
        differences = await database.run(
            lambda conn: compare_metadata(MigrationContext.configure(conn), metadata)
        )
    finally:
        await database.dispose()
    assert differences == []
