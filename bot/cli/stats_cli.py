"""`clockbot stats`: the model's calls over a window: tokens, cache hit rate, breaks, cost."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the store loads when the command runs, not for --help
    from wrapper.turns.model_calls import Stats

__all__ = ["stats_command", "window"]

_WINDOW = re.compile(r"^\s*(\d{1,6})\s*([mhd])\s*$")
_UNIT = {"m": "minutes", "h": "hours", "d": "days"}


def window(text: str) -> timedelta:
    """``30m``, ``24h``, ``7d`` as a duration.

    Raises:
        ValueError: any other shape, named in the message.
    """
    found = _WINDOW.match(text)
    if found is None:
        raise ValueError(f"--since {text!r}: write a number and m, h or d (30m, 24h, 7d)")
    return timedelta(**{_UNIT[found[2]]: int(found[1])})


async def _stats(url: str, since: timedelta) -> tuple[Stats, str]:
    from clockcore import SystemClock, to_iso
    from wrapper import InteractionWrapper

    start = SystemClock().now() - since
    wrapper = await InteractionWrapper.open(url)
    try:
        return await wrapper.calls.stats(since=start), to_iso(start, "UTC")
    finally:
        await wrapper.close()


def render(stats: Stats, since: str, prices: tuple[float, float, float] | None) -> list[str]:
    """The report's lines; `prices` per million tokens: (input, cached input, output)."""
    lines = [f"since {since}", f"model calls: {stats.calls}"]
    ratio = stats.hit_ratio
    hit = f"hit rate {ratio:.1%}" if ratio is not None else "no prompt tokens reported"
    lines.append(f"prompt tokens: {stats.prompt_tokens:,} ({stats.cached_tokens:,} cached: {hit})")
    if stats.cache_write_tokens:
        lines.append(f"written to the cache: {stats.cache_write_tokens:,} of the prompt tokens")
    lines.append(f"completion tokens: {stats.completion_tokens:,}")
    lines.append(f"prefix changes: {stats.prefix_changes}  evictions: {stats.evictions}")
    if stats.mean_latency_ms is not None:
        lines.append(f"mean latency: {stats.mean_latency_ms:,.0f} ms")
    if prices is not None:
        fresh, cached, output = prices
        uncached = stats.prompt_tokens - stats.cached_tokens
        parts = (uncached * fresh, stats.cached_tokens * cached, stats.completion_tokens * output)
        total = sum(parts) / 1_000_000
        names = ("input", "cached", "output")
        each = ", ".join(
            f"{name} ${part / 1_000_000:.4f}" for name, part in zip(names, parts, strict=True)
        )
        lines.append(f"cost estimate: ${total:.4f} ({each})")
    return lines


def stats_command(
    since: Annotated[str, typer.Option("--since", help="The window: 30m, 24h, 7d.")] = "24h",
    price_input: Annotated[
        float | None, typer.Option("--price-input", min=0, help="USD per million input tokens.")
    ] = None,
    price_cached: Annotated[
        float | None, typer.Option("--price-cached", min=0, help="USD per million cached ones.")
    ] = None,
    price_output: Annotated[
        float | None, typer.Option("--price-output", min=0, help="USD per million output tokens.")
    ] = None,
    config: Annotated[
        Path | None, typer.Option("--config", help="YAML configuration file.")
    ] = None,
) -> None:
    """The model's calls: tokens, prompt-cache hit rate, prefix changes, evictions, cost."""
    from bot.config.settings import ConfigError, load_settings
    from wrapper import WrapperError

    try:
        span = window(since)
        settings = load_settings(config_path=config)
        stats, start = asyncio.run(_stats(settings.store_url, span))
    except (ValueError, ConfigError, WrapperError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    prices = None
    if price_input is not None or price_output is not None:
        fresh = price_input or 0.0
        prices = (fresh, price_cached if price_cached is not None else fresh, price_output or 0.0)
    for line in render(stats, start, prices):
        typer.echo(line)
