"""`clockbot reminders`: list, cancel, pause and resume reminders from the operator's shell.

The ids are the ones people see: ``s<id>`` for a repeating reminder, ``r<id>``
for a one-shot one. A change goes through `wrapper.outbound.reminders.change_in` for
the reminder's owner, the same path a person's "cancel …" takes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:  # the store loads when a command runs, not for --help
    from wrapper import InteractionWrapper
    from wrapper.outbound.reminders import ReminderAction

__all__ = ["reminders_app"]

reminders_app = typer.Typer(
    help="List and change reminders (ids s<n> repeat, r<n> once).", rich_markup_mode=None
)

ConfigOption = Annotated[Path | None, typer.Option("--config", help="YAML configuration file.")]
T = TypeVar("T")


def _run(config: Path | None, work: Callable[[InteractionWrapper], Awaitable[T]]) -> T:
    from bot.config.settings import ConfigError, load_settings
    from clockcore import SystemClock
    from wrapper import InteractionWrapper, WrapperError

    async def go() -> T:
        settings = load_settings(config_path=config)
        wrapper = await InteractionWrapper.open(settings.store_url, clock=SystemClock())
        try:
            return await work(wrapper)
        finally:
            await wrapper.close()

    try:
        return asyncio.run(go())
    except (ConfigError, WrapperError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


def _shown(item: Any, zone: str | None, now: datetime) -> dict[str, Any]:
    """One reminder as the operator reads it: `when` in the person's zone, `next` in UTC.

    `zone` is the person's own zone (None: they have not set one); a repeating
    reminder with a zone of its own is read there.
    """
    from clockcore import to_iso
    from clockcore.speech.spoken import say_when
    from wrapper.outbound.reminder_ids import reminder_id
    from wrapper.outbound.schedules import Schedule

    if isinstance(item, Schedule):
        at, shown = item.next_at, item.zone or zone
        row = {
            "id": reminder_id(item),
            "user_key": item.user_key,
            "text": item.text,
            "repeats": item.rrule,
            "zone": item.zone,
            "state": item.state,
            "missed": item.missed,
        }
    else:
        at, shown = item.due_at, zone
        row = {
            "id": reminder_id(item),
            "user_key": item.user_key,
            "text": item.text,
            "kind": item.kind,
            "state": item.status,
        }
    row["next"] = to_iso(at, "UTC") if at else None
    row["shown_in"] = shown or "UTC"
    row["when"] = say_when(at, shown or "UTC", now=now) if at else None
    return row


@reminders_app.callback(invoke_without_command=True)
def _alone(ctx: typer.Context) -> None:
    """`clockbot reminders` alone lists them all, as `reminders list` does (docs/reminders.md)."""
    if ctx.invoked_subcommand is None:
        list_command(user=None, as_json=False, config=None)


@reminders_app.command("list")
def list_command(
    user: Annotated[
        str | None, typer.Option("--user", help="A user key, e.g. telegram:42.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array.")] = False,
    config: ConfigOption = None,
) -> None:
    """Repeating reminders (not ended) and one-shot ones still to come, of one person or all.

    Each is shown at its local time in the person's zone (or the repeating reminder's
    own), the zone named, and how far off it is; ``--json`` adds the UTC instant.
    """
    from clockcore import SystemClock
    from wrapper.outbound.outbox import OutboxItem
    from wrapper.outbound.schedules import Schedule

    now = SystemClock().now()

    async def work(wrapper: InteractionWrapper) -> list[dict[str, Any]]:
        schedules, one_shots = await wrapper.reminders.overview(user)
        items: list[Schedule | OutboxItem] = [*schedules, *one_shots]
        people = {item.user_key for item in items if item.user_key}
        zones = {key: await wrapper.people.user_timezone(key) for key in people}
        return [_shown(item, zones.get(item.user_key or ""), now) for item in items]

    rows = _run(config, work)
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for row in rows:
        repeats = f"  repeats {row['repeats']}" if "repeats" in row else ""
        when = f"{row['when']}, {row['shown_in']}" if row["when"] else "-"
        typer.echo(
            f"{row['id']:>18}  {row['state']:<8} {when}  {row['user_key']}  {row['text']!r}"
            f"{repeats}"
        )
    if not rows:
        typer.echo("no reminders")


def _change(config: Path | None, target: str, action: ReminderAction, until: str | None) -> None:
    from clockcore import SystemClock, parse_anchored_time
    from wrapper.outbound.reminders import ReminderChange

    now = SystemClock().now()
    at: datetime | None = None
    if until is not None:
        parsed = parse_anchored_time(until, "UTC", now)
        if parsed.start_instant is None or parsed.needs_clarification:
            typer.echo(
                f"error: cannot read {until!r}: "
                f"{parsed.clarification_question or parsed.reason or 'no time found'} "
                "(times without a zone are read in UTC; an ISO instant with an offset is exact)",
                err=True,
            )
            raise typer.Exit(2)
        at = parsed.start_instant

    async def work(wrapper: InteractionWrapper) -> bool:
        owner = await wrapper.reminders.owner(target)
        if owner is None:
            return False
        return await wrapper.reminders.change(
            ReminderChange(owner, target.strip().lower(), action, at), now=now
        )

    done = {"cancel": "canceled", "pause": "paused", "resume": "resumed", "move": "moved"}[action]
    if not _run(config, work):
        typer.echo(f"error: no reminder {target!r} that can be {done} now", err=True)
        raise typer.Exit(1)
    typer.echo(f"{target}: {done}")


@reminders_app.command("cancel")
def cancel_command(reminder: str, config: ConfigOption = None) -> None:
    """Cancel a reminder: a repeating one ends, a one-shot one is not sent."""
    _change(config, reminder, "cancel", None)


@reminders_app.command("pause")
def pause_command(
    reminder: str,
    until: Annotated[
        str | None, typer.Option("--until", help="An instant, e.g. 2026-06-15T09:00:00+02:00.")
    ] = None,
    config: ConfigOption = None,
) -> None:
    """Pause a repeating reminder until resumed, or until --until."""
    _change(config, reminder, "pause", until)


@reminders_app.command("resume")
def resume_command(reminder: str, config: ConfigOption = None) -> None:
    """Resume a paused repeating reminder from its next occurrence."""
    _change(config, reminder, "resume", None)
