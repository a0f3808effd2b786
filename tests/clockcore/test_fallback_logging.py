"""The written-date fallback (dateparser) leaves logging to the application."""

from __future__ import annotations

import logging

import dateparser.utils
import pytest

from clockcore.parsing.fallback import _fallback_parser


def test_dateparser_leaves_logging_to_the_application(monkeypatch: pytest.MonkeyPatch) -> None:
    """dateparser's first log line ran `dictConfig(disable_existing_loggers=True)` when the
    root logger had no handler (the console): every logger made before it went silent, and
    a full test run lost the Telegram adapter's log lines to it."""
    _fallback_parser()
    monkeypatch.setattr(logging.root, "handlers", [])
    mine = logging.getLogger("clockbot.probe")
    dateparser.utils.get_logger()
    assert not mine.disabled
    assert logging.root.handlers == []
