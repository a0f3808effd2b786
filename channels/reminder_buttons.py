"""What the buttons under a reminder are and mean, for every channel that can show buttons.

A press becomes the person's words ("snooze r40 for 10 minutes"), so the agent and the
rules agent treat it as if typed, and its message id names the reminder's message and the
button (`press_message_id`), so a double tap is journaled once and acted on once. Each
adapter draws the buttons in its platform's form and shows the choice (`CHOSEN`) after.
"""

from __future__ import annotations

import re

__all__ = ["BUTTONS", "CHOSEN", "PREFIX", "press_message_id", "read_button", "words"]

PREFIX = "rem"
"""Every reminder button's data (or action id) starts ``rem:``."""
BUTTONS = (("done", "✓ Done"), ("10m", "Snooze 10 min"), ("1h", "1 h"), ("1d", "Tomorrow"))
"""(action, label), in the order they are shown."""
_WORDS = {
    "done": "done {id}",
    "10m": "snooze {id} for 10 minutes",
    "1h": "snooze {id} for 1 hour",
    "1d": "snooze {id} for 1 day",
}
CHOSEN = {
    "done": "✓ Done",
    "10m": "⏰ Snoozed for 10 minutes",
    "1h": "⏰ Snoozed for 1 hour",
    "1d": "⏰ Snoozed until tomorrow",
}
"""What a message shows once its button was pressed."""
_DATA = re.compile(rf"^{PREFIX}:(?P<action>done|10m|1h|1d|noop):(?P<id>r\d{{1,19}})$")


def read_button(data: str | None) -> tuple[str, str] | None:
    """(action, reminder id) from ``rem:<action>:<id>``, None for anything else."""
    found = _DATA.match(data) if isinstance(data, str) else None
    return (found["action"], found["id"]) if found else None


def words(action: str, reminder: str) -> str:
    """The press as the person's words."""
    return _WORDS[action].format(id=reminder)


def press_message_id(conversation: str, message: str, action: str) -> str:
    """The journal's id of a press: the same for every tap of one button on one message."""
    return f"button:{conversation}:{message}:{action}"
