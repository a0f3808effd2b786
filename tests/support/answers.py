"""Answers as the platforms recorded them, judged for the tests that kill workers.

An answer is ``(message number, loop time it was accepted)``; the fakes stamp with the running
loop's clock, as `BotProcess.kill` does, so kills and answers compare directly.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence

__all__ = ["Answer", "settle", "twice"]

Answer = tuple[int, float]


async def settle(
    collect: Callable[[], list[Answer]], total: int, *, within: float, quiet: float = 3.0
) -> list[Answer]:
    """`collect()` once all `total` messages are answered and nothing came for `quiet` s.

    Gives up after `within` seconds and returns what there is (the test then names the gaps).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    seen, quiet_since = -1, loop.time()
    while loop.time() < deadline:
        now = collect()
        if len(now) != seen:
            seen, quiet_since = len(now), loop.time()
        if len({n for n, _ in now}) >= total and loop.time() - quiet_since > quiet:
            return now
        await asyncio.sleep(0.2)
    return collect()


def twice(
    answers: Sequence[Answer], kills: Sequence[float], window: float
) -> tuple[set[int], set[int]]:
    """(messages answered more than once, those of them with no kill within `window` s after
    a copy went out). A kill between the platform accepting a send and the worker marking it
    sent repeats that send: the one at-least-once window (DESIGN.md)."""
    counts = Counter(n for n, _ in answers)
    doubles = {n for n, c in counts.items() if c > 1}
    unexplained = {
        n for n in doubles
        if not any(0 <= k - at <= window for k in kills for m, at in answers if m == n)
    }  # fmt: skip
    return doubles, unexplained
