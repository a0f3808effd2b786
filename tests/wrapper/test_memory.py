"""Memory with due dates (seed 001): remember, mark_reminded, get_upcoming."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from clockcore import NaiveDatetimeError, SettableClock
from wrapper import InteractionWrapper, UnknownItemError

USER = "telegram:42"


async def test_upcoming_window_and_labels(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    now = clock.now()
    soon = await wrapper.remember(user_key=USER, content="dentist", due_at=now + timedelta(days=1))
    late = await wrapper.remember(user_key=USER, content="rent", due_at=now - timedelta(hours=2))
    await wrapper.remember(user_key=USER, content="far away", due_at=now + timedelta(days=30))
    await wrapper.remember(user_key=USER, content="no date")
    items = await wrapper.get_upcoming(user_key=USER)
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
    item = await wrapper.remember(user_key=USER, content="call mum", due_at=now + timedelta(days=2))
    await wrapper.mark_reminded(item)  # mentioned early
    assert await wrapper.get_upcoming(user_key=USER) == []
    after_due = now + timedelta(days=2, minutes=1)
    resurfaced = await wrapper.get_upcoming(user_key=USER, now=after_due)
    assert [i.id for i in resurfaced] == [item]
    assert resurfaced[0].overdue
    await wrapper.mark_reminded(item, at=after_due)
    assert await wrapper.get_upcoming(user_key=USER, now=after_due + timedelta(hours=1)) == []


async def test_due_boundaries_are_instants_not_text(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    """Offsets that sort wrongly as text: +14:00 vs -12:00 around the same instant."""
    kiribati = datetime.fromisoformat("2026-04-30T05:00:00+14:00")  # 2026-04-29T15:00Z
    baker = datetime.fromisoformat("2026-04-29T04:00:00-12:00")  # 2026-04-29T16:00Z
    early = await wrapper.remember(user_key=USER, content="early", due_at=kiribati)
    later = await wrapper.remember(user_key=USER, content="later", due_at=baker)
    at = datetime(2026, 4, 29, 15, 30, tzinfo=UTC)
    items = await wrapper.get_upcoming(user_key=USER, now=at, within_days=0)
    assert [i.id for i in items] == [early]
    both = await wrapper.get_upcoming(user_key=USER, now=at, within_days=1)
    assert [i.id for i in both] == [early, later]


async def test_memory_errors(wrapper: InteractionWrapper) -> None:
    with pytest.raises(UnknownItemError):
        await wrapper.mark_reminded(999_999)
    with pytest.raises(ValueError, match="empty"):
        await wrapper.remember(user_key=USER, content="   ")
    with pytest.raises(ValueError, match="user_key"):
        await wrapper.remember(user_key="no-channel", content="x")
    with pytest.raises(NaiveDatetimeError):
        await wrapper.remember(user_key=USER, content="x", due_at=datetime(2026, 1, 1))  # noqa: DTZ001


async def test_user_timezone(wrapper: InteractionWrapper) -> None:
    assert await wrapper.user_timezone("telegram:42") is None
    await wrapper.on_user_message(
        channel="telegram", thread_id="dm:42", user_id="42", text="clock: home tz Asia/Tokyo"
    )
    assert await wrapper.user_timezone("telegram:42") == "Asia/Tokyo"
