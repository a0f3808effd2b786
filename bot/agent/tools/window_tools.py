"""The contact-window tool: the hours in which the person may be contacted.

A model may copy the window the runtime block shows into its call
(docs/eval.md, M51). A call that changes nothing names the clock times the person's message holds,
so the model has the right numbers before it. They are named, not applied:
which one starts the window depends on words ("before", "not after") in
seven languages, and a window read the wrong way round is worse than a
second call.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.agent.tools.tool_session import BadArguments, ToolSession, time_of_day
from clockcore import ContactWindow, parse_anchored_time
from clockcore.parsing.grammar import CLOCK_KINDS, MAX_TEXT, scan_text
from wrapper.turns.effects import WindowChange

__all__ = ["set_contact_window", "times_of_day"]

MAX_NAMED = 4
"""At most this many of the message's clock times are named back."""


async def set_contact_window(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    """Stage the person's new window; a call that changes nothing says what their message names."""
    context.personal("their contact window")
    start, end = time_of_day(arguments, "start"), time_of_day(arguments, "end")
    if start is None and end is None:
        raise BadArguments("give start, end or both")
    current = context.contact_window
    window = ContactWindow(start or current.start, end or current.end)
    stored = f"{window.start:%H:%M}-{window.end:%H:%M}"
    context.stage(WindowChange(context.envelope.user_key, stored))
    context.contact_window = window
    result = {"contact_window": str(window), "zone": context.envelope.user_tz or "unknown (UTC)"}
    if window == current:
        named = times_of_day(context.message.text, context.clock.now())
        hint = (
            f" Their message names {' and '.join(named)}: if those are the hours they asked "
            "for, call again with start and end from them."
            if named and set(named) != {f"{window.start:%H:%M}", f"{window.end:%H:%M}"}
            else " If the person named other hours, call again with those, as 24-hour HH:MM "
            "('9pm' is '21:00')."
        )
        result["unchanged"] = f"{window} was their window already.{hint}"
    return result


def times_of_day(text: str, now: datetime) -> list[str]:
    """The clock times `text` writes out ("9am", "21:00"), as 24-hour ``HH:MM``, each once.

    The English grammar's clock tokens, each read as a wall time (in UTC,
    which moves nothing), so a time is the one the person wrote whatever their
    zone. Times in words, or in another language's form ("21h"), are not
    found: the hint then asks in general terms.
    """
    found: list[str] = []
    for token in scan_text(text[:MAX_TEXT]):
        if token.kind not in CLOCK_KINDS:
            continue
        read = parse_anchored_time(token.text(text), "UTC", now)
        if read.start_instant is not None:
            shown = f"{read.start_instant.astimezone(UTC):%H:%M}"
            if shown not in found:
                found.append(shown)
    return found[:MAX_NAMED]
