"""Fixtures for the Slack adapter: a fake Slack, the adapter on it, and a whole gateway.

The fake is in-process (aiohttp on 127.0.0.1, port 0), so these tests need no outside program
and register no peer.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app.gateway import Gateway
from bot.config.settings import LLMSettings, Settings
from channels.base import Inbound, InMemoryStateStore
from channels.slack import SlackChannel
from tests.support.fake_slack import FakeSlack, event_body, signed_headers

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"

Post = Callable[..., Awaitable[tuple[int, str]]]


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    """A fresh fake Slack; U1 lives in Tokyo, U2 has no zone in their profile."""
    async with FakeSlack(zones={"U1": "Asia/Tokyo", "U2": None}) as fake:
        yield fake


class Collected:
    """A sink that records what the adapter hands over (the gateway stand-in)."""

    def __init__(self) -> None:
        self.inbound: list[Inbound] = []

    async def __call__(self, inbound: Inbound) -> None:
        self.inbound.append(inbound)


def socket_channel(slack: FakeSlack, **options: Any) -> SlackChannel:
    """A Socket Mode adapter on the fake."""
    return SlackChannel(
        slack.bot_token, app_token=slack.app_token, api_url=slack.api_url, **options
    )


def settings_for(tmp_path: Path) -> Settings:
    """A gateway's settings: its own home, a free HTTP port, the built-in rules agent."""
    return Settings(home=tmp_path, http_port=0, llm=LLMSettings(provider="none"))


@pytest.fixture
async def socket_gateway(slack: FakeSlack, tmp_path: Path) -> AsyncIterator[Gateway]:
    """A gateway running the Slack adapter in Socket Mode against the fake."""
    async with Gateway(settings_for(tmp_path), channels=[socket_channel(slack)]) as gw:
        yield gw


@pytest.fixture
async def http_gateway(slack: FakeSlack, tmp_path: Path) -> AsyncIterator[Gateway]:
    """A gateway running the Slack adapter in HTTP mode (events at /slack/events)."""
    channel = SlackChannel(
        slack.bot_token, mode="http", signing_secret=SECRET, api_url=slack.api_url
    )
    async with Gateway(settings_for(tmp_path), channels=[channel]) as gw:
        yield gw


@pytest.fixture
async def post_event(http_gateway: Gateway) -> AsyncIterator[Post]:
    """POST an event to the gateway's /slack/events: signed with the secret by default.

    ``post_event(event, secret=..., timestamp=..., headers=..., signed=False)`` returns
    (status, body text).
    """
    async with aiohttp.ClientSession() as session:

        async def post(
            event: dict[str, Any],
            *,
            secret: str = SECRET,
            timestamp: int | None = None,
            signed: bool = True,
            headers: dict[str, str] | None = None,
            body: dict[str, Any] | None = None,
        ) -> tuple[int, str]:
            raw = json.dumps(body or event_body(event)).encode()
            sent = (
                signed_headers(raw, secret, timestamp or int(time.time()))
                if signed
                else {"Content-Type": "application/json"}
            )
            sent.update(headers or {})
            url = f"http://127.0.0.1:{http_gateway.http_port}/slack/events"
            async with session.post(url, data=raw, headers=sent) as response:
                return response.status, await response.text()

        yield post


@pytest.fixture
def collected() -> Collected:
    """An empty recording sink."""
    return Collected()


@pytest.fixture
def state() -> InMemoryStateStore:
    """An in-memory state store."""
    return InMemoryStateStore()
