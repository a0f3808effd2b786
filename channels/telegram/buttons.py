"""Inline buttons under a reminder: [Done] [Snooze 10 min] [1 h] [Tomorrow].

A press arrives as a ``callback_query``. It becomes an ordinary `Inbound` in
words ("snooze r40 for 10 minutes"), so the agent, the rules agent and the
history treat it like the same words typed. Its message id names the chat,
the reminder's message, the button and the presser, so a double tap is
journaled once and acted on once. The adapter answers the query, then replaces
the keyboard with one button that shows what was chosen; a press by anyone but
the reminder's person is only answered (`channels.reminder_buttons.NOT_YOURS`).
"""

from __future__ import annotations

from datetime import datetime

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from channels.base import Inbound
from channels.reminder_buttons import (
    ASK_PREFIX,
    BUTTONS,
    CHOSEN,
    LINK_BUTTONS,
    PREFIX,
    Button,
    button_data,
    press_message_id,
    read_button,
    words,
)
from channels.telegram.inbound import CHANNEL, route_of, thread_id_of

__all__ = [
    "chosen_keyboard",
    "chosen_text",
    "keyboard",
    "link_keyboard",
    "press_inbound",
    "read_press",
]


def keyboard(reminder: str, owner: str | None = None) -> InlineKeyboardMarkup:
    """The buttons under reminder `reminder` (an ``r<id>``) for the person `owner`."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(label, callback_data=button_data(a, reminder, owner))
                for a, label in BUTTONS
            ]
        ]
    )


def link_keyboard(owner: str | None) -> InlineKeyboardMarkup:
    """Yes and no under a link request to the person `owner`."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(label, callback_data=button_data(a, "", owner))
                for a, label in LINK_BUTTONS
            ]
        ]
    )


def chosen_keyboard(action: str, reminder: str) -> InlineKeyboardMarkup:
    """What replaces the buttons once one was pressed: the choice, as an inert button."""
    label = CHOSEN.get(action, "✓")
    inert = f"{PREFIX}:noop:{reminder}" if reminder else f"{ASK_PREFIX}:noop"
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=inert)]])


def read_press(data: str | None) -> Button | None:
    """The reminder button a callback's data names, None for anything else."""
    return read_button(data)


def chosen_text(action: str) -> str:
    """The short answer to the callback query."""
    return CHOSEN.get(action, "")


def press_inbound(
    query: CallbackQuery, action: str, reminder: str, now: datetime
) -> Inbound | None:
    """The press as the person's words in the reminder's thread; None without its message."""
    message = query.message
    if not isinstance(message, Message) or action == "noop":
        return None
    user = query.from_user
    topic = message.message_thread_id if message.is_topic_message else None
    return Inbound(
        channel=CHANNEL,
        thread_id=thread_id_of(message.chat.type, message.chat_id, user.id, topic),
        user_id=str(user.id),
        text=words(action, reminder),
        message_id=press_message_id(
            str(message.chat_id), str(message.message_id), action, str(user.id)
        ),
        received_at=now,
        route=route_of(message),
        language=user.language_code,
        sender_name=user.full_name,
    )
