"""Leadership of single-reader intakes: one leader per name among workers on one PostgreSQL.

Two `Leadership`s on one real database stand for two workers. A leader's connection dying
(its backend terminated, as when the process is killed) frees its locks at once; the leader
sees it in `alive`. On SQLite the one worker leads everything.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text

from wrapper.coordination.leadership import LOCK_CLASS, Leadership
from wrapper.store.db import Database, resolve_url


@pytest.fixture
async def databases(postgres_url: str) -> AsyncIterator[tuple[Database, Database]]:
    first, second = Database(resolve_url(postgres_url)), Database(resolve_url(postgres_url))
    await first.migrate()
    try:
        yield first, second
    finally:
        await first.dispose()
        await second.dispose()


@pytest.mark.peer("postgres")
async def test_one_leader_per_name_and_the_lead_passes_when_it_resigns(
    databases: tuple[Database, Database],
) -> None:
    a, b = Leadership(databases[0]), Leadership(databases[1])
    try:
        assert a.shared and b.shared
        assert await a.try_lead("telegram:1")
        assert await a.try_lead("telegram:1")  # again: still this worker's
        assert not await b.try_lead("telegram:1")
        assert await b.try_lead("email:bot@example.org")  # another name: another lock
        assert a.held == {"telegram:1"} and b.held == {"email:bot@example.org"}
        await a.resign("telegram:1")
        assert a.held == frozenset()
        assert await b.try_lead("telegram:1")
        assert not await a.try_lead("telegram:1")
    finally:
        await a.close()
        await b.close()


@pytest.mark.peer("postgres")
async def test_a_dead_leaders_lock_is_free_at_once_and_the_leader_knows_it_lost(
    databases: tuple[Database, Database],
) -> None:
    a, b = Leadership(databases[0]), Leadership(databases[1])
    try:
        assert await a.try_lead("slack:socket")
        assert await a.alive()
        # The leader's backend goes away, as when its process is killed or the server restarts.
        killed = await databases[1].run(
            lambda conn: (
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_locks "
                        "WHERE locktype = 'advisory' AND classid = :cls"
                    ),
                    {"cls": LOCK_CLASS},
                ).rowcount
            )
        )
        assert killed == 1
        assert await b.try_lead("slack:socket")
        assert not await a.alive()
        assert a.held == frozenset()
        assert not await a.try_lead("slack:socket")  # a new connection, and b leads
    finally:
        await a.close()
        await b.close()


async def test_on_sqlite_the_one_worker_leads_everything(tmp_path: Path) -> None:
    database = Database(resolve_url(f"sqlite:///{tmp_path / 'store.sqlite3'}"))
    await database.migrate()
    leadership = Leadership(database)
    try:
        assert not leadership.shared
        assert await leadership.try_lead("telegram:1")
        assert await leadership.alive()
        assert leadership.held == {"telegram:1"}
    finally:
        await leadership.close()
        await database.dispose()
