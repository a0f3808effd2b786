"""A meeting poll as Block Kit: the slots as checkboxes, and buttons that send an answer.

Slack has no poll of its own. The poll message holds the question and the
numbered slots in a section, then one actions block: a checkboxes element
(one box per slot) and two buttons, "Send my answer" and "None of these".
A tick alone sends nothing that counts (Slack reports it; the adapter only
acks); a button press carries the whole message's state (Slack's
``state.values``, in every ``block_actions`` payload since 2020), so the
answer is the set of boxes the presser ticked, read whole: the same words
``vote 1 3`` a Telegram poll answer becomes (`channels.poll_votes`), naming
the poll's message as ``poll:<channel>:<ts>``, as `send` returned it. Pressing again with other
ticks replaces the answer, as re-voting does on Telegram.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from channels.base import Poll
from channels.poll_votes import MAX_OPTIONS, vote_words

__all__ = ["BLOCK", "VOTE_PREFIX", "Answer", "answer_note", "poll_blocks", "read_answer"]

VOTE_PREFIX = "vote"
"""Every action id in a poll message starts ``vote:``: tick, send and none."""
BLOCK = "vote"
"""The block id of the poll's actions block, where `read_answer` finds the ticks."""
SEND, NONE, TICK = f"{VOTE_PREFIX}:send", f"{VOTE_PREFIX}:none", f"{VOTE_PREFIX}:tick"
_OPTION_TEXT = 75  # Slack's limit on a checkbox option's text
_SECTION = 3000  # Slack's limit on a section block's text


def poll_blocks(poll: Poll) -> list[dict[str, Any]]:
    """The poll's blocks: its question and slots, the boxes, and the two buttons."""
    options = poll.options[:MAX_OPTIONS]
    lines = [f"*{_escape(poll.question)}*"]
    lines += [f"{n}. {_escape(label)}" for n, label in enumerate(options, start=1)]
    lines.append("Tick the times that work for you, then press *Send my answer*.")
    boxes = [
        {"text": {"type": "plain_text", "text": _short(f"{n}. {label}")}, "value": str(n)}
        for n, label in enumerate(options, start=1)
    ]
    return [
        {"type": "section", "text": {"type": "mrkdwn", "text": "\n".join(lines)[:_SECTION]}},
        {
            "type": "actions",
            "block_id": BLOCK,
            "elements": [
                {"type": "checkboxes", "action_id": TICK, "options": boxes},
                {
                    "type": "button",
                    "action_id": SEND,
                    "style": "primary",
                    "text": {"type": "plain_text", "text": "Send my answer"},
                    "value": "send",
                },
                {
                    "type": "button",
                    "action_id": NONE,
                    "text": {"type": "plain_text", "text": "None of these"},
                    "value": "none",
                },
            ],
        },
    ]


@dataclass(frozen=True, slots=True)
class Answer:
    """One person's answer to a poll message: the slots they can make (1-based)."""

    team: str
    channel: str
    user: str
    message_ts: str
    """The poll message's ``ts``: the answer replies to ``<channel>:<message_ts>``."""
    thread_ts: str | None
    action_ts: str
    """When the button was pressed: two presses are two answers, a redelivery is one."""
    choices: tuple[int, ...]

    @property
    def words(self) -> str:
        """The answer as the gateway reads it: ``vote 1 3``, ``vote none``."""
        return vote_words(self.choices)


def read_answer(body: Mapping[str, Any], *, default_team: str) -> Answer | None:
    """The answer a ``block_actions`` body sends, None for a tick or anything else.

    A box value that is not a slot number (1..`MAX_OPTIONS`) is ignored, never guessed.
    """
    actions = body.get("actions")
    if body.get("type") != "block_actions" or not isinstance(actions, list) or not actions:
        return None
    action = actions[0] if isinstance(actions[0], Mapping) else {}
    pressed = action.get("action_id")
    if pressed not in (SEND, NONE):
        return None
    container = _mapping(body.get("container"))
    message = _mapping(body.get("message"))
    channel = _id(body.get("channel")) or _text(container.get("channel_id"))
    user = _id(body.get("user"))
    message_ts = _text(message.get("ts")) or _text(container.get("message_ts"))
    action_ts = _text(action.get("action_ts"))
    if not channel or not user or not message_ts or not action_ts:
        return None
    user_team = _mapping(body.get("user")).get("team_id")
    team = _id(body.get("team")) or _text(user_team) or default_team
    thread_ts = _text(message.get("thread_ts"))
    choices = _ticked(body.get("state")) if pressed == SEND else ()
    return Answer(
        team=team,
        channel=channel,
        user=user,
        message_ts=message_ts,
        thread_ts=thread_ts,
        action_ts=action_ts,
        choices=choices,
    )


def answer_note(choices: tuple[int, ...]) -> str:
    """What only the presser sees once their answer is taken."""
    if not choices:
        return "Noted: none of these times work for you."
    numbers = [str(n) for n in choices]
    listed = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
    return f"Noted: {listed} work{'s' if len(numbers) == 1 else ''} for you."


def _ticked(state: object) -> tuple[int, ...]:
    """The slot numbers ticked in the poll's boxes, from the payload's ``state.values``."""
    values = state.get("values") if isinstance(state, Mapping) else None
    block = values.get(BLOCK) if isinstance(values, Mapping) else None
    boxes = block.get(TICK) if isinstance(block, Mapping) else None
    selected = boxes.get("selected_options") if isinstance(boxes, Mapping) else None
    found: set[int] = set()
    for option in selected if isinstance(selected, list) else ():
        value = option.get("value") if isinstance(option, Mapping) else None
        if isinstance(value, str) and value.isascii() and value.isdigit():
            found.add(int(value))
    return tuple(sorted(n for n in found if 1 <= n <= MAX_OPTIONS))


def _short(text: str) -> str:
    return text if len(text) <= _OPTION_TEXT else text[: _OPTION_TEXT - 1] + "…"


def _escape(text: str) -> str:
    """Slack's three control characters, so a label is shown as written."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _id(value: object) -> str | None:
    return _text(value.get("id")) if isinstance(value, Mapping) else None
