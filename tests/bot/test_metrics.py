"""``GET /metrics``: Prometheus' own parser reads it, and the figures match what happened.

The real gateway and HTTP server on a store (SQLite and PostgreSQL), the recording channel
of test_gateway, the real OpenAI provider against the fake server reporting cached tokens.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from bot.llm import AnthropicProvider, OpenAIProvider, Provider
from channels.base import ChannelError
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support.fake_llm import FakeLLMServer, Reply

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana-dashboard.json"
NAMES = {
    "clockbot_messages_received", "clockbot_turns", "clockbot_model_request_seconds",
    "clockbot_model_tokens", "clockbot_prompt_cache_hit_ratio", "clockbot_prompt_cache_breaks",
    "clockbot_outbox_jobs", "clockbot_dispatch_delay_seconds", "clockbot_deferrals",
    "clockbot_late_reminders", "clockbot_leading",
}  # fmt: skip


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_metrics_parse_and_count_messages_turns_tokens_and_jobs(
    tmp_path: Path, database_url: str, api: str
) -> None:
    settings = Settings(home=tmp_path, http_port=0, database_url=database_url)
    channel = RecordingChannel()
    async with FakeLLMServer(default_text="Sure.") as llm:
        llm.script(
            Reply.text("Hi.", prompt_tokens=1_000, cached_tokens=0),
            Reply.text("Again.", prompt_tokens=1_100, cached_tokens=900),
            Reply.text("Once more.", prompt_tokens=1_200, cached_tokens=1_000),
        )
        provider: Provider = (
            OpenAIProvider(base_url=llm.openai_base_url, model="m", api_key="k")
            if api == "openai"
            else AnthropicProvider(base_url=llm.anthropic_base_url, model="m", api_key="k")
        )
        async with Gateway(settings, channels=[channel], provider=provider, serve_http=True) as gw:
            assert channel.sink is not None
            await channel.sink(inbound("hello", "m1"))
            await gw.settle()
            await channel.sink(inbound("and again", "m2"))
            await gw.settle()
            channel.failures.append(ChannelError("chat not found", permanent=True))
            await channel.sink(inbound("once more", "m3"))
            await gw.settle()
            url = f"http://127.0.0.1:{gw.http_port}/metrics"
            async with aiohttp.ClientSession() as session, session.get(url) as response:
                assert response.status == 200
                assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
                text = await response.text()
    families = {family.name for family in text_string_to_metric_families(text)}
    assert families >= NAMES, NAMES - families
    got = _samples(text)
    assert got[("clockbot_messages_received_total", (("channel", "test"),))] == 3
    assert got[("clockbot_turns_total", ())] == 3
    assert got[("clockbot_model_request_seconds_count", ())] == 3
    assert got[("clockbot_model_tokens_total", (("kind", "prompt"),))] == 3_300
    assert got[("clockbot_model_tokens_total", (("kind", "cached"),))] == 1_900
    assert got[("clockbot_prompt_cache_hit_ratio", ())] == 1_900 / 3_300
    assert got[("clockbot_prompt_cache_breaks_total", (("kind", "prefix_change"),))] == 0
    assert got[("clockbot_outbox_jobs", (("state", "sent"),))] == 2
    assert got[("clockbot_outbox_jobs", (("state", "failed"),))] == 1
    assert got[("clockbot_dispatch_delay_seconds_count", ())] == 2
    assert got[("clockbot_deferrals_total", ())] == 0


async def test_the_grafana_dashboard_reads_only_metrics_that_exist() -> None:
    """deploy/grafana-dashboard.json: valid JSON, every query names a metric /metrics serves."""
    import json
    import re

    from bot.app.metrics import Metrics

    async def no_jobs() -> dict[str, int]:
        return {}

    metrics = Metrics()
    metrics.messages.labels("telegram").inc()
    served = {
        sample.name
        for family in text_string_to_metric_families(
            (await metrics.render(no_jobs, lambda: {"x": True})).decode()
        )
        for sample in family.samples
    }
    board = json.loads(await asyncio.to_thread(DASHBOARD.read_text, encoding="utf-8"))
    queried = {
        name
        for panel in board["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\bclockbot_[a-z_]+", target["expr"])
    }
    assert queried, "the dashboard queries nothing"
    assert queried <= served, queried - served
    stems = {re.sub(r"_(total|bucket|sum|count)$", "", name) for name in queried}
    assert stems >= NAMES, NAMES - stems  # every metric the issue names has a panel
