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
from typing import Any

import pytest
from hypothesis import strategies as st

from bot.app.http import serve_channels
from channels.base import Channel, Inbound, InMemoryStateStore
from clockcore import SettableClock
from wrapper.core import InteractionWrapper

__all__ = ["broken", "fuzz_store", "served"]


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


def broken(draw: st.DrawFn, value: dict[str, Any], wrong: st.SearchStrategy[Any]) -> dict[str, Any]:
    """`value` with one field, at any depth, dropped or given a `wrong` value (in place)."""
    path: list[Any] = []
    node: Any = value
    while isinstance(node, dict) and node:
        key = draw(st.sampled_from(sorted(node)))
        path.append(key)
        if not isinstance(node[key], dict) or not draw(st.booleans()):
            break
        node = node[key]
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    if draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(wrong)
    return value


@contextmanager
def served(runner: asyncio.Runner, wrapper: InteractionWrapper, channel: Channel) -> Iterator[int]:
    """`channel` started with a sink that journals into `wrapper`, behind a real HTTP server on
    127.0.0.1; yields the port, and stops both afterwards."""

    async def sink(inbound: Inbound) -> None:
        await wrapper.receive(inbound.ref)

    async def start() -> Any:
        await channel.start(sink, InMemoryStateStore())
        return await serve_channels([channel], host="127.0.0.1", port=0, serve=True,
                                    store=lambda: wrapper.outbox.listing(limit=1))  # fmt: skip

    server = runner.run(start())
    assert server is not None
    try:
        yield server.port
    finally:
        runner.run(server.stop())
        runner.run(channel.stop())
