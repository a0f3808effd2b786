"""The pure extractors and the screening of `channels.email.reading`, table by table."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from channels.email.body import MAX_HTML_CHARS, attachment_notes, body_text, html_text
from channels.email.reading import (
    MAX_ADDRESSED,
    MAX_PARTS,
    Accepted,
    Broken,
    MailFacts,
    Refused,
    Screening,
    date_hint,
    internal_date_utc,
    named_ids,
    others_addressed,
    read_mail,
    refusal,
    sender,
)

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
FACTS = MailFacts(uid=7, uid_validity=99, internal_date=NOW, size=100)
SCREEN = Screening(own_address="bot@example.test")


def parse(headers: str, body: str = "hello\n") -> EmailMessage:
    raw = (headers.strip() + "\n\n" + body).replace("\n", "\r\n").encode()
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


@pytest.mark.parametrize(
    ("headers", "named"),
    [
        ("Message-ID: <own@x>", ()),
        ("Message-ID: <own@x>\nIn-Reply-To: <parent@x>", ("<parent@x>",)),
        (
            "Message-ID: <own@x>\nIn-Reply-To: <p@x>\nReferences: <root@x> <mid@x> <p@x>",
            ("<p@x>", "<mid@x>", "<root@x>"),
        ),
        ("Message-ID: <own@x>\nReferences:\n  <root@x>\n  <mid@x>", ("<mid@x>", "<root@x>")),
        ("In-Reply-To: Your message of Monday <p@x>", ("<p@x>",)),
        ("Message-ID: <own@x>\nReferences: <own@x> <root@x>", ("<root@x>",)),
        ("Subject: nothing to go by", ()),
    ],
)
def test_named_ids_are_nearest_first(headers: str, named: tuple[str, ...]) -> None:
    assert named_ids(parse(headers)) == named


def test_named_ids_are_capped_keeping_the_nearest() -> None:
    many = " ".join(f"<r{n}@x>" for n in range(100))
    named = named_ids(parse(f"Message-ID: <own@x>\nReferences: {many}"))
    assert named[0] == "<r99@x>"
    assert len(named) == 21


def test_a_new_mail_starts_a_thread_its_sender_owns_whatever_it_names() -> None:
    raw = parse(
        "From: bob@example.test\nTo: bot@example.test\nMessage-ID: <b1@x>\n"
        "References: <alices-root@x>"
    ).as_bytes()
    outcome = read_mail(raw, FACTS, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    assert outcome.inbound.thread_id == "bob@example.test/<b1@x>"
    assert outcome.inbound.refers_to == ("<alices-root@x>",)


@pytest.mark.parametrize(
    ("value", "address"),
    [
        ("Alice <Alice@Example.TEST>", "alice@example.test"),
        ("alice@example.test", "alice@example.test"),
        ('"Smith, Bob" <bob@example.test>, carol@example.test', "bob@example.test"),
        ("=?utf-8?q?J=C3=BCrgen?= <j@example.test>", "j@example.test"),
        ("undisclosed-recipients:;", None),
        ("not an address", None),
    ],
)
def test_sender(value: str, address: str | None) -> None:
    assert sender(parse(f"From: {value}")) == address


@pytest.mark.parametrize(
    ("date", "hint"),
    [
        ("Sun, 22 Nov 2026 10:00:00 +0200", "Their mail's Date header carries UTC+02:00"),
        ("Sun, 22 Nov 2026 10:00:00 -0930", "Their mail's Date header carries UTC-09:30"),
        ("Sun, 22 Nov 2026 10:00:00 +0545", "Their mail's Date header carries UTC+05:45"),
        ("Sun, 22 Nov 2026 10:00:00 +0000", "Their mail's Date header carries UTC+00:00"),
        ("Sun, 22 Nov 2026 10:00:00 -0000", None),  # "zone unknown" by RFC 5322
        ("yesterday-ish", None),
    ],
)
def test_date_hint_is_an_offset_never_a_zone(date: str, hint: str | None) -> None:
    assert date_hint(parse(f"Date: {date}")) == hint


def test_no_date_header_no_hint() -> None:
    assert date_hint(parse("Subject: x")) is None


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ("From: a@example.test\nAuto-Submitted: auto-replied", "Auto-Submitted: auto-replied"),
        (
            "From: a@example.test\nAuto-Submitted: auto-generated; x=1",
            "Auto-Submitted: auto-generated",
        ),
        ("From: a@example.test\nPrecedence: Bulk", "Precedence"),
        ("From: a@example.test\nPrecedence: junk", "Precedence"),
        ("From: a@example.test\nList-Id: <x.example.test>", "mailing list"),
        ("From: a@example.test\nList-Unsubscribe: <mailto:u@x>", "mailing list"),
        ("From: MAILER-DAEMON@example.test", "automated sender"),
        ("From: postmaster@example.test", "automated sender"),
        ("From: no-reply@shop.test", "automated sender"),
        ("From: noreply-alerts@shop.test", "automated sender"),
        ("From: Bot <BOT@example.test>", "own address"),
        ("From: a@example.test\nReturn-Path: <>", "bounce"),
        ("From: a@example.test\nContent-Type: multipart/report; boundary=x", "bounce"),
        ("From: a@example.test\nX-Autoreply: yes", "auto-responder"),
    ],
)
def test_refusals(headers: str, reason: str) -> None:
    message = parse(headers)
    who = sender(message)
    assert who is not None
    assert reason in (refusal(message, who, SCREEN) or "")


@pytest.mark.parametrize(
    "headers",
    [
        "From: a@example.test",
        "From: a@example.test\nAuto-Submitted: no",
        "From: a@example.test\nPrecedence: first-class",
        "From: a@example.test\nReturn-Path: <a@example.test>",
    ],
)
def test_people_pass(headers: str) -> None:
    assert refusal(parse(headers), "a@example.test", SCREEN) is None


@pytest.mark.parametrize(
    ("allowed", "who", "ok"),
    [
        ((), "anyone@anywhere.test", True),
        (("alice@example.test",), "alice@example.test", True),
        (("alice@example.test",), "bob@example.test", False),
        (("@example.test",), "bob@example.test", True),
        (("@example.test",), "bob@sub.example.test", False),
        (("@example.test",), "bob@evilexample.test", False),
    ],
)
def test_allow_list(allowed: tuple[str, ...], who: str, ok: bool) -> None:
    screening = Screening("bot@example.test", allowed_senders=allowed)
    assert (refusal(parse(f"From: {who}"), who, screening) is None) is ok


@pytest.mark.parametrize(
    ("results", "ok"),
    [
        (["mx.example.test; dkim=pass header.d=example.test"], True),
        (["mx.example.test; spf=pass smtp.mailfrom=a@example.test"], True),
        (["mx.example.test; dkim=fail; spf=softfail"], False),
        (["mx.example.test; dkim=fail", "mx.example.test; dkim=pass header.d=example.test"], False),
        (["forged.test; dkim=pass header.d=example.test"], False),  # an id we do not trust
        ([], False),
    ],
)
def test_required_proof_refuses_what_our_server_did_not_pass(results: list[str], ok: bool) -> None:
    headers = "From: a@example.test\nMessage-ID: <m@x>\n" + "".join(
        f"Authentication-Results: {r}\n" for r in results
    )
    raw = parse(headers).as_bytes()
    screening = Screening(
        "bot@example.test", require_auth_results=True, authserv_ids=("mx.example.test",)
    )
    outcome = read_mail(raw, FACTS, screening, now=NOW)
    assert isinstance(outcome, Accepted) is ok
    if ok:
        assert isinstance(outcome, Accepted)
        assert outcome.inbound.proven
    else:
        assert isinstance(outcome, Refused)
        assert outcome.reason.startswith("sender not proven")


def test_unproven_mail_is_accepted_as_unproven_when_proof_is_not_required() -> None:
    raw = parse("From: a@example.test\nMessage-ID: <m@x>").as_bytes()
    outcome = read_mail(raw, FACTS, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    assert outcome.inbound.proven is False


def test_html_only_mail_becomes_text() -> None:
    message = parse(
        "From: a@example.test\nContent-Type: text/html; charset=utf-8",
        "<html><body><p>remind me <b>tomorrow</b> at 9</p><script>x()</script></body></html>",
    )
    assert "remind me" in body_text(message)
    assert "tomorrow" in body_text(message)
    assert "<b>" not in body_text(message)


def test_plain_is_preferred_over_html() -> None:
    message = EmailMessage()
    message["From"] = "a@example.test"
    message.set_content("plain words")
    message.add_alternative("<p>html words</p>", subtype="html")
    assert body_text(message) == "plain words"


def test_quoted_history_and_signature_are_cut() -> None:
    body = (
        "what time is it in Tokyo\n\n"
        "Best regards,\nAlice\n\n"
        "On Sun, 22 Nov 2026 at 10:00, Clockbot <bot@example.test> wrote:\n"
        "> It is 10:00 in Asia/Tokyo.\n> \n"
    )
    assert body_text(parse("From: a@example.test", body)) == "what time is it in Tokyo"


def test_attachments_are_noted_not_read() -> None:
    message = EmailMessage()
    message["From"] = "a@example.test"
    message.set_content("see attached")
    message.add_attachment(b"%PDF" + b"x" * 120_000, maintype="application", subtype="pdf",
                           filename="plan.pdf")  # fmt: skip
    assert attachment_notes(message) == ["[attachment: plan.pdf, 117 KB, not read]"]
    accepted = read_mail(message.as_bytes(), FACTS, SCREEN, now=NOW)
    assert isinstance(accepted, Accepted)
    assert accepted.inbound.text == "see attached\n\n[attachment: plan.pdf, 117 KB, not read]"


def test_read_mail_builds_the_inbound() -> None:
    raw = (
        b"From: Alice <Alice@Example.test>\r\nTo: bot@example.test\r\nSubject: Hi\r\n"
        b"Date: Sun, 22 Nov 2026 10:00:00 +0200\r\nMessage-ID: <m2@x>\r\n"
        b"In-Reply-To: <r1@x>\r\nReferences: <m0@x> <r1@x>\r\n\r\nwhat time is it\r\n"
    )
    outcome = read_mail(raw, FACTS, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    inbound = outcome.inbound
    assert (inbound.channel, inbound.thread_id, inbound.user_id) == (
        "email",
        "alice@example.test/<m2@x>",  # its own, until the gateway finds the thread it follows
        "alice@example.test",
    )
    assert inbound.refers_to == ("<r1@x>", "<m0@x>")
    assert (inbound.message_id, inbound.text, inbound.received_at) == (
        "<m2@x>",
        "what time is it",
        NOW,
    )
    assert inbound.hint == "Their mail's Date header carries UTC+02:00"
    assert dict(inbound.route) == {
        "to": "alice@example.test",
        "subject": "Hi",
        "message_id": "<m2@x>",
        "references": "<m0@x> <r1@x> <m2@x>",
        # Nothing proved the sender (no trusted server here): they join no member set, and
        # the answer goes to them alone (docs/SECURITY.md).
        "members": "",
        "unproven": "yes",
    }


@pytest.mark.parametrize(
    ("header", "language"),
    [(b"Content-Language: de-DE\r\n", "de"), (b"Content-Language: es, en\r\n", "es"), (b"", None)],
)
def test_content_language_is_the_language_hint(header: bytes, language: str | None) -> None:
    raw = b"From: a@example.test\r\nMessage-ID: <l1@x>\r\n" + header + b"\r\nmorgen um 9\r\n"
    outcome = read_mail(raw, FACTS, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    assert outcome.inbound.ref.language == language


@pytest.mark.parametrize(
    ("sender", "name"),
    [
        (b"Ana Lima <A@Example.test>", "Ana Lima"),
        (b'"Lima, Ana" <a@example.test>', "Lima, Ana"),
        (b"=?utf-8?q?Jos=C3=A9_N=C3=BA=C3=B1ez?= <a@example.test>", "José Núñez"),
        (b"a@example.test", None),
        (b"Ana <a@example.test>, Ben <b@example.test>", "Ana"),
    ],
)
def test_the_from_display_name_is_the_sender_name(sender: bytes, name: str | None) -> None:
    raw = b"From: " + sender + b"\r\nMessage-ID: <n1@x>\r\n\r\nhi\r\n"
    outcome = read_mail(raw, FACTS, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    assert outcome.inbound.user_id == "a@example.test"
    assert outcome.inbound.ref.sender_name == name


def test_a_mail_without_message_id_gets_a_stable_one() -> None:
    raw = b"From: a@example.test\r\n\r\nhello\r\n"
    first = read_mail(raw, FACTS, SCREEN, now=NOW)
    again = read_mail(raw, FACTS, SCREEN, now=NOW)
    other = read_mail(raw, MailFacts(8, 99, NOW, 10), SCREEN, now=NOW)
    assert (
        isinstance(first, Accepted) and isinstance(again, Accepted) and isinstance(other, Accepted)
    )
    assert first.inbound.message_id == again.inbound.message_id != other.inbound.message_id
    assert first.inbound.thread_id == f"a@example.test/{first.inbound.message_id}"
    assert first.inbound.route["message_id"] == ""


def test_an_oversized_mail_is_not_read() -> None:
    facts = MailFacts(uid=7, uid_validity=99, internal_date=None, size=10_485_760, truncated=True)
    outcome = read_mail(b"From: a@example.test\r\nSubject: big\r\n\r\n", facts, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    assert outcome.inbound.text.startswith("[This mail is 10,240 KB and over the size limit")
    assert outcome.inbound.received_at == NOW  # no INTERNALDATE: the caller's now


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (b"", Broken),
        (b"\x00\xff garbage", Broken),
        (b"Subject: no sender\r\n\r\nhi", Broken),
        (b"From: <>\r\nReturn-Path: <>\r\n\r\nbounce", Refused),
    ],
)
def test_unusable_mail(raw: bytes, kind: type) -> None:
    assert isinstance(read_mail(raw, FACTS, SCREEN, now=NOW), kind)


@pytest.mark.parametrize(
    ("value", "instant"),
    [
        ("22-Nov-2026 02:15:32 +0000", datetime(2026, 11, 22, 2, 15, 32, tzinfo=UTC)),
        (" 2-Nov-2026 12:00:00 +0200", datetime(2026, 11, 2, 10, 0, tzinfo=UTC)),
        ("nonsense", None),
    ],
)
def test_internal_date(value: str, instant: datetime | None) -> None:
    assert internal_date_utc(value) == instant


def test_a_boundary_reused_inside_itself_reads_as_no_text() -> None:
    """Found by the MIME fuzz: the parser leaves such parts as text, and get_body failed."""
    raw = (
        b"From: a@x.test\r\nTo: bot@example.test\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="0"\r\n\r\n--0\r\n'
        b'Content-Type: multipart/mixed; boundary="0"\r\n\r\n\r\n--0\r\n'
        b'Content-Type: multipart/related; boundary="0"\r\n\r\n\r\n'
    )
    outcome = read_mail(raw, FACTS, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    assert outcome.inbound.text == ""


def _many_parts(count: int, first: str = "remind me at 9") -> bytes:
    message = EmailMessage()
    message["From"] = "a@example.test"
    message["Message-ID"] = "<parts@x>"
    message.set_content(first)
    for n in range(count):
        message.add_attachment(
            b"x", maintype="application", subtype="octet-stream", filename=f"f{n}.bin"
        )
    return message.as_bytes()


def test_a_mail_of_thousands_of_parts_is_read_as_far_as_the_cap() -> None:
    """Issue 35, row 8: 5,000 attachment parts took 4.5 s of parsing on the event loop."""
    outcome = read_mail(_many_parts(5_000), FACTS, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    text = outcome.inbound.text
    assert text.startswith("remind me at 9")
    assert text.count("[attachment:") == MAX_PARTS - 1  # the text is a part too
    assert text.endswith(f"more than {MAX_PARTS} parts; the rest was not read]")


def test_a_mail_under_the_part_cap_is_read_whole() -> None:
    outcome = read_mail(_many_parts(MAX_PARTS - 1), FACTS, SCREEN, now=NOW)
    assert isinstance(outcome, Accepted)
    assert outcome.inbound.text.count("[attachment:") == MAX_PARTS - 1
    assert "not read]" in outcome.inbound.text and "more than" not in outcome.inbound.text


def test_a_huge_html_mail_is_read_from_its_start_only() -> None:
    """Issue 35, row 8: a 937 KB HTML-only mail took BeautifulSoup 5.7 s."""
    filler = "<div><p>and then <b>more</b> words</p></div>" * 25_000
    message = parse(
        "From: a@example.test\nContent-Type: text/html; charset=utf-8",
        f"<html><body><p>remind me at 9 to call</p>{filler}<p>THE END</p></body></html>",
    )
    assert len(filler) > MAX_HTML_CHARS
    text = body_text(message)
    assert text.startswith("remind me at 9 to call")
    assert "THE END" not in text


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("<p>remind me <b>tomorrow</b> at 9</p>", "remind me tomorrow at 9"),
        ("<div>one</div><div>two</div>", "one\ntwo"),
        ("line<br>next<br/>last", "line\nnext\nlast"),
        ("<head><title>T</title><style>p{}</style></head><p>body</p>", "body"),
        ("<p>a</p><script>var x = '<p>no</p>';</script><p>b</p>", "a\nb"),
        ("<p>caf&eacute; &amp; 9&nbsp;pm</p>", "café & 9 pm"),
        ("<p>unclosed <b>tags <i>here", "unclosed tags here"),
        ("<ul><li>one</li><li>two</li></ul>", "one\ntwo"),
        ("", ""),
    ],
)
def test_html_reads_as_its_lines(html: str, text: str) -> None:
    assert html_text(html) == text


def test_a_mail_naming_others_starts_a_group_thread_whose_route_names_them() -> None:
    headers = (
        "From: Ana <ana@example.test>\nTo: bot@example.test, Ben <BEN@example.test>\n"
        'Cc: "Chen, W." <chen@example.test>, ana@example.test, BOT@example.test, '
        "not-an-address, ben@example.test\nMessage-ID: <g1@x>"
    )
    proven = "\nAuthentication-Results: mx.example.test; dmarc=pass header.from=example.test"
    trusting = replace(SCREEN, authserv_ids=("mx.example.test",))
    outcome = read_mail(parse(headers + proven).as_bytes(), FACTS, trusting, now=NOW)
    assert isinstance(outcome, Accepted)
    assert outcome.inbound.thread_id == "group/ana@example.test/<g1@x>"
    assert outcome.inbound.route["to"] == "ana@example.test"
    assert outcome.inbound.route["cc"] == "ben@example.test chen@example.test"
    assert outcome.inbound.route["members"] == "ana@example.test ben@example.test chen@example.test"
    # The same mail unproven is a group thread whose answers reach the sender alone.
    forged = read_mail(parse(headers).as_bytes(), FACTS, SCREEN, now=NOW)
    assert isinstance(forged, Accepted)
    assert forged.inbound.thread_id == "group/ana@example.test/<g1@x>"
    assert (forged.inbound.route.get("cc"), forged.inbound.route["members"]) == (None, "")


def test_bcc_is_no_group_and_a_long_list_is_cut() -> None:
    alone = parse("From: ana@example.test\nTo: bot@example.test\nBcc: ben@example.test")
    assert others_addressed(alone, "ana@example.test", "bot@example.test") == ()
    many = ", ".join(f"p{n}@example.test" for n in range(50))
    crowd = parse(f"From: ana@example.test\nTo: bot@example.test\nCc: {many}")
    found = others_addressed(crowd, "ana@example.test", "bot@example.test")
    assert found == tuple(f"p{n}@example.test" for n in range(MAX_ADDRESSED))
