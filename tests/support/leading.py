"""Waiting for a worker to read a single-reader intake (`bot.app.intake`), in tests."""

from __future__ import annotations

import asyncio

from bot.app.gateway import Gateway

__all__ = ["until_reading"]


async def until_reading(gateway: Gateway, name: str, *, timeout: float = 10.0) -> None:
    """Return once `gateway`'s worker reads intake `name`; fail after `timeout` seconds."""
    assert gateway.intake is not None
    for _ in range(int(timeout / 0.05)):
        if gateway.intake.status().get(name):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} not read within {timeout} s: {gateway.intake.status()}")
