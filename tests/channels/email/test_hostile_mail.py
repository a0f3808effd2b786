"""Broken and hostile mail through the real reader and gateway: nothing crashes, nothing is injected.

Every message goes by SMTP into Dovecot and is read over IMAP like any other. Afterwards a plain
question must still be answered (the reader is alive), every answer must go to Alice alone, and
no answer may carry a header that came out of a subject or an address.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.channels.email.conftest import ALICE, BOT, inbox_flags, submit
from tests.channels.email.test_email_gateway import running
from tests.support.mail import DovecotServer, SmtpSink


def _raw(headers: str, body: bytes = b"what time is it in Tokyo\r\n") -> bytes:
    return headers.replace("\n", "\r\n").encode("latin-1") + b"\r\n" + body


def _nested(depth: int) -> bytes:
    head = f"From: {ALICE}\nTo: {BOT}\nSubject: nested\nMessage-ID: <nested@x>\nMIME-Version: 1.0\n"
    parts = ""
    for level in range(depth):
        parts += f'Content-Type: multipart/mixed; boundary="b{level}"\r\n\r\n--b{level}\r\n'
    parts += "Content-Type: text/plain\r\n\r\nwhat time is it in Tokyo\r\n"
    for level in reversed(range(depth)):
        parts += f"--b{level}--\r\n"
    return head.replace("\n", "\r\n").encode() + parts.encode()


CORPUS: dict[str, bytes] = {
    "unknown charset": _raw(
        f"From: {ALICE}\nTo: {BOT}\nSubject: =?x-klingon?q?qapla=27?=\nMessage-ID: <charset@x>\n"
        "MIME-Version: 1.0\nContent-Type: text/plain; charset=x-klingon\n",
        b"what time is it in Tokyo \xff\xfe\r\n",
    ),
    "lying utf-8": _raw(
        f"From: {ALICE}\nTo: {BOT}\nSubject: bad bytes\nMessage-ID: <bytes@x>\nMIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n",
        b"what time is it in Tokyo \xc3\x28 \xa0\xa1\r\n",
    ),
    "broken base64": _raw(
        f"From: {ALICE}\nTo: {BOT}\nSubject: b64\nMessage-ID: <b64@x>\nMIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n",
        b"d2hhdCB0aW1lIGlz!!!not base64===\r\n",
    ),
    "nested multiparts": _nested(60),
    "no message-id, date or subject": _raw(f"From: {ALICE}\nTo: {BOT}\n"),
    "no from at all": _raw(f"To: {BOT}\nSubject: who am I\nMessage-ID: <nofrom@x>\n"),
    "garbage": b"\x00\x01\x02 this is not a mail at all \xff\r\n\r\n\r\n",
    "CRLF injection in an encoded subject": _raw(
        f"From: {ALICE}\nTo: {BOT}\n"
        "Subject: =?utf-8?q?hi=0D=0ABcc:_victim@example.test=0D=0AX-Injected:_yes?=\n"
        "Message-ID: <inject@x>\n"
    ),
    "CRLF injection in Message-ID and References": _raw(
        f"From: {ALICE}\nTo: {BOT}\nSubject: refs\n"
        "Message-ID: =?utf-8?q?<a@x>=0D=0AX-Injected:_yes?=\n"
        "References: =?utf-8?q?<r@x>=0D=0ABcc:_victim@example.test?=\n"
    ),
    "display name with an address inside": _raw(
        f'From: "bob@example.test, X-Injected: yes" <{ALICE}>\nTo: {BOT}\nSubject: name\n'
        "Message-ID: <name@x>\n"
    ),
    "ten megabytes": _raw(
        f"From: {ALICE}\nTo: {BOT}\nSubject: huge\nMessage-ID: <huge@x>\n",
        b"what time is it in Tokyo\r\n" + (b"A" * 998 + b"\r\n") * 10_500,
    ),
}


async def test_a_hostile_corpus_never_stops_the_reader_nor_injects_headers(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, channel):
        for raw in CORPUS.values():
            await submit(mail, raw)
        await submit(mail, _raw(f"From: {ALICE}\nTo: {BOT}\nSubject: last\nMessage-ID: <last@x>\n"))
        async with asyncio.timeout(40):
            while not any(a["In-Reply-To"] == "<last@x>" for a in mail.to(ALICE)):
                await mail.wait_for(ALICE, len(mail.to(ALICE)) + 1, within=40)
        await gateway.settle(timeout=20)
        assert await channel.health() is None
        answers = [r for r in mail.received if r.mail_from == BOT]
        flags = await inbox_flags(dovecot)

    assert answers, "nothing was answered"
    for sent in answers:
        assert sent.rcpt_tos == [ALICE]
        message = sent.message
        assert message["To"] == ALICE
        assert message.get_all("Bcc") is None
        assert message.get_all("X-Injected") is None
        for name, value in message.items():
            assert "\r" not in value and "\n" not in value, name
        assert b"\r\nX-Injected" not in sent.data and b"\r\nBcc" not in sent.data

    replied_to = {r.message["In-Reply-To"] for r in answers}
    # Readable mail was answered, even when its charset or its encoding lied.
    assert {
        "<charset@x>",
        "<bytes@x>",
        "<b64@x>",
        "<nested@x>",
        "<huge@x>",
        "<last@x>",
    } <= replied_to
    huge = next(r.message for r in answers if r.message["In-Reply-To"] == "<huge@x>")
    assert huge["Subject"] == "Re: huge"
    # The injected subject arrives as one harmless line.
    injected = next(r.message for r in answers if r.message["In-Reply-To"] == "<inject@x>")
    assert injected["Subject"] == "Re: hi Bcc: victim@example.test X-Injected: yes"
    # Mail without a readable sender is left unseen for a person; everything else is seen.
    assert flags.count(set()) == 2  # "no from at all" and "garbage"
    assert len(flags) == len(CORPUS) + 1
