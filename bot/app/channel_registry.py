"""Every configurable channel, in one table: `CHANNELS`.

Each `ChannelSpec` says where the channel's settings live (its group in
`bot.config.settings`, also its ``CLOCKBOT_<NAME>_*`` variables), which extra installs
its SDKs, how to build the adapter from the settings, and what ``clockbot
doctor`` shows about it. The gateway, the doctor and the CLI read this table
and nothing else, so adding a channel means: its adapter package in
``channels/``, its settings group (one class and one `Settings` field), and
one row here.

A factory imports its adapter package inside the call, so an SDK is imported
only when its channel is configured and a deployment needs only the extras of
the channels it runs. The console is not here: it runs when no channel does.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot import messages
from bot.app.redact import masked_http
from bot.config.settings import (
    ChannelSettings,
    EmailSettings,
    Settings,
    SlackSettings,
    TelegramSettings,
)
from channels.base import Channel, Sink, StateStore
from clockcore import Clock

__all__ = [
    "CHANNELS",
    "ChannelSpec",
    "MissingExtraError",
    "build_channels",
    "enabled_channels",
    "extra_for_module",
    "start_channels",
    "stop_channels",
]

log = logging.getLogger(__name__)

G = TypeVar("G", bound=ChannelSettings)


class MissingExtraError(ModuleNotFoundError):
    """A configured channel's SDK is not installed.

    Attributes:
        channel: the channel's name.
        extra: the extra that installs it (``pip install 'clockbot[<extra>]'``).
        name: the module that could not be imported (as `ModuleNotFoundError`).
    """

    def __init__(self, channel: str, extra: str, *, module: str | None) -> None:
        install = messages.INSTALL_EXTRA.format(extra=extra)
        text = messages.CHANNEL_NEEDS_EXTRA.format(channel=channel, extra=extra, install=install)
        super().__init__(text, name=module)
        self.channel = channel
        self.extra = extra


@dataclass(frozen=True, slots=True)
class ChannelSpec(Generic[G]):
    """One channel: its name, settings, extra, factory and doctor summary.

    Attributes:
        name: the adapter's `Channel.name`; also its `Settings` field and the
            middle of its variables (``CLOCKBOT_TELEGRAM_TOKEN``).
        settings: its settings group class in `bot.config.settings`.
        extra: the ``clockbot[...]`` extra that installs its SDKs.
        sdk: the top-level modules that extra provides.
        factory: builds the (unstarted) adapter from a complete, enabled group;
            imports the adapter package itself.
        describe: the doctor's one-line summary of an enabled group, no secrets.
    """

    name: str
    settings: type[G]
    extra: str
    sdk: tuple[str, ...]
    factory: Callable[[G, Clock], Channel]
    describe: Callable[[G], str]

    def group(self, settings: Settings) -> G:
        """This channel's settings group."""
        group = getattr(settings, self.name)
        assert isinstance(group, self.settings)
        return group

    def missing_sdk(self) -> str | None:
        """The first SDK module that is not installed, or None (imports nothing)."""
        return next((m for m in self.sdk if importlib.util.find_spec(m) is None), None)

    def build(self, group: G, clock: Clock) -> Channel:
        """The adapter for `group`.

        Raises:
            MissingExtraError: the channel's SDK is not installed.
        """
        try:
            return self.factory(group, clock)
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] not in self.sdk:
                raise
            raise MissingExtraError(self.name, self.extra, module=exc.name) from exc


# --------------------------------------------------------------------------- telegram


def _telegram(tg: TelegramSettings, clock: Clock) -> Channel:
    from channels.telegram import TelegramChannel

    assert tg.token is not None  # enabled
    return TelegramChannel(
        tg.token.get_secret_value(),
        api_url=tg.api_url,
        mode=tg.mode,
        webhook_url=tg.webhook_url,
        webhook_secret=_secret(tg.webhook_secret),
        allowed_users=tg.allowed_users,
        clock=clock,
    )


def _describe_telegram(tg: TelegramSettings) -> str:
    parts = [f"mode {tg.mode}", f"API {masked_http(tg.api_url)}"]
    if tg.mode == "webhook" and tg.webhook_url is not None:
        parts.append(f"webhook {masked_http(tg.webhook_url)}")
    parts.append(_allowed(tg.allowed_users, "users"))
    return ", ".join(parts)


# --------------------------------------------------------------------------- slack


def _slack(sl: SlackSettings, clock: Clock) -> Channel:
    from channels.slack import SlackChannel

    assert sl.bot_token is not None  # enabled
    return SlackChannel(
        sl.bot_token.get_secret_value(),
        mode=sl.mode,
        app_token=_secret(sl.app_token),
        signing_secret=_secret(sl.signing_secret),
        api_url=sl.api_url,
        allowed_users=sl.allowed_users,
        allowed_channels=sl.allowed_channels,
        clock=clock,
    )


def _describe_slack(sl: SlackSettings) -> str:
    return ", ".join(
        [
            f"mode {sl.mode}",
            f"API {masked_http(sl.api_url)}",
            _allowed(sl.allowed_users, "users"),
            _allowed(sl.allowed_channels, "channels"),
        ]
    )


# --------------------------------------------------------------------------- email


def _email(em: EmailSettings, clock: Clock) -> Channel:
    from channels.email import EmailChannel

    assert em.address is not None  # enabled
    assert em.imap_host is not None  # validated by the settings
    assert em.smtp_host is not None
    return EmailChannel(
        em.address,
        imap_host=em.imap_host,
        imap_port=em.imap_port,
        imap_user=em.imap_user,
        imap_password=_secret(em.imap_password),
        imap_security=em.imap_security,
        smtp_host=em.smtp_host,
        smtp_port=em.smtp_port,
        smtp_user=em.smtp_user,
        smtp_password=_secret(em.smtp_password),
        smtp_security=em.smtp_security,
        allowed_senders=em.allowed_senders,
        require_auth_results=em.require_auth_results,
        authserv_ids=em.authserv_ids,
        clock=clock,
    )


def _describe_email(em: EmailSettings) -> str:
    return ", ".join(
        [
            str(em.address),
            f"IMAP {em.imap_host}:{em.imap_port} {em.imap_security}",
            f"SMTP {em.smtp_host}:{em.smtp_port} {em.smtp_security}",
            _allowed(em.allowed_senders, "senders"),
        ]
    )


# --------------------------------------------------------------------------- the table

CHANNELS: tuple[ChannelSpec[Any], ...] = (
    ChannelSpec(
        name="telegram",
        settings=TelegramSettings,
        extra="telegram",
        sdk=("telegram",),
        factory=_telegram,
        describe=_describe_telegram,
    ),
    ChannelSpec(
        name="slack",
        settings=SlackSettings,
        extra="slack",
        sdk=("slack_bolt", "slack_sdk"),
        factory=_slack,
        describe=_describe_slack,
    ),
    ChannelSpec(
        name="email",
        settings=EmailSettings,
        extra="email",
        sdk=("aioimaplib", "aiosmtplib", "authres", "mailparser_reply", "publicsuffixlist"),
        factory=_email,
        describe=_describe_email,
    ),
)
"""Every configurable channel, in the order they start and the doctor lists them."""


def enabled_channels(settings: Settings) -> list[ChannelSpec[Any]]:
    """The channels whose required settings are present."""
    return [spec for spec in CHANNELS if spec.group(settings).enabled]


def build_channels(settings: Settings, *, clock: Clock) -> list[Channel]:
    """An unstarted adapter for every enabled channel.

    Raises:
        MissingExtraError: an enabled channel's SDK is not installed.
    """
    return [spec.build(spec.group(settings), clock) for spec in enabled_channels(settings)]


async def start_channels(
    channels: Sequence[Channel],
    sink: Sink,
    state: StateStore,
    *,
    started: list[Channel],
    intake: bool = True,
) -> None:
    """Start `channels` in order, appending each to `started` once it runs.

    `intake` False holds back each single-reader intake for `bot.app.intake`.
    Raises whatever a channel's start raises; `started` then holds those to stop.
    """
    for channel in channels:
        await channel.start(sink, state, intake=intake)
        started.append(channel)
        log.info("channel %s started", channel.name)


async def stop_channels(started: list[Channel]) -> None:
    """Stop `started` in reverse order and empty it; one that fails is logged, not raised."""
    for channel in reversed(started):
        try:
            await channel.stop()
        except Exception:
            log.exception("channel %s did not stop cleanly", channel.name)
    started.clear()


def extra_for_module(module: str | None) -> str | None:
    """The extra that installs `module` (``slack_sdk.errors`` → ``slack``), if a channel's."""
    top = (module or "").split(".")[0]
    return next((spec.extra for spec in CHANNELS if top in spec.sdk), None)


def _secret(value: Any) -> str | None:
    return None if value is None else str(value.get_secret_value())


def _allowed(items: Sequence[str], what: str) -> str:
    return f"{len(items)} allowed {what}" if items else f"all {what} allowed"
