"""Model calls: each request's usage and prompt prefix, kept so that cache breaks show.

Every request to the model is recorded when it returns (`record_in`): the thread and turn
it served, the provider's usage (prompt tokens with the cached ones among them, completion
tokens), its latency, and a hash of each message it sent. The hashes are compared with the
thread's previous request, which the append-only rule says this one must begin with:

- ``same``: it does (the usual case); if the provider then reports a cached share far below
  what the previous request left in its cache, the provider evicted it (an **eviction**);
- ``changed``: it does not. That is a **prefix change**, a bug or a changed system prompt or
  tool list: the whole prompt is paid for again. The first differing message is kept;
- ``compacted``: it does not, because the history was compacted or pruned (its first
  message after the system prompt is the ``[Earlier conversation …]`` note): expected;
- ``first``: the thread's first request.

The records are telemetry, written in their own transaction when the call returns: a turn
repeated after a crash is counted twice, as it was billed twice. `stats_in` sums them over a
window for ``clockbot stats``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import case, func, select
from sqlalchemy.engine import Connection

from wrapper.store.tables import model_calls

__all__ = [
    "EVICTION_SHARE",
    "MIN_CACHEABLE",
    "CallRecord",
    "ModelCall",
    "Prefix",
    "PrefixVerdict",
    "Stats",
    "judge",
    "last_in",
    "model_calls",
    "recent_in",
    "record_in",
    "stats_in",
]


Prefix = Literal["first", "same", "changed", "compacted"]

MIN_CACHEABLE = 1024
"""Prompt tokens below which providers cache nothing (OpenAI; Anthropic's Sonnet and Opus),
so a small previous request says nothing about what should have been cached."""
EVICTION_SHARE = 0.5
"""An unchanged prefix served less than this share of the previous prompt from cache: evicted."""


@dataclass(frozen=True, slots=True)
class ModelCall:
    """One request and what the provider reported for it.

    Attributes:
        hashes: one short hash per message sent, the first covering the system prompt
            and the tools.
        restarted: the request's first history message is a compaction or retention note.
        purpose: ``turn`` for a thread's own requests, ``summary`` for compaction's.
    """

    thread_key: str
    turn_key: str | None
    at: datetime
    provider: str
    model: str
    prompt_tokens: int | None
    cached_tokens: int | None
    completion_tokens: int | None
    latency_ms: float
    hashes: tuple[str, ...]
    restarted: bool = False
    purpose: Literal["turn", "summary"] = "turn"
    cache_write_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class PrefixVerdict:
    """How a request's prefix compares with its thread's previous request."""

    prefix: Prefix
    first_difference: int | None = None
    evicted: bool = False


@dataclass(frozen=True, slots=True)
class Stats:
    """Sums over a window."""

    calls: int
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    prefix_changes: int
    evictions: int
    mean_latency_ms: float | None
    cache_write_tokens: int = 0

    @property
    def hit_ratio(self) -> float | None:
        """Cached prompt tokens over all prompt tokens; None before any was reported."""
        return self.cached_tokens / self.prompt_tokens if self.prompt_tokens else None


def judge(
    previous: tuple[tuple[str, ...], int | None, int | None] | None, call: ModelCall
) -> PrefixVerdict:
    """`call` against its thread's previous request: (hashes, prompt tokens, cached tokens)."""
    if previous is None:
        return PrefixVerdict("first")
    hashes, prompt, cached = previous
    if call.hashes[: len(hashes)] != hashes:
        index = next(
            (i for i, (a, b) in enumerate(zip(hashes, call.hashes, strict=False)) if a != b),
            min(len(hashes), len(call.hashes)),
        )
        if call.restarted and index >= 1:
            return PrefixVerdict("compacted", index)
        return PrefixVerdict("changed", index)
    evicted = (
        cached is not None
        and call.cached_tokens is not None
        and prompt is not None
        and prompt >= MIN_CACHEABLE
        and call.cached_tokens < EVICTION_SHARE * prompt
    )
    return PrefixVerdict("same", evicted=evicted)


def record_in(conn: Connection, call: ModelCall) -> PrefixVerdict:
    """Judge `call` against its thread's previous request and store it, in one transaction."""
    verdict = PrefixVerdict("first")
    if call.purpose == "turn":
        last = conn.execute(
            select(model_calls.c.hashes, model_calls.c.prompt_tokens, model_calls.c.cached_tokens)
            .where(model_calls.c.thread_key == call.thread_key, model_calls.c.purpose == "turn")
            .order_by(model_calls.c.id.desc())
            .limit(1)
        ).first()
        previous = (
            (tuple(last.hashes.split()), last.prompt_tokens, last.cached_tokens) if last else None
        )
        verdict = judge(previous, call)
    conn.execute(
        model_calls.insert().values(
            thread_key=call.thread_key,
            turn_key=call.turn_key,
            at=call.at,
            provider=call.provider,
            model=call.model,
            purpose=call.purpose,
            prompt_tokens=call.prompt_tokens,
            cached_tokens=call.cached_tokens,
            completion_tokens=call.completion_tokens,
            latency_ms=call.latency_ms,
            cache_write_tokens=call.cache_write_tokens,
            hashes=" ".join(call.hashes),
            prefix=verdict.prefix,
            first_difference=verdict.first_difference,
            evicted=verdict.evicted,
        )
    )
    return verdict


def stats_in(conn: Connection, *, since: datetime) -> Stats:
    """The calls made from `since` on, summed."""
    c = model_calls.c
    row = conn.execute(
        select(
            func.count(),
            func.coalesce(func.sum(c.prompt_tokens), 0),
            func.coalesce(func.sum(c.cached_tokens), 0),
            func.coalesce(func.sum(c.completion_tokens), 0),
            func.coalesce(func.sum(case((c.prefix == "changed", 1), else_=0)), 0),
            func.coalesce(func.sum(case((c.evicted, 1), else_=0)), 0),
            func.avg(c.latency_ms),
            func.coalesce(func.sum(c.cache_write_tokens), 0),
        ).where(c.at >= since)
    ).one()
    calls, prompt, cached, completion, changes, evictions, latency, written = row
    return Stats(
        calls=int(calls),
        prompt_tokens=int(prompt),
        cached_tokens=int(cached),
        completion_tokens=int(completion),
        prefix_changes=int(changes),
        evictions=int(evictions),
        mean_latency_ms=float(latency) if latency is not None else None,
        cache_write_tokens=int(written),
    )


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One recorded request, as the operator's page shows it (no words, no thread's name)."""

    at: datetime
    purpose: str
    provider: str
    prompt_tokens: int | None
    cached_tokens: int | None
    completion_tokens: int | None
    latency_ms: float
    prefix: str
    evicted: bool
    cache_write_tokens: int | None

    @property
    def hit_ratio(self) -> float | None:
        """Cached over prompt tokens for this request; None when not reported."""
        if not self.prompt_tokens or self.cached_tokens is None:
            return None
        return self.cached_tokens / self.prompt_tokens


def recent_in(conn: Connection, *, limit: int = 30) -> list[CallRecord]:
    """The newest `limit` requests, newest first."""
    c = model_calls.c
    rows = conn.execute(
        select(
            c.at,
            c.purpose,
            c.provider,
            c.prompt_tokens,
            c.cached_tokens,
            c.completion_tokens,
            c.latency_ms,
            c.prefix,
            c.evicted,
            c.cache_write_tokens,
        )
        .order_by(c.id.desc())
        .limit(limit)
    ).mappings()
    return [CallRecord(**row) for row in rows]


def last_in(conn: Connection, thread_key: str) -> tuple[int | None, int | None] | None:
    """(prompt, completion) tokens of the thread's newest turn request, or None."""
    c = model_calls.c
    row = conn.execute(
        select(c.prompt_tokens, c.completion_tokens)
        .where(c.thread_key == thread_key, c.purpose == "turn")
        .order_by(c.id.desc())
        .limit(1)
    ).first()
    return (row.prompt_tokens, row.completion_tokens) if row is not None else None
