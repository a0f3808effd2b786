"""The agent's tools: definitions built once, and an executor that never raises.

Seed 000: tool definitions are part of the cached prompt prefix, so they are
built once at import, in a fixed order, with unique names, and never changed
afterwards. Building an agent any number of times reuses this one tuple.

Time-sensitive tools (remember with a due time, schedule_message,
send_message, defer) return the `ToolRuntimeTimeContext` beside their result,
so the model sees the person's local time and contact window when it decides.
Bad arguments come back to the model as an error result, never as an
exception out of the turn.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from bot.llm.types import ToolCall, ToolSpec
from clockcore import (
    Clock,
    ContactWindow,
    ContextEnvelope,
    UnknownTimezoneError,
    parse_anchored_time,
    require_zone,
    runtime_time_context,
    to_iso,
)
from clockcore.zones import zone_from_label
from wrapper import InteractionWrapper, UnknownItemError
from wrapper.core import ActionsDisabledError
from wrapper.keys import split_thread_key
from wrapper.outbox import Outbox

__all__ = ["TOOLS", "ToolContext", "ToolRegistryError", "run_tool", "tool_names"]


def _object(properties: Mapping[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
    }


_TEXT = {"type": "string"}
_WHEN = {
    "type": "string",
    "description": "A time as the person said it ('tomorrow 9am', 'in 2 hours') "
    "or an ISO-8601 instant with an offset.",
}


class ToolRegistryError(ValueError):
    """Tool definitions that would break the cached prefix (duplicate names)."""


def _build() -> tuple[ToolSpec, ...]:
    specs = (
        ToolSpec(
            "remember",
            "Store something for the person, optionally due at a time; with notify, "
            "it is delivered to them when due.",
            _object(
                {"content": _TEXT, "due_at": _WHEN, "notify": {"type": "boolean"}}, ("content",)
            ),
        ),
        ToolSpec(
            "update_memory",
            "Change a stored item; after mentioning a [DUE]/[OVERDUE] item, set "
            "reminded_at to 'now'.",
            _object({"id": {"type": "integer"}, "reminded_at": _TEXT, "content": _TEXT}, ("id",)),
        ),
        ToolSpec(
            "recall",
            "Search what the person asked you to remember.",
            _object({"query": _TEXT}, ("query",)),
        ),
        ToolSpec("forget", "Delete a stored item.", _object({"id": {"type": "integer"}}, ("id",))),
        ToolSpec(
            "clock_it",
            "Record an action the person is about to do, for light continuity later.",
            _object({"label": _TEXT, "expected_minutes": {"type": "integer"}}, ("label",)),
        ),
        ToolSpec(
            "update_action",
            "Change the status of a recorded action.",
            _object(
                {
                    "id": _TEXT,
                    "status": {
                        "type": "string",
                        "enum": ["in_progress", "likely_done", "done", "canceled"],
                    },
                },
                ("id", "status"),
            ),
        ),
        ToolSpec(
            "set_timezone",
            "Set the timezone for this thread or the person's home zone (an IANA id).",
            _object(
                {"zone": _TEXT, "scope": {"type": "string", "enum": ["thread", "home"]}},
                ("zone", "scope"),
            ),
        ),
        ToolSpec(
            "current_time",
            "The current time in a zone (default: the session's).",
            _object({"zone": _TEXT}),
        ),
        ToolSpec(
            "parse_time",
            "Read a time expression exactly, in the session's zone unless it names one.",
            _object({"text": _TEXT}, ("text",)),
        ),
        ToolSpec(
            "convert_time",
            "Show the time a text names in another IANA zone.",
            _object({"text": _TEXT, "to_zone": _TEXT}, ("text", "to_zone")),
        ),
        ToolSpec(
            "schedule_message",
            "Send the person a message at a later time.",
            _object({"text": _TEXT, "at": _WHEN}, ("text", "at")),
        ),
        ToolSpec(
            "send_message", "Send the person a message now.", _object({"text": _TEXT}, ("text",))
        ),
        ToolSpec(
            "defer",
            "Hold the message being sent until a later time, with a short reason "
            "(e.g. outside the person's contact window).",
            _object({"until": _WHEN, "reason": _TEXT}, ("until", "reason")),
        ),
    )
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        raise ToolRegistryError(f"duplicate tool names: {sorted(names)}")
    return specs


TOOLS: tuple[ToolSpec, ...] = _build()
"""Every tool, once, in a fixed order. Pass this same tuple to every request."""


def tool_names() -> tuple[str, ...]:
    """The tool names in order."""
    return tuple(spec.name for spec in TOOLS)


@dataclass(frozen=True, slots=True)
class ToolContext:
    """What a tool call may touch: the store, the clock, and this turn's envelope."""

    wrapper: InteractionWrapper
    envelope: ContextEnvelope
    clock: Clock
    contact_window: ContactWindow
    outbox: Outbox | None = None


class _BadArguments(ValueError):
    """Arguments the model got wrong; its message goes back to the model."""


Handler = Callable[[Mapping[str, Any], ToolContext], Awaitable[dict[str, Any]]]


async def run_tool(call: ToolCall, context: ToolContext) -> str:
    """Run one tool call; the JSON result text for the model. Never raises for bad arguments."""
    handler = _HANDLERS.get(call.name)
    if handler is None:
        return _error("unknown_tool", f"there is no tool named {call.name!r}")
    try:
        arguments = json.loads(call.arguments or "{}")
    except json.JSONDecodeError as exc:
        return _error("bad_arguments", f"arguments are not JSON: {exc.msg}")
    if not isinstance(arguments, dict):
        return _error("bad_arguments", "arguments must be a JSON object")
    try:
        result = await handler(arguments, context)
    except (_BadArguments, UnknownTimezoneError, UnknownItemError) as exc:
        return _error("bad_arguments", str(exc))
    except _NotAvailable as exc:
        return _error("not_available", str(exc))
    return json.dumps(result, ensure_ascii=False)


def _error(kind: str, message: str) -> str:
    return json.dumps({"error": kind, "message": message}, ensure_ascii=False)


class _NotAvailable(Exception):
    """A tool that cannot act here: no outbox, or turned off by the person's policy."""


def _text(arguments: Mapping[str, Any], name: str, *, required: bool = True) -> str | None:
    value = arguments.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _BadArguments(f"{name} must be a non-empty string")
    return value.strip()


def _time_context(context: ToolContext) -> dict[str, object]:
    envelope = context.envelope
    return runtime_time_context(
        context.clock.now(), envelope.user_tz, context.contact_window
    ).to_dict()


async def _current_time(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    zone = _text(arguments, "zone", required=False) or context.envelope.session_tz
    zone = require_zone(zone)
    return {"now": to_iso(context.clock.now(), zone), "zone": zone}


async def _parse_time(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    text = _text(arguments, "text")
    assert text is not None
    parsed = parse_anchored_time(text, context.envelope.session_tz, context.clock.now())
    return parsed.to_dict()


async def _convert_time(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    text, target = _text(arguments, "text"), _text(arguments, "to_zone")
    assert text is not None
    assert target is not None
    target = require_zone(target)
    parsed = parse_anchored_time(text, context.envelope.session_tz, context.clock.now())
    if parsed.start_instant is None:
        raise _BadArguments(parsed.clarification_question or parsed.reason or "no time found")
    source = zone_from_label(parsed.zone or "UTC")
    return {
        "from": to_iso(parsed.start_instant, source),
        "from_zone": parsed.zone,
        "to": to_iso(parsed.start_instant, target),
        "to_zone": target,
    }


def _instant(text: str, context: ToolContext) -> datetime:
    parsed = parse_anchored_time(text, context.envelope.session_tz, context.clock.now())
    if parsed.needs_clarification or parsed.start_instant is None:
        raise _BadArguments(
            parsed.clarification_question or parsed.reason or f"cannot read a time in {text!r}"
        )
    return parsed.start_instant


async def _remember(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    content = _text(arguments, "content")
    assert content is not None
    due_text = _text(arguments, "due_at", required=False)
    due = _instant(due_text, context) if due_text else None
    notify = bool(arguments.get("notify"))
    if notify and (due is None or context.outbox is None):
        raise _BadArguments(
            "notify needs a due_at" if due is None else "notify is not available here"
        )
    envelope = context.envelope
    item = await context.wrapper.remember(user_key=envelope.user_key, content=content, due_at=due)
    result: dict[str, Any] = {"id": item, "stored": True}
    if notify and due is not None and context.outbox is not None:
        _, channel, thread_id = split_thread_key(envelope.thread_key)
        await context.outbox.enqueue(
            kind="reminder",
            channel=channel,
            thread_id=thread_id,
            thread_key=envelope.thread_key,
            user_key=envelope.user_key,
            text=content,
            due_at=due,
            memory_id=item,
            now=context.clock.now(),
        )
        result["notify"] = True
    if due is not None:
        result["due_at"] = to_iso(due, context.envelope.session_tz)
        result["time_context"] = _time_context(context)
    return result


async def _update_memory(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    item = arguments.get("id")
    if not isinstance(item, int) or isinstance(item, bool):
        raise _BadArguments("id must be an integer")
    if arguments.get("content") is not None:
        raise _NotAvailable("changing an item's content is not available in this build")
    reminded = _text(arguments, "reminded_at", required=False)
    if reminded is None:
        raise _BadArguments("give reminded_at ('now' or an instant)")
    at = context.clock.now() if reminded.lower() == "now" else _instant(reminded, context)
    await context.wrapper.mark_reminded(item, at=at)
    return {"id": item, "reminded_at": to_iso(at, context.envelope.session_tz)}


def _integer(arguments: Mapping[str, Any], name: str, *, required: bool = True) -> int | None:
    value = arguments.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise _BadArguments(f"{name} must be an integer")
    return value


def _iso(at: datetime | None, context: ToolContext) -> str | None:
    return to_iso(at, context.envelope.session_tz) if at is not None else None


async def _recall(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    query = _text(arguments, "query")
    assert query is not None
    try:
        found = await context.wrapper.recall(user_key=context.envelope.user_key, query=query)
    except ValueError as exc:
        raise _BadArguments(str(exc)) from exc
    items: list[dict[str, Any]] = []
    for item in found:
        shown: dict[str, Any] = {"id": item.id, "content": item.content}
        if item.due_at is not None:
            shown["due_at"] = _iso(item.due_at, context)
        if item.reminded_at is not None:
            shown["reminded_at"] = _iso(item.reminded_at, context)
        items.append(shown)
    return {"query": query, "count": len(items), "items": items}


async def _forget(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    item = _integer(arguments, "id")
    assert item is not None
    canceled = await context.wrapper.forget(user_key=context.envelope.user_key, item_id=item)
    if canceled is None:
        raise UnknownItemError(item)
    return {"id": item, "forgotten": True, "reminders_canceled": canceled}


async def _clock_it(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    label = _text(arguments, "label")
    assert label is not None
    minutes = _integer(arguments, "expected_minutes", required=False)
    envelope = context.envelope
    try:
        action = await context.wrapper.clock_action(
            user_key=envelope.user_key,
            thread_key=envelope.thread_key,
            label=label,
            expected_minutes=minutes,
            now=context.clock.now(),
        )
    except ActionsDisabledError as exc:
        raise _NotAvailable(str(exc)) from exc
    except ValueError as exc:
        raise _BadArguments(str(exc)) from exc
    result: dict[str, Any] = {"id": action, "recorded": True, "label": label}
    if minutes is not None:
        result["expected_minutes"] = minutes
    return result


async def _update_action(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    action, status = _text(arguments, "id"), _text(arguments, "status")
    assert action is not None
    assert status is not None
    try:
        changed = await context.wrapper.update_action(
            user_key=context.envelope.user_key, action_id=action, status=status
        )
    except ValueError as exc:
        raise _BadArguments(str(exc)) from exc
    if not changed:
        raise _BadArguments(f"no action with id {action!r}")
    return {"id": action, "status": status}


async def _set_timezone(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    zone, scope = _text(arguments, "zone"), _text(arguments, "scope")
    assert zone is not None
    where: Literal["thread", "home"]
    if scope == "thread":
        where = "thread"
    elif scope == "home":
        where = "home"
    else:
        raise _BadArguments("scope must be 'thread' or 'home'")
    envelope = context.envelope
    canonical = await context.wrapper.set_timezone(
        user_key=envelope.user_key, thread_key=envelope.thread_key, zone=zone, scope=where
    )
    return {
        "zone": canonical,
        "scope": scope,
        "now": to_iso(context.clock.now(), canonical),
        "note": "takes effect from the person's next message",
    }


def _outbox(context: ToolContext, name: str) -> Outbox:
    if context.outbox is None:
        raise _NotAvailable(f"{name} is not available here: there is no outbox to send through")
    return context.outbox


async def _enqueue(context: ToolContext, outbox: Outbox, text: str, due: datetime) -> int:
    envelope = context.envelope
    _, channel, thread_id = split_thread_key(envelope.thread_key)
    try:
        return await outbox.enqueue(
            kind="proactive",
            channel=channel,
            thread_id=thread_id,
            thread_key=envelope.thread_key,
            user_key=envelope.user_key,
            text=text,
            due_at=due,
            now=context.clock.now(),
        )
    except ValueError as exc:
        raise _BadArguments(str(exc)) from exc


async def _schedule_message(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    text, when = _text(arguments, "text"), _text(arguments, "at")
    assert text is not None
    assert when is not None
    outbox = _outbox(context, "schedule_message")
    at = _instant(when, context)
    now = context.clock.now()
    if at < now:
        raise _BadArguments(
            f"{when!r} is {_iso(at, context)}, which has already passed "
            f"(it is now {_iso(now, context)}); give a later time, or use send_message"
        )
    item = await _enqueue(context, outbox, text, at)
    timing = runtime_time_context(at, context.envelope.user_tz, context.contact_window)
    return {
        "id": item,
        "scheduled": True,
        "at": _iso(at, context),
        "time_context": timing.to_dict(),
    }


async def _send_message(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    text = _text(arguments, "text")
    assert text is not None
    outbox = _outbox(context, "send_message")
    item = await _enqueue(context, outbox, text, context.clock.now())
    return {"id": item, "queued": True, "time_context": _time_context(context)}


async def _defer(arguments: Mapping[str, Any], context: ToolContext) -> dict[str, Any]:
    return {
        "error": "not_applicable",
        "message": "defer applies to a proactive message being sent (a reminder or "
        "scheduled message); in this conversation turn there is no outgoing message "
        "to hold. To reach the person later, use schedule_message.",
    }


_HANDLERS: dict[str, Handler] = {
    "current_time": _current_time,
    "parse_time": _parse_time,
    "convert_time": _convert_time,
    "remember": _remember,
    "update_memory": _update_memory,
    "recall": _recall,
    "forget": _forget,
    "clock_it": _clock_it,
    "update_action": _update_action,
    "set_timezone": _set_timezone,
    "schedule_message": _schedule_message,
    "send_message": _send_message,
    "defer": _defer,
}
if set(_HANDLERS) != set(tool_names()):  # pragma: no cover - caught by any import
    raise ToolRegistryError("every declared tool needs a handler, and only those")
