"""`channels.email.proof`: which Authentication-Results prove a From address, table by table.

The first three rows of `FORGED` are the ones an attacker got past the old
check (a search of the whole header for ``dkim=pass`` or ``spf=pass``).
"""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import Message

import pytest

from channels.email.proof import aligned, organizational_domain, proof

TRUSTED = ("mx.bot.test",)
VICTIM = "victim@victim.example"


def mail(*results: str, sender: str = VICTIM) -> Message:
    headers = "".join(f"Authentication-Results: {r}\r\n" for r in results)
    raw = f"{headers}From: {sender}\r\nSubject: hi\r\n\r\nclock: link ABCD\r\n".encode()
    return message_from_bytes(raw, policy=policy.default)


FORGED = [
    "mx.bot.test; spf=fail smtp.mailfrom=spf=pass@evil.example",
    "mx.bot.test; dkim=pass header.d=evil.example; dmarc=fail",
    "mx.bot.test; spf=pass smtp.mailfrom=evil.example; dmarc=fail",
    "mx.bot.test; dkim=pass header.d=evil.example",
    "mx.bot.test; spf=pass smtp.mailfrom=bounce@evil.example",
    "mx.bot.test; dkim=pass header.d=example",  # a public suffix aligns with nothing
    "mx.bot.test; dkim=pass header.d=victim.example.evil.example",
    "mx.bot.test; dmarc=pass header.from=evil.example",
    "mx.bot.test; dkim=pass header.d=victim.example; dmarc=fail header.from=victim.example",
    "mx.bot.test; dkim=fail header.d=victim.example; spf=softfail smtp.mailfrom=victim.example",
    "mx.bot.test; dkim=neutral header.d=victim.example",
    "mx.bot.test; none",
    "mx.bot.test; dkim=pass header.d=victim.example; (unterminated comment",  # does not parse
    "mx.other.test; dkim=pass header.d=victim.example",  # not our server
    "mx.bot.test.evil.example; dkim=pass header.d=victim.example",
]

PROVEN = [
    ("mx.bot.test; dkim=pass header.d=victim.example", "dkim=pass header.d=victim.example"),
    ("mx.bot.test; dkim=pass header.i=@victim.example", "dkim=pass header.d=victim.example"),
    ("mx.bot.test; dkim=pass header.d=mail.victim.example", "dkim=pass"),  # relaxed alignment
    ("mx.bot.test; spf=pass smtp.mailfrom=bounces@victim.example", "spf=pass"),
    ("mx.bot.test; dmarc=pass header.from=victim.example", "dmarc=pass"),
    (
        "MX.Bot.Test 1; dkim=pass (2048-bit key) header.d=Victim.Example header.s=s1 "
        "header.b=abc; spf=pass (sender ok) smtp.mailfrom=v@victim.example; dmarc=pass "
        "(p=none) header.from=victim.example",
        "dkim=pass header.d=victim.example",
    ),
    (
        "mx.bot.test; dkim=fail header.d=evil.example; spf=pass smtp.mailfrom=victim.example",
        "spf=pass",
    ),
]


@pytest.mark.parametrize("result", FORGED)
def test_a_claim_that_our_server_did_not_prove_is_not_proof(result: str) -> None:
    verdict = proof(mail(result), VICTIM, TRUSTED)
    assert not verdict.proven, verdict.reason


@pytest.mark.parametrize(("result", "reason"), PROVEN)
def test_an_aligned_pass_from_our_server_proves_the_sender(result: str, reason: str) -> None:
    verdict = proof(mail(result), VICTIM, TRUSTED)
    assert verdict.proven, verdict.reason
    assert verdict.reason.startswith(reason)


def test_only_the_topmost_header_of_our_server_counts() -> None:
    # Ours says fail; one lower down (written by the sender) says pass.
    forged_below = mail(
        "mx.bot.test; dkim=fail header.d=victim.example",
        "mx.bot.test; dkim=pass header.d=victim.example",
    )
    assert not proof(forged_below, VICTIM, TRUSTED).proven
    # A foreign server's header above ours is skipped, ours is read.
    relayed = mail("relay.other.test; dkim=fail", "mx.bot.test; dkim=pass header.d=victim.example")
    assert proof(relayed, VICTIM, TRUSTED).proven


def test_nothing_is_proven_without_a_configured_authserv_id() -> None:
    verdict = proof(mail("mx.bot.test; dmarc=pass header.from=victim.example"), VICTIM, ())
    assert not verdict.proven
    assert "authserv-id" in verdict.reason


def test_a_flood_of_headers_is_read_no_further_than_the_cap() -> None:
    many = ["other.test; dkim=fail"] * 50 + ["mx.bot.test; dkim=pass header.d=victim.example"]
    assert not proof(mail(*many), VICTIM, TRUSTED).proven


@pytest.mark.parametrize(
    ("domain", "organizational"),
    [
        ("mail.example.co.uk", "example.co.uk"),
        ("example.co.uk", "example.co.uk"),
        ("co.uk", None),
        ("alice.github.io", "alice.github.io"),
        ("localhost", None),
        ("", None),
    ],
)
def test_organizational_domains_follow_the_public_suffix_list(
    domain: str, organizational: str | None
) -> None:
    assert organizational_domain(domain) == organizational


def test_alignment_is_relaxed_but_never_across_organizations() -> None:
    assert aligned("mail.example.com", "example.com")
    assert aligned("a.example.com", "b.example.com")
    assert not aligned("alice.github.io", "bob.github.io")
    assert not aligned("example.com", "example.org")
