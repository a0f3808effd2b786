"""Every model call recorded with its usage and prefix (`wrapper.turns.model_calls`); breaks logged.

`WatchedProvider` wraps the configured provider. The agent says, through `calling`, which
thread and turn a request serves; after each request the wrapper hashes its messages (the
first hash covers the system prompt and the tools), records the provider's usage and
latency, and logs a warning for a prefix change, naming the first message that differs.
Recording never fails a turn: a store error is logged and the answer goes on.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from typing import Literal

from bot.app.metrics import Metrics
from bot.llm.types import Completion, Message, Provider, ToolSpec
from clockcore import Clock
from wrapper import InteractionWrapper
from wrapper.turns.history import EARLIER
from wrapper.turns.model_calls import ModelCall, PrefixVerdict

__all__ = ["WatchedProvider", "calling", "message_hashes", "summarising"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Scope:
    thread_key: str
    turn_key: str | None
    purpose: Literal["turn", "summary"]


_SCOPE: ContextVar[_Scope | None] = ContextVar("model_call_scope", default=None)


@contextlib.contextmanager
def calling(
    thread_key: str, turn_key: str | None, purpose: Literal["turn", "summary"] = "turn"
) -> Iterator[None]:
    """Model requests made inside serve this thread and turn (a summary is not in its chain)."""
    token = _SCOPE.set(_Scope(thread_key, turn_key, purpose))
    try:
        yield
    finally:
        _SCOPE.reset(token)


@contextlib.contextmanager
def summarising() -> Iterator[None]:
    """Requests made inside summarise the current thread's history: recorded, not chained."""
    scope = _SCOPE.get()
    if scope is None:
        yield
        return
    token = _SCOPE.set(_Scope(scope.thread_key, scope.turn_key, "summary"))
    try:
        yield
    finally:
        _SCOPE.reset(token)


def message_hashes(messages: Sequence[Message], tools: Sequence[ToolSpec]) -> tuple[str, ...]:
    """One 16-hex hash per message; the first also covers the tools on offer."""
    hashes = []
    for index, message in enumerate(messages):
        data = asdict(message)
        if index == 0:
            data["tools"] = [(t.name, t.description, t.schema()) for t in tools]
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
        hashes.append(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16])
    return tuple(hashes)


class WatchedProvider:
    """A `Provider` that records each request of a known thread (see the module)."""

    def __init__(
        self,
        inner: Provider,
        *,
        wrapper: InteractionWrapper,
        clock: Clock,
        model: str = "",
        metrics: Metrics | None = None,
    ) -> None:
        self._metrics = metrics
        self._inner = inner
        self._wrapper = wrapper
        self._clock = clock
        self._model = model
        self.name = inner.name

    @property
    def inner(self) -> Provider:
        """The provider this one watches."""
        return self._inner

    async def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Completion:
        """The inner provider's answer, recorded when a thread's turn asked for it."""
        started = time.perf_counter()
        completion = await self._inner.complete(messages, tools)
        if self._metrics is not None:
            self._metrics.model_seconds.observe(time.perf_counter() - started)
            self._metrics.tokens(
                completion.prompt_tokens,
                completion.cached_tokens,
                completion.completion_tokens,
                completion.cache_write_tokens,
            )
        scope = _SCOPE.get()
        if scope is None:
            return completion
        history = [m for m in messages if m.role != "system"]
        call = ModelCall(
            thread_key=scope.thread_key,
            turn_key=scope.turn_key,
            at=self._clock.now(),
            provider=self.name,
            model=self._model,
            prompt_tokens=completion.prompt_tokens,
            cached_tokens=completion.cached_tokens,
            completion_tokens=completion.completion_tokens,
            latency_ms=(time.perf_counter() - started) * 1000,
            hashes=message_hashes(messages, tools),
            restarted=bool(history) and history[0].content.startswith(EARLIER),
            purpose=scope.purpose,
            cache_write_tokens=completion.cache_write_tokens,
        )
        try:
            verdict = await self._wrapper.calls.record(call)
        except Exception as exc:  # telemetry: the answer matters more
            log.warning("model call not recorded: %s", type(exc).__name__)
            return completion
        self._report(call, verdict, messages)
        return completion

    async def aclose(self) -> None:
        """Close the inner provider."""
        await self._inner.aclose()

    def _report(self, call: ModelCall, verdict: PrefixVerdict, messages: Sequence[Message]) -> None:
        if self._metrics is not None and verdict.prefix == "changed":
            self._metrics.cache_breaks.labels("prefix_change").inc()
        if self._metrics is not None and verdict.evicted:
            self._metrics.cache_breaks.labels("eviction").inc()
        if verdict.prefix == "changed" and verdict.first_difference is not None:
            index = verdict.first_difference
            what = messages[index].role if index < len(messages) else "end"
            part = "the system prompt or the tools" if index == 0 else f"message {index} ({what})"
            log.warning(
                "prompt prefix changed in %s: the request differs from the previous one at %s;"
                " the provider's cache cannot serve it",
                call.thread_key,
                part,
            )
        elif verdict.evicted:
            log.info(
                "prompt cache evicted in %s: %s of %s prompt tokens cached, the prefix unchanged",
                call.thread_key,
                call.cached_tokens,
                call.prompt_tokens,
            )
