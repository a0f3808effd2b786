"""The waiting list (`wrapper.turns.pending`): a message taken again is the same message."""

from __future__ import annotations

from datetime import timedelta

from clockcore import MessageRef
from tests.wrapper.conftest import START
from wrapper.core import InteractionWrapper


async def test_a_message_taken_over_from_a_dead_worker_is_the_whole_message(
    wrapper: InteractionWrapper,
) -> None:
    # Everything the adapter said about it: where to answer, the language its times are
    # read in, what it replies to, the person's platform zone, the hint, and that its
    # sender is not proven. A retry that lost any of them would read or answer it otherwise.
    ref = MessageRef(
        channel="email", thread_id="<root@example.test>", user_id="ana@example.test",
        message_id="<m1@example.test>", text="recuérdame mañana a las 9 pagar el alquiler",
        received_at=START, route={"to": "ana@example.test", "subject": "Re: alquiler"},
        language="es", reply_to="<root@example.test>", proven=False,
        user_zone="Europe/Madrid", hint="Their mail's Date header carries UTC+01:00.",
    )  # fmt: skip
    await wrapper.receive(ref, claim_for="w1", lease_until=START + timedelta(minutes=5))
    # w1 never beat: it is dead to anyone, so w2 takes the message over at once.
    [again] = await wrapper.waiting.claim(
        worker="w2", now=START + timedelta(seconds=1), lease=timedelta(minutes=1)
    )
    assert again.ref == ref
    assert again.envelope is not None
    assert again.envelope.message == ref
    assert ref.hint in again.envelope.notices
