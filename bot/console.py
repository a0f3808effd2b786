"""The local console channel, for now a time reader until the agent lands."""

from __future__ import annotations

import sys
from typing import TextIO

from bot import messages
from clockcore import Clock, parse_anchored_time, to_iso
from clockcore.zones import zone_from_label


def run(
    *, zone: str, clock: Clock, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> None:
    """Read lines until end of input; answer each with the times it names."""
    source, sink = stdin or sys.stdin, stdout or sys.stdout
    print(messages.CONSOLE_BANNER.format(zone=zone), file=sink)
    interactive = source.isatty()
    while True:
        if interactive:
            print(messages.CONSOLE_PROMPT, end="", file=sink, flush=True)
        line = source.readline()
        if not line:
            return
        if line.strip():
            print(answer(line.strip(), zone=zone, clock=clock), file=sink, flush=True)


def answer(text: str, *, zone: str, clock: Clock) -> str:
    """What the console says about `text`."""
    result = parse_anchored_time(text, zone, clock.now())
    if result.kind == "invalid":
        return messages.CONSOLE_NO_TIME
    if result.needs_clarification:
        return f"? {result.clarification_question}"
    assert result.start_instant is not None
    where = result.zone or zone
    when = to_iso(result.start_instant, zone_from_label(where))
    if result.end_instant != result.start_instant and result.end_instant is not None:
        when += f" .. {to_iso(result.end_instant, zone_from_label(where))}"
    return f"{result.matched_text!r} → {when} {where} ({result.kind})"
