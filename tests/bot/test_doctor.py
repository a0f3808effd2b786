"""`clockbot doctor` against a real local HTTP server and real SQLite stores."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from aiohttp import web
from pydantic import SecretStr
from typer.testing import CliRunner

from bot.cli.doctor import Check, diagnose
from bot.cli.main import app
from bot.config.settings import (
    EmailSettings,
    LLMSettings,
    Settings,
    SlackSettings,
    TelegramSettings,
)
from clockcore.parsing import duckling_reader

KEY = "sk-test-Secret-4c1d2e"
runner = CliRunner()

Server = Callable[[int], Awaitable[str]]


class Recorder:
    """What the fake LLM server saw."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str]]] = []


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith("CLOCKBOT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
async def llm_server(recorder: Recorder) -> AsyncIterator[Server]:
    """Start a server on 127.0.0.1 whose ``/v1/models`` answers the given status; its base URL."""
    runners: list[web.AppRunner] = []

    async def start(status: int) -> str:
        async def models(request: web.Request) -> web.Response:
            recorder.requests.append((request.path, dict(request.headers)))
            return web.json_response({"data": [{"id": "m"}]}, status=status)

        application = web.Application()
        application.router.add_get("/v1/models", models)
        app_runner = web.AppRunner(application)
        await app_runner.setup()
        runners.append(app_runner)
        site = web.TCPSite(app_runner, "127.0.0.1", 0)
        await site.start()
        port = app_runner.addresses[0][1]
        return f"http://127.0.0.1:{port}"

    yield start
    for app_runner in runners:
        await app_runner.cleanup()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def _settings(tmp_path: Path, **groups: object) -> Settings:
    return Settings(home=tmp_path, database_url=f"sqlite:///{tmp_path / 'store.sqlite3'}", **groups)  # type: ignore[arg-type]


def _by_name(checks: list[Check]) -> dict[str, Check]:
    return {check.name: check for check in checks}


# --------------------------------------------------------------------------- diagnose


async def test_a_plain_setup_passes_every_check(tmp_path: Path) -> None:
    checks = await diagnose(_settings(tmp_path))
    assert [c.name for c in checks] == [
        "config", "store", "llm", "time", "telegram", "slack", "email",
    ]  # fmt: skip
    assert all(c.ok for c in checks)
    found = _by_name(checks)
    assert found["llm"].detail == "rules agent (no LLM configured)"
    assert found["store"].detail == f"opened sqlite:///{tmp_path / 'store.sqlite3'}"
    assert (tmp_path / "store.sqlite3").exists()
    assert found["telegram"].detail == "not configured"
    assert found["config"].detail.startswith("loaded from the environment and defaults")
    assert found["llm"].line() == "ok   llm: rules agent (no LLM configured)"


async def test_the_default_store_lives_in_the_home(tmp_path: Path) -> None:
    found = _by_name(await diagnose(Settings(home=tmp_path / "home")))
    assert found["store"].ok
    assert (tmp_path / "home" / "clockbot.sqlite3").exists()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("mysql://user:pw@db/clock", "database URL"),
        ("not a url at all", "not a SQLAlchemy URL"),
    ],
)
async def test_a_bad_database_url_fails_the_store(tmp_path: Path, url: str, expected: str) -> None:
    found = _by_name(await diagnose(Settings(home=tmp_path, database_url=url)))
    assert not found["store"].ok
    assert expected in found["store"].detail
    assert ":pw@" not in found["store"].detail
    assert found["store"].line().startswith("FAIL store: ")


async def test_a_store_that_cannot_open_fails(tmp_path: Path) -> None:
    (tmp_path / "a-directory.sqlite3").mkdir()
    url = f"sqlite:///{tmp_path / 'a-directory.sqlite3'}"
    found = _by_name(await diagnose(Settings(home=tmp_path, database_url=url)))
    assert not found["store"].ok
    assert "cannot open the clock store" in found["store"].detail


async def test_openai_reachable_sends_the_key_only_as_a_header(
    tmp_path: Path, llm_server: Server, recorder: Recorder
) -> None:
    base = await llm_server(200)
    llm = LLMSettings(provider="openai", base_url=base + "/v1", model="m", api_key=SecretStr(KEY))
    found = _by_name(await diagnose(_settings(tmp_path, llm=llm)))
    assert found["llm"].ok
    assert found["llm"].detail == f"openai at {base}/v1/models reachable (HTTP 200), model m"
    assert recorder.requests[0][0] == "/v1/models"
    assert recorder.requests[0][1]["Authorization"] == f"Bearer {KEY}"
    assert KEY not in found["llm"].detail


async def test_anthropic_reachable_uses_x_api_key(
    tmp_path: Path, llm_server: Server, recorder: Recorder
) -> None:
    base = await llm_server(200)
    llm = LLMSettings(provider="anthropic", base_url=base, model="c", api_key=SecretStr(KEY))
    found = _by_name(await diagnose(_settings(tmp_path, llm=llm)))
    assert found["llm"].ok
    path, headers = recorder.requests[0]
    assert path == "/v1/models"
    assert headers["x-api-key"] == KEY
    assert "anthropic-version" in headers
    assert "Authorization" not in headers


@pytest.mark.parametrize(
    ("status", "expected"), [(401, "refused the API key (HTTP 401)"), (500, "answered HTTP 500")]
)
async def test_an_llm_error_status_fails(
    tmp_path: Path, llm_server: Server, status: int, expected: str
) -> None:
    base = await llm_server(status)
    llm = LLMSettings(provider="openai", base_url=base + "/v1", model="m", api_key=SecretStr(KEY))
    found = _by_name(await diagnose(_settings(tmp_path, llm=llm)))
    assert not found["llm"].ok
    assert found["llm"].detail.endswith(expected)
    assert KEY not in found["llm"].detail


async def test_a_refused_connection_fails_and_hides_url_credentials(tmp_path: Path) -> None:
    base = f"http://user:{KEY}@127.0.0.1:{_closed_port()}/v1?token={KEY}"
    llm = LLMSettings(provider="openai", base_url=base, model="m", api_key=SecretStr(KEY))
    found = _by_name(await diagnose(_settings(tmp_path, llm=llm)))
    assert not found["llm"].ok
    assert found["llm"].detail.endswith("unreachable: connection refused")
    assert KEY not in found["llm"].detail


async def test_configured_channels_are_reported_and_fail_when_their_platform_is_unreachable(
    tmp_path: Path,
) -> None:
    nowhere = "http://127.0.0.1:1"  # nothing listens on port 1: refused at once
    settings = _settings(
        tmp_path,
        telegram=TelegramSettings(
            token=SecretStr(f"123:{KEY}"),
            mode="webhook",
            api_url=nowhere,
            webhook_url="https://example.org/tg",
            webhook_secret=SecretStr("abc"),
            allowed_users=("1", "2"),
        ),
        slack=SlackSettings(
            bot_token=SecretStr(f"xoxb-{KEY}"),
            app_token=SecretStr(f"xapp-{KEY}"),
            api_url=nowhere + "/api/",
        ),
        email=EmailSettings(
            address="bot@example.org",
            imap_host="127.0.0.1",
            imap_port=1,
            smtp_host="127.0.0.1",
            smtp_port=1,
            imap_password=SecretStr(KEY),
        ),
    )
    found = _by_name(await diagnose(settings, probe_timeout=10))
    assert found["telegram"].detail.startswith("configured (mode webhook, API http://127.0.0.1:1")
    assert "2 allowed users" in found["telegram"].detail
    assert "mode socket" in found["slack"].detail
    assert "IMAP 127.0.0.1:1 tls, SMTP 127.0.0.1:1 starttls" in found["email"].detail
    for name in ("telegram", "slack", "email"):
        assert not found[name].ok
        assert "), but " in found[name].detail, found[name].detail
    assert "getMe failed" in found["telegram"].detail
    assert "auth.test" in found["slack"].detail
    assert "cannot open the mailbox" in found["email"].detail
    assert not any(KEY in check.line() for check in found.values())


# --------------------------------------------------------------------------- the command


def test_doctor_exits_0_when_everything_passes(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("agent_id: doc\n", encoding="utf-8")
    (tmp_path / "config.yaml").chmod(0o600)  # else a warning follows (test_host_files)
    result = runner.invoke(app, ["doctor"], env={"CLOCKBOT_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"ok   config: loaded from {tmp_path / 'config.yaml'} and the environment"
    assert len(lines) == 7
    assert all(line.startswith("ok   ") for line in lines)
    reader = "Duckling" if duckling_reader.available() else "clockcore's own grammar"
    assert lines[3].startswith(f"ok   time: {reader}")


def test_doctor_exits_1_on_a_failed_check_without_showing_the_key(tmp_path: Path) -> None:
    env = {
        "CLOCKBOT_HOME": str(tmp_path),
        "CLOCKBOT_LLM_PROVIDER": "openai",
        "CLOCKBOT_LLM_MODEL": "m",
        "CLOCKBOT_LLM_BASE_URL": f"http://127.0.0.1:{_closed_port()}/v1",
        "CLOCKBOT_LLM_API_KEY": KEY,
    }
    result = runner.invoke(app, ["doctor"], env=env)
    assert result.exit_code == 1
    assert "FAIL llm: openai at http://127.0.0.1:" in result.stdout
    assert KEY not in result.output


async def test_doctor_against_a_live_server(tmp_path: Path, llm_server: Server) -> None:
    base = await llm_server(200)
    config = tmp_path / "clockbot.yaml"
    config.write_text(
        f"llm: {{provider: openai, base_url: '{base}/v1', model: m, api_key: {KEY}}}\n",
        encoding="utf-8",
    )
    env = {"CLOCKBOT_HOME": str(tmp_path)}
    # The command runs its own event loop: give it a thread while this loop serves.
    result = await asyncio.to_thread(
        runner.invoke, app, ["doctor", "--config", str(config)], env=env
    )
    assert result.exit_code == 0, result.output
    assert "ok   llm: openai at" in result.stdout
    assert KEY not in result.output


def test_doctor_exits_2_on_a_bad_configuration(tmp_path: Path) -> None:
    env = {
        "CLOCKBOT_HOME": str(tmp_path),
        "CLOCKBOT_TELEGRAM_TOKEN": f"123:{KEY}",
        "CLOCKBOT_TELEGRAM_MODE": "webhook",
    }
    result = runner.invoke(app, ["doctor"], env=env)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "CLOCKBOT_TELEGRAM_WEBHOOK_SECRET" in result.stderr
    assert KEY not in result.output


def test_doctor_exits_2_on_a_missing_config_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    result = runner.invoke(
        app, ["doctor", "--config", str(missing)], env={"CLOCKBOT_HOME": str(tmp_path)}
    )
    assert result.exit_code == 2
    assert "not found" in result.stderr
