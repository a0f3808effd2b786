"""No secret in any log: what the suite watches for, and where it looks.

`tests/conftest.py` runs `LeakWatch` around every test: a logging handler on the root logger
that sees every record of the test (the root at INFO, clockbot's own packages at DEBUG), and
the log files of the `clockbot run` children the test started (`BotProcess` registers them).
A record or a log line that holds a watched secret fails the test, naming the logger and the
secret's first characters only.

Watched: the fake peers' credentials (the Telegram token, the Slack tokens, the mail
password), every ``CLOCKBOT_*`` variable whose name says it is a secret (in this process's
environment or a child's), and whatever a test adds with `watch`. Values shorter than
`MIN_LENGTH` are not watched: "k" would be found everywhere.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.support import fake_telegram, mail

__all__ = [
    "MIN_LENGTH",
    "LeakWatch",
    "secret_values",
    "watch",
    "watch_process_log",
]

MIN_LENGTH = 6
_SECRET_NAME = re.compile(r"TOKEN|PASSWORD|API_KEY|SECRET")
_OWN_LOGGERS = ("bot", "channels", "wrapper", "clockcore")

_WATCHED: set[str] = {
    fake_telegram.TOKEN,
    mail.PASSWORD,
    "xoxb-fake-bot-token",
    "xapp-fake-app-token",
}
_PROCESS_LOGS: list[Path] = []


def watch(*values: str) -> None:
    """Watch `values` too, for the rest of the session."""
    _WATCHED.update(v for v in values if len(v) >= MIN_LENGTH)


def secret_values(environ: Mapping[str, str]) -> set[str]:
    """The values of the ``CLOCKBOT_*`` variables in `environ` whose names say they are secrets."""
    return {
        value
        for name, value in environ.items()
        if name.startswith("CLOCKBOT_") and _SECRET_NAME.search(name) and len(value) >= MIN_LENGTH
    }


def watch_process_log(log: Path, environ: Mapping[str, str]) -> None:
    """A child's log file, to be read for `environ`'s secrets (and the rest) after its test."""
    watch(*secret_values(environ))
    _PROCESS_LOGS.append(log)


class LeakWatch(logging.Handler):
    """Sees every record while installed; `found` lists the ones that held a secret."""

    def __init__(self) -> None:
        super().__init__(level=logging.NOTSET)
        self.found: list[str] = []
        self._levels: dict[str, int] = {}
        self._logs_before = 0

    def install(self) -> None:
        self._logs_before = len(_PROCESS_LOGS)
        for name in ("", *_OWN_LOGGERS):
            logger = logging.getLogger(name)
            self._levels[name] = logger.level
            logger.setLevel(logging.DEBUG if name else min(logger.level or 100, logging.INFO))
        # First of the root's handlers: another handler's filter (`bot.app.redact` on a handler
        # an in-process `clockbot run` configured) must not mask a record before it is seen.
        logging.getLogger().handlers.insert(0, self)

    def uninstall(self) -> list[str]:
        """Remove the handler; every leak of the test, records and child logs."""
        logging.getLogger().removeHandler(self)
        for name, level in self._levels.items():
            logging.getLogger(name).setLevel(level)
        secrets = _secrets()
        for log in dict.fromkeys(_PROCESS_LOGS[self._logs_before :]):
            if log.exists():
                text = log.read_text(errors="replace")
                self.found.extend(f"{log.name}: {_hint(s)}" for s in secrets if s in text)
        del _PROCESS_LOGS[self._logs_before :]
        return self.found

    def forgive(self) -> list[str]:
        """What was found so far, cleared (for a test of the watch itself)."""
        found, self.found = self.found, []
        return found

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:  # a record that cannot format shows its template
            text = str(record.msg)
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            text += record.exc_text
        self.found.extend(f"{record.name}: {_hint(s)}" for s in _secrets() if s in text)


def _secrets() -> Iterable[str]:
    return _WATCHED | secret_values(os.environ)


def _hint(secret: str) -> str:
    return f"a secret starting {secret[:3]!r}"
