"""Wrapper fixtures: every scenario runs on SQLite and on a real PostgreSQL (`database_url`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from clockcore import SettableClock
from wrapper import InteractionWrapper

START = datetime(2026, 4, 29, 15, 34, 12, tzinfo=UTC)  # 08:34:12 in Los Angeles


@pytest.fixture
def clock() -> SettableClock:
    return SettableClock(START)


@pytest.fixture
async def wrapper(database_url: str, clock: SettableClock) -> AsyncIterator[InteractionWrapper]:
    opened = await InteractionWrapper.open(database_url, agent_tz="Europe/Berlin", clock=clock)
    try:
        yield opened
    finally:
        await opened.close()
