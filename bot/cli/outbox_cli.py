"""`clockbot outbox`: every reply, reminder and scheduled message, and how it ended."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the store loads when the command runs, not for --help
    from wrapper import OutboxItem, OutboxStatus

STATUSES = ("pending", "claimed", "sent", "deferred", "failed", "skipped")
"""`wrapper.outbound.outbox.OutboxStatus`, spelled out here so --help loads no store."""


async def _listing(url: str, status: OutboxStatus | None, limit: int) -> list[OutboxItem]:
    from wrapper import InteractionWrapper, Outbox

    wrapper = await InteractionWrapper.open(url)
    try:
        return await Outbox(wrapper.database).listing(limit=limit, status=status)
    finally:
        await wrapper.close()


def _line(item: OutboxItem) -> str:
    from clockcore import to_iso

    note = ""
    if item.status == "deferred" and item.defer_reason:
        note = f"  deferred: {item.defer_reason}"
    elif item.last_error:
        note = f"  error: {item.last_error}"
    text = item.text if len(item.text) <= 60 else item.text[:59] + "…"
    due = to_iso(item.due_at, "UTC")
    return f"{item.id:>6}  {item.kind:<9} {item.status:<9} {due}  {item.thread_key}  {text!r}{note}"


def outbox_command(
    status: Annotated[
        str | None, typer.Option("--status", help="pending, claimed, sent, deferred or failed.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=10_000)] = 50,
    config: Annotated[
        Path | None, typer.Option("--config", help="YAML configuration file.")
    ] = None,
) -> None:
    """List outbox jobs, newest first, with how each ended."""
    from bot.config.settings import ConfigError, load_settings
    from wrapper import WrapperError

    if status is not None and status not in STATUSES:
        typer.echo(f"error: --status must be one of {', '.join(STATUSES)}", err=True)
        raise typer.Exit(2)
    try:
        settings = load_settings(config_path=config)
        items = asyncio.run(_listing(settings.store_url, status, limit))  # type: ignore[arg-type]
    except (ConfigError, WrapperError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    for item in items:
        typer.echo(_line(item))
    if not items:
        typer.echo("the outbox is empty")
