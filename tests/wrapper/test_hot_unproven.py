"""An unproven mail writes nothing about the person it claims, on the PostgreSQL hot path
as on the general chain (docs/SECURITY.md, "What each channel proves").

The hot path (`wrapper.inbound.hot`) clocked an action from any sender, where the chain
clocks only for a proven one; names and places go to the chain, which adopts them only
from a proven sender.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from clockcore import SettableClock
from clockcore.message import MessageRef
from tests.wrapper.test_hot_path import START, TABLES, _rows, pair, second_url
from wrapper.core import InteractionWrapper

__all__ = ["pair", "second_url"]  # the hot path test's fixtures, used here

pytestmark = pytest.mark.peer("postgres")

THREAD, USER = "a@x.test/root", "a@x.test"
MAILS = [  # (seconds after START, text, proven, From name)
    (0, "first mail", True, "Alice Liddell"),
    (10, "clock it: going to the gym", False, "Zeb Forgewright"),
    (20, "heading to lunch", False, None),
    (30, "I'm in Kathmandu this week", False, "Zeb Forgewright"),
]


async def test_unproven_mail_clocks_renames_and_remembers_nothing_on_either_path(
    pair: tuple[InteractionWrapper, InteractionWrapper, SettableClock],
) -> None:
    hot, general, clock = pair
    for n, (seconds, words, proven, name) in enumerate(MAILS):
        clock.set(START + timedelta(seconds=seconds))
        ref = MessageRef(
            channel="email", thread_id=THREAD, user_id=USER, message_id=f"<m{n}@x>",
            text=words, received_at=clock.now(), proven=proven, sender_name=name,
        )  # fmt: skip
        for wrapper in (hot, general):
            await wrapper.receive(ref)
    stored = [await wrapper.database.run(_rows) for wrapper in (hot, general)]
    for table in TABLES:
        assert stored[0][table] == stored[1][table], table
    assert stored[0]["actions"] == [], "an unproven mail clocked an action"
    [user] = stored[0]["users"]
    assert user["known_locations"] in (None, []), user
    [identity] = stored[0]["identities"]
    assert identity["display_name"] == "Alice Liddell", identity
    [thread] = stored[0]["threads"]
    assert thread["session_tz"] != "Asia/Kathmandu", thread
