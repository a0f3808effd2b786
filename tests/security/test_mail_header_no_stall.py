"""One mail with a long header holds the email reader for tens of seconds.

The IMAP reader reads one mail at a time, `read_mail` on a worker thread
(`channels.email.imap`). Parts and HTML are capped (docs/SECURITY.md, "Slow
input"); headers were not: the standard library's header parser (`policy.default`)
grows faster than a header's length, and a mail over `max_bytes` still has its
header fetched and parsed whole. A Subject of encoded words took 4 s at 196 KB and
8 s at 280 KB here (31 s once, on a busy machine); meanwhile nobody's mail is read,
and the thread holds the interpreter lock against the event loop for most of it. The
same filename of encoded words in a MIME part's header took as long after the mail's
own header was cut. Counted in the reading thread's CPU time, which a busy machine
does not stretch.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from channels.email.cuts import MAX_HEADER_BYTES, part_headers_capped
from channels.email.reading import Accepted, MailFacts, Screening, read_mail

WORDS = b" ".join([b"=?utf-8?q?a?="] * 14_000)  # 196 KB of encoded words
HEAD = b"From: ana@example.org\r\nTo: bot@clock.example\r\nMessage-ID: <long@example.org>\r\n"
LONG_SUBJECT = HEAD + b"Subject: " + WORDS + b"\r\n\r\nwhat time is it?\r\n"
LONG_PART_HEADER = (
    HEAD + b"Subject: hi\r\nMIME-Version: 1.0\r\n"
    b'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n'
    b"--b1\r\nContent-Type: text/plain\r\n\r\nwhat time is it?\r\n"
    b'--b1\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment;\r\n filename="'
    + WORDS
    + b'"\r\n\r\nxx\r\n--b1--\r\n'
)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("raw", [LONG_SUBJECT, LONG_PART_HEADER], ids=["subject", "part"])
def test_a_long_header_is_read_within_a_cpu_second(raw: bytes) -> None:
    facts = MailFacts(uid=1, uid_validity=1, internal_date=None, size=len(raw))
    screening = Screening(own_address="bot@clock.example")
    started = time.thread_time()
    outcome = read_mail(raw, facts, screening, now=datetime(2026, 12, 2, tzinfo=UTC))
    elapsed = time.thread_time() - started
    assert isinstance(outcome, Accepted), outcome
    assert "what time is it?" in outcome.inbound.text
    assert elapsed < 1.0, f"read_mail took {elapsed:.1f} CPU s"


def _part_header_fields(raw: bytes) -> list[bytes]:
    """Every header field of every MIME part of `raw`, folded lines together."""
    fields: list[bytes] = []
    for part in raw.split(b"\r\n--")[1:]:
        head = part.split(b"\r\n\r\n", 1)[0]
        for line in head.split(b"\r\n")[1:]:  # the boundary's rest first
            if line[:1] in (b" ", b"\t") and fields:
                fields[-1] += line
            else:
                fields.append(line)
    return fields


_values = st.one_of(
    st.text(alphabet='abc =?;"', max_size=40),
    st.integers(8_400, 12_000).map(lambda n: "x " * (n // 2)),
)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["X-Note", "Content-Description"]), _values), max_size=4))
def test_every_part_header_field_is_cut_and_a_short_mail_is_unchanged(
    headers: list[tuple[str, str]],
) -> None:
    message = EmailMessage()
    message["From"] = "ana@example.org"
    message.set_content("what time is it?")
    message.add_attachment(b"x", maintype="application", subtype="octet-stream", filename="f")
    for n, (name, value) in enumerate(headers):
        message.add_attachment(
            b"x", maintype="application", subtype="octet-stream", filename=f"f{n}"
        )
        message.get_payload()[-1][name] = value
    raw = message.as_bytes(policy=message.policy.clone(linesep="\r\n", max_line_length=0))
    capped = part_headers_capped(raw)
    assert all(len(field) <= MAX_HEADER_BYTES for field in _part_header_fields(capped))
    if all(len(field) <= MAX_HEADER_BYTES for field in _part_header_fields(raw)):
        assert capped == raw
    # the parts are all still there, each with its own type
    kinds = [part.get_content_type() for part in message_from_bytes(raw).walk()]
    assert [part.get_content_type() for part in message_from_bytes(capped).walk()] == kinds
