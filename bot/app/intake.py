"""Single-reader intakes, read by the one worker that leads each: `IntakeLeader`.

A channel whose intake its platform allows only once (Telegram polling, Slack
Socket Mode, an IMAP mailbox) names it (`channels.base.Channel.intake`). On a
store several workers share, every worker starts such a channel for sending
and webhooks only (``start(..., intake=False)``); the worker that leads the
intake's name (`wrapper.coordination.leadership.Leadership`) starts its reading
(`Channel.start_intake`) and stops it when it loses the lead. The others try
every `TRY_EVERY` seconds, so after a leader dies another one reads within
seconds, from the offset, cursor or UID the store keeps. Webhooks and the
dispatcher run on every worker.

On SQLite the one worker leads every intake from the start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence

from channels.base import Channel
from wrapper.coordination.leadership import Leadership

__all__ = ["TRY_EVERY", "IntakeLeader"]

log = logging.getLogger(__name__)

TRY_EVERY = 2.0
"""Seconds between a follower's tries to lead (and a leader's check that it still does)."""


class IntakeLeader:
    """Starts each single-reader intake on this worker while it leads it, and stops it after."""

    def __init__(
        self, leadership: Leadership, channels: Sequence[Channel], *, every: float = TRY_EVERY
    ) -> None:
        self._leadership = leadership
        self._channels = [c for c in channels if c.intake is not None]
        self._every = every
        self._reading: set[str] = set()
        self._stopping = asyncio.Event()

    def status(self) -> Mapping[str, bool]:
        """Each single-reader intake on this worker, and whether this worker reads it now."""
        return {str(c.intake): c.intake in self._reading for c in self._channels}

    async def step(self) -> None:
        """One round: drop what is no longer led, then try to lead what is not read here."""
        if self._reading and not await self._leadership.alive():
            for channel in self._channels:
                await self._stop_reading(channel)
        for channel in self._channels:
            name = channel.intake
            if name is None or name in self._reading or self._stopping.is_set():
                continue
            try:
                if not await self._leadership.try_lead(name):
                    continue
            except Exception as exc:  # the store is down: try again next round
                log.warning("cannot try to lead %s: %s", name, type(exc).__name__)
                continue
            try:
                await channel.start_intake()
            except Exception:
                log.exception("%s: leading, but its intake did not start; letting it go", name)
                await self._leadership.resign(name)
                continue
            self._reading.add(name)
            log.info("reading %s on this worker", name)

    async def run_forever(self) -> None:
        """Call `step` every `every` seconds until `stop`."""
        while not self._stopping.is_set():
            await self.step()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._every):  # not wait_for: see bot.turns.lifecycle
                    await self._stopping.wait()

    async def stop(self) -> None:
        """Stop every intake read here, then give up the leads (so no two readers overlap)."""
        self._stopping.set()
        for channel in self._channels:
            await self._stop_reading(channel)
        await self._leadership.close()

    async def _stop_reading(self, channel: Channel) -> None:
        name = channel.intake
        if name is None or name not in self._reading:
            return
        self._reading.discard(name)
        try:
            await channel.stop_intake()
        except Exception:
            log.exception("%s: its intake did not stop cleanly", name)
        await self._leadership.resign(name)
        log.info("no longer reading %s on this worker", name)
