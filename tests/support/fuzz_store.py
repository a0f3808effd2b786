"""One SQLite store for a whole Hypothesis run, driven from synchronous test code.

A `@given` test runs many examples in one call, so it cannot be an async test; it keeps an
`asyncio.Runner` and an open `InteractionWrapper` for the module and runs each coroutine
through the runner::

    @pytest.fixture(scope="module")
    def store(tmp_path_factory):
        with fuzz_store(tmp_path_factory, "mime", now=NOW) as pair:
            yield pair
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import pytest

from clockcore import SettableClock
from wrapper.core import InteractionWrapper

__all__ = ["fuzz_store"]


@contextmanager
def fuzz_store(
    tmp_path_factory: pytest.TempPathFactory, name: str, *, now: datetime
) -> Iterator[tuple[asyncio.Runner, InteractionWrapper]]:
    """A runner and a wrapper on a fresh SQLite file named `name`, closed afterwards."""
    path = tmp_path_factory.mktemp(name) / f"{name}.sqlite3"
    runner = asyncio.Runner()
    wrapper = runner.run(InteractionWrapper.open(f"sqlite:///{path}", clock=SettableClock(now)))
    try:
        yield runner, wrapper
    finally:
        runner.run(wrapper.close())
        runner.close()
