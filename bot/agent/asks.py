"""What a turn asks, and what its calls said: the model's nudge after an empty answer
(`speak_up`), the person's question a refused call left (`asking`), the calls a turn
sent again after a refusal, and the words a `send_message` call passed on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from bot.agent.tools.tool_errors import tool_error, tool_result
from bot.agent.tools.toolbox import ToolSession
from bot.llm.types import Message, ToolCall
from wrapper.turns.effects import ZoneChange

__all__ = [
    "asking",
    "call_arguments",
    "is_reply",
    "question_left",
    "refused_with_question",
    "send_text",
    "signature",
    "speak_up",
]


def speak_up(produced: Sequence[Message], *, question: bool = False) -> Message:
    """Asked once in a turn after an empty answer, at the end of that one request only.

    It names the tools the turn ran; on a message that only asks about time (`question`)
    it asks for the answer, with the last result's `said` (docs/eval.md, M5).
    """
    names = ", ".join(dict.fromkeys(call.name for m in produced for call in m.tool_calls))
    if names and question:
        said = _last_said(produced)
        return Message(
            "user",
            f"(clockbot: the tools are done ({names}). Write your reply to the person: one "
            f"sentence answering their question.{f' The results say: {said}.' if said else ''})",
        )
    if names:
        return Message(
            "user",
            f"(clockbot: the tools are done ({names}). Write your reply to the person: "
            "one sentence saying what was done.)",
        )
    return Message("user", "(clockbot: write your reply to the person's message now.)")


def _last_said(produced: Sequence[Message]) -> str:
    """The `said` of the last tool result that has one ("" if none), as one line."""
    for message in reversed(produced):
        said = tool_result(message.content).get("said") if message.role == "tool" else None
        if isinstance(said, list):
            said = "; ".join(str(line) for line in said)
        if said:
            return " ".join(str(said).split())[:300]
    return ""


def asking(produced: list[Message], session: ToolSession) -> list[Message]:
    """`produced`, its reply asking the question a refused call left for the person.

    A time the tools refused for want of the zone (``zone_unknown``), or a zone
    given only as "EST", is set once the person says which: read whole or ask;
    a model's own words for it told the person nothing to write (docs/eval.md,
    M8). Where the turn's reply asks nothing, the error's ``ask`` is
    added, to the reply and to the history alike; a turn that ended on tool
    results (out of rounds, or a refused call sent again) ends on the question
    instead of "I got stuck".
    """
    question = question_left(produced, session)
    if question is None or not produced:
        return produced
    final = produced[-1]
    if final.role != "assistant":
        return [*produced, Message("assistant", question)]
    if "?" in (final.content or "") or question in (final.content or ""):
        return produced
    asked = f"{final.content.rstrip()}\n\n{question}" if final.content else question
    return [*produced[:-1], replace(final, content=asked)]


def question_left(produced: Sequence[Message], session: ToolSession) -> str | None:
    """The ``ask`` of the turn's last refusal that carried one, unless the turn settled it.

    A zone set in the turn settles the questions about a zone (``zone_unknown``,
    and `set_timezone`'s "which zone do you mean by EST?"), not the others
    (which reminder, a time already past). A group is never asked for anyone's
    zone (``zone_unknown``).
    """
    zone_set = any(isinstance(e, ZoneChange) for e in session.staged)
    for message in reversed(produced):
        error = tool_error(message.content) if message.role == "tool" else {}
        if not error.get("ask"):
            continue
        unknown = error["error"] == "zone_unknown"
        if (zone_set and (unknown or message.name == "set_timezone")) or (
            unknown and session.group is not None
        ):
            continue
        return str(error["ask"])
    return None


def refused_with_question(produced: Sequence[Message]) -> set[tuple[str, str]]:
    """The calls in `produced` refused with a question for the person (`signature`)."""
    calls = {call.id: call for m in produced for call in m.tool_calls}
    return {
        signature(calls[m.tool_call_id])
        for m in produced
        if m.role == "tool" and m.tool_call_id in calls and tool_error(m.content).get("ask")
    }


def signature(call: ToolCall) -> tuple[str, str]:
    """A call as its name and arguments: the same call again, whatever its id."""
    return call.name, call.arguments or ""


def is_reply(call: ToolCall, result: str) -> bool:
    """Whether `call` was a `send_message` whose words the tool took as the turn's reply."""
    return call.name == "send_message" and tool_result(result).get("reply") is True


def send_text(calls: Sequence[ToolCall]) -> str:
    """The text of the first `send_message` call among `calls`, or ""."""
    for call in calls:
        text = call_arguments(call).get("text") if call.name == "send_message" else None
        if isinstance(text, str):
            return text.strip()
    return ""


def call_arguments(call: ToolCall) -> dict[str, object]:
    """A call's arguments; {} when they are not a JSON object."""
    try:
        arguments = json.loads(call.arguments or "{}")
    except json.JSONDecodeError:
        return {}
    return arguments if isinstance(arguments, dict) else {}
