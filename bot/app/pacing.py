"""Sends paced to the platforms' own limits, so the limits are kept rather than found by 429s.

Each adapter says which limits a message counts against (`channels.base.Channel.paces`):
Telegram 30 messages a second per bot, about one a second per chat with short bursts, 20 a
minute per group; Slack about one a second per channel. `Pacer` keeps one leaky bucket
(aiolimiter's `AsyncLimiter`) per key and waits on each of a message's buckets before it goes.

The dispatcher (`bot.app.dispatch`) sends each conversation's jobs in order, and different
conversations side by side, so a chat waiting for its bucket never holds up another chat.

Buckets are per process: with several workers, each paces what it sends itself, so a chat
served by two workers at once could see twice the rate. The platforms' 429 with
``retry_after`` is still honoured (the job is retried then), as the last line of defence.
Buckets measure the event loop's monotonic time: pacing is about the wire, not about the
people's clock.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from aiolimiter import AsyncLimiter

from channels.base import Pace

__all__ = ["KEEP", "Pacer"]

KEEP = 10_000
"""Buckets kept, least recently used dropped first (a dropped bucket was long idle, so full)."""


class Pacer:
    """One leaky bucket per `Pace.key`, shared by every send of this process."""

    def __init__(self, *, keep: int = KEEP) -> None:
        self._keep = keep
        self._buckets: OrderedDict[str, AsyncLimiter] = OrderedDict()

    async def wait(self, paces: Sequence[Pace]) -> None:
        """Return when a send may go under every one of `paces` (narrowest first), and count it.

        The narrow buckets (one chat) come first, so a send waiting for its chat holds no
        share of the wide one (the whole bot).
        """
        for pace in sorted(paces, key=lambda p: p.count / p.seconds):
            await self._bucket(pace).acquire()

    def _bucket(self, pace: Pace) -> AsyncLimiter:
        bucket = self._buckets.get(pace.key)
        if bucket is None or (bucket.max_rate, bucket.time_period) != (pace.count, pace.seconds):
            bucket = self._buckets[pace.key] = AsyncLimiter(pace.count, pace.seconds)
        self._buckets.move_to_end(pace.key)
        while len(self._buckets) > self._keep:
            self._buckets.popitem(last=False)
        return bucket
