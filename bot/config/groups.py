"""The settings groups of `bot.config.settings.Settings` and the field types they share.

One group per YAML block and environment prefix: ``llm``, ``worker``,
``limit``, and a channel group for each of Telegram, Slack and email. Each
group checks itself (a token's shape before any network call, a channel
complete once it is enabled); errors name fields and never quote a value.
`bot.config.settings` assembles them into `Settings` and reads them from the
environment and the YAML file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SecretStr,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError
from pydantic_settings import (
    NoDecode,
)

from bot.llm.types import Sampling
from clockcore import (
    ContactWindow,
    InvalidContactWindowError,
    Policy,
    PolicyError,
)
from clockcore.policy import policy_from_mapping
from wrapper.turns.limits import Bucket, TurnLimits

__all__ = [
    "DEFAULT_TEMPERATURE",
    "MISSING_SETTING",
    "SERVER_DEFAULT",
    "ChannelSettings",
    "ContactWindowField",
    "EmailSettings",
    "LLMSettings",
    "LimitSettings",
    "PolicyField",
    "SlackSettings",
    "TelegramSettings",
    "WorkerSettings",
]

DEFAULT_TEMPERATURE = 0.2
"""The temperature sent to a server at a `base_url` unless set: low, for tool use
(docs/configuration.md, "Sampling")."""
SERVER_DEFAULT: Literal["server-default"] = "server-default"
"""The sampling value that sends nothing, so the server samples as it would by default."""
MISSING_SETTING = "missing_setting"
"""The error type of a required setting that is absent; its context names the fields."""
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


def _temperature(value: object) -> float | Literal["server-default"]:
    """A number from 0 to 2, or `SERVER_DEFAULT` (any case, around spaces)."""
    if isinstance(value, str) and value.strip().lower() == SERVER_DEFAULT:
        return SERVER_DEFAULT
    number = _number(value)
    if number is None or not 0 <= number <= 2:
        raise PydanticCustomError(
            "temperature", f"must be a number from 0 to 2, or {SERVER_DEFAULT} to send none"
        )
    return number


def _top_p(value: object) -> float | Literal["server-default"]:
    """A number above 0 and at most 1, or `SERVER_DEFAULT`."""
    if isinstance(value, str) and value.strip().lower() == SERVER_DEFAULT:
        return SERVER_DEFAULT
    number = _number(value)
    if number is None or not 0 < number <= 1:
        raise PydanticCustomError(
            "top_p", f"must be a number above 0 and at most 1, or {SERVER_DEFAULT} to send none"
        )
    return number


def _number(value: object) -> float | None:
    """`value` as a finite float (a YAML number, or the environment's text), else None."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value) if isinstance(value, int | float | str) else None
    except ValueError:
        return None
    return number if number is not None and math.isfinite(number) else None


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
    return PydanticCustomError(MISSING_SETTING, "required {why}", {"fields": fields, "why": why})


StrList = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_split_list)]
HttpUrl = Annotated[str, BeforeValidator(_http_url)]
Port = Annotated[int, Field(ge=1, le=65535)]
ContactWindowField = Annotated[
    ContactWindow,
    NoDecode,
    PlainValidator(_contact_window),
    PlainSerializer(str, return_type=str, when_used="json"),
]
SamplingField = Annotated[float | Literal["server-default"], PlainValidator(_temperature)]
TopPField = Annotated[float | Literal["server-default"], PlainValidator(_top_p)]
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


LOCAL_SERVERS = {
    "ollama": "http://localhost:11434/v1",
    "llamacpp": "http://localhost:8080/v1",
    "llamaserver": "http://localhost:8080/v1",
    "lmstudio": "http://localhost:1234/v1",
    "vllm": "http://localhost:8000/v1",
}
"""Local model servers people name as the provider, and the base URL each serves by default."""


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
        text_calls: whether a reply that is nothing but a tool call written as text (JSON,
            in a fence or in tags) runs as that call; unset is on for an OpenAI-compatible
            server at a `base_url` (local servers often lack a tool-call parser) and off
            for hosted APIs, which return structured calls. A call shown inside prose
            never runs; either way a written call is never sent to the person.
        temperature: the sampling temperature sent with every request (0 to 2; Anthropic
            takes 0 to 1), or ``server-default`` to send none. Unset is 0.2 for a server at a
            `base_url` (a local model: low, for tool calls, docs/configuration.md, "Sampling")
            and ``server-default`` for hosted APIs, whose current models set their own and
            some refuse any other.
        top_p: nucleus sampling's probability mass (above 0, at most 1), sent with every
            request where set; unset (or ``server-default``) sends none.
        mode: ``native`` (the model calls the tools) or ``reader-first``: a request the
            built-in reader understands whole (set, list, move, cancel a reminder, a time
            question) is carried out by clockbot, and the model only writes the words
            around it (docs/configuration.md, "Reader first"); or ``constrained``
            (OpenAI-compatible servers that take a JSON schema: llama.cpp, vLLM, Ollama):
            each model step is one JSON schema, a reply or one call to one of the tools
            (docs/configuration.md, "Constrained").
    """

    provider: Literal["openai", "anthropic", "none"] = "none"
    base_url: HttpUrl | None = None
    model: str | None = None
    api_key: SecretStr | None = None
    timeout_seconds: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 60.0
    context_tokens: Annotated[int, Field(ge=1024, le=10_000_000)] | None = None
    tools: bool = True
    text_calls: bool | None = None
    temperature: SamplingField | None = None
    top_p: TopPField | None = None
    mode: Literal["native", "reader-first", "constrained"] = "native"

    @property
    def sampling(self) -> Sampling:
        """What each request sends: `temperature` and `top_p`, or their defaults."""
        temperature = self.temperature
        if temperature is None:
            temperature = DEFAULT_TEMPERATURE if self.base_url is not None else SERVER_DEFAULT
        return Sampling(_sent(temperature), _sent(self.top_p))

    @field_validator("provider", mode="before")
    @classmethod
    def _local_server_named(cls, value: object) -> object:
        """A local server named as the provider gets its recipe, not a bare refusal."""
        name = str(value).strip().lower().replace(".", "").replace("-", "").replace(" ", "")
        if name in LOCAL_SERVERS:
            raise ValueError(
                f"{value} serves an OpenAI-compatible API: set provider openai and base_url "
                f"{LOCAL_SERVERS[name]} (docs/local-models.md has the recipe)"
            )
        return value

    @property
    def reads_text_calls(self) -> bool:
        """`text_calls`, or its default for the provider."""
        if self.text_calls is not None:
            return self.text_calls
        return self.provider == "openai" and self.base_url is not None

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
        if self.provider == "anthropic" and self.mode == "constrained":
            raise PydanticCustomError(
                "mode", "the constrained mode needs an OpenAI-compatible server (llm.mode)"
            )
        temperature = self.sampling.temperature
        if self.provider == "anthropic" and temperature is not None and temperature > 1:
            raise PydanticCustomError(
                "temperature", "Anthropic takes a temperature from 0 to 1 (llm.temperature)"
            )
        return self


def _sent(value: float | Literal["server-default"] | None) -> float | None:
    """A sampling setting as the request carries it: the number, or None for none."""
    return None if value is None or value == SERVER_DEFAULT else value


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

    Each is a token bucket (`wrapper.turns.limits`): `burst` turns at once, refilled
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
        """These settings as `wrapper.turns.limits.TurnLimits`."""
        return TurnLimits(
            person=Bucket(self.turns_per_minute, self.burst),
            channel=Bucket(self.channel_turns_per_minute, self.channel_burst),
            notice_every=timedelta(seconds=self.notice_every),
        )


class ChannelSettings(_Group):
    """Base of a channel's group: its fields are read from ``CLOCKBOT_<CHANNEL>_<FIELD>``.

    A subclass is one `Settings` field named after its channel, and one entry
    in `bot.app.channel_registry.CHANNELS`.
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
