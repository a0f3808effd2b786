"""`bot.app.redact`: secrets masked in log records, URLs shown without credentials."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot.app.redact import RedactSecrets, masked_db, masked_http
from bot.config.settings import EmailSettings, LLMSettings, Settings, TelegramSettings

TOKEN = "123456:AAbb-cc_DD"


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger writing to a string through a handler that carries the filter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets(["sk-live-key-1", "imap-pass-2"]))
    logger = logging.getLogger("test.redact")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield logger, stream
    finally:
        logger.removeHandler(handler)
        logger.propagate = True


def test_configured_secrets_and_telegram_token_paths_are_masked(
    captured: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, stream = captured
    logger.warning('HTTP Request: POST https://api.telegram.org/bot%s/getUpdates "200"', TOKEN)
    logger.warning("auth with %s and %s failed", "sk-live-key-1", "imap-pass-2")
    logger.warning("nothing secret here: bot %d", 7)
    lines = stream.getvalue().splitlines()
    assert lines == [
        'HTTP Request: POST https://api.telegram.org/bot***/getUpdates "200"',
        "auth with *** and *** failed",
        "nothing secret here: bot 7",
    ]


def test_a_traceback_is_masked_too(captured: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = captured
    try:
        raise ConnectionError(f"https://api.telegram.org/bot{TOKEN}/getMe refused sk-live-key-1")
    except ConnectionError:
        logger.exception("a request failed")
    text = stream.getvalue()
    assert "ConnectionError" in text and "bot***/getMe refused ***" in text
    assert TOKEN not in text and "sk-live-key-1" not in text


def test_settings_name_every_secret_they_hold(tmp_path: object) -> None:
    settings = Settings(
        llm=LLMSettings(provider="openai", model="m", api_key="sk-live-key-1"),
        telegram=TelegramSettings(token=TOKEN),
        email=EmailSettings(
            address="bot@example.test", imap_host="h", smtp_host="h", imap_password="imap-pass-2"
        ),
    )
    assert sorted(settings.secrets()) == sorted([TOKEN, "sk-live-key-1", "imap-pass-2"])
    assert Settings().secrets() == []


def test_urls_are_shown_without_credentials() -> None:
    assert masked_db("postgresql://u:pw@db/x") == "postgresql://u:***@db/x"
    assert masked_http("https://u:pw@h.example/v1?key=s#f") == "https://h.example/v1"
