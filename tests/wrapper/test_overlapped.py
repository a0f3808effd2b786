"""`wrapper.inbound.hot.overlapped`: the hot path's query leaves first, the Python work runs while
the server answers, and the query is settled whatever happens.

The query here is a coroutine that records its steps instead of a PostgreSQL statement: what is
held is the order of the steps, which no server is needed for. The hot path itself, with the
overlap in it, is held row for row to the general chain in `test_hot_path.py`.
"""

from __future__ import annotations

import asyncio

import pytest

from wrapper.inbound.hot import overlapped


class Query:
    """A stand-in for `conn.fetchrow(...)`: sent on its first step, answered after a wait."""

    def __init__(self) -> None:
        self.steps: list[str] = []
        self.answer = asyncio.Event()

    async def run(self) -> int:
        self.steps.append("sent")
        try:
            await self.answer.wait()
        except asyncio.CancelledError:
            self.steps.append("cancelled")
            raise
        self.steps.append("answered")
        return 7


async def test_the_query_is_sent_before_the_work_and_answered_after_it() -> None:
    query = Query()

    def work() -> str:
        query.steps.append("work")
        query.answer.set()  # the server answers while the work runs
        return "done"

    assert await overlapped(query.run(), work) == (7, "done")
    assert query.steps == ["sent", "work", "answered"]


async def test_work_that_raises_still_waits_for_the_answer() -> None:
    query = Query()

    def work() -> None:
        query.answer.set()
        raise ValueError("the text could not be read")

    with pytest.raises(ValueError, match="could not be read"):
        await overlapped(query.run(), work)
    assert query.steps == ["sent", "answered"]  # nothing left in flight on the connection


async def test_a_cancelled_caller_cancels_the_query() -> None:
    query = Query()
    caller = asyncio.ensure_future(overlapped(query.run(), lambda: None))
    await asyncio.sleep(0.01)
    assert query.steps == ["sent"]
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert query.steps == ["sent", "cancelled"]


async def test_a_failing_query_fails_the_call_after_the_work() -> None:
    done: list[str] = []

    async def refused() -> int:
        raise ConnectionResetError("the server closed the connection")

    with pytest.raises(ConnectionResetError):
        await overlapped(refused(), lambda: done.append("work"))
    assert done == ["work"]  # the text is read whatever the query's fate
