"""Suite-wide fixtures for real peers, and the peer hook. The logic lives in tests/support/."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from tests.run_suite import phase_files
from tests.support.leaks import LeakWatch
from tests.support.peers import REQUIRE_PEERS_ENV, peers_required, peers_used_by
from tests.support.postgres import PostgresServer, run_postgres
from tests.support.template_store import seed_sqlite, template_database

# --- the peer hook ------------------------------------------------------------------------------


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: every item is seen
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses a peer fixture (directly or through another fixture) `peer`;
    fail the run if a `long` or `timed` test sits where `make test` would not look for it."""
    marked = {marker: set(files) for marker, files in phase_files().items()}
    for item in items:
        for peer in peers_used_by(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.peer(peer))
        for marker, files in marked.items():
            if item.get_closest_marker(marker) is not None and str(item.path) not in files:
                raise pytest.UsageError(
                    f"{item.nodeid} is marked {marker!r} but tests/run_suite.py would not run "
                    f"it: write the mark as `pytest.mark.{marker}` in its file"
                )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Under CLOCKBOT_REQUIRE_PEERS=1 a `peer` test may not skip, whatever skipped it."""
    report = yield
    marker = item.get_closest_marker("peer")
    if (
        marker is not None
        and report.skipped
        and not hasattr(report, "wasxfail")
        and peers_required()
    ):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        peer = marker.args[0] if marker.args else "?"
        report.outcome = "failed"
        report.longrepr = f"peer test ({peer}) skipped under {REQUIRE_PEERS_ENV}=1: {reason}"
    return report


# --- no secret in any log -----------------------------------------------------------------------


@pytest.fixture(autouse=True)
def leak_watch() -> Iterator[LeakWatch]:
    """Every test: a log record, or a `clockbot run` child's log, holding a secret fails it."""
    watch = LeakWatch()
    watch.install()
    try:
        yield watch
    finally:
        found = watch.uninstall()
    if found:
        pytest.fail("a secret reached a log:\n" + "\n".join(sorted(set(found))), pytrace=False)


# --- PostgreSQL ---------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    """One throwaway cluster for the whole session (see tests/support/postgres.py)."""
    with run_postgres(tmp_path_factory) as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer, request: pytest.FixtureRequest) -> Iterator[str]:
    """A new database for this test, as a `postgresql+asyncpg://` URL; dropped after. Migrated
    to head (a copy of a template, tests/support/template_store.py) unless the test is marked
    ``fresh_store``: then empty."""
    fresh = request.node.get_closest_marker("fresh_store") is not None
    template = None if fresh else template_database(postgres_server)
    name = postgres_server.create_database(template=template)
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.peer("postgres"))])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The store's URL: every test that asks for it runs on SQLite and on a real PostgreSQL.

    The store is migrated to head already, unless the test is marked ``fresh_store``."""
    if request.param == "sqlite":
        path = tmp_path / "clock.sqlite3"
        if request.node.get_closest_marker("fresh_store") is None:
            seed_sqlite(path)
        return f"sqlite:///{path}"
    return str(request.getfixturevalue("postgres_url"))
