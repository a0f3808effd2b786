"""The `clockbot` command line.

It starts at once: this module and the subcommands' modules import only typer and the
standard library at the top; each command imports what it uses when it runs (the
store, the settings, the model SDKs, the time reader). `tests/bot/test_cold_start.py`
holds ``--help`` to that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import signal
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from bot import messages
from bot.cli.outbox_cli import outbox_command
from bot.cli.reminders_cli import reminders_app
from bot.cli.state_cli import state_app
from bot.cli.stats_cli import stats_command

if TYPE_CHECKING:
    from bot.app.gateway import Gateway
    from bot.config.settings import Settings
    from clockcore.parse_result import ParseResult
    from clockcore.recurrence import RecurrenceResult

app = typer.Typer(
    name="clockbot",
    help="A chat-bot gateway that is never blind to time.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rich's formatter costs ~140 ms of imports at start
)
time_app = typer.Typer(
    help="Read, show and convert times the way the agent does.", rich_markup_mode=None
)
app.add_typer(time_app, name="time")
app.add_typer(state_app, name="state")
app.command("outbox")(outbox_command)
app.command("stats")(stats_command)
app.add_typer(reminders_app, name="reminders")

TzOption = Annotated[
    str | None, typer.Option("--tz", help="IANA zone to anchor in, e.g. Europe/Berlin.")
]


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _zone(name: str | None) -> str | None:
    from clockcore.errors import UnknownTimezoneError
    from clockcore.geo.zones import require_zone

    try:
        return require_zone(name) if name is not None else None
    except UnknownTimezoneError as exc:
        _fail(str(exc))


def _now(value: str | None) -> datetime:
    from clockcore.clock import SystemClock, as_utc

    if value is None:
        return SystemClock().now()
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        _fail(messages.NOW_NEEDS_OFFSET)
    if parsed.tzinfo is None:
        _fail(messages.NOW_NEEDS_OFFSET)
    return as_utc(parsed)


ConfigOption = Annotated[
    Path | None, typer.Option("--config", help="YAML file (default: $CLOCKBOT_HOME/config.yaml).")
]
LingerOption = Annotated[
    str, typer.Option("--linger", help="After piped input ends, stay this long (90s, 2m).")
]


def _settings(config: Path | None) -> Settings:
    from bot.config.settings import ConfigError, load_settings

    try:
        return load_settings(config_path=config)
    except ConfigError as exc:
        _fail(str(exc))


def _duration(text: str) -> timedelta:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h)?\s*", text)
    if match is None:
        _fail(f"--linger: {text!r} is not a duration such as 90s, 2m or 1h")
    unit = {"m": 60, "min": 60, "h": 3600}.get(match[2] or "s", 1)
    return timedelta(seconds=float(match[1]) * unit)


@app.command()
def chat(config: ConfigOption = None, linger: LingerOption = "0s") -> None:
    """Talk to the agent in this terminal (or pipe lines in)."""
    from bot.cli.chat import chat as run_chat

    asyncio.run(run_chat(_settings(config), linger=_duration(linger)))


async def run_until_signalled(gateway: Gateway) -> None:
    """Start `gateway`, run it until SIGINT or SIGTERM, then stop it cleanly."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stopping.set)
    async with gateway:
        await stopping.wait()


@app.command()
def run(config: ConfigOption = None) -> None:
    """Start clockbot: every configured channel; the console when none is."""
    from bot.app.channel_registry import enabled_channels, extra_for_module
    from bot.app.gateway import Gateway
    from bot.app.redact import RedactSecrets
    from bot.cli.chat import chat as run_chat
    from channels.base import ChannelError

    settings = _settings(config)
    if not enabled_channels(settings):
        asyncio.run(run_chat(settings))
        return
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    added: list[tuple[logging.Handler, logging.Filter]] = []
    redaction = RedactSecrets(settings.secrets())
    for handler in logging.getLogger().handlers:
        added.append((handler, redaction))
        if settings.log_level != "DEBUG":
            added.append((handler, LibraryChatter()))
    for handler, added_filter in added:
        handler.addFilter(added_filter)
    exposed = settings.exposure()
    if exposed is not None:
        logging.getLogger("clockbot").warning("%s", exposed)
    try:
        asyncio.run(run_until_signalled(Gateway(settings)))
    except ModuleNotFoundError as exc:
        extra = extra_for_module(exc.name) or "the channel's"
        _fail(f"a configured channel needs the {extra} extra: pip install 'clockbot[{extra}]'")
    except ChannelError as exc:
        _fail(f"a channel could not start: {exc}")
    finally:
        # The handlers are the process's, not ours: an in-process run (a test, an embedder)
        # left its filters on them, and pytest's log capture dropped every library line after.
        for handler, added_filter in added:
            handler.removeFilter(added_filter)


LIBRARY_LOGGERS = (
    "alembic",
    "httpx",
    "httpcore",
    "telegram",
    "apscheduler",
    "slack_bolt",
    "slack_sdk",
    "aiohttp.access",
    "aioimaplib",
    "mail_parser_reply",
)
"""Libraries whose INFO lines are chatter to an operator ("setup plugin …", each request)."""


class LibraryChatter(logging.Filter):
    """Drops the records of `LIBRARY_LOGGERS` below WARNING, on the handler it is added to.

    A filter on `clockbot run`'s handlers rather than the libraries' logger levels, so
    nothing global changes (a test that runs the command in-process leaves the
    loggers as it found them).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether `record` is shown."""
        if record.levelno >= logging.WARNING:
            return True
        return not any(
            record.name == name or record.name.startswith(f"{name}.") for name in LIBRARY_LOGGERS
        )


@time_app.command("now")
def time_now(tz: TzOption = None) -> None:
    """Print the current time in a zone (default: this host's)."""
    from clockcore.clock import SystemClock
    from clockcore.geo.zones import agent_timezone, to_iso

    zone = _zone(tz) or agent_timezone()
    typer.echo(f"{to_iso(SystemClock().now(), zone)} {zone}")


@time_app.command("parse")
def time_parse(
    text: str,
    tz: TzOption = None,
    now: Annotated[
        str | None, typer.Option("--now", help="Reference instant, ISO-8601 with offset.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ParseResult as JSON.")] = False,
) -> None:
    """Parse TEXT the way the agent does.

    Exit codes: 0 read, 1 needs clarification, 2 invalid or a usage error.
    """
    from clockcore.parsing.timeparse import parse_anchored_time
    from clockcore.recurrence import parse_recurrence

    zone, reference = _zone(tz), _now(now)
    repeating = parse_recurrence(text, zone, reference)
    if repeating.kind != "invalid":
        _show_recurrence(repeating, zone, as_json=as_json)
        return
    result = parse_anchored_time(text, zone, reference)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo(_describe(result))
    _exit_for(result, text)


SHOWN_OCCURRENCES = 5


def _show_recurrence(result: RecurrenceResult, zone: str | None, *, as_json: bool) -> None:
    """A recurring time: its RRULE and next occurrences (exit 1 when it needs a question)."""
    from clockcore.geo.zones import to_iso
    from clockcore.parsing.duckling_reader import reader_name

    shown = [to_iso(at, zone or result.zone or "UTC") for at in result.next_occurrences]
    shown = shown[:SHOWN_OCCURRENCES]
    fields = {**result.to_dict(zone=zone), "next_occurrences": shown, "reader": reader_name()}
    if as_json:
        typer.echo(json.dumps(fields, ensure_ascii=False, indent=2))
    elif result.needs_clarification:
        typer.echo(f"recurring, needs clarification: {result.clarification_question}")
    else:
        where = result.zone or (f"floating, read in {zone}" if zone else "floating")
        typer.echo(f"recurring: {result.rrule} ({where})")
        for at in shown:
            typer.echo(f"  {at}")
    if result.needs_clarification:
        raise typer.Exit(1)


def _describe(result: ParseResult) -> str:
    fields = result.to_dict()
    if result.kind == "invalid":
        return f"invalid: {result.reason}"
    if result.needs_clarification:
        return f"{result.kind}, needs clarification: {result.clarification_question}"
    span = fields["start_instant"]
    if result.end_instant != result.start_instant:
        span = f"{span} .. {fields['end_instant']}"
    zone = f" ({result.zone}, from {result.zone_source})" if result.zone else ""
    return f"{result.kind}: {span}{zone}"


def _exit_for(result: ParseResult, text: str) -> None:
    if result.kind == "invalid":
        typer.echo(messages.UNREADABLE_TIME.format(text=text, reason=result.reason), err=True)
        raise typer.Exit(2)
    if result.needs_clarification:
        raise typer.Exit(1)


@time_app.command("convert")
def time_convert(
    text: str,
    to: Annotated[str, typer.Option("--to", help="IANA zone to show the time in.")],
    tz: TzOption = None,
    now: Annotated[
        str | None, typer.Option("--now", help="Reference instant, ISO-8601 with offset.")
    ] = None,
) -> None:
    """Show the time TEXT names in another zone."""
    from clockcore.geo.zones import to_iso, zone_from_label
    from clockcore.parsing.timeparse import parse_anchored_time

    target = _zone(to)
    assert target is not None
    result = parse_anchored_time(text, _zone(tz), _now(now))
    if result.start_instant is None or result.end_instant is None:
        if result.kind == "invalid":
            _fail(messages.UNREADABLE_TIME.format(text=text, reason=result.reason))
        _fail(messages.NO_INSTANT.format(text=text, question=result.clarification_question))
    label = result.zone or "UTC"
    instants = [result.start_instant]
    if result.end_instant != result.start_instant:
        instants.append(result.end_instant)
    here = " .. ".join(to_iso(i, zone_from_label(label)) for i in instants)
    there = " .. ".join(to_iso(i, target) for i in instants)
    typer.echo(f"{here} ({label}) = {there} ({target})")


@app.command("eval")
def eval_command(
    config: ConfigOption = None,
    scenarios: Annotated[
        Path | None,
        typer.Option(
            "--scenarios", help="A directory of scenario YAML files (default: the shipped ones)."
        ),
    ] = None,
    baseline: Annotated[
        bool,
        typer.Option(
            "--baseline", help="Also run them with the time in the system prompt, side by side."
        ),
    ] = False,
    baseline_only: Annotated[
        bool,
        typer.Option(
            "--baseline-only",
            help="Run only the baseline: it compares with a wrapper run of the same commit "
            "(ids repeat per scenario).",
        ),
    ] = False,
    report: Annotated[
        Path, typer.Option("--report", help="Where to write the Markdown report (and .json).")
    ] = Path("eval-report.md"),
    only: Annotated[
        list[str] | None, typer.Option("--only", help="Run the scenarios whose name has this.")
    ] = None,
) -> None:
    """Measure the configured model on the scenarios (docs/eval.md) before going live."""
    from rich.progress import Progress

    from bot.evaluation.report import Judged, summary
    from bot.evaluation.run import MODES, evaluate, write_report
    from bot.evaluation.scenario import ScenarioError, load_scenarios, shipped_scenarios

    settings = _settings(config)
    if settings.llm.provider == "none":
        typer.echo(
            "No language model is configured: this measures the built-in rules agent "
            "(set CLOCKBOT_LLM_PROVIDER to measure a model; docs/eval.md)."
        )
    try:
        chosen = load_scenarios(scenarios or shipped_scenarios(), only or ())
    except ScenarioError as exc:
        _fail(str(exc))
    logging.basicConfig(level=logging.ERROR)
    if baseline and baseline_only:
        _fail("--baseline runs both modes and --baseline-only the baseline alone: give one")
    modes = MODES[1:] if baseline_only else MODES if baseline else MODES[:1]
    with Progress(transient=True) as bar:
        task = bar.add_task("scenarios", total=len(chosen) * len(modes))

        def told(mode: str, result: Judged) -> None:
            mark = "pass" if result.passed else "FAIL"
            bar.console.print(f"{mode:>8}  {mark}  {result.outcome.scenario.name}")
            bar.advance(task)

        runs = asyncio.run(evaluate(settings, chosen, modes=modes, progress=told))
    about = f"Model: {settings.llm.provider} {settings.llm.model or ''}".rstrip()
    sampling = settings.llm.sampling if settings.llm.enabled else None
    llm_mode = settings.llm.mode if settings.llm.enabled else None
    data = write_report(runs, report, about=about, sampling=sampling, llm_mode=llm_mode)
    for mode, results in runs.items():
        for unseen in (False, True):
            part = [r for r in results if r.outcome.scenario.unseen == unseen]
            if not part:
                continue
            figures = summary(mode, part)
            share = figures.cached_share_after_first
            cached = "n/a" if share is None else f"{share:.0%}"
            typer.echo(
                f"{mode}{' (unseen)' if unseen else ''}: {figures.passed}/{figures.total} "
                f"scenarios passed; false claims: {figures.false_claims}; replies without "
                f"words: {figures.no_words}; cached share from the 2nd request: {cached}"
            )
    typer.echo(f"sampling: {sampling if sampling is not None else 'none (no model)'}")
    typer.echo(f"report: {report} and {data}")


@app.command("eval-join")
def eval_join_command(
    reports: Annotated[
        list[Path], typer.Argument(help="The .json of each report, e.g. a wrapper and a baseline.")
    ],
    out: Annotated[Path, typer.Option("--report", help="Where to write the joined tables.")] = Path(
        "eval-joined.md"
    ),
) -> None:
    """Put the tables of separately run `clockbot eval` reports side by side (docs/eval.md)."""
    import json

    from bot.evaluation.report import joined

    try:
        data = [(str(path), json.loads(path.read_text(encoding="utf-8"))) for path in reports]
        about = "Joined from " + ", ".join(name for name, _ in data) + "."
        text = joined(data, title="clockbot eval", about=about)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        _fail(f"cannot join the reports: {exc}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    typer.echo(f"report: {out}")


@app.command("doctor")
def doctor_command(
    config: Annotated[
        Path | None,
        typer.Option("--config", help="YAML config file; default: $CLOCKBOT_HOME/config.yaml."),
    ] = None,
) -> None:
    """Check the configuration, the store and the LLM.

    Exit codes: 0 all passed, 1 a check failed, 2 the configuration is invalid.
    """
    from bot.cli.doctor import run_doctor

    run_doctor(config)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="clockbot")


if __name__ == "__main__":  # pragma: no cover
    main()
