"""Raw MIME, generated: `read_mail` never fails, and what it accepts goes whole into a real store.

Hypothesis builds mail from hostile parts: addresses in odd forms, encoded words and bad
charsets, CR/LF smuggled into header values, References lists long and malformed, huge header
lines, multiparts nested with broken boundaries, base64 that does not decode, and bytes that
are not text at all. For every mail:

- `read_mail` returns Accepted, Refused or Broken, never raises;
- an accepted mail's route carries no line break (it becomes our reply's headers), its thread
  belongs to its sender, its text is within the limit;
- the accepted message goes through `InteractionWrapper.receive` into a SQLite store, and is
  journaled exactly once with the text it had.

1,000 examples in CI (`FUZZ_EXAMPLES` changes it).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from channels.email.body import MAX_TEXT_CHARS
from channels.email.reading import (
    Accepted,
    Broken,
    MailFacts,
    Refused,
    Screening,
    read_mail,
)
from tests.support.fuzz_store import fuzz_store
from wrapper.core import InteractionWrapper
from wrapper.store import tables as t

pytestmark = [
    pytest.mark.slow,  # fuzz: `make test-fast` leaves it out
    # A hang guard, not a speed check: a thousand examples took 130 s beside the kill tests
    # on two loaded cores (the default bound is 120 s), and about half that alone.
    pytest.mark.timeout(600),
]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1000"))
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
SCREEN = Screening(own_address="bot@example.test")

_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80
)  # fmt: skip
_token = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.-_", min_size=1, max_size=20)
_address = st.one_of(
    st.builds("{}@{}.test".format, _token, _token),
    st.builds('"{}" <{}@example.test>'.format, _text, _token),
    st.builds("{} <{}>".format, _text, _text),
    _text,
)
_smuggled = st.builds("{}\r\n{}: {}".format, _text, st.sampled_from(["Bcc", "To", "X-Evil"]), _text)
_header_value = st.one_of(
    _text,
    _smuggled,
    st.builds("=?{}?{}?{}?=".format, st.sampled_from(["utf-8", "x-bogus", "utf-7", "latin-1"]),
              st.sampled_from(["q", "b", "Q", "x"]), _text),
    st.text(alphabet="ab ", min_size=2000, max_size=6000),
)  # fmt: skip
_msg_id = st.one_of(st.builds("<{}@{}>".format, _token, _token), _text)
_charset = st.sampled_from(["utf-8", "latin-1", "x-unknown", "utf-16", "us-ascii", ""])
_encoding = st.sampled_from(["7bit", "base64", "quoted-printable", "8bit", "x-weird", ""])


@st.composite
def _part(draw: st.DrawFn, depth: int = 0) -> bytes:
    if depth < 4 and draw(st.booleans()):
        boundary = draw(_token)
        children = draw(st.lists(_part(depth + 1), min_size=0, max_size=3))
        close = draw(st.booleans())
        body = b"".join(b"--" + boundary.encode() + b"\r\n" + child + b"\r\n" for child in children)
        if close:
            body += b"--" + boundary.encode() + b"--\r\n"
        kind = draw(st.sampled_from(["mixed", "alternative", "related", "report"]))
        return f'Content-Type: multipart/{kind}; boundary="{boundary}"\r\n\r\n'.encode() + body
    subtype = draw(st.sampled_from(["plain", "html", "calendar", "octet-stream"]))
    main = "application" if subtype == "octet-stream" else "text"
    head = f"Content-Type: {main}/{subtype}; charset={draw(_charset)}\r\n"
    head += f"Content-Transfer-Encoding: {draw(_encoding)}\r\n"
    if draw(st.booleans()):
        head += f'Content-Disposition: attachment; filename="{draw(_text)}"\r\n'
    body = draw(st.one_of(_text.map(lambda t: t.encode("utf-8")), st.binary(max_size=300)))
    return head.encode("utf-8", "replace") + b"\r\n" + body


@st.composite
def raw_mail(draw: st.DrawFn) -> bytes:
    headers = [("From", draw(_address)), ("To", "bot@example.test")]
    if draw(st.booleans()):
        headers.append(("Message-ID", draw(_msg_id)))
    for name in ("Subject", "In-Reply-To", "Content-Language", "Date", "Auto-Submitted"):
        if draw(st.booleans()):
            headers.append((name, draw(_header_value)))
    if draw(st.booleans()):
        references = draw(st.lists(_msg_id, max_size=60))
        headers.append(("References", " ".join(references)))
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return lines.encode("utf-8", "surrogateescape") + b"MIME-Version: 1.0\r\n" + draw(_part())


@pytest.fixture(scope="module")
def store(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[asyncio.Runner, InteractionWrapper]]:
    with fuzz_store(tmp_path_factory, "fuzz", now=NOW) as pair:
        yield pair


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(raw=raw_mail(), uid=st.integers(min_value=1, max_value=2**31))
@example(  # CPython's address parser raised AttributeError inside on this From
    raw=b"From: .:\r\nTo: bot@example.test\r\nMIME-Version: 1.0\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n",
    uid=1,
)
def test_any_mail_is_read_or_refused_and_what_is_read_is_stored_whole(
    store: tuple[asyncio.Runner, InteractionWrapper], raw: bytes, uid: int
) -> None:
    runner, wrapper = store
    facts = MailFacts(uid=uid, uid_validity=7, internal_date=NOW, size=len(raw))
    outcome = read_mail(raw, facts, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted | Refused | Broken)
    event(type(outcome).__name__)
    if not isinstance(outcome, Accepted):
        assert outcome.reason
        return
    inbound = outcome.inbound
    for value in inbound.route.values():
        assert "\r" not in value and "\n" not in value, inbound.route
    assert inbound.thread_id.startswith(inbound.user_id + "/")
    assert len(inbound.text) <= MAX_TEXT_CHARS + 100

    envelope = runner.run(wrapper.receive(inbound.ref))

    def journaled(conn: object) -> list[str]:
        query = select(t.journal.c.text).where(
            t.journal.c.channel == "email", t.journal.c.message_id == inbound.message_id
        )
        return list(conn.execute(query).scalars())  # type: ignore[attr-defined]

    texts = runner.run(wrapper.database.run(journaled))
    assert len(texts) == 1
    if not envelope.duplicate:  # a generated Message-ID can repeat; the first text stays
        assert texts == [inbound.text]
