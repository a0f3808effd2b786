"""The console channel: one person at a terminal (or a pipe), the embedded default.

The chat loop (`bot.cli.chat`) feeds each line to the gateway; this adapter only
prints what comes back, replies and reminders marked apart.
"""

from __future__ import annotations

from typing import TextIO

from channels.base import Channel, Outgoing, Sink, StateStore

__all__ = ["ConsoleChannel"]


class ConsoleChannel(Channel):
    """Prints the agent's messages to `sink` (a text stream)."""

    name = "console"

    def __init__(self, sink: TextIO) -> None:
        self._out = sink

    async def start(self, sink: Sink, state: StateStore, *, intake: bool = True) -> None:
        """Nothing to connect: the chat loop hands lines to the gateway itself."""

    async def send(self, message: Outgoing) -> None:
        """Print one message, a reminder marked as such."""
        who = "clockbot" if message.kind == "reply" else "clockbot (reminder)"
        print(f"{who}> {message.text}", file=self._out, flush=True)

    async def stop(self) -> None:
        """Nothing to close."""
