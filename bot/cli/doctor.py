"""`clockbot doctor`: check that the configuration, the store and the LLM work.

Each check is one line: ``ok   name: detail`` or ``FAIL name: detail``. The
command exits 0 when every check passes, 1 when one fails and 2 when the
configuration cannot be read. No line ever shows a secret: API keys travel
only in request headers, and URLs are shown without credentials or queries.

Channels come from `bot.app.channel_registry`: each is reported as not configured,
failed when its extra is not installed, or configured (with a summary) and
asked of its platform (`channels.base.Channel.probe`: Telegram ``getMe``,
Slack ``auth.test``, an IMAP login and an SMTP EHLO), which passes or fails.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import typer

from bot import messages
from bot.app.channel_registry import CHANNELS, ChannelSpec
from bot.app.redact import masked_db, masked_http
from bot.config.settings import ConfigError, Settings, load_settings
from channels.base import ChannelError
from clockcore import SystemClock
from clockcore.parsing import duckling_reader
from wrapper import InteractionWrapper, WrapperError

__all__ = [
    "ANTHROPIC_BASE_URL",
    "OPENAI_BASE_URL",
    "PROBE_TIMEOUT",
    "Check",
    "diagnose",
    "run_doctor",
]

OPENAI_BASE_URL = "https://api.openai.com/v1"
ANTHROPIC_BASE_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
PROBE_TIMEOUT = 5.0
"""Seconds the LLM probe waits for an answer."""


@dataclass(frozen=True, slots=True)
class Check:
    """The outcome of one check.

    Attributes:
        name: what was checked (``config``, ``store``, ``llm``, ``telegram`` …).
        ok: whether it passed; informational lines pass.
        detail: one line for a person, never holding a secret.
    """

    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        """The check as the line `clockbot doctor` prints."""
        template = messages.DOCTOR_OK if self.ok else messages.DOCTOR_FAIL
        return template.format(name=self.name, detail=self.detail)


async def diagnose(settings: Settings, *, probe_timeout: float = PROBE_TIMEOUT) -> list[Check]:
    """Run every check, in order: config, store, llm, time, then each channel of the registry.

    Args:
        settings: the loaded settings.
        probe_timeout: seconds the LLM probe waits.

    Returns:
        One `Check` per line of the report.
    """
    return [
        _check_config(settings),
        await _check_store(settings),
        await _check_llm(settings, probe_timeout),
        _check_time_reader(),
        *[await _check_channel(spec, settings, probe_timeout) for spec in CHANNELS],
    ]


def run_doctor(config: Path | None) -> None:
    """``clockbot doctor``: print each check; exit 1 when one failed, 2 on a bad configuration."""
    try:
        settings = load_settings(config_path=config)
    except ConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    checks = asyncio.run(diagnose(settings))
    for check in checks:
        typer.echo(check.line())
    if not all(check.ok for check in checks):
        raise typer.Exit(1)


# --------------------------------------------------------------------------- checks


def _check_config(settings: Settings) -> Check:
    if settings.config_file is None:
        return Check("config", True, messages.DOCTOR_CONFIG_NO_FILE)
    loaded = messages.DOCTOR_CONFIG_FROM_FILE.format(path=settings.config_file)
    exposed = settings.exposure()
    if exposed is not None:  # a warning, not a failure: the configuration works
        return Check("config", True, f"{loaded}; warning: {exposed}")
    return Check("config", True, loaded)


def _check_time_reader() -> Check:
    """Which reader reads times here; the grammar alone is a fallback, not a failure."""
    if not duckling_reader.available():
        return Check("time", True, messages.DOCTOR_TIME_GRAMMAR)
    version = importlib.metadata.version("pyduckling-native-phihos")
    return Check("time", True, messages.DOCTOR_TIME_DUCKLING.format(version=version))


async def _check_store(settings: Settings) -> Check:
    url = settings.store_url
    try:
        wrapper = await InteractionWrapper.open(
            url,
            agent_id=settings.agent_id,
            policy=settings.clock,
            agent_tz="UTC",
            contact_window=settings.contact_window,
        )
    except WrapperError as exc:
        return Check("store", False, str(exc))
    except OSError as exc:
        return Check("store", False, f"cannot prepare {masked_db(url)}: {exc.strerror or exc}")
    await wrapper.close()
    return Check("store", True, messages.DOCTOR_STORE_OK.format(url=masked_db(url)))


async def _check_llm(settings: Settings, probe_timeout: float) -> Check:
    llm = settings.llm
    if llm.provider == "none":
        return Check("llm", True, messages.DOCTOR_RULES_AGENT)
    key = llm.api_key.get_secret_value() if llm.api_key is not None else None
    headers: dict[str, str] = {}
    if llm.provider == "openai":
        url = (llm.base_url or OPENAI_BASE_URL).rstrip("/") + "/models"
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
    else:
        url = (llm.base_url or ANTHROPIC_BASE_URL).rstrip("/") + "/v1/models"
        headers["anthropic-version"] = ANTHROPIC_VERSION
        if key is not None:
            headers["x-api-key"] = key
    shown = masked_http(url)
    fields = {"provider": llm.provider, "url": shown}
    try:
        async with httpx.AsyncClient(timeout=probe_timeout, follow_redirects=False) as client:
            response = await client.get(url, headers=headers)
    except httpx.TimeoutException:
        reason = f"no answer within {probe_timeout:g} s"
        return Check("llm", False, messages.DOCTOR_LLM_UNREACHABLE.format(**fields, reason=reason))
    except httpx.ConnectError as exc:
        reason = "connection refused" if _refused(exc) else "cannot connect"
        return Check("llm", False, messages.DOCTOR_LLM_UNREACHABLE.format(**fields, reason=reason))
    except (httpx.HTTPError, ValueError) as exc:
        # The text of other errors may quote the request; the kind of error is enough.
        reason = type(exc).__name__
        return Check("llm", False, messages.DOCTOR_LLM_UNREACHABLE.format(**fields, reason=reason))
    status = response.status_code
    if 200 <= status < 300:
        return Check(
            "llm", True, messages.DOCTOR_LLM_OK.format(**fields, status=status, model=llm.model)
        )
    if status in (401, 403):
        return Check("llm", False, messages.DOCTOR_LLM_REFUSED_KEY.format(**fields, status=status))
    return Check("llm", False, messages.DOCTOR_LLM_HTTP.format(**fields, status=status))


async def _check_channel(spec: ChannelSpec[Any], settings: Settings, wait: float) -> Check:
    group = spec.group(settings)
    if not group.enabled:
        return Check(spec.name, True, messages.DOCTOR_CHANNEL_OFF)
    if spec.missing_sdk() is not None:
        install = messages.INSTALL_EXTRA.format(extra=spec.extra)
        detail = messages.DOCTOR_CHANNEL_NO_EXTRA.format(extra=spec.extra, install=install)
        return Check(spec.name, False, detail)
    summary = spec.describe(group)
    try:
        channel = spec.build(group, SystemClock())
        async with asyncio.timeout(wait):
            answered = await channel.probe()
    except TimeoutError:
        reason = f"no answer within {wait:g} s"
        return Check(
            spec.name, False, messages.DOCTOR_CHANNEL_FAILED.format(summary=summary, reason=reason)
        )
    except (ChannelError, ValueError) as exc:  # messages that name no secret, by contract
        return Check(
            spec.name, False, messages.DOCTOR_CHANNEL_FAILED.format(summary=summary, reason=exc)
        )
    return Check(
        spec.name, True, messages.DOCTOR_CHANNEL_ON.format(summary=summary, answered=answered)
    )


# --------------------------------------------------------------------------- helpers


def _refused(exc: BaseException) -> bool:
    """Whether a connection error was, somewhere down its chain, a refused connection."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError) or "refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False
