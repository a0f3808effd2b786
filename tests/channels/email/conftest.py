"""Fixtures for the email channel: a private Dovecot, an aiosmtpd into it, and helpers.

Two mailboxes: the bot's (``bot@example.test``) and a person's (``alice@example.test``). Mail the
tests send goes by SMTP into the bot's INBOX; the bot's answers go by SMTP into Alice's, where
`read_inbox` reads them back over IMAP.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import aioimaplib  # type: ignore[import-untyped]
import aiosmtplib
import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from bot.llm import OpenAIProvider
from channels.base import Inbound
from channels.email import EmailChannel
from clockcore import SettableClock
from tests.support.fake_llm import FakeLLMServer
from tests.support.mail import PASSWORD, DovecotServer, SmtpSink, run_dovecot, run_smtp

BOT = "bot@example.test"
ALICE = "alice@example.test"
USERS = (BOT, ALICE, "bob@example.test", "mallory@example.test")


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    """A private Dovecot with IDLE, fresh mailboxes for every test."""
    with run_dovecot(USERS) as server:
        yield server


@pytest.fixture
def dovecot_without_idle() -> Iterator[DovecotServer]:
    """A private Dovecot that does not advertise IDLE (for the polling fallback)."""
    with run_dovecot(USERS, idle=False) as server:
        yield server


@pytest.fixture
def dovecot_tls() -> Iterator[DovecotServer]:
    """A private Dovecot with STARTTLS on `port` and implicit TLS on `tls_port`."""
    with run_dovecot(USERS, tls=True) as server:
        yield server


@pytest.fixture
async def mail(dovecot: DovecotServer) -> AsyncIterator[SmtpSink]:
    """aiosmtpd on a free port, delivering into `dovecot`."""
    async with run_smtp(dovecot) as sink:
        yield sink


@asynccontextmanager
async def running(
    home: Path, dovecot: DovecotServer, smtp: SmtpSink, llm: FakeLLMServer, clock: SettableClock
) -> AsyncIterator[Gateway]:
    """A gateway on the email channel, its model the fake `llm`, on `clock`."""
    provider = OpenAIProvider(base_url=llm.openai_base_url, model="m", api_key="k")
    gateway = Gateway(
        Settings(home=home, http_port=0),
        channels=[make_channel(dovecot, smtp, clock=clock)],
        clock=clock,
        provider=provider,
        poll_interval=0.2,
    )
    async with gateway:
        yield gateway


def make_channel(dovecot: DovecotServer, smtp: SmtpSink, **options: Any) -> EmailChannel:
    """The bot's channel against the test peers; `options` override the defaults."""
    settings: dict[str, Any] = {
        "imap_host": "127.0.0.1",
        "imap_port": dovecot.port,
        "imap_user": None,
        "imap_password": PASSWORD,
        "imap_security": "none",
        "smtp_host": "127.0.0.1",
        "smtp_port": smtp.port,
        "smtp_user": None,
        "smtp_password": None,
        "smtp_security": "none",
        "idle_timeout": 120.0,  # a missed IDLE push must fail a test, not hide behind a re-IDLE
        "poll_interval": 0.5,
        # The receiving server's verdict is trusted, as a deployment configures it; `letter`
        # carries a passing one unless a test forges the sender (docs/SECURITY.md).
        "authserv_ids": ("mx.example.test",),
    }
    settings.update(options)
    return EmailChannel(BOT, **settings)


def letter(
    text: str = "what time is it in Tokyo",
    *,
    sender: str = ALICE,
    subject: str = "hello",
    message_id: str | None = "<m1@example.test>",
    proven: bool = True,
    **headers: str,
) -> EmailMessage:
    """A plain mail from `sender` to the bot; extra headers by keyword (``In_Reply_To=...``).

    `proven`: the receiving server's ``Authentication-Results`` says DMARC passed for the
    From domain; False for a forged or unauthenticated sender.
    """
    msg = EmailMessage()
    if proven:
        domain = sender.rpartition("@")[2]
        msg["Authentication-Results"] = f"mx.example.test; dmarc=pass header.from={domain}"
    msg["From"] = sender
    msg["To"] = BOT
    msg["Subject"] = subject
    msg["Date"] = "Sun, 22 Nov 2026 10:00:00 +0200"
    if message_id is not None:
        msg["Message-ID"] = message_id
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(text)
    return msg


async def submit(smtp: SmtpSink, message: EmailMessage | bytes, *, sender: str = ALICE) -> None:
    """Send `message` to the bot through the test SMTP server (aiosmtplib, as a client would)."""
    await aiosmtplib.send(
        message, sender=sender, recipients=[BOT], hostname="127.0.0.1", port=smtp.port
    )


class Collector:
    """A sink that keeps what it is given; `wait` blocks until `count` have arrived."""

    def __init__(self) -> None:
        self.items: list[Inbound] = []
        self._changed = asyncio.Event()

    async def __call__(self, inbound: Inbound) -> None:
        self.items.append(inbound)
        self._changed.set()

    async def wait(self, count: int, within: float = 15.0) -> list[Inbound]:
        async with asyncio.timeout(within):
            while len(self.items) < count:
                self._changed.clear()
                await self._changed.wait()
        return self.items


async def read_inbox(dovecot: DovecotServer, user: str) -> list[tuple[set[str], EmailMessage]]:
    """Every message in `user`'s INBOX over IMAP, as (flags, parsed message), in UID order."""
    client = aioimaplib.IMAP4(host="127.0.0.1", port=dovecot.port, timeout=10)
    await client.wait_hello_from_server()
    try:
        assert (await client.login(user, PASSWORD)).result == "OK"
        await client.select("INBOX")
        response = await client.uid("fetch", "1:*", "(UID FLAGS BODY.PEEK[])")
        found: list[tuple[set[str], EmailMessage]] = []
        flags: set[str] = set()
        for line in response.lines:
            if isinstance(line, bytearray):
                parsed = message_from_bytes(bytes(line), policy=policy.default)
                assert isinstance(parsed, EmailMessage)
                found.append((flags, parsed))
            elif b"FETCH" in line:
                text = line.decode()
                inner = text.split("FLAGS (", 1)[1].split(")", 1)[0] if "FLAGS (" in text else ""
                flags = set(inner.split())
        return found
    finally:
        await client.logout()
        if client.protocol.transport is not None:
            client.protocol.transport.close()


async def inbox_flags(dovecot: DovecotServer, user: str = BOT) -> list[set[str]]:
    """The flags of every message in `user`'s INBOX, in UID order."""
    return [flags for flags, _ in await read_inbox(dovecot, user)]
