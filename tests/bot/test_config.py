"""Settings: the variable table, environment over YAML over defaults, errors that keep secrets."""

from __future__ import annotations

import json
import os
import re
from datetime import time, timedelta
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from bot.config.settings import (
    ENV_VARS,
    ConfigError,
    LLMSettings,
    Settings,
    TelegramSettings,
    load_settings,
)
from clockcore import DEFAULT_POLICY, ContactWindow

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cr3t-Value-9f8e7d"


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No CLOCKBOT_* variable and no real home leaks in from the developer's machine."""
    for name in list(os.environ):
        if name.startswith("CLOCKBOT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))


def _home(tmp_path: Path, yaml_text: str | None = None) -> dict[str, str]:
    """An environment whose CLOCKBOT_HOME is `tmp_path`, with config.yaml when given."""
    if yaml_text is not None:
        (tmp_path / "config.yaml").write_text(yaml_text, encoding="utf-8")
    return {"CLOCKBOT_HOME": str(tmp_path)}


def _example_names() -> list[str]:
    text = (ROOT / "deploy" / ".env.example").read_text(encoding="utf-8")
    return re.findall(r"^(CLOCKBOT_[A-Z0-9_]+)=", text, flags=re.MULTILINE)


# --------------------------------------------------------------------------- the table


def test_every_variable_of_the_env_example_is_read() -> None:
    names = _example_names()
    assert len(names) == len(set(names)) >= 35
    assert set(names) == set(ENV_VARS)  # the example lists every variable clockbot reads


def test_every_variable_points_at_a_real_field() -> None:
    for name, where in ENV_VARS.items():
        model: type[Settings] | type[object] = Settings
        for part in where:
            fields = model.model_fields  # type: ignore[union-attr]
            assert part in fields, name
            annotation = fields[part].annotation
            model = annotation if isinstance(annotation, type) else object


def test_the_env_example_as_written_gives_the_defaults(tmp_path: Path) -> None:
    environ = dict.fromkeys(_example_names(), "")
    environ["CLOCKBOT_HOME"] = str(tmp_path)
    settings = load_settings(environ=environ)
    assert settings == Settings(home=tmp_path)


def test_defaults(tmp_path: Path) -> None:
    settings = load_settings(environ=_home(tmp_path))
    assert settings.home == tmp_path
    assert settings.database_url is None
    assert settings.store_url == f"sqlite:///{tmp_path / 'clockbot.sqlite3'}"
    assert (settings.agent_id, settings.http_host, settings.http_port) == (
        "main",
        "127.0.0.1",
        8080,
    )
    assert settings.llm == LLMSettings()
    assert settings.llm.provider == "none"
    assert not settings.llm.enabled
    assert settings.llm.timeout_seconds == 60
    assert not settings.telegram.enabled
    assert not settings.slack.enabled
    assert not settings.email.enabled
    assert settings.telegram.api_url == "https://api.telegram.org"
    assert settings.slack.api_url == "https://slack.com/api/"
    assert (settings.email.imap_port, settings.email.imap_security) == (993, "tls")
    assert (settings.email.smtp_port, settings.email.smtp_security) == (587, "starttls")
    assert settings.clock == DEFAULT_POLICY
    assert settings.contact_window == ContactWindow(time(8), time(23))
    assert settings.config_file is None


def test_home_defaults_to_dot_clockbot_in_the_user_home(tmp_path: Path) -> None:
    assert load_settings(environ={}).home == tmp_path / "user-home" / ".clockbot"
    assert load_settings(environ={"CLOCKBOT_HOME": "~/bot"}).home == tmp_path / "user-home" / "bot"


def test_the_environment_sets_every_group(tmp_path: Path) -> None:
    environ = _home(tmp_path) | {
        "CLOCKBOT_DATABASE_URL": " postgresql://db/clockbot ",
        "CLOCKBOT_AGENT_ID": "ops",
        "CLOCKBOT_HTTP_HOST": "10.0.0.5",
        "CLOCKBOT_HTTP_PORT": "9000",
        "CLOCKBOT_CONTACT_WINDOW": "22:00-06:00",
        "CLOCKBOT_RETENTION_DAYS": "90",
        "CLOCKBOT_LLM_PROVIDER": "anthropic",
        "CLOCKBOT_LLM_MODEL": "claude-x",
        "CLOCKBOT_LLM_API_KEY": SECRET,
        "CLOCKBOT_LLM_TIMEOUT_SECONDS": "12.5",
        "CLOCKBOT_TELEGRAM_TOKEN": f"123:{SECRET}",
        "CLOCKBOT_TELEGRAM_API_URL": "http://127.0.0.1:9/",
        "CLOCKBOT_TELEGRAM_MODE": "webhook",
        "CLOCKBOT_TELEGRAM_WEBHOOK_URL": "https://bot.example.org/tg",
        "CLOCKBOT_TELEGRAM_WEBHOOK_SECRET": "abc_DEF-123",
        "CLOCKBOT_TELEGRAM_ALLOWED_USERS": " 42, alice ,,",
        "CLOCKBOT_SLACK_BOT_TOKEN": "xoxb-1",
        "CLOCKBOT_SLACK_MODE": "http",
        "CLOCKBOT_SLACK_SIGNING_SECRET": "sign",
        "CLOCKBOT_SLACK_API_URL": "http://127.0.0.1:10/api/",
        "CLOCKBOT_SLACK_ALLOWED_USERS": "U1",
        "CLOCKBOT_SLACK_ALLOWED_CHANNELS": "C1, C2",
        "CLOCKBOT_EMAIL_ADDRESS": "bot@example.org",
        "CLOCKBOT_EMAIL_IMAP_HOST": "imap.example.org",
        "CLOCKBOT_EMAIL_IMAP_PORT": "1143",
        "CLOCKBOT_EMAIL_IMAP_USER": "bot",
        "CLOCKBOT_EMAIL_IMAP_PASSWORD": "imap-pw",
        "CLOCKBOT_EMAIL_IMAP_SECURITY": "starttls",
        "CLOCKBOT_EMAIL_SMTP_HOST": "smtp.example.org",
        "CLOCKBOT_EMAIL_SMTP_USER": "bot",
        "CLOCKBOT_EMAIL_SMTP_PASSWORD": "smtp-pw",
        "CLOCKBOT_EMAIL_SMTP_SECURITY": "tls",
        "CLOCKBOT_EMAIL_ALLOWED_SENDERS": "a@example.org,@example.com",
        "CLOCKBOT_EMAIL_REQUIRE_AUTH_RESULTS": "true",
        "CLOCKBOT_EMAIL_AUTHSERV_IDS": "mx.example.org, mx2.example.org",
    }
    s = load_settings(environ=environ)
    assert s.database_url == "postgresql://db/clockbot"
    assert s.store_url == "postgresql://db/clockbot"
    assert (s.agent_id, s.http_host, s.http_port) == ("ops", "10.0.0.5", 9000)
    assert s.contact_window == ContactWindow(time(22), time(6))
    assert s.retention_days == 90
    assert s.llm.enabled
    assert (s.llm.provider, s.llm.model, s.llm.timeout_seconds) == ("anthropic", "claude-x", 12.5)
    assert s.llm.api_key is not None
    assert s.llm.api_key.get_secret_value() == SECRET
    assert s.telegram.enabled
    assert s.telegram.mode == "webhook"
    assert s.telegram.api_url == "http://127.0.0.1:9/"
    assert s.telegram.allowed_users == ("42", "alice")
    assert s.slack.enabled
    assert (s.slack.mode, s.slack.api_url) == ("http", "http://127.0.0.1:10/api/")
    assert s.slack.allowed_channels == ("C1", "C2")
    assert s.email.enabled
    assert (s.email.imap_port, s.email.imap_security, s.email.imap_user) == (
        1143,
        "starttls",
        "bot",
    )
    assert (s.email.smtp_port, s.email.smtp_security) == (465, "tls")  # port follows security
    assert s.email.allowed_senders == ("a@example.org", "@example.com")
    assert s.email.require_auth_results is True
    assert s.email.authserv_ids == ("mx.example.org", "mx2.example.org")


@pytest.mark.parametrize(
    ("imap", "smtp", "ports"),
    [("tls", "starttls", (993, 587)), ("starttls", "tls", (143, 465)), ("none", "none", (143, 25))],
)
def test_email_ports_follow_the_security(
    tmp_path: Path, imap: str, smtp: str, ports: tuple[int, int]
) -> None:
    environ = _home(tmp_path) | {
        "CLOCKBOT_EMAIL_IMAP_SECURITY": imap,
        "CLOCKBOT_EMAIL_SMTP_SECURITY": smtp,
    }
    email = load_settings(environ=environ).email
    assert (email.imap_port, email.smtp_port) == ports


# --------------------------------------------------------------------------- the YAML file


YAML = """\
database_url: sqlite:///from-yaml.sqlite3
http_port: 8181
contact_window: "07:30-21:00"
llm:
  provider: openai
  base_url: http://127.0.0.1:11434/v1
  model: llama
telegram:
  token: "123:abc"
  allowed_users: [7, bob]
slack:
  allowed_channels: "C1,C2"
clock:
  mode: off
  checkins: {enabled: false}
"""


def test_the_yaml_file_in_the_home_is_read(tmp_path: Path) -> None:
    s = load_settings(environ=_home(tmp_path, YAML))
    assert s.config_file == tmp_path / "config.yaml"
    assert s.database_url == "sqlite:///from-yaml.sqlite3"
    assert s.http_port == 8181
    assert s.contact_window == ContactWindow(time(7, 30), time(21))
    assert (s.llm.provider, s.llm.model, s.llm.api_key) == ("openai", "llama", None)
    assert s.telegram.enabled
    assert s.telegram.allowed_users == ("7", "bob")
    assert s.slack.allowed_channels == ("C1", "C2")
    assert s.clock.mode == "off"
    assert s.clock.checkins.enabled is False


def test_the_environment_beats_the_file(tmp_path: Path) -> None:
    environ = _home(tmp_path, YAML) | {
        "CLOCKBOT_HTTP_PORT": "7000",
        "CLOCKBOT_LLM_MODEL": "other",
        "CLOCKBOT_TELEGRAM_ALLOWED_USERS": "carol",
        "CLOCKBOT_DATABASE_URL": "",  # empty: the file's value stays
    }
    s = load_settings(environ=environ)
    assert s.http_port == 7000
    assert (s.llm.model, s.llm.base_url) == ("other", "http://127.0.0.1:11434/v1")
    assert s.telegram.allowed_users == ("carol",)
    assert s.database_url == "sqlite:///from-yaml.sqlite3"


def test_an_explicit_config_file_wins_over_the_home(tmp_path: Path) -> None:
    other = tmp_path / "elsewhere.yaml"
    other.write_text("agent_id: explicit\n", encoding="utf-8")
    s = load_settings(config_path=other, environ=_home(tmp_path, "agent_id: home\n"))
    assert s.agent_id == "explicit"
    assert s.config_file == other


def test_a_missing_explicit_file_is_an_error_but_a_missing_default_is_not(tmp_path: Path) -> None:
    assert load_settings(environ=_home(tmp_path)).config_file is None
    with pytest.raises(ConfigError, match="not found") as caught:
        load_settings(config_path=tmp_path / "nope.yaml", environ=_home(tmp_path))
    assert caught.value.source == tmp_path / "nope.yaml"


def test_null_and_empty_yaml_values_count_as_unset(tmp_path: Path) -> None:
    s = load_settings(environ=_home(tmp_path, "telegram:\n  token: ''\n  mode:\nhttp_port:\n"))
    assert not s.telegram.enabled
    assert s.telegram.mode == "polling"
    assert s.http_port == 8080


def test_an_empty_file_gives_the_defaults(tmp_path: Path) -> None:
    s = load_settings(environ=_home(tmp_path, ""))
    assert s == Settings(home=tmp_path, config_file=tmp_path / "config.yaml")


# --------------------------------------------------------------------------- errors


def test_telegram_webhook_mode_needs_its_url_and_secret(tmp_path: Path) -> None:
    environ = _home(tmp_path) | {
        "CLOCKBOT_TELEGRAM_TOKEN": f"123:{SECRET}",
        "CLOCKBOT_TELEGRAM_MODE": "webhook",
    }
    with pytest.raises(ConfigError) as caught:
        load_settings(environ=environ)
    message = str(caught.value)
    assert "telegram.webhook_url (CLOCKBOT_TELEGRAM_WEBHOOK_URL)" in message
    assert "telegram.webhook_secret (CLOCKBOT_TELEGRAM_WEBHOOK_SECRET)" in message
    assert [field for field, _ in caught.value.problems] == [
        "telegram.webhook_url (CLOCKBOT_TELEGRAM_WEBHOOK_URL)",
        "telegram.webhook_secret (CLOCKBOT_TELEGRAM_WEBHOOK_SECRET)",
    ]
    assert SECRET not in message


def test_webhook_settings_without_a_token_are_not_checked(tmp_path: Path) -> None:
    s = load_settings(environ=_home(tmp_path) | {"CLOCKBOT_TELEGRAM_MODE": "webhook"})
    assert not s.telegram.enabled


@pytest.mark.parametrize(
    ("environ", "needed"),
    [
        ({"CLOCKBOT_SLACK_BOT_TOKEN": "xoxb-x"}, "slack.app_token (CLOCKBOT_SLACK_APP_TOKEN)"),
        (
            {"CLOCKBOT_SLACK_BOT_TOKEN": "xoxb-x", "CLOCKBOT_SLACK_MODE": "http"},
            "slack.signing_secret (CLOCKBOT_SLACK_SIGNING_SECRET)",
        ),
        ({"CLOCKBOT_EMAIL_ADDRESS": "a@b.c"}, "email.imap_host (CLOCKBOT_EMAIL_IMAP_HOST)"),
        ({"CLOCKBOT_EMAIL_ADDRESS": "a@b.c"}, "email.smtp_host (CLOCKBOT_EMAIL_SMTP_HOST)"),
        (
            {
                "CLOCKBOT_EMAIL_ADDRESS": "a@b.c",
                "CLOCKBOT_EMAIL_IMAP_HOST": "imap.b.c",
                "CLOCKBOT_EMAIL_SMTP_HOST": "smtp.b.c",
                "CLOCKBOT_EMAIL_REQUIRE_AUTH_RESULTS": "true",
            },
            "email.authserv_ids (CLOCKBOT_EMAIL_AUTHSERV_IDS)",
        ),
        ({"CLOCKBOT_LLM_PROVIDER": "openai"}, "llm.model (CLOCKBOT_LLM_MODEL)"),
        (
            {"CLOCKBOT_LLM_PROVIDER": "openai", "CLOCKBOT_LLM_MODEL": "m"},
            "llm.api_key (CLOCKBOT_LLM_API_KEY)",
        ),
        (
            {
                "CLOCKBOT_LLM_PROVIDER": "anthropic",
                "CLOCKBOT_LLM_MODEL": "m",
                "CLOCKBOT_LLM_BASE_URL": "http://127.0.0.1:1",
            },
            "llm.api_key (CLOCKBOT_LLM_API_KEY)",
        ),
    ],
)
def test_an_enabled_group_needs_its_settings(
    tmp_path: Path, environ: dict[str, str], needed: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(environ=_home(tmp_path) | environ)
    assert needed in [field for field, _ in caught.value.problems]


def test_an_openai_compatible_endpoint_needs_no_key(tmp_path: Path) -> None:
    environ = _home(tmp_path) | {
        "CLOCKBOT_LLM_PROVIDER": "openai",
        "CLOCKBOT_LLM_MODEL": "llama",
        "CLOCKBOT_LLM_BASE_URL": "http://127.0.0.1:11434/v1",
    }
    assert load_settings(environ=environ).llm.api_key is None


def test_a_bad_value_next_to_a_secret_in_the_file_names_the_file_not_the_secret(
    tmp_path: Path,
) -> None:
    text = f"telegram:\n  token: {SECRET}\n  mode: hook\n  webhook_secret: 'has spaces {SECRET}'\n"
    with pytest.raises(ConfigError) as caught:
        load_settings(environ=_home(tmp_path, text))
    message = str(caught.value)
    assert str(tmp_path / "config.yaml") in message
    assert (
        "telegram.mode (CLOCKBOT_TELEGRAM_MODE): Input should be 'polling' or 'webhook'" in message
    )
    assert "telegram.webhook_secret (CLOCKBOT_TELEGRAM_WEBHOOK_SECRET)" in message
    assert SECRET not in message
    assert SECRET not in repr(caught.value)


def test_a_bad_environment_value_says_it_came_from_the_environment(tmp_path: Path) -> None:
    environ = _home(tmp_path) | {"CLOCKBOT_HTTP_PORT": "70000", "CLOCKBOT_LLM_API_KEY": SECRET}
    with pytest.raises(ConfigError) as caught:
        load_settings(environ=environ)
    assert caught.value.problems == (
        (
            "http_port (CLOCKBOT_HTTP_PORT, from the environment)",
            "Input should be less than or equal to 65535",
        ),
    )
    assert SECRET not in str(caught.value)


def test_unreadable_yaml_reports_a_position_not_the_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(environ=_home(tmp_path, f"telegram:\n  token: {SECRET}\n   bad: [\n"))
    message = str(caught.value)
    assert "not valid YAML at line" in message
    assert SECRET not in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- a\n- b\n", "the top level must be a mapping"),
        ("telegram:\n  tokn: x\n", "telegram.tokn: Extra inputs are not permitted"),
        ("contact_window: 9-5\n", "contact_window (CLOCKBOT_CONTACT_WINDOW): write it as HH:MM"),
        ("agent_id: 'a:b'\n", "agent_id (CLOCKBOT_AGENT_ID): String should match pattern"),
        ("telegram:\n  api_url: ftp://x\n", "must be an http:// or https:// URL"),
        ("email: {address: nobody, imap_host: i, smtp_host: s}\n", "must be a mail address"),
        ("config_file: /etc/x\n", "config_file: not a setting"),
        ("retention_days: 0\n", "retention_days (CLOCKBOT_RETENTION_DAYS): Input should be"),
        ("clock:\n  mode: loud\n", "clock.mode: "),
    ],
)
def test_file_errors_name_the_field(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(environ=_home(tmp_path, text))
    assert expected in str(caught.value)
    assert caught.value.source == tmp_path / "config.yaml"


def test_a_bad_policy_duration_names_its_path(tmp_path: Path) -> None:
    text = "clock:\n  checkins:\n    rules:\n      - {id: r, when: {elapsed_gte: soon}}\n"
    with pytest.raises(ConfigError, match=r"clock\.checkins\.rules\.0\.when\.elapsed_gte"):
        load_settings(environ=_home(tmp_path, text))


# --------------------------------------------------------------------------- secrets


def _all_secrets_settings(tmp_path: Path) -> Settings:
    environ = _home(tmp_path) | {
        "CLOCKBOT_DATABASE_URL": "sqlite:///x.sqlite3",
        "CLOCKBOT_LLM_PROVIDER": "openai",
        "CLOCKBOT_LLM_MODEL": "m",
        "CLOCKBOT_LLM_API_KEY": SECRET + "llm",
        "CLOCKBOT_TELEGRAM_TOKEN": f"123:{SECRET}tg",
        "CLOCKBOT_TELEGRAM_MODE": "webhook",
        "CLOCKBOT_TELEGRAM_WEBHOOK_URL": "https://example.org/hook",
        "CLOCKBOT_TELEGRAM_WEBHOOK_SECRET": SECRET + "wh",
        "CLOCKBOT_SLACK_BOT_TOKEN": f"xoxb-{SECRET}bot",
        "CLOCKBOT_SLACK_APP_TOKEN": f"xapp-{SECRET}app",
        "CLOCKBOT_SLACK_SIGNING_SECRET": SECRET + "sign",
        "CLOCKBOT_EMAIL_ADDRESS": "bot@example.org",
        "CLOCKBOT_EMAIL_IMAP_HOST": "imap",
        "CLOCKBOT_EMAIL_IMAP_PASSWORD": SECRET + "imap",
        "CLOCKBOT_EMAIL_SMTP_HOST": "smtp",
        "CLOCKBOT_EMAIL_SMTP_PASSWORD": SECRET + "smtp",
    }
    return load_settings(environ=environ)


def test_settings_never_show_a_secret(tmp_path: Path) -> None:
    settings = _all_secrets_settings(tmp_path)
    assert settings.slack.signing_secret is not None
    assert settings.slack.signing_secret.get_secret_value() == SECRET + "sign"
    for shown in (repr(settings), str(settings), settings.model_dump_json()):
        assert SECRET not in shown
    assert SECRET not in json.dumps(settings.model_dump(mode="json"))


def test_redacted_marks_set_secrets_and_keeps_the_rest(tmp_path: Path) -> None:
    redacted = _all_secrets_settings(tmp_path).redacted()
    text = json.dumps(redacted)  # JSON-ready
    assert SECRET not in text
    assert redacted["llm"]["api_key"] == "***"
    assert redacted["telegram"]["webhook_secret"] == "***"
    assert redacted["email"]["smtp_password"] == "***"
    assert redacted["email"]["imap_user"] is None
    assert redacted["email"]["address"] == "bot@example.org"
    assert redacted["home"] == str(tmp_path)
    assert redacted["contact_window"] == "08:00–23:00"
    assert redacted["clock"]["mode"] == "light"
    assert redacted["clock"]["checkins"]["rules"][0]["when"]["elapsed_gte"] == "P1D"


def test_settings_are_frozen(tmp_path: Path) -> None:
    settings = load_settings(environ=_home(tmp_path))
    with pytest.raises(ValidationError):
        settings.http_port = 1  # type: ignore[misc]
    with pytest.raises(ValidationError):
        settings.telegram.mode = "webhook"  # type: ignore[misc]


def test_settings_can_be_built_directly_without_reading_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CLOCKBOT_HTTP_PORT", "9999")
    settings = Settings(
        home=tmp_path,
        telegram=TelegramSettings(token=SecretStr("1:t")),
        contact_window="09:00-17:00",  # type: ignore[arg-type]
        clock={"mode": "normal"},  # type: ignore[arg-type]
    )
    assert settings.http_port == 8080
    assert settings.telegram.enabled
    assert settings.contact_window == ContactWindow(time(9), time(17))
    assert settings.clock.mode == "normal"
    assert settings.clock.checkins.rules[0].when.elapsed_gte == timedelta(days=1)


def test_the_process_environment_is_read_by_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CLOCKBOT_HOME", str(tmp_path))
    monkeypatch.setenv("CLOCKBOT_AGENT_ID", "from-env")
    assert load_settings().agent_id == "from-env"


@pytest.mark.parametrize(
    ("variable", "bad", "hint", "others"),
    [
        ("CLOCKBOT_TELEGRAM_TOKEN", "abc", "123456:", {}),
        ("CLOCKBOT_TELEGRAM_TOKEN", "123456 :spaced", "123456:", {}),
        (
            "CLOCKBOT_SLACK_BOT_TOKEN",
            "xapp-swapped",
            "xoxb-",
            {"CLOCKBOT_SLACK_APP_TOKEN": "xapp-1"},
        ),
        (
            "CLOCKBOT_SLACK_APP_TOKEN",
            "xoxb-swapped",
            "xapp-",
            {"CLOCKBOT_SLACK_BOT_TOKEN": "xoxb-1"},
        ),
    ],
)
def test_a_token_of_the_wrong_shape_is_named_before_any_network_call(
    tmp_path: Path, variable: str, bad: str, hint: str, others: dict[str, str]
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(environ=_home(tmp_path) | others | {variable: bad})
    message = str(caught.value)
    assert f"({variable}, from the environment)" in message
    assert hint in message
    assert bad not in message


@pytest.mark.parametrize(
    ("named", "url"),
    [("ollama", "http://localhost:11434/v1"), ("LM Studio", "http://localhost:1234/v1"),
     ("llama.cpp", "http://localhost:8080/v1"), ("vllm", "http://localhost:8000/v1")],
)  # fmt: skip
def test_a_local_server_named_as_the_provider_gets_its_recipe(named: str, url: str) -> None:
    """Issue 61: CLOCKBOT_LLM_PROVIDER=ollama was refused with the three names it takes."""
    with pytest.raises(ConfigError) as caught:
        load_settings(environ={"CLOCKBOT_LLM_PROVIDER": named})
    said = str(caught.value)
    assert f"set provider openai and base_url {url}" in said
    assert "docs/local-models.md" in said and "Value error" not in said
