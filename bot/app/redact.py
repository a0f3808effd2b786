"""Secrets kept out of sight: URLs without passwords, log records without tokens.

`RedactSecrets` is a logging filter. `clockbot run` puts it on every handler of
the root logger with the configured secrets (`Settings.secrets`), so no record
from any library shows one. The gateway puts it on the ``httpx`` logger as well
(`redact_http_logs`), for embedders with logging of their own: httpx logs every
request's URL at INFO, and a Telegram URL carries the bot token in its path.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

import httpx
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

__all__ = ["RedactSecrets", "masked_db", "masked_http", "redact_http_logs"]

_TELEGRAM_TOKEN_PATH = re.compile(r"/bot\d+:[A-Za-z0-9_-]+")
MASK = "***"


class RedactSecrets(logging.Filter):
    """Rewrites each record with `secrets` (and Telegram token paths) masked; never drops one."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def mask(self, text: str) -> str:
        text = _TELEGRAM_TOKEN_PATH.sub("/bot" + MASK, text)
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot format is left to the handler's own error
            return True
        masked = self.mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.mask(record.exc_text)
        return True


_HTTP_LOGS = RedactSecrets()


def redact_http_logs() -> None:
    """Mask Telegram token paths in httpx's request log lines (idempotent)."""
    logging.getLogger("httpx").addFilter(_HTTP_LOGS)


def masked_db(url: str) -> str:
    """A database URL with its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unreadable URL>"


def masked_http(url: str) -> str:
    """An http(s) URL without user, password, query or fragment."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return "<unreadable URL>"
    host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host
    port = f":{parsed.port}" if parsed.port is not None else ""
    return f"{parsed.scheme}://{host}{port}{parsed.path}"
