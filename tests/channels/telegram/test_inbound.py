"""The pure extractors: thread ids, addressing, commands, the allow-list."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from telegram import Message, Update

from channels.telegram.inbound import (
    Identity,
    is_allowed,
    normalise_allowed,
    read_message,
    thread_id_of,
)
from tests.support.fake_telegram import BOT_ID, BOT_USERNAME, FakeTelegram

ME = Identity(BOT_ID, BOT_USERNAME)
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ALICE_ID = 42


def _message(update: dict[str, Any]) -> Message:
    parsed = Update.de_json(update, None)
    assert parsed is not None and parsed.message is not None
    return parsed.message


@pytest.fixture
def fake() -> FakeTelegram:
    return FakeTelegram()  # not started: only builds updates


@pytest.mark.parametrize(
    ("chat_type", "chat_id", "topic", "expected"),
    [
        ("private", 42, None, "dm:42"),
        ("group", -5, None, "group:-5"),
        ("supergroup", -1001, None, "group:-1001"),
        ("supergroup", -1001, 7, "group:-1001:topic:7"),
    ],
)
def test_thread_ids(chat_type: str, chat_id: int, topic: int | None, expected: str) -> None:
    assert thread_id_of(chat_type, chat_id, 42, topic) == expected


@pytest.mark.parametrize(
    ("where", "text", "reply_to_bot", "thread", "body", "respond"),
    [
        ("dm", "hello", False, "dm:42", "hello", True),
        ("group", "just chatting", False, "group:-1001", "just chatting", False),
        ("group", "@clockbot_bot what time is it", False, "group:-1001", "what time is it", True),
        ("group", "hey @CLOCKBOT_BOT, hi", False, "group:-1001", "hey , hi", True),
        ("group", "ask @other_bot", False, "group:-1001", "ask @other_bot", False),
        ("group", "thanks", True, "group:-1001", "thanks", True),
        ("group", "/upcoming", False, "group:-1001", "what's coming up", True),
        ("group", "/upcoming@other_bot", False, "group:-1001", "/upcoming@other_bot", False),
        (
            "group",
            "/tz@clockbot_bot Asia/Tokyo",
            False,
            "group:-1001",
            "clock: tz Asia/Tokyo",
            True,
        ),
        ("dm", "/tz Asia/Tokyo", False, "dm:42", "clock: home tz Asia/Tokyo", True),
        ("dm", "/link AB12CD", False, "dm:42", "clock: link AB12CD", True),
        ("dm", "/link", False, "dm:42", "clock: link", True),
        ("dm", "/tz", False, "dm:42", "/tz", False),
        ("dm", "/start", False, "dm:42", "/start", False),
        ("dm", "/help", False, "dm:42", "/help", False),
        ("topic", "in the topic", False, "group:-1001:topic:7", "in the topic", False),
        ("topic", "@clockbot_bot in the topic", False, "group:-1001:topic:7", "in the topic", True),
        ("topic", "replying", True, "group:-1001:topic:7", "replying", True),
    ],
)
def test_reading_messages(
    fake: FakeTelegram,
    where: str,
    text: str,
    reply_to_bot: bool,
    thread: str,
    body: str,
    respond: bool,
) -> None:
    alice = fake.user(ALICE_ID, "alice")
    if where == "dm":
        update = fake.private(alice, text)
    else:
        topic = 7 if where == "topic" else None
        update = fake.group(-1001, alice, text, topic=topic, reply_to_bot=reply_to_bot)
    reading = read_message(_message(update), ME, open_groups=False, now=NOW)
    assert reading is not None
    assert (reading.inbound.thread_id, reading.inbound.text, reading.inbound.respond) == (
        thread,
        body,
        respond,
    )
    assert reading.inbound.user_id == "42"
    chat = update["message"]["chat"]["id"]
    assert reading.inbound.message_id == f"{chat}:{update['message']['message_id']}"
    assert reading.inbound.route["chat_id"] == str(chat)
    assert reading.inbound.route["reply_to"] == str(update["message"]["message_id"])
    assert ("message_thread_id" in reading.inbound.route) == (where == "topic")


def test_a_topic_message_does_not_count_as_a_reply_to_the_bot(fake: FakeTelegram) -> None:
    # Telegram makes each topic message reply to the topic's first message; the bot opened it.
    update = fake.group(-1001, fake.user(42), "hello", topic=7)
    update["message"]["reply_to_message"]["from"] = {
        "id": BOT_ID,
        "is_bot": True,
        "first_name": "C",
    }
    reading = read_message(_message(update), ME, open_groups=False, now=NOW)
    assert reading is not None and not reading.inbound.respond


def test_open_groups_answer_everything(fake: FakeTelegram) -> None:
    update = fake.group(-1001, fake.user(42), "just chatting")
    reading = read_message(_message(update), ME, open_groups=True, now=NOW)
    assert reading is not None and reading.inbound.respond


def test_received_at_is_the_messages_own_date(fake: FakeTelegram) -> None:
    update = fake.private(fake.user(42), "hi", date=1_767_225_600)
    reading = read_message(_message(update), ME, open_groups=False, now=NOW)
    assert reading is not None
    assert reading.inbound.received_at == datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("code", "language"), [("es", "es"), ("pt-br", "pt"), (None, None)])
def test_the_users_language_code_is_the_language_hint(
    fake: FakeTelegram, code: str | None, language: str | None
) -> None:
    update = fake.private(fake.user(42, language_code=code), "mañana a las 9")
    reading = read_message(_message(update), ME, open_groups=False, now=NOW)
    assert reading is not None
    assert reading.inbound.ref.language == language


def test_the_users_first_and_last_name_are_the_sender_name(fake: FakeTelegram) -> None:
    ana = fake.user(42, first_name="Ana", last_name="Lima")
    reading = read_message(
        _message(fake.group(-1001, ana, "@clockbot hi")), ME, open_groups=True, now=NOW
    )
    assert reading is not None and reading.inbound.ref.sender_name == "Ana Lima"
    ben = fake.user(43, first_name="Ben")
    reading = read_message(_message(fake.private(ben, "hi")), ME, open_groups=False, now=NOW)
    assert reading is not None and reading.inbound.ref.sender_name == "Ben"


def test_a_photo_is_recorded_unanswered_with_a_text_only_reply(fake: FakeTelegram) -> None:
    alice = fake.user(42)
    reading = read_message(_message(fake.photo(42, alice)), ME, open_groups=False, now=NOW)
    assert reading is not None
    assert (reading.inbound.text, reading.inbound.respond) == ("", False)
    assert reading.direct is not None and "text only" in reading.direct
    in_group = read_message(_message(fake.photo(-1001, alice)), ME, open_groups=False, now=NOW)
    assert in_group is not None and in_group.direct is None  # not addressed: no reply


def test_service_messages_and_channel_posts_are_nobodys_words(fake: FakeTelegram) -> None:
    alice = fake.user(42)
    chat = {"id": -1001, "type": "supergroup", "title": "G"}
    joined = fake.message(chat, alice, None, new_chat_members=[alice.as_dict()])
    assert (
        read_message(_message({"update_id": 1, "message": joined}), ME, open_groups=False, now=NOW)
        is None
    )
    post = fake.message({"id": -1002, "type": "channel", "title": "C"}, alice, "news")
    assert (
        read_message(_message({"update_id": 2, "message": post}), ME, open_groups=False, now=NOW)
        is None
    )


@pytest.mark.parametrize(
    ("allowed", "user_id", "username", "expected"),
    [
        ((), "42", None, True),
        (("42",), "42", None, True),
        (("42",), "43", "bob", False),
        (("@Alice",), "43", "alice", True),
        (("alice",), "43", "ALICE", True),
        (("alice",), "43", None, False),
        ((" 42 ", ""), "42", None, True),
    ],
)
def test_allow_list(
    allowed: tuple[str, ...], user_id: str, username: str | None, expected: bool
) -> None:
    assert is_allowed(normalise_allowed(allowed), user_id, username) is expected
