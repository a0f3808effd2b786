"""One mail with a long header holds the email reader for tens of seconds.

The IMAP reader reads one mail at a time, `read_mail` on a worker thread
(`channels.email.imap`). Parts and HTML are capped (docs/SECURITY.md, "Slow
input"), headers are not: the standard library's header parser (`policy.default`)
grows faster than a header's length, and a mail over `max_bytes` still has its
header fetched and parsed whole. A Subject of encoded words took 4 s at 196 KB and
8 s at 280 KB here (31 s once, on a busy machine); meanwhile nobody's mail is read,
and the thread holds the interpreter lock against the event loop for most of it.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from channels.email.reading import Accepted, MailFacts, Screening, read_mail

LONG_SUBJECT = (
    b"From: ana@example.org\r\nTo: bot@clock.example\r\nMessage-ID: <long@example.org>\r\n"
    b"Subject: " + b" ".join([b"=?utf-8?q?a?="] * 14_000) + b"\r\n\r\nwhat time is it?\r\n"
)


@pytest.mark.timeout(240)
def test_a_long_subject_is_read_within_a_second() -> None:
    facts = MailFacts(uid=1, uid_validity=1, internal_date=None, size=len(LONG_SUBJECT))
    screening = Screening(own_address="bot@clock.example")
    started = time.perf_counter()
    outcome = read_mail(LONG_SUBJECT, facts, screening, now=datetime(2026, 12, 2, tzinfo=UTC))
    elapsed = time.perf_counter() - started
    assert isinstance(outcome, Accepted), outcome
    assert elapsed < 1.0, f"read_mail took {elapsed:.1f} s"
