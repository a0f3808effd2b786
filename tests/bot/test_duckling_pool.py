"""`bot.duckling_pool`: Duckling read in child processes, each read with a time limit.

A read past the limit is no reading: the parse asks instead of guessing, and the next
read starts a new child. Real child processes; the limits are set so that any read
outlasts the first and none the second.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from bot.duckling_pool import _Child, _Children
from clockcore import duckling_reader, parse_anchored_time

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
