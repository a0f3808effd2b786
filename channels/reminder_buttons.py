"""What the buttons under a reminder are and mean, for every channel that can show buttons.

A press becomes the person's words ("snooze r40 for 10 minutes"), so the agent and the
rules agent treat it as if typed, and its message id names the reminder's message, the
button and who pressed it (`press_message_id`), so a double tap is journaled once and acted
on once, and one person's press never stands for another's. Each adapter draws the buttons
in its platform's form and shows the choice (`CHOSEN`) after.

A button carries the platform id of the person the reminder is for (`button_data`): in a
group, a press by anyone else is answered `NOT_YOURS` and goes no further, so the message
never shows a choice the owner did not make. Buttons sent before the owner was carried
(``rem:<action>:<id>``) still work; their presses are checked by the turn as typed words.

The same machinery answers a link request (`wrapper.people.linking`): under "telegram:42 wants to
join your clockbot identity" an adapter draws `LINK_BUTTONS` (``ask:link-yes:<owner>``),
whose presses are the words ``clock: link yes`` and ``clock: link no``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "ASK_PREFIX",
    "BUTTONS",
    "CHOSEN",
    "LINK_BUTTONS",
    "NOT_YOURS",
    "PREFIX",
    "Button",
    "button_data",
    "press_message_id",
    "read_button",
    "words",
]

PREFIX = "rem"
"""Every reminder button's data (or action id) starts ``rem:``."""
BUTTONS = (("done", "✓ Done"), ("10m", "Snooze 10 min"), ("1h", "1 h"), ("1d", "Tomorrow"))
"""(action, label), in the order they are shown."""
ASK_PREFIX = "ask"
"""The data of the buttons under a question (a link request) starts ``ask:``."""
LINK_BUTTONS = (("link-yes", "✓ Yes, link us"), ("link-no", "✗ No"))
"""(action, label) under a link request."""
_WORDS = {
    "done": "done {id}",
    "10m": "snooze {id} for 10 minutes",
    "1h": "snooze {id} for 1 hour",
    "1d": "snooze {id} for 1 day",
    "link-yes": "clock: link yes",
    "link-no": "clock: link no",
}
CHOSEN = {
    "done": "✓ Done",
    "10m": "⏰ Snoozed for 10 minutes",
    "1h": "⏰ Snoozed for 1 hour",
    "1d": "⏰ Snoozed until tomorrow",
    "link-yes": "✓ Yes",
    "link-no": "✗ No",
}
"""What a message shows once its button was pressed."""
NOT_YOURS = "This is for someone else: only they can answer it."
"""The answer to a press by anyone but the reminder's person."""
_DATA = re.compile(
    rf"^{PREFIX}:(?P<action>done|10m|1h|1d|noop):(?P<id>r\d{{1,19}})(?::(?P<owner>[\w.-]{{1,40}}))?$"
    rf"|^{ASK_PREFIX}:(?P<ask>link-yes|link-no|noop)(?::(?P<asked>[\w.-]{{1,40}}))?$"
)
_MAX_DATA = 64  # Telegram's limit on callback_data, in bytes


class Button(NamedTuple):
    """What a pressed button's data says."""

    action: str
    reminder: str
    owner: str | None
    """The platform id of the person the reminder is for; None on buttons from before."""


def button_data(action: str, reminder: str, owner: str | None) -> str:
    """``rem:<action>:<id>:<owner>`` (``ask:<action>:<owner>`` with no reminder); without
    the owner when it is unusual or too long."""
    data = f"{PREFIX}:{action}:{reminder}" if reminder else f"{ASK_PREFIX}:{action}"
    with_owner = f"{data}:{owner}"
    if owner and len(with_owner.encode()) <= _MAX_DATA and _DATA.match(with_owner):
        return with_owner
    return data


def read_button(data: str | None) -> Button | None:
    """The button `data` names (``rem:<action>:<id>[:<owner>]``, ``ask:<action>[:<owner>]``).

    None for anything else; a question's button has no reminder ("").
    """
    found = _DATA.match(data) if isinstance(data, str) else None
    if found is None:
        return None
    if found["ask"] is not None:
        return Button(found["ask"], "", found["asked"])
    return Button(found["action"], found["id"], found["owner"])


def words(action: str, reminder: str) -> str:
    """The press as the person's words."""
    return _WORDS[action].format(id=reminder)


def press_message_id(conversation: str, message: str, action: str, presser: str) -> str:
    """The journal's id of a press: the same for every tap of one button by one person."""
    return f"button:{conversation}:{message}:{action}:{presser}"
