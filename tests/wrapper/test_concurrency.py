"""Eight OS processes hammer one user and one thread; nothing is lost or doubled."""

from __future__ import annotations

import asyncio
import multiprocessing
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from clockcore.state.document import load_state
from wrapper import InteractionWrapper
from wrapper.store import tables as t

pytestmark = pytest.mark.slow  # many processes: `make test-fast` leaves it out

WORKERS = 8
PER_WORKER = 300
"""2,400 messages on one thread: the eight processes start within a second of each other and
each writes for several seconds after, all of it racing (500 each took ~60 s a backend, a
minute of `make test`, for no more overlap)."""
BASE = datetime(2026, 5, 1, 12, tzinfo=UTC)
THREAD = {"channel": "telegram", "thread_id": "dm:7", "user_id": "7"}


def _instant(worker: int, index: int) -> datetime:
    # Interleaved: each worker's messages are spread over the whole run, so the
    # latest instant arrives while the others are still writing.
    return BASE + timedelta(seconds=index * WORKERS + worker)


async def _send(url: str, worker: int) -> None:
    wrapper = await InteractionWrapper.open(url, agent_tz="UTC")
    try:
        for index in range(PER_WORKER):
            await wrapper.on_user_message(
                text=f"message {index} from worker {worker}",
                received_at=_instant(worker, index),
                message_id=f"{worker}-{index}",
                **THREAD,
            )
    finally:
        await wrapper.close()


def _worker(url: str, worker: int) -> None:
    asyncio.run(_send(url, worker))


async def test_many_processes_lose_nothing(database_url: str) -> None:
    setup = await InteractionWrapper.open(database_url, agent_tz="UTC")  # migrate once
    await setup.close()
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_worker, args=(database_url, w)) for w in range(WORKERS)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=600)
    assert [p.exitcode for p in processes] == [0] * WORKERS

    latest = max(_instant(w, i) for w in range(WORKERS) for i in range(PER_WORKER))
    wrapper = await InteractionWrapper.open(database_url, agent_tz="UTC")
    try:

        def check(conn: Connection) -> None:
            journaled = conn.execute(
                select(func.count(), func.count(func.distinct(t.journal.c.message_id)))
            )
            assert tuple(journaled.one()) == (WORKERS * PER_WORKER, WORKERS * PER_WORKER)
            thread = conn.execute(select(t.threads)).mappings().one()
            assert thread["last_user_message_at"] == latest
            assert thread["last_interaction_at"] == latest
            participant = conn.execute(select(t.participants)).mappings().one()
            assert participant["last_user_message_at"] == latest
            identity = conn.execute(select(t.identities)).mappings().one()
            assert identity["last_user_message_at"] == latest
            person = conn.execute(select(t.users)).mappings().one()
            assert person["last_interaction_any_channel_at"] == latest

        await wrapper.database.run(check)
        document = await wrapper.export_state()
        load_state(document)  # validates against the schema
    finally:
        await wrapper.close()


async def test_workers_starting_together_on_an_empty_database_all_open_it(
    postgres_url: str,
) -> None:
    """Each open migrates; on PostgreSQL they queue on one lock instead of racing the catalog."""
    opened = await asyncio.gather(
        *(InteractionWrapper.open(postgres_url, agent_tz="UTC") for _ in range(4)),
        return_exceptions=True,
    )
    try:
        assert [type(w).__name__ for w in opened] == ["InteractionWrapper"] * 4, opened
    finally:
        for wrapper in opened:
            if isinstance(wrapper, InteractionWrapper):
                await wrapper.close()
