"""The memory tools: `remember` (a note, maybe due), `update_memory`, `recall`, `forget`.

Their definitions are built with the others in `bot.agent.tools.toolbox` (the tool list is
byte-stable); the handlers live here. Like every writing tool they only stage
effects (`NewMemory`, `MarkReminded`, `ForgetMemory`), committed with the turn.
A note sends nothing; a note with a due time in a message that asks to be
reminded is the reminder asked for (`bot.llm.reminder_words`, docs/reminders.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.agent.claims import sets_a_reminder
from bot.agent.tools.reminder_tools import REMINDER_HANDLERS
from bot.agent.tools.tool_session import (
    BadArguments,
    Handler,
    ToolSession,
    instant,
    integer_arg,
    iso,
    memory_content,
    required_text,
    said,
    text_arg,
    time_context,
)
from bot.llm.reminder_words import asks_to_be_reminded
from wrapper import UnknownItemError
from wrapper.outbound.reminder_ids import parse_reminder_id
from wrapper.turns.effects import ForgetMemory, MarkReminded

__all__ = ["MEMORY_HANDLERS"]


_NOTHING_SENT = (
    "nothing: a note due then, shown to you as DUE when the person writes; "
    "to message them at that time, use remind"
)
"""A reminder stored as a note sends nothing (docs/eval.md, M49)."""


async def _remember(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    content = required_text(arguments, "content")
    due_text = text_arg(arguments, "due_at", required=False)
    if due_text and _asked_for_a_reminder(context):
        # The person's words decide: the reminder they asked for (docs/eval.md, M49).
        reminder = await REMINDER_HANDLERS["remind"]({"text": content, "when": due_text}, context)
        return {**reminder, "set_as": "a reminder, as the person asked: remember sends nothing"}
    due = instant(due_text, context) if due_text else None
    if arguments.get("notify"):
        raise BadArguments("remember sends nothing; to message the person at a time, use remind")
    item = context.remember(memory_content(content), due)
    result: dict[str, Any] = {"id": item.id, "stored": True}
    if due is not None:
        result["due_at"] = iso(due, context)
        result["said"] = said(due, context)
        result["sends"] = _NOTHING_SENT
        result["time_context"] = time_context(context)
    return result


def _asked_for_a_reminder(context: ToolSession) -> bool:
    """The person's message asks to be reminded and this turn has set no reminder yet."""
    if not context.can_send or not asks_to_be_reminded(context.message.text):
        return False
    return not any(map(sets_a_reminder, context.staged))


async def _known_item(item: int, context: ToolSession) -> None:
    """Raise unless the person has item `item` (stored or staged, and not forgotten)."""
    if item in context.forgotten():
        raise UnknownItemError(item)
    if any(staged.id == item for staged in context.staged_memories()):
        return
    found = await context.wrapper.find_memory(
        user_key=context.envelope.user_key, item_id=item, group=context.group
    )
    if found is None:
        raise UnknownItemError(item)


_MARKED_WHEN_SENT = "nothing to mark: a reminder is marked reminded when it is sent"
"""Said when a model marks a reminder itself (docs/eval.md, M50)."""


async def _update_memory(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    raw = arguments.get("id")
    marking = arguments.get("reminded_at") is not None
    if marking and isinstance(raw, str) and parse_reminder_id(raw) is not None:
        return {"id": raw, "unchanged": _MARKED_WHEN_SENT}
    item = integer_arg(arguments, "id")
    assert item is not None
    reminded = text_arg(arguments, "reminded_at", required=False)
    if reminded is None:
        raise BadArguments("give reminded_at ('now' or an instant)")
    at = context.clock.now() if reminded.lower() == "now" else instant(reminded, context)
    await _known_item(item, context)
    context.stage(MarkReminded(id=item, at=at))
    return {"id": item, "reminded_at": iso(at, context)}


async def _recall(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    query = required_text(arguments, "query")
    try:
        found = await context.wrapper.recall(
            user_key=context.envelope.user_key, query=query, group=context.group
        )
    except ValueError as exc:
        raise BadArguments(str(exc)) from exc
    words = [w.strip(".,;:!?").casefold() for w in query.split()]
    gone = context.forgotten()
    marked = context.reminded_marks()
    staged = [
        (m.id, m.content, m.due_at, None)
        for m in reversed(context.staged_memories())
        if all(w in m.content.casefold() for w in words)
    ]
    stored = [(m.id, m.content, m.due_at, m.reminded_at) for m in found]
    items: list[dict[str, Any]] = []
    for item_id, content, due_at, reminded_at in [*staged, *stored]:
        if item_id in gone:
            continue
        reminded_at = marked.get(item_id, reminded_at)
        shown: dict[str, Any] = {"id": item_id, "content": content}
        if due_at is not None:
            shown["due_at"] = iso(due_at, context)
        if reminded_at is not None:
            shown["reminded_at"] = iso(reminded_at, context)
        items.append(shown)
    del items[20:]  # staged items come on top of the store's 20: keep its cap
    return {"query": query, "count": len(items), "items": items}


async def _forget(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    item = integer_arg(arguments, "id")
    assert item is not None
    context.personal("forgetting what they asked you to remember")
    if any(staged.id == item for staged in context.staged_memories()):
        canceled = context.unstage_memory(item)
        return {"id": item, "forgotten": True, "reminders_canceled": canceled}
    await _known_item(item, context)
    canceled = await context.wrapper.waiting_reminders(item)
    context.stage(ForgetMemory(user_key=context.envelope.user_key, id=item))
    return {"id": item, "forgotten": True, "reminders_canceled": canceled}


MEMORY_HANDLERS: dict[str, Handler] = {
    "remember": _remember,
    "update_memory": _update_memory,
    "recall": _recall,
    "forget": _forget,
}
