"""The agent's tools: definitions built once, and an executor that never raises.

Seed 000: tool definitions are part of the cached prompt prefix, so they are
built once at import, in a fixed order, with unique names, and never changed
afterwards. Building an agent any number of times reuses this one tuple.

Time-sensitive tools (remind, remember with a due time, send_message)
return the `ToolRuntimeTimeContext` beside their result,
so the model sees the person's local time and contact window when it decides.
Bad arguments come back to the model as an error result, never as an
exception out of the turn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, time, tzinfo
from typing import Any, Literal

from bot.agent.tools.action_tools import ACTION_HANDLERS
from bot.agent.tools.meeting_tools import MEETING_HANDLERS, MEETING_TOOLS
from bot.agent.tools.memory_tools import MEMORY_HANDLERS
from bot.agent.tools.reminder_tools import REMINDER_HANDLERS, REMINDER_TOOLS
from bot.agent.tools.tool_session import (
    TEXT,
    WHEN,
    BadArguments,
    Handler,
    NotAvailable,
    ToolSession,
    ZoneUnknown,
    object_schema,
    required_text,
    said,
    sending,
    text_arg,
    time_context,
)
from bot.llm.reminder_words import only_asks_about_time
from bot.llm.types import ToolCall, ToolSpec
from channels.base import storable_values
from clockcore import (
    UnknownTimezoneError,
    is_valid_zone,
    parse_anchored_time,
    require_zone,
    to_iso,
)
from clockcore.geo.places import lookup_place
from clockcore.geo.zones import parse_utc_offset, zone_from_label
from clockcore.geo.zonetext import unnamed_by_abbreviation
from clockcore.meetings import zone_label
from clockcore.parsing.time_questions import CountedTo, counts_to
from wrapper import UnknownItemError
from wrapper.outbound.schedules import NewSchedule
from wrapper.turns.effects import Enqueue, ZoneChange

__all__ = ["READ_ONLY_TOOLS", "TOOLS", "ToolRegistryError", "ToolSession", "run_tool", "tool_names"]


class ToolRegistryError(ValueError):
    """Tool definitions that would break the cached prefix (duplicate names)."""


def _build() -> tuple[ToolSpec, ...]:
    specs = (
        ToolSpec(
            "remember",
            "Store something for the person, optionally due at a time (it then shows as "
            "[DUE]/[OVERDUE] in the runtime block). Nothing is sent: to message them at a "
            "time, use remind.",
            object_schema({"content": TEXT, "due_at": WHEN}, ("content",)),
        ),
        ToolSpec(
            "update_memory",
            "Mark a stored item reminded: after mentioning a [DUE]/[OVERDUE] item, set "
            "reminded_at to 'now'.",
            object_schema({"id": {"type": "integer"}, "reminded_at": TEXT}, ("id", "reminded_at")),
        ),
        ToolSpec(
            "recall",
            "Search what the person asked you to remember.",
            object_schema({"query": TEXT}, ("query",)),
        ),
        ToolSpec(
            "forget", "Delete a stored item.", object_schema({"id": {"type": "integer"}}, ("id",))
        ),
        ToolSpec(
            "clock_it",
            "Record an activity the person says they are starting now (the gym, a meeting), "
            "for light continuity later. Not a reminder: to message them at a time, use remind.",
            object_schema({"label": TEXT, "expected_minutes": {"type": "integer"}}, ("label",)),
        ),
        ToolSpec(
            "update_action",
            "Change the status of a recorded action.",
            object_schema(
                {
                    "id": TEXT,
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
            object_schema(
                {"zone": TEXT, "scope": {"type": "string", "enum": ["thread", "home"]}},
                ("zone", "scope"),
            ),
        ),
        ToolSpec(
            "current_time",
            "The current time in a zone (default: the session's).",
            object_schema({"zone": TEXT}),
        ),
        ToolSpec(
            "parse_time",
            "Read a time expression exactly, in the session's zone unless it names one.",
            object_schema({"text": TEXT}, ("text",)),
        ),
        ToolSpec(
            "convert_time",
            "Show the time a text names ('9am', 'tomorrow 15:00', 'now') in another IANA zone.",
            object_schema({"text": TEXT, "to_zone": TEXT}, ("text", "to_zone")),
        ),
        ToolSpec(
            "send_message",
            "Send the person a message now.",
            object_schema({"text": TEXT}, ("text",)),
        ),
        ToolSpec(
            "defer",
            "Hold the message being sent until a later time, with a short reason "
            "(e.g. outside the person's contact window).",
            object_schema({"until": WHEN, "reason": TEXT}, ("until", "reason")),
        ),
    )
    everything: tuple[ToolSpec, ...] = (*specs, *REMINDER_TOOLS, *MEETING_TOOLS)
    names = [spec.name for spec in everything]
    if len(set(names)) != len(names):
        raise ToolRegistryError(f"duplicate tool names: {sorted(names)}")
    return everything


TOOLS: tuple[ToolSpec, ...] = _build()
"""Every tool, once, in a fixed order. Pass this same tuple to every request."""


READ_ONLY_TOOLS = frozenset(
    {"current_time", "parse_time", "convert_time", "recall", "list_reminders"}
)
"""Tools that only read: they run at once and stage nothing."""


def tool_names() -> tuple[str, ...]:
    """The tool names in order."""
    return tuple(spec.name for spec in TOOLS)


async def run_tool(call: ToolCall, context: ToolSession) -> str:
    """Run one tool call; the JSON result text for the model. Never raises for bad arguments."""
    handler = _HANDLERS.get(call.name)
    if handler is None:
        return _error("unknown_tool", f"there is no tool named {call.name!r}")
    try:
        arguments = storable_values(json.loads(call.arguments or "{}"))
    except json.JSONDecodeError as exc:
        return _error("bad_arguments", f"arguments are not JSON: {exc.msg}")
    if not isinstance(arguments, dict):
        return _error("bad_arguments", "arguments must be a JSON object")
    if call.name in _SENDING and only_asks_about_time(context.message.text):
        answer = _answer_instead(call.name, context)
        if call.name == "send_message" and _passes_on(arguments.get("text"), answer["said"]):
            answer |= {"reply": True, "why": "these words answer them: they are your reply"}
        return json.dumps(answer, ensure_ascii=False)
    try:
        result = await handler(arguments, context)
    except ZoneUnknown as exc:
        return _error("zone_unknown", str(exc), exc.ask)
    except BadArguments as exc:
        return _error("bad_arguments", str(exc), exc.ask, exc.choices)
    except (UnknownTimezoneError, UnknownItemError) as exc:
        return _error("bad_arguments", str(exc))
    except NotAvailable as exc:
        return _error("not_available", str(exc))
    return json.dumps(result, ensure_ascii=False)


_SENDING = frozenset({"remind", "send_message"})


def _answer_instead(name: str, context: ToolSession) -> dict[str, Any]:
    """What `name` answers on a message that only asks about time: nothing done, and the facts.

    Nothing is set or sent, and the result is no error (docs/eval.md, M34): `said`
    holds what answers the
    question: the time their message names, read whole, on both clocks as
    `convert_time` says it; the day a count question counts to; or else the
    clock now in each place it names.
    """
    now, mine = context.clock.now(), context.session_tz
    answers = []
    if context.their_words is not None:
        read = parse_anchored_time(context.their_words, mine, now, language=context.language)
        if read.start_instant is not None and not read.needs_clarification:
            answers.append(_both_clocks(read.start_instant, read.zone or mine, mine))
    if not answers and (
        counted := counts_to(context.message.text, mine, now, language=context.language)
    ):
        answers = [_days_to(counted, now)]  # "how many days until Christmas?"
    if not answers:  # what time it is there now: "what time is it in Kathmandu?"
        answers = [_now_in(now, named.zone) for named in context.envelope.other_zones]
    return {
        "said": answers,
        "set": False,
        "why": f"they asked a question, so no {name}: answer it with `said`",
    }


def _error(kind: str, message: str, ask: str | None = None, choices: Sequence[str] = ()) -> str:
    error = {"error": kind, "message": message, "ask": ask, "choices": list(choices)}
    return json.dumps({k: v for k, v in error.items() if v}, ensure_ascii=False)


async def _current_time(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    zone = require_zone(text_arg(arguments, "zone", required=False) or context.session_tz)
    return {"now": to_iso(context.clock.now(), zone), "zone": zone}


async def _parse_time(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    text = required_text(arguments, "text")
    now = context.clock.now()
    parsed = parse_anchored_time(text, context.session_tz, now, language=context.language)
    result = parsed.to_dict()
    if parsed.start_instant is not None and not parsed.needs_clarification:
        # "How many days until…" is counted here, not by the model (docs/eval.md, M35).
        zone = zone_from_label(parsed.zone or context.session_tz)
        result["days_from_today"] = _days_from_today(parsed.start_instant, zone, now)
        result["said"] = said(parsed.start_instant, context)
    return result


_NOW_WORDS = frozenset({"now", "right now", "current time", "the current time"})


async def _convert_time(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    text, target = text_arg(arguments, "text"), text_arg(arguments, "to_zone")
    assert text is not None
    assert target is not None
    # An offset as the runtime block writes it ('UTC+05:45'; docs/eval.md, M36), or a place.
    target = target if parse_utc_offset(target) is not None else _zone_named(target)
    if text.casefold() in _NOW_WORDS:  # "what time is it there": models ask it this way
        now = context.clock.now()
        return {
            "from": to_iso(now, context.session_tz),
            "from_zone": context.session_tz,
            "to": to_iso(now, zone_from_label(target)),
            "to_zone": target,
            "said": _both_clocks(now, context.session_tz, target),
        }
    parsed = parse_anchored_time(
        text, context.session_tz, context.clock.now(), language=context.language
    )
    if parsed.start_instant is None:
        raise BadArguments(
            parsed.clarification_question
            or f"{parsed.reason or 'no time found'} in {text!r}; give the time to convert "
            "('9am', 'tomorrow 15:00 Europe/Paris'), or call current_time with zone for "
            "the time there now"
        )
    source = zone_from_label(parsed.zone or "UTC")
    return {
        "from": to_iso(parsed.start_instant, source),
        "from_zone": parsed.zone,
        "to": to_iso(parsed.start_instant, zone_from_label(target)),
        "to_zone": target,
        "said": _both_clocks(parsed.start_instant, parsed.zone or "UTC", target),
    }


def _passes_on(text: object, said: list[str]) -> bool:
    """Whether `text` passes on one of `said`'s answers, as the model's reply.

    Those words, ours, are the reply (`bot.agent`); anything else stays unsent
    (docs/eval.md, M37).
    """
    if not isinstance(text, str):
        return False
    flat = " ".join(text.split()).casefold()
    return any(" ".join(line.split()).casefold() in flat for line in said)


def _days_to(counted: CountedTo, now: datetime) -> str:
    """What a count question counts to, and how many days away: "Christmas is Friday 25
    December 2026, 291 days after today (Monday 9 March 2026)" (docs/eval.md, M37)."""
    zone = zone_from_label(counted.zone)
    today, then = now.astimezone(zone), counted.at.astimezone(zone)
    days = _days_from_today(counted.at, zone, now)
    clock = ""
    if then.time() != time(0):  # "how many hours until 5pm?": the hours too
        hours, seconds = divmod(int((counted.at - now).total_seconds()), 3600)
        clock = f" {then:%H:%M} (in {hours} h {seconds // 60} min)"
    return (
        f"{counted.words} is {then:%A} {then.day} {then:%B %Y}{clock} in "
        f"{zone_label(counted.zone)}, {days} day{'' if days == 1 else 's'} after today "
        f"({today:%A} {today.day} {today:%B %Y})"
    )


def _days_from_today(at: datetime, zone: tzinfo, now: datetime) -> int:
    """Calendar days from today to `at`'s day, both in `zone`."""
    return (at.astimezone(zone).date() - now.astimezone(zone).date()).days


def _now_in(now: datetime, zone: str) -> str:
    """The clock now in `zone` alone: "It is 17:45 Monday in Kathmandu now"
    (docs/eval.md, M38)."""
    return f"It is {now.astimezone(zone_from_label(zone)):%H:%M %A} in {zone_label(zone)} now"


def _both_clocks(at: datetime, source: str, target: str) -> str:
    """`at` on both clocks, each with its place: "17:45 Monday in Kathmandu is 12:00 Monday in
    UTC+00:00" (docs/eval.md, M39)."""

    def clock(zone: str) -> str:
        local = at.astimezone(zone_from_label(zone))
        return f"{local:%H:%M %A} in {zone_label(zone)}"

    return f"{clock(source)} is {clock(target)}"


_THREAD_WORDS = frozenset({"thread", "session", "conversation", "chat", "here"})
_HOME_WORDS = frozenset({"home", "user", "person", "default"})
"""What models write for a scope (docs/eval.md, M40): the two scopes it means."""


def _zone_named(zone: str) -> str:
    """The IANA id `zone` names, or the one its place name means ("Lisbon").

    A place passed as a zone is read (docs/eval.md, M41); one that fits several zones
    asks, as the rules agent does.

    Raises:
        BadArguments: a place that fits several zones.
        UnknownTimezoneError: neither a zone nor a place.
    """
    if is_valid_zone(zone):
        return require_zone(zone)
    match = lookup_place(zone)
    if match is None:
        return require_zone(zone)  # the usual error, naming what was given
    if match.zone is None:
        raise BadArguments(f"{match.question()} Ask the person, then pass the IANA id.")
    return match.zone


async def _set_timezone(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    zone, scope = text_arg(arguments, "zone"), text_arg(arguments, "scope")
    assert zone is not None
    where: Literal["thread", "home"]
    if scope in _THREAD_WORDS:
        where = "thread"
    elif scope in _HOME_WORDS:
        where = "home"
    else:
        raise BadArguments("scope must be 'thread' (this conversation) or 'home' (the person's)")
    if where == "home":
        context.personal("their home timezone")
    canonical = _zone_named(zone)
    if (question := unnamed_by_abbreviation(context.message.text, canonical)) is not None:
        # Ends with the question itself (docs/eval.md, M42).
        raise BadArguments(
            f'their message names no zone, only an abbreviation. Ask them: "{question}"',
            ask=question,
        )
    envelope = context.envelope
    held = envelope.session_tz_source == "thread" and envelope.session_tz == envelope.user_tz
    both = where == "home" and context.group is None and held  # docs/talking.md, home zone
    scopes: tuple[Literal["thread", "home"], ...] = ("home", "thread") if both else (where,)
    for scope_ in scopes:
        context.stage(ZoneChange(envelope.user_key, envelope.thread_key, canonical, scope_))
    if "thread" in scopes or envelope.session_tz_source in ("user", "default"):
        context.session_tz = canonical
        context.zone_known = True
    return {
        "zone": canonical,
        "scope": where,
        "now": to_iso(context.clock.now(), canonical),
        "note": "the session's zone for the rest of this turn and from the person's next message"
        if context.session_tz == canonical
        else "the person's home zone from their next message; this thread keeps its own zone",
    }


_QUEUED = "queued earlier in this turn, sent once: now answer the person"
_REMINDER_SET = "this text is a reminder set in this turn; it goes out at its time: now answer"


async def _send_message(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    text = required_text(arguments, "text")
    sending(context, "send_message")
    same = [e for e in context.staged if isinstance(e, Enqueue | NewSchedule) and e.text == text]
    sends = [e for e in same if isinstance(e, Enqueue) and e.kind == "proactive"]
    if len(sends) < len(same):
        # a reminder set, then sent now too, is one (docs/eval.md, M43)
        return {"queued": False, "already_set": _REMINDER_SET}
    if sends:  # the same call twice in one turn sent the same words twice (docs/eval.md)
        return {"id": sends[0].key, "queued": True, "already_queued": _QUEUED}
    item = context.enqueue("proactive", text, context.clock.now())
    return {"id": item.key, "queued": True, "time_context": time_context(context)}


async def _defer(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    return {
        "error": "not_applicable",
        "message": "defer applies to a proactive message being sent (a reminder or "
        "scheduled message); in this conversation turn there is no outgoing message "
        "to hold. To reach the person later, use remind.",
    }


_HANDLERS: dict[str, Handler] = {
    "current_time": _current_time,
    "parse_time": _parse_time,
    "convert_time": _convert_time,
    **MEMORY_HANDLERS,
    **ACTION_HANDLERS,
    "set_timezone": _set_timezone,
    "send_message": _send_message,
    "defer": _defer,
    **REMINDER_HANDLERS,
    **MEETING_HANDLERS,
}
if set(_HANDLERS) != set(tool_names()):  # pragma: no cover - caught by any import
    raise ToolRegistryError("every declared tool needs a handler, and only those")
