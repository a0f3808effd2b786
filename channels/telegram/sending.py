"""Sending to Telegram: an `Outgoing` as HTML parts or a native poll, its paces and errors.

The Bot API's flood waits and refusals become `ChannelError` (with
``retry_after``, or permanent), so retries live in the gateway's dispatcher. A
long answer is cut into parts (`format.split_html`); parts already delivered
are not sent twice when the dispatcher retries.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from telegram import InlineKeyboardMarkup, ReplyParameters
from telegram.constants import ChatAction, ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    InvalidToken,
    RetryAfter,
    TelegramError,
)
from telegram.ext import ExtBot

from channels.base import ChannelError, Outgoing, Pace, Poll
from channels.poll_votes import NATIVE_POLL
from channels.telegram.buttons import keyboard, link_keyboard
from channels.telegram.format import split_html

__all__ = ["Sender", "retry_seconds"]

log = logging.getLogger(__name__)

_MAX_POLL_OPTIONS, _MAX_QUESTION, _MAX_OPTION = 10, 300, 100
"""The Bot API's limits for ``sendPoll``: options, question and option characters."""

PER_BOT = (30, 1.0)
"""Telegram's broadcast limit: 30 messages a second per bot."""
PER_CHAT = (3, 3.0)
"""About one message a second per chat; Telegram allows short bursts, so three at once."""
PER_GROUP = (20, 60.0)
"""20 messages a minute per group."""


class Sender:
    """Posts what the gateway sends through one bot: `TelegramChannel`'s sending half.

    `token` names the bot in the pace keys and is taken out of every error text.
    """

    def __init__(self, bot: ExtBot[Any], token: str) -> None:
        self._bot = bot
        self._token = token
        self._parts_sent: dict[str, int] = {}

    def paces(self, message: Outgoing) -> Sequence[Pace]:
        """Telegram's limits: 30 a second per bot; per chat a burst of 3, then one a second;
        per group 20 a minute (a group's chat id is negative)."""
        bot = self._token.partition(":")[0]
        whole = Pace(f"telegram:{bot}", *PER_BOT)
        try:
            chat = _target(message)[0]
        except ChannelError:
            return (whole,)  # the send fails at once, permanently
        paces = [whole, Pace(f"telegram:{bot}:chat:{chat}", *PER_CHAT)]
        if chat < 0:
            paces.append(Pace(f"telegram:{bot}:group:{chat}", *PER_GROUP))
        return tuple(paces)

    async def send(self, message: Outgoing) -> list[str]:
        """Deliver `message` as HTML, in parts under 4096 characters; raises `ChannelError`.

        Returns ``<chat>:<message>`` of each part posted by this call (a retry
        posts, and names, only the parts a failed attempt left).
        """
        if message.poll is not None and 2 <= len(message.poll.options) <= _MAX_POLL_OPTIONS:
            return await self._send_poll(message, message.poll)
        chat_id, topic, reply_to = _target(message)
        parts = split_html(message.text)
        done = self._parts_sent.get(message.key, 0)
        buttons = (
            keyboard(message.reminder, message.user_id)
            if message.reminder
            else link_keyboard(message.user_id)
            if message.question == "link"
            else None
        )
        posted: list[str] = []
        for number, part in enumerate(parts):
            if number < done:
                continue
            quote = reply_to if number == 0 and message.kind == "reply" and chat_id < 0 else None
            markup = buttons if number == len(parts) - 1 else None
            chat_id, message_id = await self._send_part(chat_id, topic, quote, part, markup)
            posted.append(f"{chat_id}:{message_id}")
            self._parts_sent[message.key] = number + 1
        self._parts_sent.pop(message.key, None)
        return posted

    async def _send_part(
        self,
        chat_id: int,
        topic: int | None,
        quote: int | None,
        part: str,
        markup: InlineKeyboardMarkup | None = None,
    ) -> tuple[int, int]:
        """Send one part; (the chat it went to: a group may have become a supergroup, its id)."""
        reply = ReplyParameters(quote, allow_sending_without_reply=True) if quote else None
        for _ in range(2):
            try:
                sent = await self._bot.send_message(
                    chat_id,
                    part,
                    parse_mode=ParseMode.HTML,
                    message_thread_id=topic,
                    reply_parameters=reply,
                    reply_markup=markup,
                )
                return chat_id, sent.message_id
            except ChatMigrated as exc:
                chat_id = exc.new_chat_id
            except BadRequest as exc:
                if "parse entities" not in exc.message.lower():
                    raise self._error(exc) from exc
                log.warning("telegram: HTML refused, sending plain text: %s", exc.message)
                try:
                    sent = await self._bot.send_message(
                        chat_id, _plain(part), message_thread_id=topic, reply_markup=markup
                    )
                except TelegramError as again:
                    raise self._error(again) from again
                return chat_id, sent.message_id
            except TelegramError as exc:
                raise self._error(exc) from exc
        raise ChannelError("telegram: the chat moved more than once", permanent=True)

    async def _send_poll(self, message: Outgoing, poll: Poll) -> list[str]:
        """A native poll, answered by name (not anonymous), several answers allowed.

        Returns the message's ``<chat>:<message>`` and ``poll:<poll id>``: a vote
        (``poll_answer``) names only the poll, and that id finds the thread.
        """
        chat_id, topic, _ = _target(message)
        try:
            sent = await self._bot.send_poll(
                chat_id,
                poll.question[:_MAX_QUESTION],
                [option[:_MAX_OPTION] for option in poll.options],
                is_anonymous=False,
                allows_multiple_answers=True,
                message_thread_id=topic,
            )
        except TelegramError as exc:
            raise self._error(exc) from exc
        ids = [f"{chat_id}:{sent.message_id}"]
        if sent.poll is not None:
            ids.append(f"{NATIVE_POLL}{sent.poll.id}")
        return ids

    def _error(self, exc: TelegramError) -> ChannelError:
        """The channel error for a failed Bot API call."""
        text = f"telegram: {self.safe(exc)}"
        if isinstance(exc, RetryAfter):
            return ChannelError(text, retry_after=retry_seconds(exc))
        if isinstance(exc, (Forbidden, InvalidToken)):
            return ChannelError(text, permanent=True)
        if isinstance(exc, BadRequest):  # chat not found, thread not found, text refused
            return ChannelError(text, permanent=True)
        return ChannelError(text)

    async def typing(self, route: Mapping[str, str]) -> None:
        """Show "typing…" in the chat (and topic); best effort."""
        try:
            chat_id, topic = int(route["chat_id"]), _int(route.get("message_thread_id"))
            await self._bot.send_chat_action(chat_id, ChatAction.TYPING, message_thread_id=topic)
        except (KeyError, ValueError) as exc:
            log.debug("telegram: no chat for typing: %s", type(exc).__name__)
        except TelegramError as exc:
            log.debug("telegram: typing failed: %s", self.safe(exc))

    def safe(self, exc: BaseException) -> str:
        """An exception as one line without the token."""
        return f"{type(exc).__name__}: {exc}".replace(self._token, "<token>")


def retry_seconds(exc: RetryAfter) -> float:
    """The wait a flood error asks for, in seconds (PTB gives an int or a `timedelta`)."""
    value: int | float | timedelta = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _int(value: str | None) -> int | None:
    return int(value) if value else None


_THREAD = re.compile(r"^(?:dm:(?P<user>-?\d+)|group:(?P<chat>-?\d+)(?::topic:(?P<topic>\d+))?)$")


def _target(message: Outgoing) -> tuple[int, int | None, int | None]:
    """(chat id, forum topic, message to quote) from the route, else from the thread id.

    Raises:
        ChannelError: permanent, when neither names a chat.
    """
    route = message.route
    try:
        if route.get("chat_id"):
            return (
                int(route["chat_id"]),
                _int(route.get("message_thread_id")),
                _int(route.get("reply_to")),
            )
    except ValueError:
        pass
    found = _THREAD.match(message.thread_id)
    if found is None:
        raise ChannelError("telegram: the message names no chat", permanent=True)
    if found["user"]:
        return int(found["user"]), None, None
    return int(found["chat"]), _int(found["topic"]), None


def _plain(part: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", part))
