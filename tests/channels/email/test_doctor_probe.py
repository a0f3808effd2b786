"""`clockbot doctor` asks the mail servers: an IMAP login on a real Dovecot, an SMTP EHLO."""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr

from bot.cli.doctor import diagnose
from bot.config.settings import EmailSettings, LLMSettings, Settings
from tests.channels.email.conftest import BOT
from tests.support.mail import PASSWORD, DovecotServer, SmtpSink


def _settings(home: Path, dovecot: DovecotServer, mail: SmtpSink, *, password: str) -> Settings:
    group = EmailSettings(
        address=BOT, imap_host="127.0.0.1", imap_port=dovecot.port,
        imap_password=SecretStr(password), imap_security="none",
        smtp_host="127.0.0.1", smtp_port=mail.port, smtp_security="none",
    )  # fmt: skip
    return Settings(home=home, llm=LLMSettings(provider="none"), email=group)


async def test_the_doctor_logs_in_to_the_mailbox_and_greets_the_smtp_server(
    dovecot: DovecotServer, mail: SmtpSink, tmp_path: Path
) -> None:
    checks = {
        c.name: c for c in await diagnose(_settings(tmp_path, dovecot, mail, password=PASSWORD))
    }
    assert checks["email"].ok, checks["email"].detail
    assert checks["email"].detail.endswith(
        f"IMAP login to the mailbox, SMTP EHLO at 127.0.0.1:{mail.port}"
    )


async def test_a_refused_imap_password_fails_without_showing_it(
    dovecot: DovecotServer, mail: SmtpSink, tmp_path: Path
) -> None:
    wrong = "Not-The-Password-77"
    checks = {c.name: c for c in await diagnose(_settings(tmp_path, dovecot, mail, password=wrong))}
    assert not checks["email"].ok
    assert "), but email: cannot open the mailbox" in checks["email"].detail
    assert wrong not in checks["email"].line()
