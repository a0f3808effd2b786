"""Slack Socket Mode across two workers on one PostgreSQL: one connection, taken over on a stop.

Two gateways share a real PostgreSQL store and one app token. Only the worker leading
``slack:<bot>:socket`` opens a Socket Mode connection (a second one would take events away);
when it stops, the other connects within seconds and answers. Issue 14, "One reader".
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import LLMSettings, Settings
from tests.channels.slack.conftest import socket_channel
from tests.support.fake_slack import FakeSlack, dm_event
from tests.support.leading import until_reading


def _settings(home: Path, postgres_url: str) -> Settings:
    home.mkdir()
    return Settings(
        home=home, database_url=postgres_url, http_port=0, llm=LLMSettings(provider="none")
    )


@pytest.mark.peer("postgres")
async def test_one_socket_among_two_workers_and_the_other_connects_when_it_stops(
    slack: FakeSlack, tmp_path: Path, postgres_url: str
) -> None:
    first = Gateway(_settings(tmp_path / "a", postgres_url), channels=[socket_channel(slack)])
    second = Gateway(_settings(tmp_path / "b", postgres_url), channels=[socket_channel(slack)])
    await first.start()
    try:
        await second.start()
        try:
            await slack.wait_connections(1)
            await asyncio.sleep(2.5)  # the second worker has tried to lead at least once
            assert slack.connections == 1
            assert first.intake is not None and second.intake is not None
            (name,) = first.intake.status()
            assert name.startswith("slack:") and name.endswith(":socket")
            assert (first.intake.status(), second.intake.status()) == ({name: True}, {name: False})
            await slack.wait_acked(await slack.push_event(dm_event("what time is it in Tokyo")))
            # Either worker may send the reply (they share the outbox): wait for the post.
            assert "Asia/Tokyo" in (await slack.wait_posts(1))[-1]["text"]

            await first.stop()
            await slack.wait_connections(2, timeout=10)
            await until_reading(second, name)  # the socket opens just before it counts
            await slack.wait_acked(await slack.push_event(dm_event("what time is it in Lisbon")))
            assert "Europe/Lisbon" in (await slack.wait_posts(2))[-1]["text"]
        finally:
            await second.stop()
    finally:
        await first.stop()
    assert len(slack.posts) == 2
