"""Linking both ways (`wrapper.people.linking`), on SQLite and PostgreSQL: issue 35, row 3.

Before: 6-character codes, issued in groups too, stored as written, any number of tries,
and redeemed by one side alone: A issued a code in a group, B redeemed it, and B's export
showed A's direct messages. Now a code is given only in a direct conversation, kept as a
hash, tried at most five times per identity, and a redemption waits for the issuer's yes.
"""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.engine import Connection

from clockcore import SettableClock
from wrapper import InteractionWrapper
from wrapper.store import queries as q
from wrapper.store import tables as t

ANA = {"channel": "telegram", "thread_id": "dm:42", "user_id": "42"}
ANA_IN_GROUP = {"channel": "telegram", "thread_id": "-100", "user_id": "42"}
BEN = {"channel": "slack", "thread_id": "dm:T1:D1", "user_id": "U1"}
_CODE = re.compile(r"Link code ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})")


async def _code(wrapper: InteractionWrapper, message_id: str = "ana-link") -> str:
    issued = await wrapper.on_user_message(text="clock: link", message_id=message_id, **ANA)
    found = _CODE.search(" ".join(issued.notices))
    assert found is not None, issued.notices
    return found.group(1)


async def _person(wrapper: InteractionWrapper, user_key: str) -> str | None:
    def work(conn: Connection) -> str | None:
        person = q.load_person(conn, user_key)
        return person.user_id if person else None

    return await wrapper.database.run(work)


async def _told(wrapper: InteractionWrapper, thread_id: str) -> list[str]:
    return [i.text for i in await wrapper.outbox.listing(limit=100) if i.thread_id == thread_id]


async def test_no_code_is_given_in_a_group(wrapper: InteractionWrapper) -> None:
    env = await wrapper.on_user_message(text="clock: link", message_id="g", **ANA_IN_GROUP)
    assert not _CODE.search(" ".join(env.notices))
    assert any("only in a direct conversation" in n for n in env.notices)


async def test_a_code_is_long_and_kept_only_as_a_hash(wrapper: InteractionWrapper) -> None:
    code = await _code(wrapper)
    assert len(code.replace("-", "")) == 12
    stored = await wrapper.database.run(
        lambda conn: [dict(r) for r in conn.execute(select(t.link_codes)).mappings()]
    )
    assert len(stored) == 1
    assert code.replace("-", "") not in str(stored) and code not in str(stored)


async def test_a_redeemed_code_waits_for_the_issuers_yes_and_both_are_told(
    wrapper: InteractionWrapper,
) -> None:
    code = await _code(wrapper)
    asked = await wrapper.on_user_message(text=f"clock: link {code}", message_id="b1", **BEN)
    assert any("asked to confirm" in n for n in asked.notices)
    assert await _person(wrapper, "slack:U1") != await _person(wrapper, "telegram:42")
    [question] = await _told(wrapper, "dm:42")
    assert question.startswith("slack:U1 used your link code")
    yes = await wrapper.on_user_message(text="clock: link yes", message_id="a2", **ANA)
    assert any("Linked with slack:U1" in n for n in yes.notices)
    assert await _person(wrapper, "slack:U1") == await _person(wrapper, "telegram:42")
    assert any(t.startswith("Linked with telegram:42") for t in await _told(wrapper, "dm:T1:D1"))


async def test_the_issuer_can_refuse_and_nothing_is_linked(wrapper: InteractionWrapper) -> None:
    code = await _code(wrapper)
    await wrapper.on_user_message(text=f"clock: link {code}", message_id="b1", **BEN)
    no = await wrapper.on_user_message(text="clock: link no", message_id="a2", **ANA)
    assert any("refused" in n for n in no.notices)
    assert await _person(wrapper, "slack:U1") != await _person(wrapper, "telegram:42")
    assert any("refused the link" in t for t in await _told(wrapper, "dm:T1:D1"))
    # The code is spent: a second try links nothing either.
    again = await wrapper.on_user_message(text=f"clock: link {code}", message_id="b2", **BEN)
    assert any("unknown or expired" in n for n in again.notices)


async def test_an_answer_without_a_request_or_after_the_code_expired_links_nothing(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    lonely = await wrapper.on_user_message(text="clock: link yes", message_id="a0", **ANA)
    assert any("no link request" in n for n in lonely.notices)
    code = await _code(wrapper)
    await wrapper.on_user_message(text=f"clock: link {code}", message_id="b1", **BEN)
    clock.advance(minutes=11)
    late = await wrapper.on_user_message(text="clock: link yes", message_id="a2", **ANA)
    assert any("no link request" in n for n in late.notices)
    assert await _person(wrapper, "slack:U1") != await _person(wrapper, "telegram:42")


async def test_guessing_stops_after_five_tries(wrapper: InteractionWrapper) -> None:
    code = await _code(wrapper)
    for n in range(5):
        wrong = await wrapper.on_user_message(
            text=f"clock: link ZZZZ-ZZZZ-ZZZ{n}", message_id=f"g{n}", **BEN
        )
        assert any("unknown or expired" in m for m in wrong.notices)
    right = await wrapper.on_user_message(text=f"clock: link {code}", message_id="g9", **BEN)
    assert any("too many tries" in n for n in right.notices)
    assert await _told(wrapper, "dm:42") == []  # the issuer was never asked


async def test_unlinking_says_where_memory_and_reminders_stay(
    wrapper: InteractionWrapper,
) -> None:
    code = await _code(wrapper)
    await wrapper.on_user_message(text=f"clock: link {code}", message_id="b1", **BEN)
    await wrapper.on_user_message(text="clock: link yes", message_id="a2", **ANA)
    gone = await wrapper.on_user_message(text="clock: unlink", message_id="b2", **BEN)
    [said] = [n for n in gone.notices if "unlinked" in n]
    assert "Memory, actions, reminders and schedules stay with the other identities" in said
    assert await _person(wrapper, "slack:U1") != await _person(wrapper, "telegram:42")


async def test_a_code_is_redeemed_once_so_the_issuer_answers_about_whom_they_were_asked(
    wrapper: InteractionWrapper,
) -> None:
    code = await _code(wrapper)
    await wrapper.on_user_message(text=f"clock: link {code}", message_id="b1", **BEN)
    eve = {"channel": "slack", "thread_id": "dm:T1:D9", "user_id": "U9"}
    late = await wrapper.on_user_message(text=f"clock: link {code}", message_id="e1", **eve)
    assert any("unknown or expired" in n for n in late.notices)
    await wrapper.on_user_message(text="clock: link yes", message_id="a2", **ANA)
    assert await _person(wrapper, "slack:U1") == await _person(wrapper, "telegram:42")
    assert await _person(wrapper, "slack:U9") != await _person(wrapper, "telegram:42")
