"""What clockbot leaves on the host: a private home and store, a warned-about config, no password.

Issue 35, row 14: the home and the SQLite file were made with the default umask, a
world-readable config.yaml passed silently, and the database password was not among the
masked secrets.
"""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest

from bot.app.redact import RedactSecrets
from bot.cli.doctor import diagnose
from bot.config.settings import load_settings
from wrapper.store.db import DEFAULT_DB_NAME, resolve_url


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_home_and_its_store_are_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "fresh" / ".clockbot"
    monkeypatch.setenv("CLOCKBOT_HOME", str(home))
    url = resolve_url(None)
    assert _mode(home) == 0o700
    store = home / DEFAULT_DB_NAME
    assert url.endswith(str(store))
    assert _mode(store) == 0o600


def test_an_existing_store_keeps_its_mode(tmp_path: Path) -> None:
    store = tmp_path / "shared.db"
    store.write_bytes(b"")
    store.chmod(0o640)  # the operator chose it
    resolve_url(f"sqlite:///{store}")
    assert _mode(store) == 0o640


def test_a_new_sqlite_file_named_by_url_is_private(tmp_path: Path) -> None:
    store = tmp_path / "data" / "bot.db"
    resolve_url(f"sqlite:///{store}")
    assert _mode(store) == 0o600


@pytest.mark.parametrize(("mode", "warned"), [(0o644, "everyone"), (0o640, "its group")])
async def test_a_config_others_can_read_is_warned_about(
    tmp_path: Path, mode: int, warned: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("agent_id: main\n", encoding="utf-8")
    config.chmod(mode)
    settings = load_settings(environ={"CLOCKBOT_HOME": str(tmp_path)})
    exposed = settings.exposure()
    assert exposed is not None
    assert warned in exposed and f"chmod 600 {config}" in exposed
    [check] = [c for c in await diagnose(settings, probe_timeout=0.1) if c.name == "config"]
    assert check.ok  # a warning: the configuration works
    assert "warning:" in check.detail and "chmod 600" in check.detail
    config.chmod(0o600)
    assert settings.exposure() is None


def test_the_database_password_is_a_masked_secret(tmp_path: Path) -> None:
    url = "postgresql://clockbot:s3cret-pw-42@db.internal/clockbot"
    settings = load_settings(environ={"CLOCKBOT_HOME": str(tmp_path), "CLOCKBOT_DATABASE_URL": url})
    assert "s3cret-pw-42" in settings.secrets()
    assert "s3cret-pw-42" not in str(settings.redacted())
    record = logging.LogRecord("x", logging.ERROR, "f", 1, "cannot connect to %s", (url,), None)
    RedactSecrets(settings.secrets()).filter(record)
    assert "s3cret-pw-42" not in record.getMessage()
