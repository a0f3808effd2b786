"""Memory with due dates (docs/clock-spec.md, "Due dates on memory"): items, reminded, upcoming."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from clockcore import SettableClock
from tests.support import staged
from wrapper import InteractionWrapper
from wrapper.turns.effects import MAX_MEMORY_CHARS, check_memory

USER = "telegram:42"


async def test_upcoming_window_and_labels(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    now = clock.now()
    soon = await staged.remember(
        wrapper, user_key=USER, content="dentist", due_at=now + timedelta(days=1)
    )
    late = await staged.remember(
        wrapper, user_key=USER, content="rent", due_at=now - timedelta(hours=2)
    )
    await staged.remember(
        wrapper, user_key=USER, content="far away", due_at=now + timedelta(days=30)
    )
    await staged.remember(wrapper, user_key=USER, content="no date")
    items = await wrapper.memory.upcoming(user_key=USER)
    assert [(i.id, i.overdue) for i in items] == [(late, True), (soon, False)]
    env = await wrapper.on_user_message(
        channel="telegram", thread_id="dm:42", user_id="42", text="hi", message_id="1"
    )
    block = env.render()
    assert "[OVERDUE" in block
    assert "rent" in block
    assert "[DUE" in block
    assert "dentist" in block
    assert "far away" not in block


async def test_reminded_items_go_quiet_and_resurface_once_overdue(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    now = clock.now()
    item = await staged.remember(
        wrapper, user_key=USER, content="call mum", due_at=now + timedelta(days=2)
    )
    await staged.mark_reminded(wrapper, item, now)  # mentioned early
    assert await wrapper.memory.upcoming(user_key=USER) == []
    after_due = now + timedelta(days=2, minutes=1)
    resurfaced = await wrapper.memory.upcoming(user_key=USER, now=after_due)
    assert [i.id for i in resurfaced] == [item]
    assert resurfaced[0].overdue
    await staged.mark_reminded(wrapper, item, after_due)
    assert await wrapper.memory.upcoming(user_key=USER, now=after_due + timedelta(hours=1)) == []


async def test_due_boundaries_are_instants_not_text(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    """Offsets that sort wrongly as text: +14:00 vs -12:00 around the same instant."""
    kiribati = datetime.fromisoformat("2026-04-30T05:00:00+14:00")  # 2026-04-29T15:00Z
    baker = datetime.fromisoformat("2026-04-29T04:00:00-12:00")  # 2026-04-29T16:00Z
    early = await staged.remember(wrapper, user_key=USER, content="early", due_at=kiribati)
    later = await staged.remember(wrapper, user_key=USER, content="later", due_at=baker)
    at = datetime(2026, 4, 29, 15, 30, tzinfo=UTC)
    items = await wrapper.memory.upcoming(user_key=USER, now=at, within_days=0)
    assert [i.id for i in items] == [early]
    both = await wrapper.memory.upcoming(user_key=USER, now=at, within_days=1)
    assert [i.id for i in both] == [early, later]


def test_memory_content_is_checked_before_it_is_staged() -> None:
    assert check_memory("  call mum ") == "call mum"
    with pytest.raises(ValueError, match="empty"):
        check_memory("   ")
    with pytest.raises(ValueError, match="characters"):
        check_memory("x" * (MAX_MEMORY_CHARS + 1))


async def test_user_timezone(wrapper: InteractionWrapper) -> None:
    assert await wrapper.people.user_timezone("telegram:42") is None
    await wrapper.on_user_message(
        channel="telegram", thread_id="dm:42", user_id="42", text="clock: home tz Asia/Tokyo"
    )
    assert await wrapper.people.user_timezone("telegram:42") == "Asia/Tokyo"
