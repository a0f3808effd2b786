"""The IMAP side against a real Dovecot: what reaches the sink, when \\Seen is set, the cursor."""

from __future__ import annotations

import asyncio

import pytest

from channels.base import ChannelError, Inbound, InMemoryStateStore
from channels.email import EmailChannel
from tests.channels.email.conftest import BOT, Collector, inbox_flags, letter, make_channel, submit
from tests.support.mail import DovecotServer, SmtpSink, free_port, run_smtp


async def test_a_mail_reaches_the_sink_then_is_marked_seen(
    dovecot: DovecotServer, mail: SmtpSink
) -> None:
    channel = make_channel(dovecot, mail)
    sink, state = Collector(), InMemoryStateStore()
    await channel.start(sink, state)
    try:
        await submit(mail, letter("hi there"))
        [inbound] = await sink.wait(1)
    finally:
        await channel.stop()
    assert inbound.channel == "email"
    assert inbound.user_id == "alice@example.test"
    assert inbound.thread_id == "alice@example.test/<m1@example.test>"
    assert inbound.message_id == "<m1@example.test>"
    assert inbound.text == "hi there"
    assert inbound.hint == "Their mail's Date header carries UTC+02:00"
    assert inbound.received_at.tzinfo is not None
    assert inbound.route["to"] == "alice@example.test"
    assert await inbox_flags(dovecot) == [{"\\Seen"}]
    assert (await state.get(f"email:{BOT}:imap") or "").endswith(" 1")


async def test_without_idle_the_reader_polls(dovecot_without_idle: DovecotServer) -> None:
    async with run_smtp(dovecot_without_idle) as smtp:
        channel = make_channel(dovecot_without_idle, smtp, poll_interval=0.3)
        sink = Collector()
        await channel.start(sink, InMemoryStateStore())
        try:
            await asyncio.sleep(0.5)  # the reader is waiting between polls now
            await submit(smtp, letter("polled"))
            [inbound] = await sink.wait(1)
        finally:
            await channel.stop()
    assert inbound.text == "polled"


async def test_a_wrong_password_fails_start_without_naming_it(
    dovecot: DovecotServer, mail: SmtpSink
) -> None:
    channel = make_channel(dovecot, mail, imap_password="wrong-but-secret")
    with pytest.raises(ChannelError) as caught:
        await channel.start(Collector(), InMemoryStateStore())
    assert "refused" in str(caught.value)
    assert "wrong-but-secret" not in str(caught.value)


async def test_an_unreachable_server_fails_start(dovecot: DovecotServer, mail: SmtpSink) -> None:
    channel = make_channel(dovecot, mail, imap_port=free_port())
    with pytest.raises(ChannelError, match="cannot open the mailbox"):
        await channel.start(Collector(), InMemoryStateStore())


async def test_unreadable_mail_stays_unseen_and_is_not_retried(
    dovecot: DovecotServer, mail: SmtpSink
) -> None:
    sink, state = Collector(), InMemoryStateStore()
    channel = make_channel(dovecot, mail)
    await channel.start(sink, state)
    try:
        await submit(mail, b"Subject: no sender here\r\n\r\nhello\r\n")
        await submit(mail, letter("after it"))
        await sink.wait(1)
    finally:
        await channel.stop()
    # A restart with the same state reads nothing again.
    again = Collector()
    channel = make_channel(dovecot, mail)
    await channel.start(again, state)
    try:
        await submit(mail, letter("third", message_id="<m3@example.test>"))
        await again.wait(1)
    finally:
        await channel.stop()
    assert [i.text for i in sink.items] == ["after it"]
    assert [i.text for i in again.items] == ["third"]
    assert await inbox_flags(dovecot) == [set(), {"\\Seen"}, {"\\Seen"}]


async def test_mail_over_the_size_limit_arrives_as_a_note(
    dovecot: DovecotServer, mail: SmtpSink
) -> None:
    sink = Collector()
    channel = make_channel(dovecot, mail, max_bytes=10_000)
    await channel.start(sink, InMemoryStateStore())
    try:
        await submit(mail, letter("x" * 20_000, subject="big"))
        [inbound] = await sink.wait(1)
    finally:
        await channel.stop()
    assert "over the size limit, so it was not read" in inbound.text
    assert inbound.route["subject"] == "big"


async def test_a_sink_failure_leaves_the_mail_for_the_next_attempt(
    dovecot: DovecotServer, mail: SmtpSink
) -> None:
    calls: list[str] = []

    async def flaky(inbound: Inbound) -> None:
        calls.append(inbound.message_id)
        if len(calls) == 1:
            raise RuntimeError("store down")

    state = InMemoryStateStore()
    channel = make_channel(dovecot, mail)
    await channel.start(flaky, state)
    try:
        await submit(mail, letter("hello"))
        for _ in range(100):
            if len(calls) >= 2:
                break
            await asyncio.sleep(0.05)
    finally:
        await channel.stop()
    assert calls == ["<m1@example.test>", "<m1@example.test>"]
    assert await inbox_flags(dovecot) == [{"\\Seen"}]


def test_bad_configuration_names_the_field() -> None:
    common: dict[str, object] = {
        "imap_host": "h", "imap_port": 993, "imap_user": None, "imap_password": "secret-pw",
        "imap_security": "tls", "smtp_host": "h", "smtp_port": 465, "smtp_user": None,
        "smtp_password": None, "smtp_security": "tls",
    }  # fmt: skip
    with pytest.raises(ValueError, match="email address"):
        EmailChannel("not-an-address", **common)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="imap_security") as caught:
        EmailChannel(BOT, **{**common, "imap_security": "ssl"})  # type: ignore[arg-type]
    assert "secret-pw" not in str(caught.value)


@pytest.mark.parametrize("security", ["tls", "starttls"])
async def test_tls_and_starttls_verify_the_server(
    dovecot_tls: DovecotServer, security: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert dovecot_tls.ca_file is not None
    port = dovecot_tls.tls_port if security == "tls" else dovecot_tls.port
    async with run_smtp(dovecot_tls) as smtp:
        # Without trusting the test certificate, the handshake fails and start says so.
        untrusted = make_channel(dovecot_tls, smtp, imap_security=security, imap_port=port)
        with pytest.raises(ChannelError, match=r"TLS handshake|CertVerification"):
            await untrusted.start(Collector(), InMemoryStateStore())

        monkeypatch.setenv("SSL_CERT_FILE", str(dovecot_tls.ca_file))
        channel = make_channel(dovecot_tls, smtp, imap_security=security, imap_port=port)
        sink = Collector()
        await channel.start(sink, InMemoryStateStore())
        try:
            await submit(smtp, letter("over tls"))
            [inbound] = await sink.wait(1)
        finally:
            await channel.stop()
    assert inbound.text == "over tls"
