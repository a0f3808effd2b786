"""Answers as the platforms recorded them, judged for the tests that kill workers.

An answer is ``(message number, loop time it was accepted, the worker that sent it)``; the
fakes stamp with the running loop's clock, as `BotProcess.kill` does, so kills and answers
compare directly. The worker is the name its process was started under (``w0``…), known where
the fake can tell the senders apart (`FakeTelegram`'s ``via``), else "".
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence

__all__ = ["IN_FLIGHT", "Answer", "settle", "twice", "when"]

Answer = tuple[int, float, str]

IN_FLIGHT = 3.0
"""Seconds before the platform's stamp of a message that its sender's death still explains a
second copy: the request was on the wire when the kill came, or the loaded test process, which
runs the fakes, stamped it late (1.8 s seen on two busy cores)."""


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
        if len({answer[0] for answer in now}) >= total and loop.time() - quiet_since > quiet:
            return now
        await asyncio.sleep(0.2)
    return collect()


def twice(
    answers: Sequence[Answer], kills: Mapping[str, Sequence[float]], in_flight: float
) -> tuple[set[int], set[int]]:
    """(messages answered more than once, those of them the at-least-once window does not
    explain).

    A second copy is explained when the worker that sent the first was killed after sending
    it and before the second went out: it died between the platform accepting the send and
    its mark "sent" (docs/ARCHITECTURE.md, "At least once"), and the worker that took the job
    over sent it again. Killed after sending can mean up to `in_flight` s *before* the
    platform's stamp: a request already written to the socket is still accepted after its
    sender died, and a loaded test process stamps it late. `kills` maps each worker to the
    loop times it was killed; where the sender is unknown (""), any worker's kill counts.
    A double without such a kill is one a live worker caused: the bug this looks for.
    """
    copies: dict[int, list[tuple[float, str]]] = {}
    for n, at, worker in answers:
        copies.setdefault(n, []).append((at, worker))
    doubles = {n for n, sent in copies.items() if len(sent) > 1}
    unexplained = set()
    for n in doubles:
        (first, sender), (second, _) = sorted(copies[n])[:2]
        suspects = [kills.get(sender, ())] if sender else list(kills.values())
        if not any(first - in_flight <= k <= second for each in suspects for k in each):
            unexplained.add(n)
    return doubles, unexplained


def when(answers: Sequence[Answer], kills: Mapping[str, Sequence[float]], numbers: set[int]) -> str:
    """For a failure message: each of `numbers`' copies (and their senders) and the kills
    around them, in seconds from the first copy."""
    lines = []
    for n in sorted(numbers):
        sent = sorted((at, worker) for m, at, worker in answers if m == n)
        start = sent[0][0]
        near = sorted(
            (k, worker) for worker, each in kills.items() for k in each
            if start - 5 <= k <= sent[-1][0] + 10
        )  # fmt: skip
        lines.append(
            f"msg {n}: sent at "
            + ", ".join(f"+{at - start:.2f} by {worker or '?'}" for at, worker in sent)
            + "; kills at "
            + (", ".join(f"{k - start:+.2f} of {worker}" for k, worker in near) or "none near")
        )
    return "; ".join(lines)
