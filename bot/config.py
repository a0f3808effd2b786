"""clockbot's settings: environment variables over a YAML file over defaults.

Every setting has an environment variable, listed in docs/configuration.md (made
from this module by `bot.settings_reference`); `ENV_VARS` maps each name to its
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
import re
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal, Self

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    YamlConfigSettingsSource,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from clockcore import (
    DEFAULT_CONTACT_WINDOW,
    DEFAULT_POLICY,
    ContactWindow,
    InvalidContactWindowError,
    Policy,
    PolicyError,
)
from clockcore.policy import policy_from_mapping
from wrapper.db import DEFAULT_DB_NAME
from wrapper.limits import Bucket, TurnLimits

__all__ = [
    "CONFIG_FILE_NAME",
    "ENV_VARS",
    "ChannelSettings",
    "ConfigError",
    "EmailSettings",
    "LLMSettings",
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
    "CLOCKBOT_LLM_PROVIDER": ("llm", "provider"),
    "CLOCKBOT_LLM_BASE_URL": ("llm", "base_url"),
    "CLOCKBOT_LLM_MODEL": ("llm", "model"),
    "CLOCKBOT_LLM_API_KEY": ("llm", "api_key"),
    "CLOCKBOT_LLM_TIMEOUT_SECONDS": ("llm", "timeout_seconds"),
    "CLOCKBOT_LLM_CONTEXT_TOKENS": ("llm", "context_tokens"),
    "CLOCKBOT_LLM_TOOLS": ("llm", "tools"),
    "CLOCKBOT_WORKER_HEARTBEAT": ("worker", "heartbeat"),
    "CLOCKBOT_WORKER_DEAD_AFTER": ("worker", "dead_after"),
    "CLOCKBOT_LIMIT_TURNS_PER_MINUTE": ("limit", "turns_per_minute"),
    "CLOCKBOT_LIMIT_BURST": ("limit", "burst"),
    "CLOCKBOT_LIMIT_CHANNEL_TURNS_PER_MINUTE": ("limit", "channel_turns_per_minute"),
    "CLOCKBOT_LIMIT_CHANNEL_BURST": ("limit", "channel_burst"),
    "CLOCKBOT_LIMIT_NOTICE_EVERY": ("limit", "notice_every"),
}
"""The variables outside the channels' groups (those are ``CLOCKBOT_<CHANNEL>_<FIELD>``)."""

_MISSING = "missing_setting"
_IMAP_PORTS = {"tls": 993, "starttls": 143, "none": 143}
_SMTP_PORTS = {"tls": 465, "starttls": 587, "none": 25}
_TELEGRAM_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
_TELEGRAM_TOKEN = re.compile(r"^[0-9]+:[A-Za-z0-9_-]+$")
"""A Bot API token's shape: the bot's id, a colon, the key (``123456:AAbb-cc_DD``)."""
_SLACK_BOT_TOKEN = re.compile(r"^xoxb-[A-Za-z0-9-]+$")
_SLACK_APP_TOKEN = re.compile(r"^xapp-[A-Za-z0-9-]+$")


def _token_shape(value: SecretStr | None, shape: re.Pattern[str], hint: str) -> SecretStr | None:
    """`value` when it has `shape`; else an error that names the shape, never the value.

    Checked before any network call, so a mistyped token is an error naming its
    setting at start, not a network failure later.
    """
    if value is not None and not shape.match(value.get_secret_value()):
        raise PydanticCustomError("token_shape", "not a token of this kind: {hint}", {"hint": hint})
    return value


class ConfigError(ValueError):
    """A configuration clockbot cannot run with.

    The message names each bad field by its dotted path and its environment
    variable, and the file when there is one; it never quotes a value.

    Attributes:
        problems: ``(field, message)`` pairs, e.g. ``("telegram.mode", "...")``.
        source: the YAML file read, if any.
    """

    def __init__(self, problems: list[tuple[str, str]], *, source: Path | None = None) -> None:
        self.problems = tuple(problems)
        self.source = source
        head = "invalid configuration" + (f" ({source})" if source else "")
        lines = [f"{field}: {message}" if field else message for field, message in problems]
        super().__init__(head + ":\n  " + "\n  ".join(lines) if lines else head)


def default_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$CLOCKBOT_HOME`` (expanded), else ``~/.clockbot``."""
    env = os.environ if environ is None else environ
    configured = env.get("CLOCKBOT_HOME", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".clockbot"


# --------------------------------------------------------------------------- field types


def _split_list(value: object) -> object:
    """Read a comma-separated string or a list into a tuple of trimmed, non-empty strings."""
    if value is None:
        return ()
    if isinstance(value, str):
        items: list[object] = list(value.split(","))
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        return value  # let pydantic report the type
    cleaned: list[object] = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            item = str(item)  # YAML reads numeric user ids as ints
        if isinstance(item, str):
            item = item.strip()
            if not item:
                continue
        cleaned.append(item)
    return tuple(cleaned)


def _http_url(value: object) -> object:
    """Refuse anything but an http(s) URL, without quoting it."""
    if isinstance(value, str) and not value.startswith(("http://", "https://")):
        raise PydanticCustomError("http_url", "must be an http:// or https:// URL")
    return value


def _contact_window(value: object) -> ContactWindow:
    if isinstance(value, ContactWindow):
        return value
    if isinstance(value, str):
        try:
            return ContactWindow.parse(value)
        except InvalidContactWindowError:
            pass
    raise PydanticCustomError(
        "contact_window", "write it as HH:MM-HH:MM (hours 00–23), e.g. 08:00-23:00"
    )


def _policy(value: object) -> Policy:
    if isinstance(value, Policy):
        return value
    if isinstance(value, Mapping):
        try:
            return policy_from_mapping({"clock": value})
        except PolicyError as exc:
            raise PydanticCustomError("policy", "{reason}", {"reason": str(exc)}) from None
    raise PydanticCustomError("policy", "must be a mapping (the CLOCK policy block)")


def _missing(*fields: str, why: str) -> PydanticCustomError:
    """An error for required settings that are absent; `fields` are appended to its location."""
    return PydanticCustomError(_MISSING, "required {why}", {"fields": fields, "why": why})


StrList = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_split_list)]
HttpUrl = Annotated[str, BeforeValidator(_http_url)]
Port = Annotated[int, Field(ge=1, le=65535)]
ContactWindowField = Annotated[
    ContactWindow,
    NoDecode,
    PlainValidator(_contact_window),
    PlainSerializer(str, return_type=str, when_used="json"),
]
PolicyField = Annotated[
    Policy,
    PlainValidator(_policy),
    PlainSerializer(
        lambda p: p.model_dump(mode="json"), return_type=dict[str, Any], when_used="json"
    ),
]


class _Group(BaseModel):
    """Base of every settings group: unknown keys refused, instances immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- groups


class LLMSettings(_Group):
    """``llm``: the model provider; ``none`` runs the built-in rules agent.

    Attributes:
        provider: ``openai`` (any OpenAI-compatible endpoint), ``anthropic`` or ``none``.
        base_url: the API base; None is the provider's own (api.openai.com,
            api.anthropic.com).
        model: the model name; required unless the provider is ``none``.
        api_key: required for Anthropic and for OpenAI without a `base_url`.
        timeout_seconds: per-request timeout.
        context_tokens: the model's context window in tokens; None asks the server
            where it can tell (llama.cpp ``/props``, Ollama ``/api/show``) or uses the
            documented limit of a known model (`bot.llm.context`), else compacts by size.
        tools: ``false`` (or ``off``) runs the agent with no tools (the runtime block stays), for a
            chat template that cannot carry tool calls (one that demands strictly
            alternating user and assistant roles).
    """

    provider: Literal["openai", "anthropic", "none"] = "none"
    base_url: HttpUrl | None = None
    model: str | None = None
    api_key: SecretStr | None = None
    timeout_seconds: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 60.0
    context_tokens: Annotated[int, Field(ge=1024, le=10_000_000)] | None = None
    tools: bool = True

    @property
    def enabled(self) -> bool:
        """Whether an LLM is configured (the provider is not ``none``)."""
        return self.provider != "none"

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if self.provider == "none":
            return self
        missing = ["model"] if self.model is None else []
        needs_key = self.provider == "anthropic" or self.base_url is None
        if needs_key and self.api_key is None:
            missing.append("api_key")
        if missing:
            where = (
                " at api.openai.com (no base_url)"
                if needs_key and self.provider == "openai"
                else ""
            )
            raise _missing(*missing, why=f"with provider {self.provider}{where}")
        return self


class WorkerSettings(_Group):
    """``worker``: how this process shows it is alive, and when others take over.

    Attributes:
        heartbeat: seconds between heartbeats; the waiting list is scanned as often.
        dead_after: seconds of silence after which a worker is taken for dead and
            any other worker (or its restart) takes the turns and jobs it held.
            At least twice `heartbeat`, so one late beat is not a death.
    """

    heartbeat: Annotated[float, Field(gt=0, le=60, allow_inf_nan=False)] = 2.0
    dead_after: Annotated[float, Field(gt=0, le=3600, allow_inf_nan=False)] = 8.0

    @model_validator(mode="after")
    def _spaced(self) -> Self:
        if self.dead_after < 2 * self.heartbeat:
            raise ValueError(
                f"worker.dead_after ({self.dead_after:g} s) must be at least twice "
                f"worker.heartbeat ({self.heartbeat:g} s)"
            )
        return self


class LimitSettings(_Group):
    """``limit``: how many turns (model calls) a person and a channel may cost.

    Each is a token bucket (`wrapper.limits`): `burst` turns at once, refilled
    at so many per minute. 0 in either field turns that limit off. A message
    over the limit is journaled like any other and answered later, folded
    with the person's newer messages; they hear it once per `notice_every`.

    Attributes:
        turns_per_minute: a person's refill (linked identities share one).
        burst: a person's turns at once.
        channel_turns_per_minute: a channel's refill, everyone together.
        channel_burst: a channel's turns at once.
        notice_every: seconds between two notices to one person.
    """

    turns_per_minute: Annotated[float, Field(ge=0, le=6000, allow_inf_nan=False)] = 10.0
    burst: Annotated[int, Field(ge=0, le=10_000)] = 20
    channel_turns_per_minute: Annotated[float, Field(ge=0, le=600_000, allow_inf_nan=False)] = 600.0
    channel_burst: Annotated[int, Field(ge=0, le=100_000)] = 120
    notice_every: Annotated[float, Field(gt=0, le=86_400, allow_inf_nan=False)] = 600.0

    def turn_limits(self) -> TurnLimits:
        """These settings as `wrapper.limits.TurnLimits`."""
        return TurnLimits(
            person=Bucket(self.turns_per_minute, self.burst),
            channel=Bucket(self.channel_turns_per_minute, self.channel_burst),
            notice_every=timedelta(seconds=self.notice_every),
        )


class ChannelSettings(_Group):
    """Base of a channel's group: its fields are read from ``CLOCKBOT_<CHANNEL>_<FIELD>``.

    A subclass is one `Settings` field named after its channel, and one entry
    in `bot.channel_registry.CHANNELS`.
    """

    @property
    def enabled(self) -> bool:
        """Whether the channel runs: its required setting is present."""
        raise NotImplementedError


class TelegramSettings(ChannelSettings):
    """``telegram``: the Telegram bot; runs when `token` is set.

    Attributes:
        token: the Bot API token (required).
        api_url: the Bot API base.
        mode: ``polling`` or ``webhook``.
        webhook_url: the public URL Telegram posts to (webhook mode).
        webhook_secret: the secret token Telegram sends back (webhook mode);
            1–256 of A-Z, a-z, 0-9, ``_``, ``-``.
        allowed_users: user ids or usernames let in; empty lets everyone in.
    """

    token: SecretStr | None = None
    api_url: HttpUrl = "https://api.telegram.org"
    mode: Literal["polling", "webhook"] = "polling"
    webhook_url: HttpUrl | None = None
    webhook_secret: SecretStr | None = None
    allowed_users: StrList = ()

    @property
    def enabled(self) -> bool:
        """Whether the Telegram channel runs."""
        return self.token is not None

    @field_validator("token")
    @classmethod
    def _token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        return _token_shape(value, _TELEGRAM_TOKEN, "BotFather's tokens look like 123456:ABC-def_…")

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _TELEGRAM_SECRET.match(value.get_secret_value()):
            raise PydanticCustomError(
                "telegram_secret", "use 1–256 characters from A-Z, a-z, 0-9, _ and -"
            )
        return value

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if self.enabled and self.mode == "webhook":
            missing = [
                name for name in ("webhook_url", "webhook_secret") if getattr(self, name) is None
            ]
            if missing:
                raise _missing(*missing, why="in webhook mode")
        return self


class SlackSettings(ChannelSettings):
    """``slack``: the Slack app; runs when `bot_token` is set.

    Attributes:
        bot_token: the ``xoxb-`` token (required).
        mode: ``socket`` (Socket Mode, needs `app_token`) or ``http`` (Events
            API, needs `signing_secret`).
        app_token: the ``xapp-`` token for Socket Mode.
        signing_secret: verifies Events API requests.
        api_url: the Web API base.
        allowed_users: user ids let in; empty lets everyone in.
        allowed_channels: channel ids let in; empty lets every channel in.
    """

    bot_token: SecretStr | None = None
    mode: Literal["socket", "http"] = "socket"
    app_token: SecretStr | None = None
    signing_secret: SecretStr | None = None
    api_url: HttpUrl = "https://slack.com/api/"
    allowed_users: StrList = ()
    allowed_channels: StrList = ()

    @property
    def enabled(self) -> bool:
        """Whether the Slack channel runs."""
        return self.bot_token is not None

    @field_validator("bot_token")
    @classmethod
    def _bot_token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        return _token_shape(value, _SLACK_BOT_TOKEN, "a bot token starts with xoxb-")

    @field_validator("app_token")
    @classmethod
    def _app_token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        return _token_shape(value, _SLACK_APP_TOKEN, "an app-level token starts with xapp-")

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if not self.enabled:
            return self
        if self.mode == "socket" and self.app_token is None:
            raise _missing("app_token", why="in socket mode")
        if self.mode == "http" and self.signing_secret is None:
            raise _missing("signing_secret", why="in http mode")
        return self


class EmailSettings(ChannelSettings):
    """``email``: one mailbox read over IMAP and written over SMTP; runs when `address` is set.

    Ports left unset follow the security: IMAP 993 (tls) or 143; SMTP 465
    (tls), 587 (starttls) or 25 (none). Users left unset are for the adapter
    to fill (usually with `address`).

    Attributes:
        address: the bot's mail address (required).
        imap_host: the IMAP server (required).
        imap_port: its port; 993 for ``tls``, else 143.
        imap_user: the IMAP login; unset is `address`.
        imap_password: the IMAP password (an app password where the provider has them).
        imap_security: ``tls``, ``starttls``, or ``none`` (plain text: only for a
            server on the same host).
        smtp_host: the SMTP submission server (required).
        smtp_port: its port; 465 for ``tls``, 587 for ``starttls``, 25 for ``none``.
        smtp_user: the SMTP login; unset is `address`.
        smtp_password: the SMTP password; unset sends without a login.
        smtp_security: ``starttls``, ``tls`` or ``none``.
        allowed_senders: addresses (or ``@domain``) let in; empty lets everyone in.
        require_auth_results: accept only mail whose sender is proven; without
            it, an unproven sender's privileged requests wait for a confirmation
            mailed to the address.
        authserv_ids: the authserv-ids (the first word of an
            ``Authentication-Results`` header) of the mail servers that receive
            for the bot's mailbox; only their verdict proves a sender
            (`channels.email.proof`). Required with `require_auth_results`.
    """

    address: str | None = None
    imap_host: str | None = None
    imap_port: Port = 993
    imap_user: str | None = None
    imap_password: SecretStr | None = None
    imap_security: Literal["tls", "starttls", "none"] = "tls"
    smtp_host: str | None = None
    smtp_port: Port = 587
    smtp_user: str | None = None
    smtp_password: SecretStr | None = None
    smtp_security: Literal["tls", "starttls", "none"] = "starttls"
    allowed_senders: StrList = ()
    require_auth_results: bool = False
    authserv_ids: StrList = ()

    @property
    def enabled(self) -> bool:
        """Whether the email channel runs."""
        return self.address is not None

    @model_validator(mode="before")
    @classmethod
    def _default_ports(cls, data: object) -> object:
        if not isinstance(data, Mapping):
            return data
        filled = dict(data)
        for prefix, ports, fallback in (
            ("imap", _IMAP_PORTS, "tls"),
            ("smtp", _SMTP_PORTS, "starttls"),
        ):
            security = filled.get(f"{prefix}_security", fallback)
            if filled.get(f"{prefix}_port") is None and security in ports:
                filled[f"{prefix}_port"] = ports[security]
        return filled

    @field_validator("address")
    @classmethod
    def _address_shape(cls, value: str | None) -> str | None:
        if value is not None and "@" not in value:
            raise PydanticCustomError("email_address", "must be a mail address (name@domain)")
        return value

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if self.enabled:
            missing = [name for name in ("imap_host", "smtp_host") if getattr(self, name) is None]
            if missing:
                raise _missing(*missing, why="for the email channel")
            if self.require_auth_results and not self.authserv_ids:
                raise _missing("authserv_ids", why="with require_auth_results")
        return self


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
            (`wrapper.retention`); None keeps everything.
        public_url: where people reach this service's HTTP port from outside
            (``https://clock.example.org``); the base of the web pages' sign-in
            links. Without it, "dashboard" says the pages are not set up.
        admin_token: the operator's sign-in token for ``/ui/operator``; None
            turns operator sign-in off. At least 16 characters.
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
        raise ConfigError([(exc.path, _policy_reason(exc))], source=path) from None
    if "config_file" in document:
        raise ConfigError([("config_file", "not a setting (remove it)")], source=path)

    environment = _Environment(env)
    merged = _merged(document, environment())
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
            Settings, case_sensitive=False, env_prefix="CLOCKBOT_", env_nested_delimiter="_",
            env_nested_max_split=1, env_ignore_empty=True,
        )  # fmt: skip

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
        document = _read_yaml(Path(file_path))
        self.clock_block = document.pop("clock", None)
        return _without_empty(document)


def _merged(low: Mapping[str, Any], high: Mapping[str, Any]) -> dict[str, Any]:
    """`low` with `high` laid over it, group by group (``llm:`` from both is one group)."""
    merged = dict(low)
    for key, value in high.items():
        below = merged.get(key)
        both = isinstance(below, Mapping) and isinstance(value, Mapping)
        merged[key] = _merged(below, value) if both else value  # type: ignore[arg-type]
    return merged


def _policy_reason(exc: PolicyError) -> str:
    """The reason of a `PolicyError`, without the source and path it starts with."""
    message = str(exc)
    for prefix in (f"{exc.source}: " if exc.source else "", f"{exc.path or '<policy>'}: "):
        message = message.removeprefix(prefix)
    return message


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise ConfigError([("", f"cannot read {path}: {reason}")], source=path) from None
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        # str(exc) quotes the offending line, which may hold a secret: use the position only.
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "unreadable"
        raise ConfigError([("", f"not valid YAML{where}: {problem}")], source=path) from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigError([("", "the top level must be a mapping")], source=path)
    return loaded


def _without_empty(data: Mapping[Any, Any]) -> dict[Any, Any]:
    """A copy of a YAML mapping without null or empty-string values (they count as unset)."""
    result: dict[Any, Any] = {}
    for key, value in data.items():
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        result[key] = _without_empty(value) if isinstance(value, Mapping) else value
    return result


def _config_error(
    exc: ValidationError, path: Path | None, from_env: set[tuple[str, ...]]
) -> ConfigError:
    """Turn a pydantic error into a `ConfigError` built from locations and messages only."""
    problems: list[tuple[str, str]] = []
    for error in exc.errors(include_input=False, include_url=False):
        loc = tuple(str(part) for part in error["loc"])
        ctx = error.get("ctx") or {}
        if error["type"] == _MISSING:
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
    return f"{field}{where}", message
