"""`clockbot state export|import|erase`: CLOCK-STATE.json v3 in and out, a person erased."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from bot import messages
from wrapper.errors import StateImportError, WrapperError
from wrapper.keys import split_user_key

if TYPE_CHECKING:  # the store loads when a command runs, not for --help
    from clockcore.state.document import ClockState
    from wrapper.people.person_data import Erased

state_app = typer.Typer(
    help="Export or import the clock state (CLOCK-STATE.json v3).", rich_markup_mode=None
)

DatabaseOption = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        envvar="CLOCKBOT_DATABASE_URL",
        help="SQLAlchemy URL; default: SQLite under $CLOCKBOT_HOME.",
        show_envvar=True,
    ),
]


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


async def _export(database_url: str | None, user: str | None = None) -> dict[str, object] | None:
    from wrapper import InteractionWrapper

    wrapper = await InteractionWrapper.open(database_url)
    try:
        return await (
            wrapper.export_state() if user is None else wrapper.people.export_person(user)
        )
    finally:
        await wrapper.close()


async def _erase(database_url: str | None, user_key: str) -> Erased:
    from wrapper import InteractionWrapper

    wrapper = await InteractionWrapper.open(database_url)
    try:
        return await wrapper.people.erase_person(user_key)
    finally:
        await wrapper.close()


async def _import(database_url: str | None, document: dict[str, object]) -> None:
    from wrapper import InteractionWrapper

    wrapper = await InteractionWrapper.open(database_url)
    try:
        await wrapper.import_state(document)
    finally:
        await wrapper.close()


def _write_atomically(path: Path, text: str) -> None:
    """Write next to `path` and rename over it: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp makes the file 0600, and the rename keeps it: a backup is for its owner alone.
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@state_app.command("export")
def export_command(
    path: Annotated[
        Path | None, typer.Argument(help="File to write; stdout when left out.")
    ] = None,
    database_url: DatabaseOption = None,
    user: Annotated[
        str | None,
        typer.Option(
            "--user",
            help="Only what is kept about the person behind this identity (telegram:42).",
        ),
    ] = None,
) -> None:
    """Write the clock state as CLOCK-STATE.json v3: the whole store, or one person's.

    The whole store is a backup (docs/data.md, "A backup"): the file is written readable by
    its owner alone (0600), since a calendar feed restored from it answers the feed's URL.
    """
    if user is not None:
        try:
            split_user_key(user)
        except ValueError as exc:
            _fail(str(exc))
    try:
        document = asyncio.run(_export(database_url, user))
    except WrapperError as exc:
        _fail(str(exc))
    if document is None:
        typer.echo(messages.STATE_NOBODY.format(user=user), err=True)
        raise typer.Exit(1)
    text = json.dumps(document, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    if path is None:
        typer.echo(text, nl=False)
    else:
        _write_atomically(path, text)
        typer.echo(messages.STATE_EXPORTED.format(path=path), err=True)


MAX_DEPTH = 32
"""How deep a state file may nest (the schema needs 7); deeper is refused before validation,
whose recursion a hostile file could otherwise exhaust."""


def _depth(value: object, limit: int) -> int:
    """How deep `value` nests (a scalar is 0), counting no further than `limit` + 1."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            level += 1
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level) for child in children)
    return deepest


@state_app.command("import")
def import_command(
    path: Annotated[Path, typer.Argument(help="A CLOCK-STATE.json v3 file.")],
    database_url: DatabaseOption = None,
) -> None:
    """Load a CLOCK-STATE.json v3 file; a bad file changes nothing."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        _fail(f"{path} is not JSON: {exc}")
    except RecursionError:
        _fail(f"{path} is nested too deeply to be a CLOCK-STATE document")
    if not isinstance(document, dict):
        _fail(f"{path} is not a CLOCK-STATE document (expected a JSON object)")
    if _depth(document, MAX_DEPTH) > MAX_DEPTH:
        _fail(
            f"{path} is nested deeper than {MAX_DEPTH} levels; "
            "a CLOCK-STATE document is never that deep"
        )
    try:
        asyncio.run(_import(database_url, document))
    except StateImportError as exc:
        typer.echo(f"error: {path}: the state was not imported; nothing changed.", err=True)
        for where, problem in exc.problems:
            typer.echo(f"  {where}: {problem}", err=True)
        raise typer.Exit(2) from exc
    except WrapperError as exc:
        _fail(str(exc))
    from clockcore.state.document import ignored_fields, load_state

    for dropped in ignored_fields(document):
        typer.echo(messages.STATE_FIELD_IGNORED.format(path=dropped), err=True)
    summary = imported_summary(load_state(document))  # it imported: it validates
    typer.echo(messages.STATE_IMPORTED.format(summary=summary, path=path))


def imported_summary(state: ClockState) -> str:
    """What an import restored, in words: "1 person, 2 reminders (1 repeating) and 3 memory items".

    The people always; the rest when there are any. Reminders are the one-shot ones still
    to go out and the repeating ones not ended.
    """
    one_shots = [r for r in state.backup.get("reminders", ()) if r.get("schedule_id") is None]
    repeating = [s for s in state.backup.get("schedules", ()) if s.get("state") != "ended"]
    counts = {
        "people": len(state.users),
        "reminders": len(one_shots) + len(repeating),
        "memory": len(state.memory),
        "actions": sum(len(user.latest_actions) for user in state.users.values()),
        "threads": len(state.threads),
        "feeds": len(state.backup.get("calendar_feeds", ())),
        "polls": len(state.backup.get("meeting_polls", ())),
    }
    parts = []
    for name, count in counts.items():
        if count or name == "people":
            singular, plural = messages.STATE_COUNTED[name]
            said = f"{count} {singular if count == 1 else plural}"
            if name == "reminders" and repeating:
                said += f" ({len(repeating)} {messages.STATE_COUNTED['repeating'][0]})"
            parts.append(said)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@state_app.command("erase")
def erase_command(
    user: Annotated[
        str,
        typer.Option("--user", help="One identity of the person, <channel>:<id> (telegram:42)."),
    ],
    yes: Annotated[bool, typer.Option("--yes", help="Erase without asking.")] = False,
    database_url: DatabaseOption = None,
) -> None:
    """Erase everything kept about one person, on every linked channel, in one transaction.

    Their private threads go whole; in group threads, their participation and
    the jobs addressed to them. Their journaled messages stay as tombstones
    (channel and message id only), so a redelivered old message is not answered.
    """
    try:
        split_user_key(user)
    except ValueError as exc:
        _fail(str(exc))
    if not yes and not typer.confirm(messages.STATE_ERASE_CONFIRM.format(user=user)):
        raise typer.Exit(1)
    try:
        erased = asyncio.run(_erase(database_url, user))
    except WrapperError as exc:
        _fail(str(exc))
    if erased.person is None:
        typer.echo(messages.STATE_NOBODY.format(user=user), err=True)
        raise typer.Exit(1)
    rows = ", ".join(f"{count} {table}" for table, count in sorted(erased.rows.items()))
    typer.echo(
        messages.STATE_ERASED.format(
            person=erased.person, identities=", ".join(erased.identities), rows=rows
        )
    )
