"""`bot.app.duckling_pool`: Duckling read in child processes, each read with a time limit.

A read past the limit is no reading: the parse asks instead of guessing, and the next
read starts a new child. Real child processes; the limits are set so that any read
outlasts the first and none the second.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from bot.app.duckling_pool import _Budgets, _Child, _Children, reading_for
from clockcore import parse_anchored_time
from clockcore.parsing import duckling_reader

NOW = datetime(2026, 11, 26, 9, tzinfo=UTC)
TEXT = "next Tuesday at quarter past 7pm"

pytestmark = pytest.mark.skipif(not duckling_reader.available(), reason="no Duckling wheel here")


@pytest.fixture
def pool() -> Iterator[_Children]:
    before = dict(duckling_reader._engine_in_use)
    children = _Children(1, 30.0)
    children.start()
    duckling_reader.use_engine(children.ask)
    try:
        yield children
    finally:
        duckling_reader.use_engine(before.get("engine"))
        children.close()


def test_a_child_reads_what_this_process_reads(pool: _Children) -> None:
    in_child = parse_anchored_time(TEXT, "Europe/Berlin", NOW)
    duckling_reader.use_engine(None)
    in_process = parse_anchored_time(TEXT, "Europe/Berlin", NOW)
    assert in_child == in_process
    assert in_child.start_instant == datetime(2026, 12, 1, 18, 15, tzinfo=UTC)


def test_a_read_past_the_limit_is_a_question_and_the_next_read_starts_a_new_child(
    pool: _Children,
) -> None:
    pool.limit = 0.000_001  # nothing is read this fast
    slow = "tomorrow at 9 tomorrow at 9 tomorrow at 9"  # Duckling takes milliseconds
    cut = parse_anchored_time(slow, "Europe/Berlin", NOW)
    assert cut.kind == "invalid"
    assert cut.start_instant is None
    assert "took too long" in (cut.reason or "")
    pool.limit = 30.0
    deadline = time.monotonic() + 60
    while pool._free.empty() and time.monotonic() < deadline:  # restarting, off this path
        time.sleep(0.05)
    again = parse_anchored_time(TEXT, "Europe/Berlin", NOW)
    assert again.start_instant == datetime(2026, 12, 1, 18, 15, tzinfo=UTC)


def test_a_closed_pool_starts_no_child_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart still pending when the pool closes starts nothing that would outlive it.

    Under load a read ran out of time, its restart was still pending when the test's
    pool closed, and the child it started then was found running by a later test.
    """
    asked: list[str] = []
    monkeypatch.setattr(_Child, "ask", lambda self, text, *rest: asked.append(text) or [])
    children = _Children(1, 30.0)
    [child] = children._all
    children.close()
    children._restart(child)
    assert asked == []
    assert child._process is None


def test_with_no_child_free_a_read_is_refused_never_run_in_this_process(
    pool: _Children, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 59, row 2: with both children busy a read ran here, unbounded, for 26 s."""
    read_here: list[str] = []
    monkeypatch.setattr(duckling_reader, "entities", lambda text, *_: read_here.append(text) or [])
    busy = pool._free.get_nowait()  # the one child is lent out
    try:
        cut = parse_anchored_time(TEXT, "Europe/Berlin", NOW)
    finally:
        pool._free.put(busy)
    assert read_here == []
    assert cut.kind == "invalid" and cut.start_instant is None
    assert "write the time on its own" in (cut.reason or "")


def test_a_persons_spent_budget_refuses_their_reads_and_not_anothers(pool: _Children) -> None:
    pool.budgets = _Budgets(0.05)
    with reading_for("telegram:1"):
        first = parse_anchored_time(TEXT, "Europe/Berlin", NOW)
        pool.budgets.charge("telegram:1", 2.0)  # a read that ran out of time
        spent = parse_anchored_time(TEXT, "Europe/Berlin", NOW)
    with reading_for("telegram:2"):
        other = parse_anchored_time(TEXT, "Europe/Berlin", NOW)
    assert first.start_instant is not None
    assert spent.kind == "invalid" and spent.start_instant is None
    assert other.start_instant == first.start_instant


def test_restarts_back_off_once_they_come_often() -> None:
    children = _Children(1, 30.0)
    pauses = [children.restart_pause() for _ in range(7)]
    assert pauses == [0.0, 0.0, 0.0, 2.0, 4.0, 8.0, 16.0]
    assert max(children.restart_pause() for _ in range(20)) == 60.0
