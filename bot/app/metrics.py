"""``GET /metrics``: this worker's counters and the store's gauges, in Prometheus' text format.

Counters and histograms are per process, as Prometheus expects of each scraped worker:
messages received by channel, turns committed, model requests (latency, tokens, cache
breaks), sends (delay after their due time), deferrals and late reminders. At each scrape
the store is read for what every worker shares: outbox jobs by state. Leadership is this
worker's own. Nothing here names a person or holds their words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

__all__ = ["Metrics"]

_MODEL_BUCKETS = (0.25, 0.5, 1, 2, 5, 10, 20, 40, 60, 120)
_DISPATCH_BUCKETS = (0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 86400)


class Metrics:
    """The registry `render` serves; the gateway's parts call the counters as things happen."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.messages = Counter(
            "clockbot_messages_received", "Messages received, by channel.", ["channel"], registry=r
        )
        self.turns = Counter(
            "clockbot_turns", "Turns committed (answers and decisions).", registry=r
        )
        self.model_seconds = Histogram(
            "clockbot_model_request_seconds",
            "Model request latency.",
            buckets=_MODEL_BUCKETS,
            registry=r,
        )
        self.model_tokens = Counter(
            "clockbot_model_tokens",
            "Model tokens: prompt (cached included), cached, cache_write, completion.",
            ["kind"],
            registry=r,
        )
        self.cache_breaks = Counter(
            "clockbot_prompt_cache_breaks",
            "Prompt cache breaks: prefix_change or eviction.",
            ["kind"],
            registry=r,
        )
        self.dispatch_delay = Histogram(
            "clockbot_dispatch_delay_seconds",
            "From a job's due time to its send.",
            buckets=_DISPATCH_BUCKETS,
            registry=r,
        )
        self.deferrals = Counter(
            "clockbot_deferrals", "Proactive jobs the agent deferred.", registry=r
        )
        self.late = Counter(
            "clockbot_late_reminders", "Reminders sent late, with a note.", registry=r
        )
        for kind in ("prompt", "cached", "cache_write", "completion"):
            self.model_tokens.labels(kind)
        for kind in ("prefix_change", "eviction"):
            self.cache_breaks.labels(kind)
        self._shared = _Shared()
        r.register(self._shared)

    def tokens(
        self,
        prompt: int | None,
        cached: int | None,
        completion: int | None,
        cache_write: int | None = None,
    ) -> None:
        """Count one request's usage (what the provider reported)."""
        for kind, value in (
            ("prompt", prompt),
            ("cached", cached),
            ("cache_write", cache_write),
            ("completion", completion),
        ):
            if value:
                self.model_tokens.labels(kind).inc(value)
        if prompt:
            self._shared.prompt += prompt
            self._shared.cached += cached or 0

    async def render(
        self,
        outbox: Callable[[], Awaitable[Mapping[str, int]]],
        leading: Callable[[], Mapping[str, bool]] | None = None,
    ) -> bytes:
        """The text a scrape gets: read the store's gauges, then every metric."""
        self._shared.outbox = dict(await outbox())
        self._shared.leading = dict(leading()) if leading is not None else {}
        return generate_latest(self.registry)


class _Shared(Collector):
    """The gauges read at scrape: outbox jobs by state, leadership, the cache hit ratio."""

    def __init__(self) -> None:
        self.outbox: dict[str, int] = {}
        self.leading: dict[str, bool] = {}
        self.prompt = 0
        self.cached = 0

    def collect(self) -> Iterator[GaugeMetricFamily]:
        jobs = GaugeMetricFamily("clockbot_outbox_jobs", "Outbox jobs by state.", labels=["state"])
        for state in ("pending", "claimed", "sent", "deferred", "failed", "skipped"):
            jobs.add_metric([state], self.outbox.get(state, 0))
        yield jobs
        leads = GaugeMetricFamily(
            "clockbot_leading",
            "1 where this worker reads a single-reader intake.",
            labels=["intake"],
        )
        for intake, held in sorted(self.leading.items()):
            leads.add_metric([intake], 1 if held else 0)
        yield leads
        yield GaugeMetricFamily(
            "clockbot_prompt_cache_hit_ratio",
            "Cached prompt tokens over all prompt tokens, since this worker started.",
            value=self.cached / self.prompt if self.prompt else 0.0,
        )

    def describe(self) -> Iterator[GaugeMetricFamily]:
        return iter(())
