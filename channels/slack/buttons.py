"""Block Kit buttons under a reminder, and reading a press (a ``block_actions`` payload).

The message keeps its text in a section block; an actions block holds the buttons
(`channels.reminder_buttons`). A press reaches bolt's action listener, which hands it to the
sink as the person's words and acks after, like an event; then ``chat.update`` replaces the
buttons with what was chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from channels.reminder_buttons import (
    BUTTONS,
    CHOSEN,
    LINK_BUTTONS,
    PREFIX,
    button_data,
    read_button,
)

__all__ = ["MAX_SECTION", "Press", "chosen_blocks", "read_press", "reminder_blocks"]

MAX_SECTION = 3000
"""Slack's limit on a section block's text; a longer reminder goes out without buttons."""


def reminder_blocks(
    text: str, reminder: str, owner: str | None = None
) -> list[dict[str, Any]] | None:
    """The text and buttons for `owner` as blocks; None when the text is too long for a section.

    With `reminder` "" the buttons are yes and no under a link request (`LINK_BUTTONS`).
    """
    if len(text) > MAX_SECTION:
        return None
    buttons = [
        {
            "type": "button",
            "text": {"type": "plain_text", "text": label},
            "action_id": f"{PREFIX}:{action}",  # one action listener takes every button
            "value": button_data(action, reminder, owner),
        }
        for action, label in (BUTTONS if reminder else LINK_BUTTONS)
    ]
    return [
        {"type": "section", "text": {"type": "mrkdwn", "text": text}},
        {"type": "actions", "block_id": PREFIX, "elements": buttons},
    ]


def chosen_blocks(text: str, action: str) -> list[dict[str, Any]]:
    """The message once pressed: its text, and the choice in place of the buttons."""
    return [
        {"type": "section", "text": {"type": "mrkdwn", "text": text[:MAX_SECTION]}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": CHOSEN.get(action, "✓")}]},
    ]


@dataclass(frozen=True, slots=True)
class Press:
    """One button press on one of our reminders."""

    action: str
    reminder: str
    owner: str | None
    """Whom the reminder is for (`channels.reminder_buttons.Button.owner`)."""
    team: str
    channel: str
    user: str
    message_ts: str
    thread_ts: str | None
    text: str


def read_press(body: Mapping[str, Any], *, default_team: str) -> Press | None:
    """The press in a ``block_actions`` body, None for anything that is not our button."""
    actions = body.get("actions")
    if body.get("type") != "block_actions" or not isinstance(actions, list) or not actions:
        return None
    action = actions[0] if isinstance(actions[0], Mapping) else {}
    found = read_button(str(action.get("value", "")))
    channel = _id(body.get("channel")) or _id(body.get("container"), "channel_id")
    user = _id(body.get("user"))
    message = body.get("message") if isinstance(body.get("message"), Mapping) else {}
    assert isinstance(message, Mapping)
    message_ts = message.get("ts") or _id(body.get("container"), "message_ts")
    if found is None or found.action == "noop" or not channel or not user or not message_ts:
        return None
    blocks = message.get("blocks")
    text = str(message.get("text") or "")
    if isinstance(blocks, list) and blocks and isinstance(blocks[0], Mapping):
        section = blocks[0].get("text")
        if isinstance(section, Mapping) and isinstance(section.get("text"), str):
            text = section["text"]
    team = _id(body.get("team")) or str(body.get("user", {}).get("team_id") or default_team)
    thread_ts = message.get("thread_ts")
    return Press(
        action=found.action,
        reminder=found.reminder,
        owner=found.owner,
        team=team,
        channel=channel,
        user=user,
        message_ts=str(message_ts),
        thread_ts=str(thread_ts) if thread_ts else None,
        text=text,
    )


def _id(value: object, key: str = "id") -> str | None:
    """The id under `key`, or None: a blank id (" ") names no one and nothing."""
    if isinstance(value, Mapping) and isinstance(value.get(key), str) and value[key].strip():
        return str(value[key])
    return None
