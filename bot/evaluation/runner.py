"""Play one scenario through a real gateway on a fresh store, on an injected clock.

The gateway is the one `clockbot run` builds (turns, the dispatcher, the
outbox, the agent and its tools) with one channel that records what it is
given (`EvalChannel`). The clock stands still while the model thinks; an
``advance`` step moves it to each job's due instant in turn, so a reminder
falls due, is decided (a proactive turn) and sent at its own time, as in real
time but without waiting. Afterwards the store is read whole (`StoreState`)
for the judge and the report.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from pathlib import Path
from time import monotonic
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from bot.app.gateway import Gateway
from bot.cli.chat import NO_LIMIT, wait_answered
from bot.config.settings import Settings
from bot.evaluation.scenario import Scenario
from bot.llm.types import Provider
from channels.base import Channel, Inbound, Outgoing, Sink, StateStore
from clockcore import ContactWindow, SettableClock, to_iso
from wrapper.store import tables
from wrapper.store.queries.common import repeatable_ids
from wrapper.turns.effects import WindowChange, ZoneChange

__all__ = ["EvalChannel", "Outcome", "Said", "StoreState", "Turn", "plain", "run_scenario"]

USER = "eval"


@dataclass(frozen=True, slots=True)
class Said:
    """One line of the transcript: who, when (UTC), what, during which step."""

    step: int
    at: datetime
    who: str  # "person", "reply", "reminder" (any proactive message)
    text: str


class EvalChannel(Channel):
    """A channel that keeps what the gateway sends, stamped with the injected clock."""

    def __init__(self, name: str, clock: SettableClock, transcript: list[Said]) -> None:
        self.name = name
        self.step = 0
        self._clock = clock
        self._transcript = transcript

    async def start(self, sink: Sink, state: StateStore, *, intake: bool = True) -> None:
        """Nothing to connect: the runner hands lines to the gateway itself."""

    async def send(self, message: Outgoing) -> Sequence[str] | None:
        who = "reply" if message.kind == "reply" else "reminder"
        self._transcript.append(Said(self.step, self._clock.now(), who, message.text))
        return None

    async def stop(self) -> None:
        """Nothing to close."""


@dataclass(frozen=True, slots=True)
class StoreState:
    """Every row the scenario left that the judge reads, as plain values."""

    jobs: list[dict[str, Any]]
    schedules: list[dict[str, Any]]
    memory: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    person: dict[str, Any]
    threads: list[dict[str, Any]]
    history: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        def each(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [{k: plain(v) for k, v in row.items()} for row in rows]

        return {
            "jobs": each(self.jobs),
            "schedules": each(self.schedules),
            "memory": each(self.memory),
            "actions": each(self.actions),
            "person": {k: plain(v) for k, v in self.person.items()},
            "threads": each(self.threads),
            "history": each(self.history),
        }


def plain(value: object) -> object:
    """A stored value as JSON and the report show it: an instant as ISO in UTC."""
    return to_iso(value, "UTC") if isinstance(value, datetime) else value


@dataclass(frozen=True, slots=True)
class Turn:
    """One line the person wrote (step `step`), and the store just before and after its turn:
    what the turn changed is what the replies of that step may claim (`bot.evaluation.judge`)."""

    step: int
    before: StoreState
    after: StoreState


@dataclass(slots=True)
class Outcome:
    """What one run of a scenario produced, before judging."""

    scenario: Scenario
    baseline: bool
    transcript: list[Said] = field(default_factory=list)
    state: StoreState | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None


def _rows(conn: Connection, table: Any, *columns: str) -> list[dict[str, Any]]:
    chosen = [table.c[name] for name in columns] if columns else [table]
    return [dict(row._mapping) for row in conn.execute(select(*chosen))]


def _read_store(conn: Connection) -> StoreState:
    t = tables
    users = _rows(conn, t.users, "default_tz", "contact_window")
    return StoreState(
        jobs=_rows(
            conn,
            t.outbox,
            "id",
            "kind",
            "text",
            "status",
            "due_at",
            "deferred_from",
            "defer_reason",
            "sent_at",
            "final_text",
            "memory_id",
            "schedule_id",
            "last_error",
        ),
        schedules=_rows(
            conn,
            t.schedules,
            "id",
            "text",
            "rrule",
            "zone",
            "state",
            "missed",
        ),
        memory=_rows(conn, t.memory, "id", "content", "due_at", "reminded_at"),
        actions=_rows(conn, t.actions, "id", "label", "status"),
        person=users[0] if users else {},
        threads=_rows(conn, t.threads, "thread_key", "session_tz"),
        history=_rows(
            conn,
            t.history,
            "thread_key",
            "seq",
            "role",
            "content",
            "tool_calls",
            "name",
        ),
    )


async def _advance(gateway: Gateway, clock: SettableClock, span: timedelta) -> None:
    """Move the clock by `span`, stopping at each job's due instant on the way to handle it."""
    target = clock.now() + span
    while True:
        jobs = await gateway.wrapper.outbox.listing()
        waiting = [
            job.due_at
            for job in jobs
            if job.status in ("pending", "deferred") and clock.now() < job.due_at <= target
        ]
        if not waiting:
            break
        clock.set(min(waiting))
        await _settled(gateway, clock)
    clock.set(target)
    await _settled(gateway, clock)


async def _settled(gateway: Gateway, clock: SettableClock) -> None:
    await gateway.wrapper.workers.beat(gateway.worker, now=clock.now())
    gateway.dispatcher.wake()
    await wait_answered(gateway)


async def _setup(gateway: Gateway, scenario: Scenario, user_key: str) -> None:
    person = scenario.person
    wrapper = gateway.wrapper
    changes: list[ZoneChange | WindowChange] = []
    if person.zone is not None:
        changes.append(
            ZoneChange(user_key=user_key, thread_key=None, zone=person.zone, scope="home")
        )
    if person.window is not None:
        start, end = (time.fromisoformat(part) for part in person.window.split("-"))
        changes.append(WindowChange.of(user_key, ContactWindow(start, end)))
    await wrapper.save_settings(*changes)


async def run_scenario(
    scenario: Scenario,
    settings: Settings,
    *,
    baseline: bool = False,
    provider: Provider | None = None,
) -> Outcome:
    """Play `scenario` on a fresh SQLite store; the outcome holds what the judge needs.

    An error inside the run (the model unreachable for good, a bug) is kept in
    `Outcome.error`, and the scenario fails; it never stops the other scenarios.
    """
    outcome = Outcome(scenario, baseline)
    person = scenario.person
    thread_id = "group:eval" if person.group else f"dm:{USER}"
    started = monotonic()
    # The same ids in every run and in both modes: their digits reach the model (docs/eval.md).
    with (
        repeatable_ids(scenario.name),
        tempfile.TemporaryDirectory(prefix="clockbot-eval-") as home,
    ):
        clock = SettableClock(scenario.start)
        channel = EvalChannel(person.channel, clock, outcome.transcript)
        local = settings.model_copy(
            update={"home": Path(home), "database_url": None, "limit": NO_LIMIT}
        )
        gateway = Gateway(
            local,
            channels=[channel],
            clock=clock,
            provider=provider,
            poll_interval=0.05,
            retry_interval=1.0,
            serve_http=False,
            baseline=baseline,
        )
        try:
            await gateway.start()
            user_key = f"{person.channel}:{USER}"
            await _setup(gateway, scenario, user_key)
            for index, step in enumerate(scenario.steps):
                channel.step = index
                if step.say is None:
                    await _advance(gateway, clock, step.span)
                    continue
                outcome.transcript.append(Said(index, clock.now(), "person", step.say))
                before = await gateway.wrapper.database.run(_read_store)
                await gateway.accept(
                    Inbound(
                        channel=person.channel,
                        thread_id=thread_id,
                        user_id=USER,
                        text=step.say,
                        message_id=f"m{index}",
                        received_at=clock.now(),
                        language=person.language,
                    )
                )
                await _settled(gateway, clock)
                after = await gateway.wrapper.database.run(_read_store)
                outcome.turns.append(Turn(index, before, after))
            outcome.state = await gateway.wrapper.database.run(_read_store)
            records = await gateway.wrapper.calls.recent(limit=10_000)
            outcome.calls = [
                {
                    "purpose": r.purpose,
                    "prompt_tokens": r.prompt_tokens,
                    "cached_tokens": r.cached_tokens,
                    "completion_tokens": r.completion_tokens,
                    "latency_ms": r.latency_ms,
                    "prefix": r.prefix,
                }
                for r in reversed(records)
            ]
        except Exception as exc:  # one scenario's failure is its own result, never the run's
            outcome.error = f"{type(exc).__name__}: {exc}"
        finally:
            await gateway.stop()
    outcome.seconds = monotonic() - started
    return outcome
