"""Several wrapper workers on one PostgreSQL, beside SQLite in one process, in one run.

Each configuration gets a fresh store with wrapper_bench's population (10,000
people x 5 threads) and a journal of 50,000 earlier messages (`HISTORY`), and
then the same kind of traffic: messages from random
people in one of their threads, 80% plain chat and 20% clocking an action or
naming a time (wrapper_bench's mix). Every worker is a process of its own
(`spawn`) with one `InteractionWrapper`, handling its messages one at a time
as `clockbot run` handles one intake; all of them start at a barrier after a
warm-up. Printed for SQLite (1 process) and PostgreSQL (1, 2 and 4 workers):

- messages/s over the whole run (all workers, first start to last finish);
- p50 and p99 latency of `on_user_message`;
- client CPU per message (the workers' process time) and server CPU per
  message (every process of the throwaway cluster, from /proc);
- the ratios the issue sets: one PostgreSQL worker to SQLite, 4 workers to 1;
- the round trips of one plain message on PostgreSQL: statements on the hot
  path's asyncpg connections plus statements, BEGINs and COMMITs through
  SQLAlchemy.

This machine's speed drifts by 10-20% from minute to minute, so every
configuration runs in `--rounds` rounds (3), each round running each once, back
to back. Printed: each round's rates, each configuration's median run, and the
targets on the medians over the rounds (a ratio pairs runs of one round), with
their range.

The machine has 2 cores: with 4 workers and the server on them, what limits
throughput is the CPU, which the per-message CPU figures show. Each line ends
with the CPU ceiling: the cores divided by client + server CPU per message,
the rate the machine could reach if every core did nothing but this work, and
the share of it the run reached. A run near its ceiling is CPU-bound; more
workers cannot help it. One worker with one message in hand is bound by
latency instead: each of its two round trips waits for the server process to
wake, so it sits far below its ceiling.

Run: `.venv/bin/python bench/cluster_bench.py [--messages N] [--workers 1,2,4] [--rounds 3]`.
Needs the PostgreSQL server binaries (as wrapper_bench: PATH, else
/usr/lib/postgresql/<version>/bin; as root through `runuser -u postgres`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import wrapper_bench as wb
from sqlalchemy import Engine, event

from clockcore import SettableClock
from wrapper.core import InteractionWrapper
from wrapper.store import tables as t

TARGET_PG_TO_SQLITE = 0.8
TARGET_SCALE_4 = 1.6
TARGET_P99_MS = 10.0
TARGET_CLIENT_CPU_MS = 0.8
TARGET_ROUND_TRIPS = 2
TARGET_SQLITE_RATE = 800.0  # messages/s, one SQLite worker (issue 60: with numbers in the chat)


@dataclass(frozen=True)
class WorkerResult:
    started: float
    finished: float
    latencies_ns: list[int]
    cpu_s: float


@dataclass(frozen=True)
class Figures:
    label: str
    messages: int
    wall_s: float
    p50_ms: float
    p99_ms: float
    client_cpu_ms: float
    server_cpu_ms: float | None

    @property
    def rate(self) -> float:
        return self.messages / self.wall_s

    @property
    def ceiling(self) -> float:
        """Messages/s the machine's cores allow at this run's CPU per message (client + server)."""
        cpu_ms = self.client_cpu_ms + (self.server_cpu_ms or 0.0)
        return (os.cpu_count() or 1) * 1e3 / cpu_ms

    def line(self) -> str:
        server = f"{self.server_cpu_ms:5.2f} ms" if self.server_cpu_ms is not None else "   -    "
        return (
            f"  {self.label:<30} {self.rate:7,.0f} msgs/s   p50 {self.p50_ms:5.2f} ms"
            f"   p99 {self.p99_ms:6.2f} ms   CPU/msg client {self.client_cpu_ms:5.2f} ms"
            f"  server {server}   CPU ceiling {self.ceiling:6,.0f}/s"
            f" ({self.rate / self.ceiling:4.0%} of it)"
        )


def _percentile_ms(latencies: list[int], share: float) -> float:
    ordered = sorted(latencies)
    return ordered[max(1, math.ceil(share * len(ordered))) - 1] / 1e6


# --- a worker process -------------------------------------------------------------------------


def _worker(
    url: str, plan: list[wb.Message], warm: list[wb.Message], in_flight: int, sync: Any
) -> None:
    asyncio.run(_serve(url, plan, warm, in_flight, *sync))


async def _serve(
    url: str,
    plan: list[wb.Message],
    warm: list[wb.Message],
    in_flight: int,
    go: Any,
    done: Any,
    leave: Any,
) -> None:
    wrapper = await InteractionWrapper.open(url, agent_tz=wb.AGENT_TZ, clock=SettableClock(wb.BASE))
    send = wb._send(wrapper)
    try:
        for message in warm:
            await send(message)
        go.wait()
        cpu = time.process_time()
        started = time.perf_counter()
        latencies: list[int] = []
        queue = iter(plan)

        async def sender() -> None:
            for message in queue:
                begun = time.perf_counter_ns()
                await send(message)
                latencies.append(time.perf_counter_ns() - begun)

        await asyncio.gather(*(sender() for _ in range(in_flight)))
        finished = time.perf_counter()
        done.put(WorkerResult(started, finished, latencies, time.process_time() - cpu))
        # Connections stay open until the parent has read the server's CPU: a backend
        # that exits takes its CPU time out of /proc.
        leave.wait()
    finally:
        await wrapper.close()


# --- the server's CPU -------------------------------------------------------------------------


def _server_cpu_s() -> float:
    """User + system CPU of every `postgres` process on this machine (the throwaway cluster)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


# --- one configuration ------------------------------------------------------------------------


HISTORY = 50_000
"""Messages already journaled in a populated store: five per person, as in a store in service.

Without them the journal is empty when the store is analyzed, and PostgreSQL
plans the hot READ's duplicate check for an empty table: a scan that grows with
every message the run journals (45 buffers and ~205 us per READ after a few
hundred messages, against 15 and ~65 us with the journal's statistics known).
A store in service has a journal, and autovacuum's ANALYZE keeps it known."""


async def populate(url: str, *, history: int = HISTORY) -> None:
    """A fresh store at `url`: migrated, wrapper_bench's people and threads, `history`
    journaled messages, analyzed."""
    wrapper = await InteractionWrapper.open(url, agent_tz=wb.AGENT_TZ)  # migrates
    await wrapper.close()
    store = wb.Store(url)
    try:
        rng = random.Random(1)
        rows = wb.people_rows(rng)
        for table in (t.users, t.identities, t.threads, t.participants):
            await store.insert(table, rows[table.name])
        await store.insert(t.journal, wb.journal_rows(rng, history))
        await store.analyze()
    finally:
        await store.dispose()


def run_configuration(
    label: str, url: str, workers: int, messages: int, *, pg: bool, in_flight: int,
    plain: tuple[str, ...] = wb.PLAIN,
) -> Figures:  # fmt: skip
    asyncio.run(populate(url))
    rng = random.Random(workers)
    plan = wb.message_plan(rng, messages, start=10_000, plain=plain)
    context = multiprocessing.get_context("spawn")
    go, leave = context.Barrier(workers + 1), context.Barrier(workers + 1)
    done = context.Queue()
    processes = []
    for n in range(workers):
        warm = wb.message_plan(
            random.Random(100 + n), wb.WARM_UP, start=1_000 * (n + 1), plain=plain
        )
        share = plan[n::workers]
        sync = (go, done, leave)
        process = context.Process(target=_worker, args=(url, share, warm, in_flight, sync))
        process.start()
        processes.append(process)
    go.wait()
    server_before = _server_cpu_s() if pg else 0.0
    results: list[WorkerResult] = [done.get(timeout=1_800) for _ in processes]
    server_after = _server_cpu_s() if pg else 0.0
    leave.wait()
    for process in processes:
        process.join(timeout=60)
    latencies = [ns for result in results for ns in result.latencies_ns]
    wall = max(r.finished for r in results) - min(r.started for r in results)
    return Figures(
        label=label,
        messages=len(latencies),
        wall_s=wall,
        p50_ms=_percentile_ms(latencies, 0.50),
        p99_ms=_percentile_ms(latencies, 0.99),
        client_cpu_ms=sum(r.cpu_s for r in results) / len(latencies) * 1e3,
        server_cpu_ms=(server_after - server_before) / len(latencies) * 1e3 if pg else None,
    )


# --- round trips of one plain message ---------------------------------------------------------


async def plain_round_trips(url: str) -> tuple[float, float]:
    """(round trips, asyncpg statements) per plain message in a known thread, over 50."""
    await populate(url)
    wrapper = await InteractionWrapper.open(url, agent_tz=wb.AGENT_TZ)
    through_sqlalchemy = 0

    def on_execute(*_: Any) -> None:
        nonlocal through_sqlalchemy
        through_sqlalchemy += 1

    def on_transaction(*_: Any) -> None:  # BEGIN and COMMIT, each a round trip
        nonlocal through_sqlalchemy
        through_sqlalchemy += 2

    direct: list[str] = []
    send = wb._send(wrapper)
    try:
        await send(_plain(0))  # the hot path's pool exists from here on
        pool = await wrapper.database.pg_pool()
        async with pool.acquire() as connection:
            connection.add_query_logger(lambda record: direct.append(record.query))
        event.listen(Engine, "before_cursor_execute", on_execute)
        event.listen(Engine, "begin", on_transaction)
        try:
            for n in range(1, 51):
                await send(_plain(n))
        finally:
            event.remove(Engine, "before_cursor_execute", on_execute)
            event.remove(Engine, "begin", on_transaction)
    finally:
        await wrapper.close()
    return (len(direct) + through_sqlalchemy) / 50, len(direct) / 50


def _plain(n: int) -> wb.Message:
    return wb.Message(
        user=7,
        thread_id=wb.thread_ids(7)[0],
        text=wb.PLAIN[n % len(wb.PLAIN)],
        message_id=f"rt-{n}",
        received_at=wb.BASE + timedelta(seconds=n),
    )


# --- the run ----------------------------------------------------------------------------------


@contextlib.contextmanager
def _database(dsn: str) -> Iterator[str]:
    with contextlib.ExitStack() as stack:
        runner = stack.enter_context(asyncio.Runner())
        manager = wb.scratch_database(dsn)
        url = runner.run(manager.__aenter__())
        try:
            yield url
        finally:
            runner.run(manager.__aexit__(None, None, None))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--messages", type=int, default=4_000, help="messages per configuration")
    parser.add_argument("--workers", default="1,2,4", help="PostgreSQL worker counts")
    parser.add_argument("--in-flight", default="1,4", help="messages each worker has in hand")
    parser.add_argument("--rounds", type=int, default=3, help="runs of every configuration")
    parser.add_argument(
        "--numbers",
        action="store_true",
        help="the plain chat holds a number but no time ('order 12345 shipped')",
    )
    args = parser.parse_args()
    plain = wb.NUMBERED if args.numbers else wb.PLAIN
    counts = [int(n) for n in args.workers.split(",")]
    began = time.perf_counter()
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="clockbot-cluster-")))
        dsn = stack.enter_context(wb.throwaway_cluster())
        version = asyncio.run(wb.server_version(dsn))
        print(wb.machine_facts(f"{version} (throwaway cluster, synchronous_commit=off)"))
        print(
            f"plan: {wb.USERS:,} people x 5 threads per store; {args.messages:,} messages per "
            f"configuration, {int(wb.TEMPORAL_SHARE * 100)}% clocking or naming a time, the "
            f"rest plain chat{' with a number in each' if args.numbers else ''}; "
            f"{args.rounds} round(s), each running every configuration once"
        )
        with _database(dsn) as url:
            trips, direct = asyncio.run(plain_round_trips(url))
        print(
            f"a plain message in a known thread on PostgreSQL: {trips:.1f} round trips "
            f"({direct:.1f} statements on asyncpg directly)"
        )
        for in_flight in (int(n) for n in args.in_flight.split(",")):
            print(f"\neach worker with {in_flight} message(s) in hand at a time")
            rounds = [
                _round(
                    dsn,
                    workdir / f"cluster-{in_flight}-{n}.sqlite3",
                    counts,
                    args.messages,
                    in_flight,
                    n + 1,
                    plain,
                )
                for n in range(args.rounds)
            ]
            for line in _summary(rounds, trips):
                print(line)
    print(f"\nwhole run: {time.perf_counter() - began:.0f} s")


@dataclass(frozen=True)
class Round:
    """One run of every configuration, back to back: a ratio pairs runs of one round."""

    sqlite: Figures
    by_count: dict[int, Figures]


def _round(
    dsn: str, sqlite_file: Path, counts: list[int], messages: int, in_flight: int, number: int,
    plain: tuple[str, ...],
) -> Round:  # fmt: skip
    sqlite = run_configuration(
        f"SQLite {sqlite3.sqlite_version}, 1 process", f"sqlite:///{sqlite_file}", 1, messages,
        pg=False, in_flight=in_flight, plain=plain,
    )  # fmt: skip
    by_count: dict[int, Figures] = {}
    for count in counts:
        with _database(dsn) as url:
            label = f"PostgreSQL, {count} worker{'s' if count > 1 else ''}"
            by_count[count] = run_configuration(
                label, url, count, messages, pg=True, in_flight=in_flight, plain=plain
            )
    rates = [f"SQLite {sqlite.rate:,.0f}"] + [f"PG x{c} {f.rate:,.0f}" for c, f in by_count.items()]
    print(f"  round {number}: {', '.join(rates)} msgs/s")
    return Round(sqlite, by_count)


def _median_run(runs: list[Figures]) -> Figures:
    """The run with the median rate (the lower middle one for an even count)."""
    return sorted(runs, key=lambda f: f.rate)[(len(runs) - 1) // 2]


def _summary(rounds: list[Round], trips: float) -> list[str]:
    """Each configuration's median run, then the targets on medians over the rounds.

    A ratio pairs the runs of one round (the same minutes of this machine's
    load); its median over the rounds is held to the target, and its range printed.
    """
    runs = (
        [r.sqlite for r in rounds],
        *([r.by_count[c] for r in rounds] for c in rounds[0].by_count),
    )
    lines = ["  the median run of each configuration:", *(_median_run(r).line() for r in runs)]
    checks: list[tuple[str, list[float], str, bool]] = []

    def check(
        what: str, values: list[float], unit: str, at_least: float | None, most: float | None
    ) -> None:
        value = statistics.median(values)
        met = (at_least is None or value >= at_least) and (most is None or value <= most)
        checks.append((what, sorted(values), unit, met))

    check(f"SQLite >= {TARGET_SQLITE_RATE:,.0f} msgs/s", [r.sqlite.rate for r in rounds],
          " msgs/s", TARGET_SQLITE_RATE, None)  # fmt: skip
    by_count = rounds[0].by_count
    if 1 in by_count:
        one = [r.by_count[1] for r in rounds]
        versus = [w.rate / r.sqlite.rate for w, r in zip(one, rounds, strict=True)]
        check(f"one PG worker / SQLite >= {TARGET_PG_TO_SQLITE}x", versus, "x",
              TARGET_PG_TO_SQLITE, None)  # fmt: skip
        cpu = [w.client_cpu_ms for w in one]
        check(f"client CPU per message <= {TARGET_CLIENT_CPU_MS} ms", cpu, " ms",
              None, TARGET_CLIENT_CPU_MS)  # fmt: skip
        if 4 in by_count:
            scale = [r.by_count[4].rate / w.rate for w, r in zip(one, rounds, strict=True)]
            check(f"4 workers / 1 >= {TARGET_SCALE_4}x", scale, "x", TARGET_SCALE_4, None)
    worst = [max(f.p99_ms for f in r.by_count.values()) for r in rounds]
    check(f"p99 <= {TARGET_P99_MS:.0f} ms (worst PG)", worst, " ms", None, TARGET_P99_MS)
    check(f"round trips of a plain message <= {TARGET_ROUND_TRIPS}", [trips], "",
          None, TARGET_ROUND_TRIPS)  # fmt: skip
    for what, values, unit, met in checks:
        spread = f" (rounds {values[0]:.2f} to {values[-1]:.2f})" if len(values) > 1 else ""
        lines.append(
            f"    target {what}: {statistics.median(values):.2f}{unit}{spread}"
            f"   {'met' if met else 'MISSED'}"
        )
    return lines


if __name__ == "__main__":
    main()
