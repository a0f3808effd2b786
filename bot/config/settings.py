"""clockbot's settings: environment variables over a YAML file over defaults.

Every setting has an environment variable, listed in docs/configuration.md (made
from this module by `bot.config.reference`); `ENV_VARS` maps each name to its
place in `Settings`. Both are read by pydantic-settings' own sources (`_Environment`,
`_YamlFile`) and validated once. The YAML file (``--config``, else
``$CLOCKBOT_HOME/config.yaml`` when it exists) holds the same names nested in
lower case, plus the CLOCK policy under ``clock:`` and ``contact_window:``::

    database_url: sqlite:////var/lib/clockbot/clockbot.sqlite3
    llm: {provider: openai, model: gpt-4o-mini}
    telegram: {token: "123:abc", mode: polling, allowed_users: [alice, bob]}
    contact_window: "08:00-23:00"
    clock: {mode: normal}

Rules:

- An empty variable (``NAME=``, as docker and systemd env files write it) or an
  empty/null YAML value counts as unset. Values from the environment are
  stripped of surrounding whitespace.
- Lists are comma-separated in the environment (a YAML list or a comma string
  in the file); items are trimmed and empty items dropped.
- A channel runs (its group's ``enabled`` is true) when its required setting is
  present: Telegram's ``token``, Slack's ``bot_token``, email's ``address``.
  An enabled channel must be complete: webhook mode needs a webhook URL and
  secret, Slack socket mode an app token, http mode a signing secret, email
  both hosts.
- Email ports default by security: IMAP 993 for ``tls``, 143 otherwise; SMTP
  465 for ``tls``, 587 for ``starttls``, 25 for ``none``. Security defaults are
  IMAP ``tls`` and SMTP ``starttls`` (so 993 and 587).
- Errors are `ConfigError`, naming the field, its variable and the file, and
  never quoting a value: a config holds secrets.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
)
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    YamlConfigSettingsSource,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.config.channel_groups import (
    ChannelSettings,
    EmailSettings,
    SlackSettings,
    TelegramSettings,
)
from bot.config.fields import MISSING_SETTING, ContactWindowField, PolicyField, StrList
from bot.config.files import ConfigError, laid_over, policy_reason, read_yaml, without_empty
from bot.config.groups import LimitSettings, LLMSettings, WorkerSettings
from clockcore import (
    DEFAULT_CONTACT_WINDOW,
    DEFAULT_POLICY,
    ContactWindow,
    Policy,
    PolicyError,
)
from clockcore.policy import policy_from_mapping
from wrapper.store.db import DEFAULT_DB_NAME

__all__ = [
    "CONFIG_FILE_NAME",
    "ENV_VARS",
    "ChannelSettings",
    "ConfigError",
    "EmailSettings",
    "LLMSettings",
    "LimitSettings",
    "Settings",
    "SlackSettings",
    "TelegramSettings",
    "WorkerSettings",
    "default_home",
    "load_settings",
]

CONFIG_FILE_NAME = "config.yaml"

_CORE_VARS: Mapping[str, tuple[str, ...]] = {
    "CLOCKBOT_HOME": ("home",),
    "CLOCKBOT_DATABASE_URL": ("database_url",),
    "CLOCKBOT_AGENT_ID": ("agent_id",),
    "CLOCKBOT_HTTP_HOST": ("http_host",),
    "CLOCKBOT_HTTP_PORT": ("http_port",),
    "CLOCKBOT_LOG_LEVEL": ("log_level",),
    "CLOCKBOT_CONTACT_WINDOW": ("contact_window",),
    "CLOCKBOT_RETENTION_DAYS": ("retention_days",),
    "CLOCKBOT_PUBLIC_URL": ("public_url",),
    "CLOCKBOT_ADMIN_TOKEN": ("admin_token",),
    "CLOCKBOT_TRUSTED_PROXIES": ("trusted_proxies",),
    "CLOCKBOT_LLM_PROVIDER": ("llm", "provider"),
    "CLOCKBOT_LLM_BASE_URL": ("llm", "base_url"),
    "CLOCKBOT_LLM_MODEL": ("llm", "model"),
    "CLOCKBOT_LLM_API_KEY": ("llm", "api_key"),
    "CLOCKBOT_LLM_TIMEOUT_SECONDS": ("llm", "timeout_seconds"),
    "CLOCKBOT_LLM_CONTEXT_TOKENS": ("llm", "context_tokens"),
    "CLOCKBOT_LLM_TOOLS": ("llm", "tools"),
    "CLOCKBOT_LLM_TEXT_CALLS": ("llm", "text_calls"),
    "CLOCKBOT_LLM_TEMPERATURE": ("llm", "temperature"),
    "CLOCKBOT_LLM_MODE": ("llm", "mode"),
    "CLOCKBOT_LLM_TOP_P": ("llm", "top_p"),
    "CLOCKBOT_WORKER_HEARTBEAT": ("worker", "heartbeat"),
    "CLOCKBOT_WORKER_DEAD_AFTER": ("worker", "dead_after"),
    "CLOCKBOT_LIMIT_TURNS_PER_MINUTE": ("limit", "turns_per_minute"),
    "CLOCKBOT_LIMIT_BURST": ("limit", "burst"),
    "CLOCKBOT_LIMIT_CHANNEL_TURNS_PER_MINUTE": ("limit", "channel_turns_per_minute"),
    "CLOCKBOT_LIMIT_CHANNEL_BURST": ("limit", "channel_burst"),
    "CLOCKBOT_LIMIT_NOTICE_EVERY": ("limit", "notice_every"),
}
"""The variables outside the channels' groups (those are ``CLOCKBOT_<CHANNEL>_<FIELD>``)."""


def default_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$CLOCKBOT_HOME`` (expanded), else ``~/.clockbot``."""
    env = os.environ if environ is None else environ
    configured = env.get("CLOCKBOT_HOME", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".clockbot"


# --------------------------------------------------------------------------- settings


class Settings(BaseSettings):
    """All of clockbot's settings; build them with `load_settings`.

    `Settings(...)` itself reads only its arguments (no environment, no file),
    so tests and callers can build one directly.

    Attributes:
        home: clockbot's data directory.
        database_url: the store's SQLAlchemy URL (``sqlite:///PATH`` or
            ``postgresql://user:pass@host/db``); None is SQLite under `home`.
        agent_id: the agent's name in thread keys.
        http_host: where webhooks, Slack events and ``/healthz`` are served.
        http_port: that port (0 picks a free one, for tests).
        log_level: how much ``clockbot run`` logs (to standard error).
        llm: the model provider.
        telegram: the Telegram channel.
        slack: the Slack channel.
        email: the email channel.
        clock: the CLOCK policy (the YAML ``clock:`` block).
        contact_window: the default contact window.
        worker: heartbeats and takeover (several workers on one store).
        limit: turns per person and per channel (model calls).
        retention_days: conversations older than this many days are deleted
            (`wrapper.people.retention`); None keeps everything.
        public_url: where people reach this service's HTTP port from outside
            (``https://clock.example.org``); the base of the web pages' sign-in
            links. Without it, "dashboard" says the pages are not set up.
        admin_token: the operator's sign-in token for ``/ui/operator``; None
            turns operator sign-in off. At least 16 characters.
        trusted_proxies: addresses of the proxies in front of clockbot (HAProxy) whose
            ``X-Forwarded-For`` names the client; the operator sign-in's backoff counts
            per client. Empty: the connection's own address.
        config_file: the YAML file these settings came from, if any (set by
            `load_settings`, not a setting).
    """

    model_config = SettingsConfigDict(extra="forbid", frozen=True)

    home: Path = Field(default_factory=lambda: Path.home() / ".clockbot")
    database_url: str | None = None
    agent_id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+$")] = "main"
    http_host: Annotated[str, Field(min_length=1)] = "127.0.0.1"
    http_port: Annotated[int, Field(ge=0, le=65535)] = 8080
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    llm: LLMSettings = LLMSettings()
    telegram: TelegramSettings = TelegramSettings()
    slack: SlackSettings = SlackSettings()
    email: EmailSettings = EmailSettings()
    clock: PolicyField = DEFAULT_POLICY
    contact_window: ContactWindowField = DEFAULT_CONTACT_WINDOW
    worker: WorkerSettings = WorkerSettings()
    limit: LimitSettings = LimitSettings()
    retention_days: Annotated[int, Field(ge=1, le=36_500)] | None = None
    public_url: Annotated[str, Field(pattern=r"^https?://[^\s/?#]+(/[^\s?#]*)?$")] | None = None
    admin_token: Annotated[SecretStr, Field(min_length=16)] | None = None
    trusted_proxies: StrList = ()
    config_file: Path | None = None

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only the arguments: `load_settings` merges the environment and the file itself."""
        return (init_settings,)

    @field_validator("home")
    @classmethod
    def _expand_home(cls, value: Path) -> Path:
        return value.expanduser()

    @property
    def store_url(self) -> str:
        """The store URL to open: `database_url`, else SQLite in `home`."""
        return self.database_url or f"sqlite:///{self.home / DEFAULT_DB_NAME}"

    def secrets(self) -> list[str]:
        """Every secret value set (tokens, passwords, keys), for log redaction."""
        found: list[str] = []

        def walk(value: object) -> None:
            if isinstance(value, SecretStr):
                found.append(value.get_secret_value())
            elif isinstance(value, BaseModel) and not isinstance(value, Policy):
                for name in type(value).model_fields:
                    walk(getattr(value, name))

        walk(self)
        password = _url_password(self.database_url)
        if password:
            found.append(password)  # postgresql://user:PASSWORD@host/db
        return [s for s in found if s]

    def exposure(self) -> str | None:
        """A warning when the config file may be read by other users of the host, else None.

        The file may hold tokens and passwords; ``chmod 600`` is the fix.
        """
        path = self.config_file
        if path is None:
            return None
        try:
            mode = path.stat().st_mode
        except OSError:
            return None
        if mode & 0o044 == 0:
            return None
        readers = "everyone on this host" if mode & 0o004 else "its group"
        return (
            f"{path} can be read by {readers} (mode {mode & 0o777:o}) and may hold secrets: "
            f"chmod 600 {path}"
        )

    def redacted(self) -> dict[str, Any]:
        """The settings as JSON-ready data for display, every set secret shown as ``"***"``."""
        shown = {name: _redact(getattr(self, name)) for name in type(self).model_fields}
        password = _url_password(self.database_url)
        if password and self.database_url:
            shown["database_url"] = self.database_url.replace(password, "***")
        return shown


def _channel_groups() -> dict[str, type[ChannelSettings]]:
    groups = {}
    for name, field in Settings.model_fields.items():
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, ChannelSettings):
            groups[name] = kind
    return groups


ENV_VARS: Mapping[str, tuple[str, ...]] = {
    **_CORE_VARS,
    **{
        f"CLOCKBOT_{channel.upper()}_{field.upper()}": (channel, field)
        for channel, group in _channel_groups().items()
        for field in group.model_fields
    },
}
"""Every environment variable clockbot reads, and the `Settings` field it sets."""

_VAR_FOR_PATH = {path: name for name, path in ENV_VARS.items()}


def _url_password(url: str | None) -> str | None:
    """The password in a database URL, or None."""
    if not url:
        return None
    try:
        password = make_url(url.strip()).password
    except ArgumentError:
        return None
    return str(password) if password else None


def _redact(value: object) -> Any:
    if isinstance(value, SecretStr):
        return "***"
    if isinstance(value, Policy):
        return value.model_dump(mode="json")
    if isinstance(value, BaseModel):
        return {name: _redact(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, tuple | list):
        return [_redact(item) for item in value]
    if isinstance(value, Path | ContactWindow):
        return str(value)
    return value


# --------------------------------------------------------------------------- loading


def load_settings(
    *, config_path: Path | None = None, environ: Mapping[str, str] | None = None
) -> Settings:
    """Read the settings: environment over the YAML file over defaults.

    Both are pydantic-settings sources: `_Environment` (``CLOCKBOT_`` prefix,
    ``_`` between a group and its field, split once) and `_YamlFile`. Their
    values are merged, the environment winning field by field, and validated
    once by `Settings`, so an error names where each bad value came from.

    Args:
        config_path: the YAML file; None reads ``$CLOCKBOT_HOME/config.yaml``
            when it exists.
        environ: the environment; None is `os.environ`.

    Returns:
        The validated settings.

    Raises:
        ConfigError: the file named by `config_path` is missing, a file is
            unreadable or not a YAML mapping, or a setting does not validate.
    """
    env = os.environ if environ is None else environ
    if config_path is None:
        candidate = default_home(env) / CONFIG_FILE_NAME
        path = candidate if candidate.is_file() else None
    else:
        path = config_path.expanduser()
        if not path.is_file():
            raise ConfigError([("", f"config file {path} not found")], source=path)
    document: dict[str, Any] = {}
    clock_block: object = None
    if path is not None:
        yaml_file = _YamlFile(path)
        document, clock_block = yaml_file(), yaml_file.clock_block
    try:
        policy = policy_from_mapping({"clock": clock_block}, source=str(path) if path else None)
    except PolicyError as exc:
        raise ConfigError([(exc.path, policy_reason(exc))], source=path) from None
    if "config_file" in document:
        raise ConfigError([("config_file", "not a setting (remove it)")], source=path)

    environment = _Environment(env)
    merged = laid_over(document, environment())
    merged["clock"] = policy
    merged["config_file"] = path
    try:
        return Settings(**merged)
    except ValidationError as exc:
        raise _config_error(exc, path, environment.fields) from None


class _Environment(EnvSettingsSource):
    """The ``CLOCKBOT_`` variables of `ENV_VARS`, as pydantic-settings reads them.

    ``CLOCKBOT_HTTP_PORT`` sets ``http_port``; ``CLOCKBOT_LLM_BASE_URL`` sets
    ``llm.base_url`` (one split at the first ``_`` after the prefix, so field
    names keep theirs). Only the documented names are read; an empty one counts
    as unset and values lose surrounding whitespace (docker and systemd env files).
    """

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._given = {
            name: value.strip()
            for name, value in environ.items()
            if name in ENV_VARS and value.strip()
        }
        self.fields = {ENV_VARS[name] for name in self._given}
        """The settings the environment sets, for errors that say where a value came from."""
        super().__init__(
            Settings,
            case_sensitive=False,
            env_prefix="CLOCKBOT_",
            env_nested_delimiter="_",
            env_nested_max_split=1,
            env_ignore_empty=True,
        )

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # The source's one hook for where variables come from (it reads os.environ).
        return {name.lower(): value for name, value in self._given.items()}


class _YamlFile(YamlConfigSettingsSource):
    """The YAML file as a pydantic-settings source, read with errors that quote no value.

    Null and empty values count as unset. The ``clock:`` block is kept apart
    (`clock_block`): the CLOCK policy is read by `policy_from_mapping`, whose
    errors name the policy's own fields.
    """

    def __init__(self, path: Path) -> None:
        self.clock_block: object = None
        super().__init__(Settings, yaml_file=path)

    def _read_file(self, file_path: Any) -> dict[str, Any]:
        document = read_yaml(Path(file_path))
        self.clock_block = document.pop("clock", None)
        return without_empty(document)


def _config_error(
    exc: ValidationError, path: Path | None, from_env: set[tuple[str, ...]]
) -> ConfigError:
    """Turn a pydantic error into a `ConfigError` built from locations and messages only."""
    problems: list[tuple[str, str]] = []
    for error in exc.errors(include_input=False, include_url=False):
        loc = tuple(str(part) for part in error["loc"])
        ctx = error.get("ctx") or {}
        if error["type"] == MISSING_SETTING:
            for field in ctx.get("fields", ()):
                problems.append(_problem((*loc, field), error["msg"], path, from_env))
        else:
            problems.append(_problem(loc, error["msg"], path, from_env))
    return ConfigError(problems, source=path)


def _problem(
    loc: tuple[str, ...], message: str, path: Path | None, from_env: set[tuple[str, ...]]
) -> tuple[str, str]:
    field = ".".join(loc)
    variable = _VAR_FOR_PATH.get(loc[:2]) or _VAR_FOR_PATH.get(loc[:1])
    where = f" ({variable})" if variable else ""
    for depth in (2, 1):
        if loc[:depth] in from_env:
            where = f" ({variable}, from the environment)"
            break
    # pydantic puts "Value error, " before what a validator raised; the person reads the rest.
    return f"{field}{where}", message.removeprefix("Value error, ")
