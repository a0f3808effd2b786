"""The built-in agent for when no LLM is configured (``CLOCKBOT_LLM_PROVIDER=none``).

It is a `Provider` like the others, so it runs through the same turn loop, the
same tools and the same history. It reads the newest user message and answers
what it can answer exactly: clock directives, "remind me … to …", "what time
is it (in …)", "what's coming up". Anything else gets a plain sentence saying
that free conversation needs an LLM.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from itertools import count

from bot.llm.types import Completion, Message, ToolCall, ToolSpec
from clockcore import (
    RUNTIME_BLOCK_END,
    locate_time,
    parse_directives,
    require_zone,
    without_time,
)
from clockcore.places import lookup_place

__all__ = ["RulesProvider"]

NEEDS_LLM = (
    "I'm running without a language model, so I can handle clock directives "
    "('clock it: going for a run'), reminders ('remind me tomorrow at 9 to call the bank'), "
    "time questions ('what time is it in Tokyo') and 'what's coming up'. "
    "For conversation, configure an LLM (CLOCKBOT_LLM_PROVIDER)."
)

_REMIND = re.compile(r"^\s*remind me\b(?P<rest>.+)$", re.IGNORECASE | re.DOTALL)
_TO = re.compile(r"\s+(?:to|that|about)\s+", re.IGNORECASE)
_TIME_IN = re.compile(
    r"\bwhat(?:'s| is)? (?:the )?time(?: is it)?(?: (?:in|for) (?P<place>[^?!.]+))?",
    re.IGNORECASE,
)
_UPCOMING = re.compile(r"\b(?:what'?s|what is) (?:coming up|due|next)\b|\bupcoming\b", re.I)
_PROACTIVE = re.compile(
    r"^A (?:reminder|scheduled message)[^:]*is due now: (?P<what>.+)$", re.MULTILINE
)
_ID_SUFFIX = re.compile(r" \(id [^)]*\)$")
_DUE_LINE = re.compile(r"^- \[(?:DUE|OVERDUE) [^\]]+\].*$", re.MULTILINE)


class RulesProvider:
    """Answers directives, reminders and time questions without a model."""

    name = "rules"

    def __init__(self) -> None:
        self._ids = count(1)

    async def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Completion:
        last = messages[-1]
        if last.role == "tool":
            return _say(_after_tool(last))
        block, text = _split(last.content)
        if due := _PROACTIVE.search(text):
            return _say(f"Reminder: {due['what'].strip()}")
        return self._answer(block, text)

    async def aclose(self) -> None:
        """Nothing to close."""

    def _call(self, name: str, **arguments: object) -> Completion:
        call = ToolCall(f"rules-{next(self._ids)}", name, json.dumps(arguments))
        return Completion(
            message=Message(role="assistant", tool_calls=(call,)),
            prompt_tokens=None,
            cached_tokens=None,
            completion_tokens=None,
            stop_reason="tool_use",
        )

    def _answer(self, block: str, text: str) -> Completion:
        directives = parse_directives(text)
        if directives.any:
            return _say(_directive_reply(directives, block))
        if remind := _REMIND.match(text):
            return self._reminder(remind["rest"])
        if asked := _TIME_IN.search(text):
            place = (asked["place"] or "").strip()
            if not place:
                return self._call("current_time")
            zone = _zone_for(place)
            if zone is None:
                return _say(
                    f"I don't know which timezone {place!r} is in; name a city or an IANA zone."
                )
            return self._call("current_time", zone=zone)
        if _UPCOMING.search(text):
            due = [_ID_SUFFIX.sub("", line[2:]) for line in _DUE_LINE.findall(block)]
            return _say("\n".join(due) or "Nothing is due in the next 7 days.")
        return _say(NEEDS_LLM)

    def _reminder(self, rest: str) -> Completion:
        found = locate_time(rest)
        if found is None:
            return _say(
                "When should I remind you? For example: 'remind me tomorrow at 9 to call the bank'."
            )
        what = _TO.sub(" ", " " + without_time(rest, found)).strip(" .!,") or "your reminder"
        # Not read whole ("every Monday at 9am"): the tool reads it all, and asks.
        when = found.text if found.whole else rest.strip()
        return self._call("remember", content=what, due_at=when, notify=True)


def _split(content: str) -> tuple[str, str]:
    """(runtime block, what the person wrote) of a user turn."""
    if RUNTIME_BLOCK_END in content:
        block, _, text = content.partition(RUNTIME_BLOCK_END)
        return block, text.strip()
    return "", content.strip()


def _zone_for(place: str) -> str | None:
    try:
        return require_zone(place)
    except ValueError:
        match = lookup_place(place)
        return match.zone if match is not None else None


def _directive_reply(directives: object, block: str) -> str:
    from clockcore import Directives

    assert isinstance(directives, Directives)
    lines = list(directives.errors)
    if directives.clock_it:
        lines.append(f"Clocked: {directives.clock_it}.")
    if directives.kind:
        lines.append(f"This thread is now a {directives.kind} thread.")
    if directives.thread_tz:
        lines.append(f"This thread's timezone is now {directives.thread_tz}.")
    if directives.home_tz:
        lines.append(f"Your home timezone is now {directives.home_tz}.")
    if directives.mode:
        lines.append(f"Clock mode set to {directives.mode}.")
    notices = [
        line[len("- Notice: ") :] for line in block.splitlines() if line.startswith("- Notice: ")
    ]
    lines += [n for n in notices if "link" in n.lower()]
    return "\n".join(lines) or "Done."


def _after_tool(result: Message) -> str:
    try:
        data = json.loads(result.content)
    except json.JSONDecodeError:
        return result.content
    if "error" in data:
        return str(data.get("message", "That didn't work."))
    if result.name == "current_time":
        return f"It is {_readable(data['now'])} in {data['zone']}."
    if result.name == "remember":
        due = data.get("due_at")
        return f"I'll remind you at {_readable(due)}." if due else "Noted."
    return "Done."


def _readable(iso: str) -> str:
    """ "2026-04-30 09:00:00 (UTC-07:00)" from an ISO instant, without fractions of a second."""
    instant = datetime.fromisoformat(iso)
    offset = instant.strftime("%z")
    return f"{instant:%Y-%m-%d %H:%M:%S} (UTC{offset[:3]}:{offset[3:]})"


def _say(text: str) -> Completion:
    return Completion(
        message=Message(role="assistant", content=text),
        prompt_tokens=None,
        cached_tokens=None,
        completion_tokens=None,
        stop_reason="end_turn",
    )
