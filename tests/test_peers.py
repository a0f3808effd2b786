"""The peer rule (skip, or fail under CLOCKBOT_REQUIRE_PEERS=1) and the PostgreSQL fixtures."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.support import postgres
from tests.support.peers import REQUIRE_PEERS_ENV, peers_used_by, require_peer
from tests.support.postgres import PostgresServer, find_binaries, run_postgres

pytest_plugins = ("pytester",)


@pytest.fixture
def peers_optional(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_PEERS_ENV, raising=False)


@pytest.fixture
def peers_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_PEERS_ENV, "1")


# --- require_peer -------------------------------------------------------------------------------


@pytest.mark.usefixtures("peers_optional")
def test_require_peer_skips_with_the_reason() -> None:
    with pytest.raises(pytest.skip.Exception, match=r"^dovecot not available: not on PATH$"):
        require_peer("dovecot", "not on PATH")


@pytest.mark.usefixtures("peers_required")
def test_require_peer_fails_when_peers_are_required() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"^dovecot not available: not on PATH$"):
        require_peer("dovecot", "not on PATH")


@pytest.mark.parametrize("value", ["0", "", "true", "yes"])
def test_only_the_value_1_requires_peers(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(REQUIRE_PEERS_ENV, value)
    with pytest.raises(pytest.skip.Exception):
        require_peer("dovecot", "not on PATH")


def test_peer_fixtures_map_to_peer_names() -> None:
    assert peers_used_by(["tmp_path", "postgres_url", "postgres_server"]) == ["postgres"]
    assert peers_used_by(["tmp_path"]) == []


# --- the peer hook (tests/conftest.py), in an inner pytest run ----------------------------------

_INNER_TESTS = """
import pytest

@pytest.mark.peer("dovecot")
def test_peer_skips():
    pytest.skip("dovecot binary missing")

def test_plain_skip():
    pytest.skip("not a peer")

@pytest.mark.peer("dovecot")
@pytest.mark.xfail(reason="known bug", strict=True)
def test_peer_xfail():
    raise AssertionError

@pytest.mark.peer("dovecot")
def test_peer_passes():
    pass
"""


@pytest.fixture
def inner(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(
        "from tests.conftest import pytest_collection_modifyitems, pytest_runtest_makereport\n"
    )
    pytester.makeini("[pytest]\nmarkers =\n    peer(name): a peer\n")
    pytester.makepyfile(_INNER_TESTS)
    return pytester


@pytest.mark.usefixtures("peers_optional")
def test_hook_leaves_peer_skips_alone_by_default(inner: pytest.Pytester) -> None:
    result = inner.runpytest("-p", "no:asyncio", "-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(passed=1, skipped=2, xfailed=1)


@pytest.mark.usefixtures("peers_required")
def test_hook_fails_skipped_peer_tests_when_required(inner: pytest.Pytester) -> None:
    result = inner.runpytest("-p", "no:asyncio", "-p", "no:cacheprovider")
    # Only the peer test's skip turns into a failure; a plain skip and an xfail stay as they are.
    result.assert_outcomes(passed=1, failed=1, skipped=1, xfailed=1)
    result.stdout.fnmatch_lines(
        ["*peer test (dovecot) skipped under CLOCKBOT_REQUIRE_PEERS=1: *dovecot binary missing*"]
    )


# --- finding PostgreSQL -------------------------------------------------------------------------


def _fake_tools(bindir: Path, tools: tuple[str, ...] = ("initdb", "pg_ctl", "postgres")) -> None:
    bindir.mkdir(parents=True)
    for tool in tools:
        (bindir / tool).write_text("#!/bin/sh\n")
        (bindir / tool).chmod(0o755)


def test_find_binaries_takes_the_highest_complete_debian_version(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    _fake_tools(root / "9.6" / "bin")
    _fake_tools(root / "15" / "bin")
    _fake_tools(root / "16" / "bin", tools=("initdb", "pg_ctl"))  # no server: not a candidate
    _fake_tools(root / "latest" / "bin")  # not a version
    found = find_binaries(path=str(tmp_path / "empty"), debian_root=root)
    assert found == postgres.PgBinaries(*(root / "15" / "bin" / t for t in postgres._TOOLS))


def test_find_binaries_prefers_path(tmp_path: Path) -> None:
    _fake_tools(tmp_path / "path")
    _fake_tools(tmp_path / "lib" / "15" / "bin")
    found = find_binaries(path=str(tmp_path / "path"), debian_root=tmp_path / "lib")
    assert isinstance(found, postgres.PgBinaries)
    assert found.initdb == tmp_path / "path" / "initdb"


@pytest.fixture
def no_postgres(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(postgres, "DEBIAN_ROOT", tmp_path / "nothing")


@pytest.mark.usefixtures("no_postgres", "peers_optional")
def test_missing_postgres_skips(tmp_path_factory: pytest.TempPathFactory) -> None:
    with (
        pytest.raises(pytest.skip.Exception, match=r"^postgresql not available: no initdb"),
        run_postgres(tmp_path_factory),
    ):
        pytest.fail("unreachable")


@pytest.mark.usefixtures("no_postgres", "peers_required")
def test_missing_postgres_fails_when_peers_are_required(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with (
        pytest.raises(pytest.fail.Exception, match=r"^postgresql not available: no initdb"),
        run_postgres(tmp_path_factory),
    ):
        pytest.fail("unreachable")


# --- the running cluster ------------------------------------------------------------------------


def _dsn(url: str) -> str:
    assert url.startswith("postgresql+asyncpg://")
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def test_postgres_url_is_a_live_database(
    postgres_url: str, request: pytest.FixtureRequest
) -> None:
    assert postgres_url.startswith("postgresql+asyncpg://clockbot@127.0.0.1:")
    conn = await asyncpg.connect(_dsn(postgres_url))
    try:
        assert (await conn.fetchval("SELECT version()")).startswith("PostgreSQL ")
        assert await conn.fetchval("SELECT current_user") == "clockbot"
        assert await conn.fetchval("SELECT current_database()") == postgres_url.rsplit("/", 1)[1]
        assert await conn.fetchval("SHOW listen_addresses") == "127.0.0.1"
        assert await conn.fetchval("SHOW fsync") == "off"
        assert await conn.fetchval("SHOW server_encoding") == "UTF8"
    finally:
        await conn.close()
    marker = request.node.get_closest_marker("peer")
    assert marker is not None
    assert marker.args == ("postgres",)


_databases_seen: list[str] = []


@pytest.mark.parametrize("turn", [1, 2])
async def test_each_test_gets_its_own_empty_database(postgres_url: str, turn: int) -> None:
    """Its own database: the store's schema (copied from a migrated template,
    tests/support/template_store.py) and no row of anyone's; nothing an earlier test made."""
    conn = await asyncpg.connect(_dsn(postgres_url))
    try:
        name = await conn.fetchval("SELECT current_database()")
        assert name not in _databases_seen
        tables = [
            r["tablename"]
            for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        assert "left_behind" not in tables  # the other turn's table
        assert {"alembic_version", "inbound_journal", "threads"} <= set(tables)  # migrated
        for table in set(tables) - {"alembic_version"}:
            counted = f'SELECT count(*) FROM "{table}"'  # noqa: S608 - names from pg_tables
            assert await conn.fetchval(counted) == 0, table
        # Databases handed to earlier tests are gone.
        existing = {r["datname"] for r in await conn.fetch("SELECT datname FROM pg_database")}
        assert not existing & set(_databases_seen)
        await conn.execute("CREATE TABLE left_behind (turn int)")
        await conn.execute("INSERT INTO left_behind VALUES ($1)", turn)
    finally:
        await conn.close()
    _databases_seen.append(name)


async def test_sqlalchemy_takes_the_url(postgres_url: str) -> None:
    engine = create_async_engine(postgres_url)
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT 1 + 1"))).scalar_one() == 2
    finally:
        await engine.dispose()


async def test_more_databases_from_async_code(postgres_server: PostgresServer) -> None:
    name = await postgres_server.acreate_database()
    conn = await asyncpg.connect(postgres_server.dsn(name))
    try:
        assert await conn.fetchval("SELECT current_database()") == name
    finally:
        await conn.close()
    with pytest.raises(RuntimeError, match="await acreate_database"):
        postgres_server.create_database()
    await postgres_server.adrop_database(name)
    admin = await asyncpg.connect(postgres_server.admin_dsn)
    try:
        assert (
            await admin.fetchval("SELECT count(*) FROM pg_database WHERE datname = $1", name) == 0
        )
    finally:
        await admin.close()


def test_more_databases_from_sync_code(postgres_server: PostgresServer) -> None:
    name = postgres_server.create_database("t_sync_helper")
    try:
        assert name == "t_sync_helper"
        assert postgres_server.url(name).endswith(f":{postgres_server.port}/t_sync_helper")
    finally:
        postgres_server.drop_database(name)
    with pytest.raises(ValueError, match="database name"):
        postgres_server.create_database('x"; DROP DATABASE postgres; --')


def test_the_server_does_not_run_as_root(postgres_server: PostgresServer) -> None:
    owner = postgres_server.data_dir.stat().st_uid
    assert owner != 0
    assert owner == os.geteuid() or os.geteuid() == 0


@pytest.mark.usefixtures("peers_optional")
def test_root_without_a_postgres_user_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_such_user(name: str) -> None:
        raise KeyError(name)

    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(pwd, "getpwnam", no_such_user)
    with pytest.raises(pytest.skip.Exception, match="no 'postgres' system user"):
        postgres._server_account()
