"""State for tests, built the one way the product builds it: effects committed in one transaction.

The store has one write path (docs/ARCHITECTURE.md, "Effects"): a turn's tools stage effect
values and `bot.turns.lifecycle` commits them with the turn. Tests that need a memory item or a sent
reply to exist stage the same values and commit them here, through the same `apply_effect`,
rather than through writers the product never calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy.engine import Connection

from clockcore import as_utc
from wrapper import InteractionWrapper, keys
from wrapper.outbound.outbox import Outbox, OutboxKind, enqueue_in, new_job_key
from wrapper.turns.effect_writes import apply_effect
from wrapper.turns.effects import (
    Effect,
    Enqueue,
    MarkReminded,
    NewMemory,
    check_memory,
    outbox_values,
)
from wrapper.turns.history import StoredMessage, append_in

__all__ = ["appended", "commit", "delivered", "mark_reminded", "queued", "remember"]


async def commit(wrapper: InteractionWrapper, *staged: Effect, now: datetime | None = None) -> None:
    """Write `staged` in one transaction at `now` (the wrapper's clock by default)."""
    at = as_utc(now) if now is not None else wrapper.clock.now()

    def work(conn: Connection) -> None:
        for effect in staged:
            apply_effect(conn, effect, policy=wrapper.policy, agent_tz=wrapper.agent_tz, now=at)

    await wrapper.database.run(work)


async def remember(
    wrapper: InteractionWrapper,
    *,
    user_key: str,
    content: str,
    due_at: datetime | None = None,
    group: str | None = None,
) -> int:
    """A memory item, as the ``remember`` tool stages it; its id."""
    due = as_utc(due_at) if due_at is not None else None
    item = NewMemory.new(user_key, check_memory(content), due_at=due, group=group)
    await commit(wrapper, item)
    return item.id


async def mark_reminded(wrapper: InteractionWrapper, item_id: int, at: datetime) -> None:
    """The agent mentioned the item at `at`, as a turn's ``update_memory`` stages it."""
    await commit(wrapper, MarkReminded(id=item_id, at=at))


async def delivered(
    wrapper: InteractionWrapper, *, channel: str, thread_id: str, user_id: str, text: str
) -> None:
    """A reply queued, claimed and sent now, as the dispatcher records it: the thread's agent
    message is stamped by the delivery (`record_delivery`), as in production."""
    now = wrapper.clock.now()
    reply = Enqueue(
        key=new_job_key(), kind="reply", channel=channel, thread_id=thread_id,
        thread_key=keys.thread_key(wrapper.agent_id, channel, thread_id),
        user_key=keys.user_key(channel, user_id), user_id=user_id, text=text, due_at=now,
    )  # fmt: skip
    await commit(wrapper, reply)
    [item] = await wrapper.outbox.claim_due(now=now, worker="tests", lease=timedelta(minutes=1))
    assert await wrapper.record_delivery(item, worker="tests", text=text)


async def appended(
    wrapper: InteractionWrapper, thread_key: str, messages: Sequence[StoredMessage], *, at: datetime
) -> None:
    """Messages added to a thread's history at `at`, as a turn's commit adds them."""
    await wrapper.database.run(lambda conn: append_in(conn, thread_key, messages, at=at))


async def queued(
    outbox: Outbox,
    *,
    kind: OutboxKind,
    channel: str,
    thread_id: str,
    thread_key: str,
    user_key: str | None,
    text: str,
    due_at: datetime,
    now: datetime,
    memory_id: int | None = None,
    key: str | None = None,
    user_id: str | None = None,
) -> int:
    """An outbox job, written as a commit writes a staged `Enqueue`; its id (the existing
    job's, for a key already there)."""
    job = Enqueue(
        key=key or new_job_key(), kind=kind, channel=channel, thread_id=thread_id,
        thread_key=thread_key, user_key=user_key, user_id=user_id, text=text, due_at=due_at,
        memory_id=memory_id,
    )  # fmt: skip
    return await outbox.database.run(lambda conn: enqueue_in(conn, outbox_values(job, now)))
