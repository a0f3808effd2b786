"""`wrapper.inbound.replies`: a named message leads to its thread only for someone who writes there."""

from __future__ import annotations

from datetime import timedelta

from clockcore import SettableClock
from wrapper.core import InteractionWrapper


async def _mail(wrapper: InteractionWrapper, clock: SettableClock, who: str, mid: str) -> str:
    """`who` starts a thread with mail `mid`; its thread id."""
    clock.advance(timedelta(minutes=1))
    thread_id = f"{who}/{mid}"
    await wrapper.on_user_message(
        channel="email", thread_id=thread_id, user_id=who, text="hello", message_id=mid
    )
    return thread_id


async def test_only_a_writer_of_the_thread_is_led_into_it(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    alices = await _mail(wrapper, clock, "a@x.test", "<a1@x>")
    other = await _mail(wrapper, clock, "a@x.test", "<a2@x>")
    bobs = await _mail(wrapper, clock, "b@x.test", "<b1@x>")

    async def followed(who: str, *named: str, channel: str = "email") -> str | None:
        return await wrapper.threads.followed(channel=channel, user_id=who, named=named)

    assert await followed("a@x.test", "<a1@x>") == alices
    assert await followed("b@x.test", "<a1@x>") is None, "Bob named Alice's mail"
    assert await followed("b@x.test", "<a1@x>", "<b1@x>") == bobs, "his own, further back"
    assert await followed("a@x.test", "<a2@x>", "<a1@x>") == other, "the nearest first"
    assert await followed("a@x.test", "<unknown@x>", "<a1@x>") == alices
    assert await followed("a@x.test", "<unknown@x>") is None
    assert await followed("a@x.test") is None
    assert await followed("a@x.test", "<a1@x>", channel="slack") is None, "another channel"
