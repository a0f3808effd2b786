"""Fixtures for the bot's tests: each test starts with full Duckling reading budgets."""

from __future__ import annotations

import pytest

from bot.app.duckling_pool import refill_budgets


@pytest.fixture(autouse=True)
def _full_reading_budgets() -> None:
    """The console's person is named after the machine's user in every console test, so the
    tests before one in the same process spent that person's budget (6 s of Duckling a
    minute): under load, a run of console conversations ran it dry and the rest read nothing.
    Each test is a new conversation; its reads start with a full budget."""
    refill_budgets()
