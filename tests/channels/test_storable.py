"""`Inbound` makes every string storable: a lone surrogate or a NUL never fails the journal write.

Both reach us in JSON (``"\\ud800"``, ``"\\u0000"``); UTF-8 cannot encode the first and
PostgreSQL refuses the second, so either used to fail the write on every redelivery.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from channels.base import Inbound, storable
from wrapper.core import InteractionWrapper
from wrapper.keys import thread_key

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("plain", "plain"),
        ("caf\u00e9 \U0001f600", "caf\u00e9 \U0001f600"),
        ("a\ud800b", "a\ufffdb"),
        ("\udfff", "\ufffd"),
        ("\ud83d\ude00", "\U0001f600"),  # a pair given as two code points is the character
        ("nul\x00here", "nul\ufffdhere"),
        ("\x00\ud800\x00", "\ufffd\ufffd\ufffd"),
    ],
)
def test_storable_keeps_what_utf8_can_hold_and_replaces_the_rest(given: str, kept: str) -> None:
    assert storable(given) == kept
    storable(given).encode("utf-8")  # never raises


async def test_a_message_with_a_lone_surrogate_and_a_nul_is_journaled_on_both_stores(
    database_url: str,
) -> None:
    decoded = json.loads('{"text": "hi \\ud800 there\\u0000", "user": "u\\udc00"}')
    inbound = Inbound(
        channel="telegram", thread_id=f"dm:{decoded['user']}", user_id=decoded["user"],
        text=decoded["text"], message_id="1:1", received_at=NOW,
        route={"chat_id": decoded["user"]}, reply_to="1:\x000",
    )  # fmt: skip
    assert inbound.text == "hi \ufffd there\ufffd"
    assert inbound.route == {"chat_id": "u\ufffd"}
    assert inbound.reply_to == "1:\ufffd0"
    wrapper = await InteractionWrapper.open(database_url)
    try:
        envelope = await wrapper.receive(inbound.ref)
        again = await wrapper.receive(inbound.ref)
        texts = await wrapper.threads.recent_texts(
            "telegram:u\ufffd", thread_key("main", "telegram", "dm:u\ufffd"), since=NOW, until=NOW
        )
    finally:
        await wrapper.close()
    assert not envelope.duplicate and again.duplicate
    assert texts == ["hi \ufffd there\ufffd"]
