"""A channel's settings group for each of Telegram, Slack and email, each complete once enabled.

A token's shape is checked before any network call, so a mistyped one is an
error naming its setting at start (`bot.config.fields.token_shape`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal, Self

from pydantic import SecretStr, field_validator, model_validator
from pydantic_core import PydanticCustomError

from bot.config.fields import Group, HttpUrl, Port, StrList, required_error, token_shape

__all__ = ["ChannelSettings", "EmailSettings", "SlackSettings", "TelegramSettings"]

_IMAP_PORTS = {"tls": 993, "starttls": 143, "none": 143}
_SMTP_PORTS = {"tls": 465, "starttls": 587, "none": 25}
_TELEGRAM_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
_TELEGRAM_TOKEN = re.compile(r"^[0-9]+:[A-Za-z0-9_-]+$")
"""A Bot API token's shape: the bot's id, a colon, the key (``123456:AAbb-cc_DD``)."""
_SLACK_BOT_TOKEN = re.compile(r"^xoxb-[A-Za-z0-9-]+$")
_SLACK_APP_TOKEN = re.compile(r"^xapp-[A-Za-z0-9-]+$")


class ChannelSettings(Group):
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
        return token_shape(value, _TELEGRAM_TOKEN, "BotFather's tokens look like 123456:ABC-def_…")

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
                raise required_error(*missing, why="in webhook mode")
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
        return token_shape(value, _SLACK_BOT_TOKEN, "a bot token starts with xoxb-")

    @field_validator("app_token")
    @classmethod
    def _app_token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        return token_shape(value, _SLACK_APP_TOKEN, "an app-level token starts with xapp-")

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if not self.enabled:
            return self
        if self.mode == "socket" and self.app_token is None:
            raise required_error("app_token", why="in socket mode")
        if self.mode == "http" and self.signing_secret is None:
            raise required_error("signing_secret", why="in http mode")
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
                raise required_error(*missing, why="for the email channel")
            if self.require_auth_results and not self.authserv_ids:
                raise required_error("authserv_ids", why="with require_auth_results")
        return self
