"""The interaction wrapper on a populated store: SQLite, and PostgreSQL when a server is there.

Prints, per backend, for one process handling one message at a time:
- `on_user_message` over random (user, thread) pairs of 10,000 users x 5 threads
  each (a DM and four 5-member group threads; 80% plain chat, 20% clocking an
  action or naming a time): messages/s, p50 and p99 latency, and the SQL
  statements one message costs; then the same for a person's very first message
  (new identity, new thread), and again once the memory items below are stored;
- `get_upcoming(within_days=7)` for random users with 1,000,000 memory items
  stored (100 per user, ~30% due over +/-60 days, some already reminded):
  p50/p99, beside the same calls once the partial index `ix_memory_items_due`
  is dropped, and the load time of those items (bulk inserts, beside the wrapper).
Targets (issue acceptance, 2-core machine): on SQLite >= 1,000 messages/s and
p99 <= 10 ms; `get_upcoming` p50 <= 2 ms with 1,000,000 items stored.

SQLite is a file in a temp dir. PostgreSQL is a throwaway cluster started from the
server binaries (PATH, else /usr/lib/postgresql/<version>/bin; as root through
`runuser -u postgres`) on 127.0.0.1 and a free port, with `synchronous_commit=off`
(what SQLite's WAL + synchronous=NORMAL also gives up); `--postgres-url URL` uses
an existing server instead, in a scratch database created and dropped here.
Without either, the PostgreSQL figures are skipped with the reason.

Run: `make bench` (or `.venv/bin/python bench/wrapper_bench.py [--quick] [--postgres-url URL]`).
`--quick` times 1,000 messages and stores 100,000 memory items, for a smoke run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import math
import os
import platform
import pwd
import random
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from clockcore import SettableClock
from wrapper.core import InteractionWrapper
from wrapper.store import queries
from wrapper.store import tables as t

T = TypeVar("T")

BASE = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
"""The benchmark's "now": stored stamps lie before it, measured messages after it."""
AGENT_TZ = "Europe/Berlin"
CHANNEL = "telegram"
FIRST_CHAT_ID = 100_000

USERS = 10_000
GROUP_SIZE = 5
GROUP_STRIDES = (1, 3, 7, 9)  # coprime with USERS: each round of groups is a permutation of users
CHUNK = 5_000  # rows per executemany
WARM_UP = 200  # messages before timing starts (statement caches, pool, first imports)

TARGET_RATE = 1_000.0
TARGET_P99_MS = 10.0
TARGET_UPCOMING_P50_MS = 2.0

PLAIN = (
    "ok sounds good",
    "thanks, that helps a lot",
    "can you summarise what we decided above?",
    "lol that bug was weird but it works now",
    "I'll check with the team and get back to you",
    "did the deploy go out already?",
    "what do you think about the new design doc",
    "how long should I boil an egg for",
    "can you translate this into German for me",
    "yes please, go ahead",
    "hmm not sure, let me think about it",
    "the tests look fine to me, merge it",
)
# Plain chat that holds a number but no time: the relevance question must stay cheap on it
# (issue 60; `cluster_bench.py --numbers`).
NUMBERED = (
    "order 12345 shipped",
    "message 5 about the project",
    "ticket #4821 is closed, thanks",
    "PR 317 merged, can you check the build?",
    "we have 12 open bugs left",
    "invoice 2024-118 paid",
    "see page 42 of the doc",
    "17 people said yes",
    "build 9931 failed again",
    "room 204 is free",
    "it costs $35 a month",
    "version 2.4.10 is out",
)
TEMPORAL = (
    "clock it: going to the gym",
    "remind me tomorrow at 9",
    "heading to lunch",
    "brb, grabbing a coffee",
    "I'm going for a run now",
    "can we meet on Friday at 3pm?",
)
TEMPORAL_SHARE = 0.2
MEMORY_CONTENTS = (
    "call the bank about the card",
    "dentist appointment",
    "send the quarterly report",
    "mum's birthday",
    "renew the passport",
    "pick up the dry cleaning",
    "likes oat milk",
    "prefers short answers",
)
USER_ZONES = (None, None, "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Tokyo")


# --- figures --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """Sequential calls: the wall time of the whole loop and each call's latency."""

    wall_s: float
    latencies_ns: list[int]

    @property
    def calls(self) -> int:
        return len(self.latencies_ns)

    @property
    def rate(self) -> float:
        return self.calls / self.wall_s

    def percentile_ms(self, share: float) -> float:
        """Nearest-rank percentile."""
        ordered = sorted(self.latencies_ns)
        rank = max(1, math.ceil(share * len(ordered)))
        return ordered[rank - 1] / 1e6

    @property
    def p50_ms(self) -> float:
        return self.percentile_ms(0.50)

    @property
    def p99_ms(self) -> float:
        return self.percentile_ms(0.99)


@dataclass
class BackendFigures:
    name: str
    steady: Timing | None = None
    first: Timing | None = None
    upcoming: Timing | None = None
    upcoming_unindexed: Timing | None = None


async def timed(call: Callable[[T], Awaitable[object]], inputs: Sequence[T]) -> Timing:
    """Await `call(x)` for each input in turn; the loop's wall time and every latency."""
    gc.collect()
    latencies: list[int] = []
    started = time.perf_counter_ns()
    for item in inputs:
        before = time.perf_counter_ns()
        await call(item)
        latencies.append(time.perf_counter_ns() - before)
    return Timing((time.perf_counter_ns() - started) / 1e9, latencies)


def _row(label: str, timing: Timing, unit: str, extra: str = "") -> str:
    return (
        f"  {label:<42} {timing.rate:>8,.0f} {unit}/s   p50 {timing.p50_ms:>7.2f} ms"
        f"   p99 {timing.p99_ms:>7.2f} ms   ({timing.calls:,} calls{extra})"
    )


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


# --- the people, their threads and their messages --------------------------------------------


def user_key(user: int) -> str:
    return f"{CHANNEL}:{FIRST_CHAT_ID + user}"


def thread_ids(user: int) -> list[str]:
    """A DM and four group threads; every group has GROUP_SIZE members."""
    groups_per_round = USERS // GROUP_SIZE
    groups = [
        round_ * groups_per_round + (user * stride) % USERS // GROUP_SIZE
        for round_, stride in enumerate(GROUP_STRIDES)
    ]
    return [f"dm:{FIRST_CHAT_ID + user}", *(f"group:{g}" for g in groups)]


def thread_key(thread_id: str) -> str:
    return f"agent:main:{CHANNEL}:{thread_id}"


def _hours_before_base(rng: random.Random, most: float) -> datetime:
    return BASE - timedelta(hours=rng.uniform(0.05, most))


def people_rows(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """Rows for users, identities, threads and thread_participants, stamped before BASE."""
    users: list[dict[str, Any]] = []
    identities: list[dict[str, Any]] = []
    participants: list[dict[str, Any]] = []
    threads: dict[str, dict[str, Any]] = {}
    created = BASE - timedelta(days=90)
    for user in range(USERS):
        key = user_key(user)
        person = queries.own_user_id(key)
        last = _hours_before_base(rng, 48)
        users.append(
            {
                "id": person,
                "default_tz": rng.choice(USER_ZONES),
                "policy_overrides": {},
                "known_locations": [],
                "last_interaction_any_channel_at": last,
                "last_interaction_any_channel": CHANNEL,
                "created_at": created,
            }
        )
        identities.append(
            {
                "user_key": key,
                "channel": CHANNEL,
                "channel_user_id": str(FIRST_CHAT_ID + user),
                "user_id": person,
                "last_user_message_at": last,
                "last_agent_message_at": last,
                "created_at": created,
            }
        )
        for tid in thread_ids(user):
            tkey = thread_key(tid)
            spoke = _hours_before_base(rng, 72)
            participants.append(
                {"thread_key": tkey, "user_key": key, "last_user_message_at": spoke}
            )
            if tkey not in threads:
                threads[tkey] = _thread_row(tkey, tid, spoke, created)
    return {
        "users": users,
        "identities": identities,
        "threads": list(threads.values()),
        "thread_participants": participants,
    }


def _thread_row(tkey: str, tid: str, last: datetime, created: datetime) -> dict[str, Any]:
    return {
        "thread_key": tkey,
        "agent_id": "main",
        "channel": CHANNEL,
        "thread_id": tid,
        "thread_kind": "conversation",
        "session_tz": None,
        "agent_tz": AGENT_TZ,
        "delta_hours": 0.0,
        "session_started_at": last - timedelta(minutes=20),
        "last_interaction_at": last,
        "last_user_message_at": last,
        "last_agent_message_at": last,
        "created_at": created,
    }


@dataclass(frozen=True)
class Message:
    user: int
    thread_id: str
    text: str
    message_id: str
    received_at: datetime


def message_plan(
    rng: random.Random, count: int, *, start: int, plain: tuple[str, ...] = PLAIN
) -> list[Message]:
    """`count` messages from random users in one of their threads, 100 ms apart after BASE.

    `plain` is the chat the 80% without a time is drawn from.
    """
    plan = []
    for i in range(start, start + count):
        user = rng.randrange(USERS)
        pool = TEMPORAL if rng.random() < TEMPORAL_SHARE else plain
        plan.append(
            Message(
                user=user,
                thread_id=rng.choice(thread_ids(user)),
                text=rng.choice(pool),
                message_id=f"bench-{i}",
                received_at=BASE + timedelta(milliseconds=100 * (i + 1)),
            )
        )
    return plan


def first_message_plan(count: int, *, start: int) -> list[Message]:
    """Messages from people never seen before, each in a DM of their own."""
    return [
        Message(
            user=USERS + n,
            thread_id=f"dm:{FIRST_CHAT_ID + USERS + n}",
            text="hi! can you help me plan my week?",
            message_id=f"bench-first-{n}",
            received_at=BASE + timedelta(milliseconds=100 * (start + n + 1)),
        )
        for n in range(count)
    ]


def journal_rows(rng: random.Random, count: int) -> Iterator[dict[str, Any]]:
    """`count` earlier messages (ids ``old-<n>``), each from a random person in one of their
    threads, one a second up to BASE: the journal of a store in service."""
    for n in range(count):
        user = rng.randrange(USERS)
        yield {
            "channel": CHANNEL, "message_id": f"old-{n}",
            "thread_key": thread_key(rng.choice(thread_ids(user))), "user_key": user_key(user),
            "received_at": BASE - timedelta(seconds=count - n), "text": rng.choice(PLAIN),
        }  # fmt: skip


def memory_rows(rng: random.Random, per_user: int) -> Iterator[dict[str, Any]]:
    """`per_user` items for every user: ~30% due within +/-60 days of BASE, a quarter of those
    reminded already (half before they fell due, half after)."""
    created = BASE - timedelta(days=120)
    for user in range(USERS):
        person = queries.own_user_id(user_key(user))
        for _ in range(per_user):
            due = reminded = None
            if rng.random() < 0.3:
                due = BASE + timedelta(days=rng.uniform(-60, 60))
                if rng.random() < 0.25:
                    reminded = due + timedelta(hours=rng.choice((-1, 1)) * rng.uniform(1, 48))
            yield {
                "user_id": person,
                "content": rng.choice(MEMORY_CONTENTS),
                "created_at": created,
                "due_at": due,
                "reminded_at": reminded,
            }


def _chunks(rows: Iterable[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class Store:
    """The bench's own engine on the wrapper's store: bulk loads, ANALYZE, DROP INDEX.

    Apart from the wrapper's, so that the bench needs nothing of the wrapper but its
    public API. SQLite through the standard library's driver; PostgreSQL through asyncpg.
    """

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self.dialect = "sqlite" if parsed.get_backend_name() == "sqlite" else "postgresql"
        self._sync: Engine | None = None
        self._async: AsyncEngine | None = None
        if self.dialect == "sqlite":
            self._sync = sqlalchemy.create_engine(parsed.set(drivername="sqlite"))
        else:
            self._async = create_async_engine(parsed.set(drivername="postgresql+asyncpg"))

    async def run(self, work: Callable[[Connection], object]) -> None:
        """`work` in one transaction, committed."""
        if self._sync is not None:
            with self._sync.begin() as conn:
                work(conn)
        else:
            assert self._async is not None
            async with self._async.begin() as conn:
                await conn.run_sync(work)

    async def execute(self, sql: str) -> None:
        await self.run(lambda conn: conn.execute(sqlalchemy.text(sql)))

    async def insert(self, table: Any, rows: Iterable[dict[str, Any]]) -> int:
        """executemany in chunks, a transaction each; the number of rows written."""
        written = 0
        for batch in _chunks(rows, CHUNK):
            await self.run(functools.partial(_execute_many, table.insert(), batch))
            written += len(batch)
        return written

    async def analyze(self) -> None:
        """PostgreSQL: fresh planner statistics, as autovacuum would soon have gathered."""
        if self.dialect == "postgresql":
            await self.execute("ANALYZE")

    async def dispose(self) -> None:
        if self._sync is not None:
            self._sync.dispose()
        if self._async is not None:
            await self._async.dispose()


def _execute_many(statement: Any, rows: list[dict[str, Any]], conn: Connection) -> None:
    conn.execute(statement, rows)


# --- one backend ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sizes:
    messages: int
    first_messages: int
    memory_per_user: int
    upcoming_calls: int
    messages_with_memory: int


FULL = Sizes(5_000, 1_000, 100, 500, 1_000)
QUICK = Sizes(1_000, 200, 10, 500, 300)


def _send(wrapper: InteractionWrapper) -> Callable[[Message], Awaitable[object]]:
    async def send(message: Message) -> object:
        return await wrapper.on_user_message(
            channel=CHANNEL,
            thread_id=message.thread_id,
            user_id=str(FIRST_CHAT_ID + message.user),
            text=message.text,
            received_at=message.received_at,
            message_id=message.message_id,
        )

    return send


async def count_statements(work: Awaitable[T]) -> tuple[T, int]:
    """`work`'s result and the number of SQL statements sent meanwhile, by any engine."""
    sent = 0

    def on_execute(*_: Any) -> None:
        nonlocal sent
        sent += 1

    event.listen(Engine, "before_cursor_execute", on_execute)
    try:
        result = await work
    finally:
        event.remove(Engine, "before_cursor_execute", on_execute)
    return result, sent


async def bench_messages(
    wrapper: InteractionWrapper, store: Store, figures: BackendFigures, sizes: Sizes
) -> None:
    rng = random.Random(1)
    started = time.perf_counter()
    rows = people_rows(rng)
    for table in (t.users, t.identities, t.threads, t.participants):
        await store.insert(table, rows[table.name])
    await store.analyze()
    print(
        f"  store: {USERS:,} users, {len(rows['threads']):,} threads, "
        f"{len(rows['thread_participants']):,} memberships, loaded in "
        f"{time.perf_counter() - started:.1f} s"
    )
    send = _send(wrapper)
    warm = message_plan(rng, WARM_UP, start=0)
    warm_timing, statements = await count_statements(timed(send, warm))
    per_message = statements / warm_timing.calls
    print(f"  SQL statements per message: {per_message:.1f} (through SQLAlchemy; warm-up average)")

    plan = message_plan(rng, sizes.messages, start=WARM_UP)
    figures.steady = await timed(send, plan)
    temporal = sum(m.text in TEMPORAL for m in plan)
    print(_row("on_user_message, known user and thread", figures.steady, "msgs"))
    print(f"    ({temporal:,} of them clock an action or mention a time)")

    first = first_message_plan(sizes.first_messages, start=WARM_UP + sizes.messages)
    figures.first = await timed(send, first)
    print(_row("on_user_message, first message (new user)", figures.first, "msgs"))


async def bench_upcoming(
    wrapper: InteractionWrapper, store: Store, figures: BackendFigures, sizes: Sizes
) -> None:
    rng = random.Random(2)
    started = time.perf_counter()
    stored = await store.insert(t.memory, memory_rows(rng, sizes.memory_per_user))
    await store.run(_mark_people_with_due_items)
    load_s = time.perf_counter() - started
    print(
        f"  memory: {stored:,} items loaded in {load_s:.1f} s "
        f"({stored / load_s:,.0f} rows/s, executemany in chunks of {CHUNK:,})"
    )
    await store.analyze()

    send = _send(wrapper)
    start = WARM_UP + sizes.messages + sizes.first_messages
    with_memory = await timed(send, message_plan(rng, sizes.messages_with_memory, start=start))
    print(_row(f"on_user_message, {stored:,} items stored", with_memory, "msgs"))

    keys = [user_key(u) for u in rng.sample(range(USERS), sizes.upcoming_calls)]
    found: list[int] = []

    async def upcoming(key: str) -> object:
        items = await wrapper.memory.upcoming(user_key=key, within_days=7, now=BASE)
        found.append(len(items))
        return items

    await timed(upcoming, keys[:20])  # warm the statement cache
    found.clear()
    figures.upcoming = await timed(upcoming, keys)
    per_call = sum(found) / len(found)
    print(_row("get_upcoming(7 days), partial index", figures.upcoming, "calls",
               f", {per_call:.1f} items each"))  # fmt: skip

    await store.execute("DROP INDEX ix_memory_items_due")
    await store.analyze()
    figures.upcoming_unindexed = await timed(upcoming, keys)
    print(_row("get_upcoming(7 days), index dropped", figures.upcoming_unindexed, "calls",
               ", the same users"))  # fmt: skip
    ratio = figures.upcoming_unindexed.p50_ms / figures.upcoming.p50_ms
    print(f"    p50 without the index / with it: {ratio:,.0f}x")


def _mark_people_with_due_items(conn: Connection) -> None:
    """Set the wrapper's `has_due_items` hint, when its schema has one, as `remember` would."""
    users, memory = t.users, t.memory
    if "has_due_items" not in users.c:
        return
    due = sqlalchemy.select(memory.c.user_id).where(memory.c.due_at.is_not(None))
    conn.execute(sqlalchemy.update(users).where(users.c.id.in_(due)).values(has_due_items=True))


async def bench_backend(name: str, url: str, sizes: Sizes) -> BackendFigures:
    """Every figure for one fresh store at `url`."""
    figures = BackendFigures(name)
    wrapper = await InteractionWrapper.open(url, agent_tz=AGENT_TZ, clock=SettableClock(BASE))
    store = Store(url)  # after open(): the schema is there
    try:
        await bench_messages(wrapper, store, figures, sizes)
        await bench_upcoming(wrapper, store, figures, sizes)
    finally:
        await store.dispose()
        await wrapper.close()
    return figures


# --- PostgreSQL: a throwaway cluster, or the server behind --postgres-url --------------------


class Unavailable(Exception):
    """PostgreSQL cannot be used here; the message says why."""


HOST = "127.0.0.1"
PG_SUPERUSER = "clockbot"
PG_SETTINGS = """
# clockbot wrapper bench: a throwaway cluster
listen_addresses = '{host}'
unix_socket_directories = '{sockets}'
synchronous_commit = off
"""


def _pg_tools() -> tuple[str, str]:
    """initdb and pg_ctl: from PATH, else the newest /usr/lib/postgresql/<version>/bin."""
    on_path = shutil.which("initdb"), shutil.which("pg_ctl")
    if on_path[0] and on_path[1]:
        return on_path[0], on_path[1]
    versions = []
    with contextlib.suppress(OSError):
        for entry in Path("/usr/lib/postgresql").iterdir():
            if entry.name.isdigit() and (entry / "bin" / "pg_ctl").exists():
                versions.append((int(entry.name), entry / "bin"))
    if not versions:
        raise Unavailable("no initdb/pg_ctl on PATH or under /usr/lib/postgresql/<version>/bin")
    bindir = max(versions)[1]
    return str(bindir / "initdb"), str(bindir / "pg_ctl")


def _server_account() -> tuple[list[str], int, int]:
    """The command prefix that runs the server (PostgreSQL refuses root), and its uid/gid."""
    if os.geteuid() != 0:
        return [], os.geteuid(), os.getegid()
    try:
        account = pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable("running as root and there is no 'postgres' user") from None
    runuser = shutil.which("runuser") or next(
        (p for p in ("/usr/sbin/runuser", "/sbin/runuser") if os.access(p, os.X_OK)), None
    )
    if runuser is None:
        raise Unavailable("running as root and runuser (util-linux) is missing")
    return [runuser, "-u", "postgres", "--"], account.pw_uid, account.pw_gid


def _run_tool(command: list[str], cwd: Path, what: str, log: Path | None = None) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env.update(LC_ALL="C", LANG="C")
    try:
        done = subprocess.run(  # noqa: S603 -- our own argv, from absolute paths
            command, cwd=cwd, env=env, capture_output=True, text=True, timeout=180, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise Unavailable(f"{what} failed: {exc}") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
        if log is not None and log.exists():
            tail += log.read_text(errors="replace").strip().splitlines()[-1:]
        raise Unavailable(f"{what} failed: {' / '.join(tail) or f'exit {done.returncode}'}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def throwaway_cluster() -> Iterator[str]:
    """initdb into a temp dir, start on 127.0.0.1 and a free port; yield the admin DSN.

    The server is stopped and its directory removed on exit, whatever happened.
    """
    initdb, pg_ctl = _pg_tools()
    prefix, uid, gid = _server_account()
    base = Path(tempfile.mkdtemp(prefix="clockbot-bench-pg-"))
    try:
        try:
            os.chown(base, uid, gid)
        except OSError as exc:
            raise Unavailable(f"cannot hand {base} to the server's user: {exc}") from None
        data, log = base / "data", base / "server.log"
        _run_tool(
            [*prefix, initdb, f"--pgdata={data}", f"--username={PG_SUPERUSER}", "--auth=trust",
             "--encoding=UTF8", "--no-locale", "--no-sync"],
            base, "initdb",
        )  # fmt: skip
        with (data / "postgresql.conf").open("a") as conf:
            conf.write(PG_SETTINGS.format(host=HOST, sockets=base))
        port = _free_port()
        control = [*prefix, pg_ctl, f"--pgdata={data}"]
        try:
            _run_tool(
                [*control, f"--log={log}", f"--options=-p {port}", "-w", "-t", "60", "start"],
                base, "pg_ctl start", log,
            )  # fmt: skip
            yield f"postgresql://{PG_SUPERUSER}@{HOST}:{port}/postgres"
        finally:
            if (data / "postmaster.pid").exists():  # also a server that came up too late
                try:
                    _run_tool([*control, "-m", "immediate", "-w", "stop"], base, "pg_ctl stop")
                except Unavailable as exc:
                    print(f"warning: {exc}", file=sys.stderr)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _plain_dsn(url: str) -> str:
    """A libpq URL (what asyncpg takes) from any PostgreSQL SQLAlchemy URL."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise Unavailable(f"--postgres-url is not a URL: {exc}") from None
    if parsed.get_backend_name() not in ("postgresql", "postgres"):
        raise Unavailable("--postgres-url must be a postgresql:// URL")
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(dsn: str, sql: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=30)
    try:
        return str(await conn.fetchval(sql))
    finally:
        await conn.close()


async def server_version(dsn: str) -> str:
    try:
        return await _admin(dsn, "SHOW server_version")
    except ImportError:
        raise Unavailable("asyncpg is not installed (the `postgres` extra)") from None
    except Exception as exc:  # refused, timed out, asyncpg's own (auth, no such database...)
        raise Unavailable(f"cannot connect: {type(exc).__name__}: {exc}") from None


@contextlib.asynccontextmanager
async def scratch_database(dsn: str) -> AsyncIterator[str]:
    """A fresh database on the server behind `dsn`, dropped on exit; yields its URL."""
    name = f"clockbot_bench_{secrets.token_hex(4)}"
    try:
        await _admin(dsn, f'CREATE DATABASE "{name}"')
    except Exception as exc:
        raise Unavailable(f"cannot create a scratch database: {exc}") from None
    try:
        yield make_url(dsn).set(database=name).render_as_string(hide_password=False)
    finally:
        await _admin(dsn, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- the run ----------------------------------------------------------------------------------


def machine_facts(pg: str) -> str:
    cpu = platform.processor() or "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return (
        f"machine: {os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, SQLAlchemy {sqlalchemy.__version__}\n"
        f"PostgreSQL: {pg}"
    )


def print_targets(results: list[BackendFigures]) -> None:
    print("\ntargets")
    for figures in results:
        steady, upcoming = figures.steady, figures.upcoming
        if steady is None or upcoming is None:
            continue
        named = "" if figures.name == "SQLite" else " (the message targets are set for SQLite)"
        print(f"  {figures.name}{named}")
        print(f"    on_user_message >= {TARGET_RATE:,.0f} msgs/s: {steady.rate:,.0f}/s"
              f"   {_verdict(steady.rate >= TARGET_RATE)}")  # fmt: skip
        print(f"    on_user_message p99 <= {TARGET_P99_MS:.0f} ms: {steady.p99_ms:.2f} ms"
              f"   {_verdict(steady.p99_ms <= TARGET_P99_MS)}")  # fmt: skip
        print(f"    get_upcoming p50 <= {TARGET_UPCOMING_P50_MS:.0f} ms: {upcoming.p50_ms:.2f} ms"
              f"   {_verdict(upcoming.p50_ms <= TARGET_UPCOMING_P50_MS)}")  # fmt: skip


async def run(sizes: Sizes, workdir: Path, pg_dsn: str | None, pg_note: str) -> None:
    """Print the header, then every figure for SQLite and, when it can be had, PostgreSQL.

    `pg_dsn` is the admin DSN of the server to use (None: none to use); `pg_note`
    says where it comes from, or why there is none.
    """
    skipped: str | None = None if pg_dsn is not None else pg_note
    if pg_dsn is not None:
        try:
            pg_note = f"{await server_version(pg_dsn)} ({pg_note})"
        except Unavailable as exc:
            skipped = str(exc)
    print(machine_facts(pg_note if skipped is None else f"skipped ({skipped})"))
    items = USERS * sizes.memory_per_user
    print(f"plan: {USERS:,} users x 5 threads, {sizes.messages:,} messages timed one at a time, "
          f"{sizes.first_messages:,} first messages, {items:,} memory items\n")  # fmt: skip

    results = []
    print(f"SQLite {sqlite3.sqlite_version} (a file in a temp dir; WAL, synchronous=NORMAL)")
    sqlite_url = f"sqlite:///{workdir / 'bench.sqlite3'}"
    results.append(await bench_backend("SQLite", sqlite_url, sizes))

    print("\nPostgreSQL")
    if pg_dsn is not None and skipped is None:
        try:
            async with scratch_database(pg_dsn) as url:
                results.append(await bench_backend("PostgreSQL", url, sizes))
        except Unavailable as exc:
            skipped = str(exc)
    if skipped is not None:
        print(f"  skipped ({skipped})")
    print_targets(results)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer messages and memory items")
    parser.add_argument("--postgres-url", help="use this server instead of a throwaway cluster")
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="clockbot-bench-")))
        pg_dsn: str | None = None
        try:
            if args.postgres_url:
                pg_dsn, pg_note = _plain_dsn(args.postgres_url), "--postgres-url"
            else:
                pg_dsn = stack.enter_context(throwaway_cluster())
                pg_note = "throwaway cluster on 127.0.0.1, synchronous_commit=off"
        except Unavailable as exc:
            pg_note = str(exc)
        asyncio.run(run(sizes, workdir, pg_dsn, pg_note))
    print(f"\nwhole run: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
