"""A person's own data from the chat, over the fake Bot API, with the rules agent and SQLite.

"what do you know about me" lists what is kept; "delete my data" asks, "delete my data: yes"
erases, and the last message still reaches the person. A group is told to ask privately.
Telegram delivering an old message again afterwards stores and answers nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from bot.turns.my_data import (
    ERASE_ASK_REPLY,
    ERASE_NOTHING_TO_CONFIRM,
    ERASED_REPLY,
    PRIVATE_ONLY_REPLY,
)
from channels.telegram import TelegramChannel
from tests.support.fake_telegram import FakeTelegram


async def test_a_person_sees_what_is_kept_then_erases_it_for_good(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    alice, bob = tg.user(11, "alice"), tg.user(22, "bob")
    gateway = Gateway(
        Settings(home=tmp_path, http_port=0),
        channels=[TelegramChannel(tg.token, api_url=tg.api_url)],
        poll_interval=0.1,
    )
    async with gateway:

        async def say(user: object, words: str, count: int, *, chat: int | None = None) -> str:
            if chat is None:
                update = tg.private(user, words)  # type: ignore[arg-type]
            else:
                update = tg.group(chat, user, words, reply_to_bot=True)  # type: ignore[arg-type]
            await tg.wait_sent(count)
            await gateway.settle()
            del update
            return tg.sent[-1].plain

        first = tg.private(alice, "remind me in 1 hour to call the bank about account 4417")
        await tg.wait_sent(1)
        await gateway.settle()
        await say(bob, "hello from bob", 2)
        shown = await say(alice, "What do you know about me?", 3)
        assert "telegram:11" in shown and "account 4417" in shown
        assert "bob" not in shown

        assert await say(alice, "delete my data", 4, chat=-500) == PRIVATE_ONLY_REPLY
        assert await say(alice, "delete my data: yes", 5) == ERASE_NOTHING_TO_CONFIRM
        assert await say(alice, "delete my data", 6) == ERASE_ASK_REPLY
        assert await say(alice, "Delete my data: yes", 7) == ERASED_REPLY
        assert tg.sent[-1].chat_id == alice.id

        state = json.dumps(await gateway.wrapper.export_state())
        assert "telegram:11" not in state and "4417" not in state
        assert "telegram:22" in state, "Bob keeps his"
        assert not [j for j in await gateway.outbox.listing(status="pending") if j.user_id == "11"]

        # Telegram sends her first message again: a duplicate, nothing stored or answered.
        tg.queue(first["message"])
        await tg.wait_until(lambda: not tg.updates, "the redelivery fetched")
        await gateway.settle()
        assert len(tg.sent) == 7
        assert "telegram:11" not in json.dumps(await gateway.wrapper.export_state())
