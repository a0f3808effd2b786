"""`ThreadLocks.only_turn` among two workers on one real PostgreSQL: one turn per thread, older first.

Two wrappers on one database stand for two workers. Each message is journaled and put on the
waiting list claimed by its worker (`InteractionWrapper.receive`), as the gateway does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete

from clockcore import MessageRef
from wrapper import InteractionWrapper
from wrapper.coordination.thread_locks import pending

THREAD = "agent:main:test:dm:7"
NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)


def _ref(message_id: str) -> MessageRef:
    return MessageRef(
        channel="test", thread_id="dm:7", user_id="7", message_id=message_id,
        text=f"text of {message_id}", received_at=NOW,
    )  # fmt: skip


@pytest.fixture
async def workers(
    postgres_url: str,
) -> AsyncIterator[tuple[InteractionWrapper, InteractionWrapper]]:
    a = await InteractionWrapper.open(postgres_url, agent_tz="UTC")
    b = await InteractionWrapper.open(postgres_url, agent_tz="UTC")
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def _hold(
    wrapper: InteractionWrapper, message_id: str | None, worker: str, log: list[str]
) -> None:
    async with wrapper.thread_locks.only_turn(
        THREAD, channel="test", thread_id="dm:7", message_id=message_id
    ):
        log.append(f"{worker} in")
        await asyncio.sleep(0.3)
        log.append(f"{worker} out")


@pytest.mark.peer("postgres")
async def test_a_newer_message_waits_for_an_older_one_another_worker_holds(
    workers: tuple[InteractionWrapper, InteractionWrapper],
) -> None:
    a, b = workers
    until = NOW + timedelta(minutes=10)
    await a.receive(_ref("m1"), claim_for="A", lease_until=until)
    await b.receive(_ref("m2"), claim_for="B", lease_until=until)
    log: list[str] = []
    newer = asyncio.create_task(_hold(b, "m2", "B", log))
    await asyncio.sleep(0.6)
    assert log == []  # m1 is older and A holds it: B gives the thread way
    await _hold(a, "m1", "A", log)
    await a.database.run(
        lambda conn: conn.execute(delete(pending).where(pending.c.message_id == "m1"))
    )
    await asyncio.wait_for(newer, 10)
    assert log == ["A in", "A out", "B in", "B out"]


@pytest.mark.peer("postgres")
async def test_an_older_message_this_worker_took_over_goes_before_its_newer_turn(
    workers: tuple[InteractionWrapper, InteractionWrapper],
) -> None:
    """A worker that took m1 over (its first worker died) after starting m2 answers m1 first."""
    a, _ = workers
    until = NOW + timedelta(minutes=10)
    await a.receive(_ref("m1"), claim_for="A", lease_until=until)
    await a.receive(_ref("m2"), claim_for="A", lease_until=until)
    local = asyncio.Lock()  # the worker's own lock for the thread (bot.turns.lifecycle)
    log: list[str] = []

    async def turn(message_id: str) -> None:
        async with (
            local,
            a.thread_locks.only_turn(
                THREAD, channel="test", thread_id="dm:7", message_id=message_id, yield_to=local
            ),
        ):
            log.append(f"{message_id} in")
            await asyncio.sleep(0.3)
            await a.database.run(
                lambda conn: conn.execute(delete(pending).where(pending.c.message_id == message_id))
            )
            log.append(f"{message_id} out")

    newer = asyncio.create_task(turn("m2"))
    await asyncio.sleep(0.3)  # m2's turn started first and holds the worker's lock
    await asyncio.wait_for(turn("m1"), 10)
    await asyncio.wait_for(newer, 10)
    assert log == ["m1 in", "m1 out", "m2 in", "m2 out"]


@pytest.mark.peer("postgres")
async def test_two_turns_of_one_thread_never_overlap_across_workers(
    workers: tuple[InteractionWrapper, InteractionWrapper],
) -> None:
    a, b = workers
    log: list[str] = []
    await asyncio.gather(_hold(a, None, "A", log), _hold(b, None, "B", log))
    assert log in (["A in", "A out", "B in", "B out"], ["B in", "B out", "A in", "A out"])


async def test_on_sqlite_nothing_is_held(tmp_path: Path) -> None:
    wrapper = await InteractionWrapper.open(f"sqlite:///{tmp_path / 's.sqlite3'}", agent_tz="UTC")
    try:
        assert not wrapper.thread_locks.shared
        log: list[str] = []
        await _hold(wrapper, "m1", "A", log)
        assert log == ["A in", "A out"]
    finally:
        await wrapper.close()
