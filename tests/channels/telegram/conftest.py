"""Fixtures for the Telegram adapter: the fake Bot API server and a collecting sink."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from channels.base import Inbound
from tests.support.fake_telegram import FakeTelegram


class Collected:
    """A sink that keeps every `Inbound`, and can be told to fail."""

    def __init__(self) -> None:
        self.items: list[Inbound] = []
        self.failures = 0
        self._changed = asyncio.Event()

    async def __call__(self, inbound: Inbound) -> None:
        if self.failures:
            self.failures -= 1
            raise RuntimeError("store unavailable")
        self.items.append(inbound)
        self._changed.set()

    async def wait(self, count: int, *, timeout: float = 10.0) -> list[Inbound]:
        """Wait until `count` messages arrived; all of them."""
        async with asyncio.timeout(timeout):
            while len(self.items) < count:
                self._changed.clear()
                await self._changed.wait()
        return list(self.items)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A fake Bot API server on 127.0.0.1 and a free port."""
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
def sink() -> Collected:
    """A sink collecting what the adapter hands on."""
    return Collected()
