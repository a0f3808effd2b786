"""The suite's own log watch (`tests/support/leaks.py`) sees what it must."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.app.redact import redact_http_logs
from tests.support import fake_telegram
from tests.support.bot_process import BotProcess
from tests.support.leaks import LeakWatch, secret_values, watch

log = logging.getLogger("bot.somewhere")


def test_a_record_holding_a_secret_is_found_at_any_level(leak_watch: LeakWatch) -> None:
    log.debug("calling https://api.telegram.org/bot%s/getMe", fake_telegram.TOKEN)
    logging.getLogger("some.library").info("POST .../bot%s/x", fake_telegram.TOKEN)
    found = leak_watch.forgive()
    assert found == [
        "bot.somewhere: a secret starting '123'",
        "some.library: a secret starting '123'",
    ]


def test_httpx_request_lines_are_masked_once_a_gateway_ran(leak_watch: LeakWatch) -> None:
    redact_http_logs()
    url = f"https://api.telegram.org/bot{fake_telegram.TOKEN}/getUpdates"
    logging.getLogger("httpx").info('HTTP Request: POST %s "HTTP/1.1 200 OK"', url)
    assert leak_watch.forgive() == []


def test_a_secret_in_a_traceback_is_found(leak_watch: LeakWatch) -> None:
    watch("hunter2-password")
    try:
        raise ValueError("login failed for hunter2-password")
    except ValueError:
        log.exception("no luck")
    assert leak_watch.forgive() == ["bot.somewhere: a secret starting 'hun'"]


def test_plain_records_pass(leak_watch: LeakWatch) -> None:
    log.warning("a telegram turn failed; it will be retried")
    assert leak_watch.forgive() == []


def test_secret_variables_are_told_by_their_names() -> None:
    env = {
        "CLOCKBOT_TELEGRAM_TOKEN": "1:abcdefgh",
        "CLOCKBOT_LLM_API_KEY": "sk-123456",
        "CLOCKBOT_EMAIL_IMAP_PASSWORD": "pw-123456",
        "CLOCKBOT_TELEGRAM_WEBHOOK_SECRET": "hook-123456",
        "CLOCKBOT_HOME": "/var/lib/clockbot",
        "CLOCKBOT_SLACK_BOT_TOKEN": "x",  # too short to watch
        "OTHER_TOKEN": "not-ours-123",
    }
    assert secret_values(env) == {"1:abcdefgh", "sk-123456", "pw-123456", "hook-123456"}


def test_a_childs_log_is_read_after_the_test(tmp_path: Path) -> None:
    child_log = tmp_path / "clockbot.log"
    BotProcess(env={"CLOCKBOT_LLM_API_KEY": "sk-child-secret"}, log=child_log)
    child_log.write_text("INFO httpx: HTTP Request: POST with sk-child-secret\n")
    watch_ = LeakWatch()
    watch_.install()
    assert watch_.uninstall() == [], "registered before the watch began: not this test's"
    # Registered while a watch runs: read when it ends.
    outer = LeakWatch()
    outer.install()
    BotProcess(env={"CLOCKBOT_LLM_API_KEY": "sk-child-secret"}, log=child_log)
    assert outer.uninstall() == ["clockbot.log: a secret starting 'sk-'"]
    child_log.unlink()  # this test's own leak, planted: not one for the suite's watch
