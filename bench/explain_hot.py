"""EXPLAIN (ANALYZE, BUFFERS) of the PostgreSQL hot path's statements at 1,000,000 messages.

Builds a store on a throwaway cluster with wrapper_bench's people (10,000 x 5
threads), 1,000,000 journaled messages spread over their threads, 1,000,000
memory items (100 a person, ~30% due) and 50,000 open actions, then ANALYZEs
and explains, with a real person's values, the hot path's `READ`,
`OPEN_ACTIONS`, `ACTIONS`, `UPCOMING` and `WRITE` (`wrapper/inbound/hot.py`): the statements a
message runs on PostgreSQL.

Writes the plans to `docs/explain-hot-path.md` (or `--out PATH`) and fails if a
plan reads any of the big tables (journal, memory, actions, waiting list)
with a sequential scan. EXPLAIN ANALYZE runs the statement, so WRITE
really journals one more message: that is the point, in a store thrown away after.

Run: `.venv/bin/python bench/explain_hot.py [--out PATH]` (about a minute).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import secrets
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import wrapper_bench as wb
from cluster_bench import populate

from clockcore.actions import OPEN_STATUSES
from wrapper.inbound import hot
from wrapper.store import queries

MESSAGES = 1_000_000
MEMORY_PER_PERSON = 100
OPEN_ACTIONS_TOTAL = 50_000
BIG_TABLES = ("inbound_journal", "memory_items", "actions", "pending_turns", "threads", "users")
NOW = wb.BASE + timedelta(minutes=5)
JOURNAL_COLUMNS = ["channel", "message_id", "thread_key", "user_key", "received_at", "text"]


def _memory_rows(rng: random.Random) -> Iterator[tuple[Any, ...]]:
    for row in wb.memory_rows(rng, MEMORY_PER_PERSON):
        yield row["user_id"], row["content"], row["due_at"], row["reminded_at"], row["created_at"]


def _action_rows(rng: random.Random) -> Iterator[tuple[Any, ...]]:
    for n in range(OPEN_ACTIONS_TOTAL):
        user = rng.randrange(wb.USERS)
        at = wb.BASE - timedelta(minutes=rng.uniform(1, 600))
        yield (
            f"act_{n:012x}", queries.own_user_id(wb.user_key(user)),
            wb.thread_key(wb.thread_ids(user)[0]), "lunch", "temporal_action", "planned", "auto",
            at, at + timedelta(hours=rng.uniform(0.5, 12)),
        )  # fmt: skip


async def build(dsn: str) -> None:
    # The journal is this script's own million (cluster_bench's history would be more).
    await populate(dsn.replace("postgresql://", "postgresql+asyncpg://", 1), history=0)
    connection = await asyncpg.connect(dsn)
    try:
        rng = random.Random(2)
        journal = wb.journal_rows(rng, MESSAGES)
        await connection.copy_records_to_table(
            "inbound_journal",
            records=(tuple(row[c] for c in JOURNAL_COLUMNS) for row in journal),
            columns=JOURNAL_COLUMNS,
        )
        await connection.copy_records_to_table(
            "memory_items", records=_memory_rows(rng),
            columns=["user_id", "content", "due_at", "reminded_at", "created_at"],
        )  # fmt: skip
        await connection.copy_records_to_table(
            "actions", records=_action_rows(rng),
            columns=["id", "user_id", "thread_key", "label", "type", "status", "source",
                     "recorded_at", "expires_at"],
        )  # fmt: skip
        await connection.execute(
            "UPDATE users SET has_due_items = true, actions_until = $1", NOW + timedelta(days=1)
        )
        await connection.execute("VACUUM ANALYZE")
    finally:
        await connection.close()


def _statements() -> list[tuple[str, str, tuple[Any, ...]]]:
    user = 4242
    person = queries.own_user_id(wb.user_key(user))
    thread_id = wb.thread_ids(user)[1]
    thread = wb.thread_key(thread_id)
    route, lease = json.dumps({"chat_id": "42"}), NOW + timedelta(minutes=5)
    write = (
        "telegram", "new-1", thread, wb.user_key(user), NOW, "hello", NOW, wb.AGENT_TZ, 0.0,
        True, person, True, route, "w1", lease, json.dumps({}), thread_id, str(user),
        *[None] * 9, [],  # no action clocked ($19-$27), none compacted away ($28)
    )  # fmt: skip
    return [
        ("hot READ", hot.READ, (wb.user_key(user), thread, "telegram", "new-1")),
        ("hot OPEN_ACTIONS", hot.OPEN_ACTIONS, (person, sorted(OPEN_STATUSES), NOW)),
        ("hot ACTIONS", hot.ACTIONS, (person, True)),
        ("hot UPCOMING", hot.UPCOMING, (person, NOW, NOW + timedelta(days=7), 50)),
        ("hot WRITE", hot.WRITE, write),
    ]


async def explain(dsn: str) -> list[tuple[str, str, str]]:
    """(name, SQL, plan text) for each statement."""
    connection = await asyncpg.connect(dsn)
    try:
        await connection.set_type_codec(
            "json", encoder=lambda v: v, decoder=json.loads, schema="pg_catalog"
        )
        plans = []
        for name, sql, args in _statements():
            rows = await connection.fetch(f"EXPLAIN (ANALYZE, BUFFERS) {sql}", *args)
            plans.append((name, sql.strip(), "\n".join(r[0] for r in rows)))
        return plans
    finally:
        await connection.close()


def _sequential_scans(plan: str) -> list[str]:
    return [t for t in BIG_TABLES if re.search(rf"Seq Scan on {t}\b", plan)]


def write_doc(path: Path, plans: list[tuple[str, str, str]], version: str) -> None:
    lines = [
        "# The PostgreSQL hot path at 1,000,000 messages",
        "",
        "Written by `bench/explain_hot.py` (do not edit by hand): a throwaway "
        f"PostgreSQL {version} cluster with {wb.USERS:,} people, "
        f"{wb.USERS * 5 // 1:,} memberships, {MESSAGES:,} journaled messages, "
        f"{wb.USERS * MEMORY_PER_PERSON:,} memory items and {OPEN_ACTIONS_TOTAL:,} "
        "actions, after `VACUUM ANALYZE`. Every statement reads the big tables "
        "through an index; the script fails if any plan scans one of "
        f"{', '.join(BIG_TABLES)} sequentially.",
        "",
    ]
    for name, sql, plan in plans:
        lines += [f"## {name}", "", "```sql", sql, "```", "", "```", plan, "```", ""]
    path.write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    default = Path(__file__).resolve().parent.parent / "docs" / "explain-hot-path.md"
    parser.add_argument("--out", type=Path, default=default)
    args = parser.parse_args()
    began = time.perf_counter()
    with contextlib.ExitStack() as stack:
        admin = stack.enter_context(wb.throwaway_cluster())
        name = f"clockbot_explain_{secrets.token_hex(4)}"
        asyncio.run(wb._admin(admin, f'CREATE DATABASE "{name}"'))
        dsn = admin.rsplit("/", 1)[0] + f"/{name}"
        version = asyncio.run(wb.server_version(dsn))
        asyncio.run(build(dsn))
        print(f"store built in {time.perf_counter() - began:.0f} s")
        plans = asyncio.run(explain(dsn))
    failures = []
    for name, _sql, plan in plans:
        scans = _sequential_scans(plan)
        timing = re.search(r"Execution Time: ([\d.]+) ms", plan)
        shown = timing.group(1) if timing else "?"
        verdict = "SEQ SCAN on " + ", ".join(scans) if scans else "indexed"
        print(f"  {name:<18} {shown:>8} ms   {verdict}")
        failures += [f"{name}: {t}" for t in scans]
    write_doc(args.out, plans, version)
    print(f"plans written to {args.out}; whole run {time.perf_counter() - began:.0f} s")
    if failures:
        sys.exit("sequential scans: " + "; ".join(failures))


if __name__ == "__main__":
    main()
