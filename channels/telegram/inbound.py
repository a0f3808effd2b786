"""A Telegram message as an `Inbound`: pure functions, no I/O.

Thread ids: ``dm:<user_id>`` for a private chat, ``group:<chat_id>`` for a
group, ``group:<chat_id>:topic:<message_thread_id>`` for a forum topic.
``message_id`` is ``<chat_id>:<message_id>``, unique per bot. A group message
is answered only when it is addressed to the bot (a mention, a reply to the
bot, a command) or the group is open; otherwise it is recorded unanswered.
Commands become the words the agent and the wrapper already understand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from telegram import Chat, Message, MessageEntity, PollAnswer

from channels.base import Inbound
from channels.poll_votes import NATIVE_POLL, WITHDRAW, vote_words
from channels.telegram import messages
from clockcore import as_utc

__all__ = [
    "Identity",
    "Reading",
    "is_allowed",
    "normalise_allowed",
    "read_message",
    "route_of",
    "thread_id_of",
]

CHANNEL = "telegram"
_COMMAND_KINDS: list[str | None] = [MessageEntity.BOT_COMMAND]
_MENTION_KINDS: list[str | None] = [MessageEntity.MENTION, MessageEntity.TEXT_MENTION]


@dataclass(frozen=True, slots=True)
class Identity:
    """Who the bot is, from ``getMe``."""

    id: int
    username: str


@dataclass(frozen=True, slots=True)
class Reading:
    """What the adapter makes of one message.

    Attributes:
        inbound: what goes to the sink.
        username: the writer's @username (without the @), for the allow-list.
        addressed: the message is for the bot (a private chat, a mention, a
            reply to the bot, a command for it), so the adapter may answer it.
        direct: the adapter's own answer (help text, "text only"), if any.
    """

    inbound: Inbound
    username: str | None
    addressed: bool
    direct: str | None = None


def thread_id_of(chat_type: str, chat_id: int, user_id: int, topic_id: int | None) -> str:
    """The thread id for a message in this chat (and forum topic, if any)."""
    if chat_type == Chat.PRIVATE:
        return f"dm:{user_id}"
    if topic_id is not None:
        return f"group:{chat_id}:topic:{topic_id}"
    return f"group:{chat_id}"


def route_of(message: Message) -> dict[str, str]:
    """Where an answer to `message` goes, as strings: chat, topic, the message replied to."""
    route = {"chat_id": str(message.chat_id), "reply_to": str(message.message_id)}
    if message.is_topic_message and message.message_thread_id is not None:
        route["message_thread_id"] = str(message.message_thread_id)
    return route


def normalise_allowed(entries: Iterable[str]) -> frozenset[str]:
    """Allow-list entries as compared: ids as written, usernames lower case without the @."""
    return frozenset(entry.strip().removeprefix("@").lower() for entry in entries if entry.strip())


def is_allowed(allowed: frozenset[str], user_id: str, username: str | None) -> bool:
    """Whether the user may talk to the bot; an empty allow-list lets everyone in."""
    if not allowed:
        return True
    return user_id in allowed or (username is not None and username.lower() in allowed)


def read_message(
    message: Message, me: Identity, *, open_groups: bool, now: datetime
) -> Reading | None:
    """The `Reading` of a message, or None for one that is nobody's words (a join, a pin).

    Raises:
        TypeError: the message has no integer id (its dedup key); Telegram sends none such.
    """
    if not isinstance(message.message_id, int) or isinstance(message.message_id, bool):
        raise TypeError("message_id is not an integer")
    user = message.from_user
    if user is None or message.chat.type == Chat.CHANNEL:
        return None
    text = message.text
    if text is None and message.effective_attachment is None:
        return None
    private = message.chat.type == Chat.PRIVATE
    topic = message.message_thread_id if message.is_topic_message else None
    command = _command(message, me)
    addressed = private or open_groups or command is not None or _mentions(message, me)
    addressed = addressed or _replies_to_bot(message, me)
    respond, direct = addressed, None
    if text is None:
        body, respond, direct = "", False, messages.TEXT_ONLY if addressed else None
    elif command is not None:
        body, respond, direct = _command_text(*command, private=private)
    else:
        body = _without_mention(text, me).strip()
    received = as_utc(message.date) if message.date is not None else now
    inbound = Inbound(
        channel=CHANNEL,
        thread_id=thread_id_of(message.chat.type, message.chat_id, user.id, topic),
        user_id=str(user.id),
        text=body,
        message_id=f"{message.chat_id}:{message.message_id}",
        received_at=received,
        route=route_of(message),
        respond=respond,
        language=user.language_code,
        reply_to=_replied_id(message),
        sender_name=user.full_name,
    )
    return Reading(inbound, user.username, addressed, direct)


def vote_inbound(answer: PollAnswer, update_id: int, now: datetime) -> Inbound | None:
    """A vote on one of our polls as the person's words (`channels.poll_votes`); None: no person.

    Telegram's ``poll_answer`` names the poll and the voter, not the chat: the vote
    names the poll (``poll:<id>``, which `send` returned for it) as the message it
    follows, so the gateway puts it in the poll's thread. A vote by a chat (an
    anonymous admin) names nobody and is dropped. A retracted vote (no options)
    takes the answer back (`WITHDRAW`).
    """
    user = answer.user
    if user is None:
        return None
    poll = f"{NATIVE_POLL}{answer.poll_id}"
    return Inbound(
        channel=CHANNEL,
        thread_id=f"dm:{user.id}",
        user_id=str(user.id),
        text=(
            vote_words(option + 1 for option in answer.option_ids)
            if answer.option_ids
            else WITHDRAW
        ),
        message_id=f"{poll}:{user.id}:{update_id}",
        received_at=now,
        language=user.language_code,
        reply_to=poll,
        refers_to=(poll,),
        sender_name=user.full_name,
    )


def _command(message: Message, me: Identity) -> tuple[str, str] | None:
    """(name, arguments) of a command at the start of the message meant for this bot."""
    text = message.text
    if text is None:
        return None
    for entity, word in _parsed(message, _COMMAND_KINDS).items():
        if entity.offset != 0:
            continue
        name, _, target = word.removeprefix("/").partition("@")
        if target and target.lower() != me.username.lower():
            return None
        return name.lower(), text[len(word) :].strip()
    return None


def _command_text(name: str, arguments: str, *, private: bool) -> tuple[str, bool, str | None]:
    """(text for the sink, answer it?, the adapter's own reply) for a command."""
    if name == "start":
        return "/start", False, messages.START
    if name == "help":
        return "/help", False, messages.HELP
    if name == "tz":
        if not arguments:
            return "/tz", False, messages.TZ_USAGE
        return (f"clock: home tz {arguments}" if private else f"clock: tz {arguments}"), True, None
    if name == "upcoming":
        return "what's coming up", True, None
    if name == "link":
        return f"clock: link {arguments}".strip(), True, None
    return f"/{name} {arguments}".strip(), True, None


def _entities(message: Message) -> dict[MessageEntity, str]:
    return _parsed(message, _MENTION_KINDS)


def _parsed(message: Message, kinds: list[str | None]) -> dict[MessageEntity, str]:
    """The text's (or caption's) entities of `kinds` with their words; none when they are broken.

    Entities that cut a character in half or point past the text fail to decode (found by
    fuzzing); the message is then read as plain text rather than lost.
    """
    try:
        if message.text is not None:
            return message.parse_entities(kinds)
        return message.parse_caption_entities(kinds)
    except (ValueError, TypeError, AttributeError):
        return {}


def _mentions(message: Message, me: Identity) -> bool:
    for entity, word in _entities(message).items():
        if entity.type == MessageEntity.MENTION and word.lower() == f"@{me.username.lower()}":
            return True
        if entity.type == MessageEntity.TEXT_MENTION and entity.user and entity.user.id == me.id:
            return True
    return False


def _replied(message: Message) -> Message | None:
    """The message this one replies to; None for none, or for a forum topic's opening.

    In a forum topic every message "replies" to the topic's first message.
    """
    replied = message.reply_to_message
    if replied is None:
        return None
    if message.is_topic_message and replied.message_id == message.message_thread_id:
        return None
    return replied


def _replied_id(message: Message) -> str | None:
    """``<chat>:<message>`` of the message this one replies to, as `send` names its own."""
    replied = _replied(message)
    return f"{message.chat_id}:{replied.message_id}" if replied is not None else None


def _replies_to_bot(message: Message, me: Identity) -> bool:
    replied = _replied(message)
    return replied is not None and replied.from_user is not None and replied.from_user.id == me.id


def _without_mention(text: str, me: Identity) -> str:
    """The text without the bot's own @mention, which addresses the message but says nothing."""
    pattern = rf"(?<![\w@])@{re.escape(me.username)}(?!\w)"
    return re.sub(pattern, "", text, flags=re.IGNORECASE).replace("  ", " ")
