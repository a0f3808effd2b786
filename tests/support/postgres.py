"""A throwaway PostgreSQL cluster for the tests: initdb into a temp dir, pg_ctl start, stop at end.

`run_postgres(tmp_path_factory)` finds the server binaries (PATH first, then Debian's
`/usr/lib/postgresql/<version>/bin`, highest version), runs `initdb` (trust auth, superuser
`clockbot`, UTF8, no fsync) and starts the server on 127.0.0.1 and a free port. As root it runs
them as the `postgres` system user through `runuser`, because PostgreSQL refuses to run as root.
The cluster is stopped (`pg_ctl -m immediate stop`) when the context exits, whatever happened.

The `PostgresServer` it yields hands out URLs and creates/drops databases; `tests/conftest.py`
wires it into the `postgres_server` (session) and `postgres_url` (per test) fixtures.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import pwd
import re
import shutil
import socket
import stat
import subprocess
import tempfile
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.support.peers import require_peer

PEER = "postgresql"
SUPERUSER = "clockbot"
HOST = "127.0.0.1"
MIN_MAJOR = 13  # DROP DATABASE ... WITH (FORCE)
DEBIAN_ROOT = Path("/usr/lib/postgresql")
SERVER_ACCOUNT = "postgres"  # the system user the server runs as when the tests run as root
RUNUSER_FALLBACKS = (Path("/usr/sbin/runuser"), Path("/sbin/runuser"), Path("/usr/bin/runuser"))

_TOOLS = ("initdb", "pg_ctl", "postgres")
_DB_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_SOCKET_PATH_MAX = 100  # sun_path is 108 bytes; ".s.PGSQL.nnnnn" goes after the directory

T = TypeVar("T")


# --- the server object --------------------------------------------------------------------------


@dataclass(frozen=True)
class PostgresServer:
    """A running cluster. Trust auth: the user name is all a client needs."""

    host: str
    port: int
    user: str
    data_dir: Path
    log_path: Path  # live while the server runs; see run_postgres for where it ends up

    def url(self, database: str) -> str:
        """SQLAlchemy URL, as clockbot's `database_url` takes it."""
        return f"postgresql+asyncpg://{self.user}@{self.host}:{self.port}/{database}"

    def dsn(self, database: str) -> str:
        """Plain libpq URL, for `asyncpg.connect` or psql."""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"

    @property
    def admin_dsn(self) -> str:
        """The maintenance database as superuser: create and drop databases from here."""
        return self.dsn("postgres")

    async def acreate_database(
        self, name: str | None = None, *, template: str | None = None
    ) -> str:
        """Create a database (default name `t_<uuid hex>`), empty or a copy of `template`, and
        return its name."""
        name = name or f"t_{uuid.uuid4().hex}"
        copy = f' TEMPLATE "{_checked(template)}"' if template else ""
        await self._admin(f'CREATE DATABASE "{_checked(name)}"{copy}')
        return name

    async def adrop_database(self, name: str) -> None:
        """Drop a database, ending any sessions still connected to it."""
        await self._admin(f'DROP DATABASE IF EXISTS "{_checked(name)}" WITH (FORCE)')

    def create_database(self, name: str | None = None, *, template: str | None = None) -> str:
        """`acreate_database` for synchronous code (fixtures); not inside a running loop."""
        return _run_sync(functools.partial(self.acreate_database, name, template=template))

    def drop_database(self, name: str) -> None:
        """`adrop_database` for synchronous code (fixtures); not inside a running loop."""
        _run_sync(self.adrop_database, name)

    async def _admin(self, sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.admin_dsn, ssl=False, timeout=30)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()


def _checked(name: str) -> str:
    if not _DB_NAME.fullmatch(name):
        raise ValueError(f"database name {name!r}: use lower-case letters, digits and _")
    return name


def _run_sync(func: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Run `func(*args)` on a private event loop that is never made the thread's current loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError(
            "called from a running event loop: in async code await "
            "acreate_database()/adrop_database() instead"
        )

    async def main() -> T:
        return await func(*args)

    # A loop_factory keeps Runner from calling set_event_loop(); asyncio.run() would reset the
    # current loop to None behind pytest-asyncio's back.
    with asyncio.Runner(loop_factory=asyncio.new_event_loop) as runner:
        return runner.run(main())


# --- finding the binaries -----------------------------------------------------------------------


@dataclass(frozen=True)
class PgBinaries:
    initdb: Path
    pg_ctl: Path
    postgres: Path


def find_binaries(path: str | None = None, debian_root: Path | None = None) -> PgBinaries | str:
    """The server binaries, or the reason they cannot be found.

    All three on `path` (default: $PATH) win; otherwise the highest
    `<debian_root>/<version>/bin` (default: /usr/lib/postgresql) holding all three.
    """
    debian_root = DEBIAN_ROOT if debian_root is None else debian_root
    on_path = [shutil.which(tool, path=path) for tool in _TOOLS]
    if all(on_path):
        return PgBinaries(*(Path(p) for p in on_path if p))
    candidates: list[tuple[tuple[int, ...], Path]] = []
    with contextlib.suppress(OSError):
        for entry in debian_root.iterdir():
            version = _version_key(entry.name)
            bindir = entry / "bin"
            if version and all(os.access(bindir / tool, os.X_OK) for tool in _TOOLS):
                candidates.append((version, bindir))
    if not candidates:
        return (
            f"no initdb/pg_ctl/postgres on PATH or under {debian_root}/<version>/bin "
            "(install the Debian package `postgresql`)"
        )
    bindir = max(candidates)[1]
    return PgBinaries(*(bindir / tool for tool in _TOOLS))


def _version_key(name: str) -> tuple[int, ...]:
    parts = name.split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else ()


def _major_version(pg_ctl: Path) -> int | None:
    out = subprocess.run(
        [str(pg_ctl), "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout
    match = re.search(r"\(PostgreSQL\) (\d+)", out)
    return int(match.group(1)) if match else None


# --- running as root ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Account:
    """Who runs initdb/pg_ctl: `prefix` goes before each command (empty: ourselves)."""

    prefix: tuple[str, ...]
    uid: int
    gid: int
    groups: frozenset[int]


def _server_account() -> _Account:
    uid = os.geteuid()
    if uid != 0:
        return _Account((), uid, os.getegid(), frozenset(os.getgroups()) | {os.getegid()})
    try:
        pw = pwd.getpwnam(SERVER_ACCOUNT)
    except KeyError:
        require_peer(
            PEER,
            f"running as root and there is no {SERVER_ACCOUNT!r} system user to run the server "
            "as (PostgreSQL refuses root; the Debian package `postgresql` creates that user)",
        )
    runuser = shutil.which("runuser") or next(
        (str(p) for p in RUNUSER_FALLBACKS if os.access(p, os.X_OK)), None
    )
    if runuser is None:
        require_peer(PEER, "running as root and `runuser` (util-linux) is missing")
    groups = frozenset(os.getgrouplist(pw.pw_name, pw.pw_gid))
    return _Account((runuser, "-u", SERVER_ACCOUNT, "--"), pw.pw_uid, pw.pw_gid, groups)


def _traversable(path: Path, account: _Account) -> bool:
    """Whether `account` may search every directory from / down to `path`."""
    if account.uid == 0:
        return True
    for directory in (path, *path.parents):
        st = directory.stat()
        if st.st_uid == account.uid:
            bit = stat.S_IXUSR
        elif st.st_gid in account.groups:
            bit = stat.S_IXGRP
        else:
            bit = stat.S_IXOTH
        if not st.st_mode & bit:
            return False
    return True


def _cluster_dir(tmp_path_factory: pytest.TempPathFactory, account: _Account) -> tuple[Path, bool]:
    """A directory for the cluster that `account` can reach; True if we must delete it.

    pytest's own temp dir is used when it can be (it is kept after the run, log included). As
    root it usually cannot: pytest makes /tmp/pytest-of-root mode 0700, so the cluster then
    goes into a fresh directory under the system temp dir, removed at the end.
    """
    base = tmp_path_factory.mktemp("postgres")
    short = len(str(base / "sock" / ".s.PGSQL.65535")) <= _SOCKET_PATH_MAX
    if short and _traversable(base, account):
        return base, False
    tmp_root = Path(tempfile.gettempdir())
    if not _traversable(tmp_root, account):
        raise RuntimeError(
            f"neither {base} nor {tmp_root} is reachable by uid {account.uid} "
            "(the user the PostgreSQL server runs as); set TMPDIR to a world-searchable directory"
        )
    return Path(tempfile.mkdtemp(prefix="clockbot-pg-", dir=tmp_root)), True


# --- the cluster --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _server_env() -> dict[str, str]:
    # PG* variables (PGDATA, PGPORT, PGOPTIONS...) from the developer's shell must not leak in.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env.update(LC_ALL="C", LANG="C")
    return env


def _run(cmd: list[str], *, cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd,
        cwd=cwd,
        env=_server_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _failed(what: str, proc: subprocess.CompletedProcess[str], log: Path | None = None) -> str:
    text = f"{what} failed (exit {proc.returncode})\n{proc.stdout}{proc.stderr}"
    if log is not None and log.exists():
        text += f"\n--- {log} (tail) ---\n" + "\n".join(
            log.read_text(errors="replace").splitlines()[-30:]
        )
    return text


_CONFIG = """
# clockbot test cluster: throwaway data, so durability is off for speed.
listen_addresses = '{host}'
unix_socket_directories = '{sockets}'
max_connections = 100
fsync = off
synchronous_commit = off
full_page_writes = off
"""


@contextlib.contextmanager
def run_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    """Start a throwaway cluster, yield it, and stop it on exit (tests failing or not).

    Missing binaries, a too-old version or no way to leave root skip (or fail, under
    CLOCKBOT_REQUIRE_PEERS=1) through `require_peer`; a cluster that is there but will not
    start raises with pg_ctl's output and the server log.
    """
    found = find_binaries()
    if isinstance(found, str):
        require_peer(PEER, found)
    major = _major_version(found.pg_ctl)
    if major is None or major < MIN_MAJOR:
        require_peer(PEER, f"{found.pg_ctl} is version {major}, the tests need >= {MIN_MAJOR}")
    account = _server_account()
    base, remove_base = _cluster_dir(tmp_path_factory, account)
    data, sockets, log = base / "data", base / "sock", base / "postgres.log"
    try:
        sockets.mkdir()
        if account.prefix:
            for path in (base, sockets):
                os.chown(path, account.uid, account.gid)
        proc = _run(
            [
                *account.prefix,
                str(found.initdb),
                f"--pgdata={data}",
                f"--username={SUPERUSER}",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-sync",
            ],
            cwd=base,
            timeout=180,
        )
        if proc.returncode != 0:
            raise RuntimeError(_failed("initdb", proc))
        config = _CONFIG.format(host=HOST, sockets=str(sockets).replace("'", "''"))
        with (data / "postgresql.conf").open("a") as conf:
            conf.write(config)

        def pg_ctl(*args: str) -> subprocess.CompletedProcess[str]:
            command = [*account.prefix, str(found.pg_ctl), f"--pgdata={data}", *args]
            return _run(command, cwd=base, timeout=120)

        port = 0
        for attempt in (1, 2):
            port = _free_port()
            proc = pg_ctl(f"--log={log}", f"--options=-p {port}", "-w", "-t", "60", "start")
            if proc.returncode == 0:
                break
            pg_ctl("-m", "immediate", "-w", "stop")  # in case it came up too late for -t 60
            in_use = log.exists() and "already in use" in log.read_text(errors="replace")
            if attempt == 2 or not in_use:
                raise RuntimeError(_failed(f"pg_ctl start on port {port}", proc, log))
        try:
            yield PostgresServer(HOST, port, SUPERUSER, data, log)
        finally:
            proc = pg_ctl("-m", "immediate", "-w", "stop")
            if proc.returncode != 0:
                raise RuntimeError(_failed("pg_ctl stop", proc, log))
    finally:
        if remove_base:
            if log.exists():
                # Keep the server log beside the rest of this run's pytest temp files.
                shutil.copyfile(log, tmp_path_factory.mktemp("postgres-log") / "postgres.log")
            shutil.rmtree(base, ignore_errors=True)
