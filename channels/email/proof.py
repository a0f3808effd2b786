"""Whether a mail's ``From`` address is proven: its receiving server's verdict, read properly.

A ``From:`` header is a claim anyone can write. What proves it is the
``Authentication-Results`` header (RFC 8601) that *our* receiving server adds
after checking DKIM, SPF and DMARC. `proof` reads it as follows
(docs/SECURITY.md, "What each channel proves"):

1. Only headers whose authserv-id is one the operator configured count
   (``CLOCKBOT_EMAIL_AUTHSERV_IDS``), and of those only the topmost: our
   server adds its header on top and, as RFC 8601 §5 asks, removes any that
   arrive claiming its id. Headers lower down were written by whoever sent
   the mail. With no authserv-id configured nothing is proven.
2. The header is parsed as RFC 8601 defines it (the ``authres`` library), not
   searched for words: ``spf=fail smtp.mailfrom=spf=pass@evil.example`` is a
   failing SPF result. A header that does not parse proves nothing.
3. ``dmarc=fail`` anywhere in it: not proven.
4. Proven by ``dmarc=pass`` whose ``header.from`` is the From domain, or by a
   ``dkim=pass`` (``header.d``, else the domain of ``header.i``) or an
   ``spf=pass`` (the domain of ``smtp.mailfrom``) *aligned* with the From
   domain: the same organizational domain (the registrable domain, found
   with the Public Suffix List), as DMARC's relaxed alignment has it. A pass
   for ``evil.example`` says nothing about ``victim.example``.

Pure functions over a parsed message; no DNS, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from email.message import Message
from functools import cache

import authres  # type: ignore[import-untyped]
from publicsuffixlist import PublicSuffixList

__all__ = ["Proof", "aligned", "proof"]

_MAX_HEADERS = 20  # a mail with more Authentication-Results than this is read no further
_MAX_HEADER_CHARS = 8_000


@dataclass(frozen=True, slots=True)
class Proof:
    """The verdict on one mail's sender.

    Attributes:
        proven: the From address is the sender's, as far as our mail server checked.
        reason: why (for the log and the refusal), e.g. ``dkim=pass header.d=example.com``.
    """

    proven: bool
    reason: str


@cache
def _suffixes() -> PublicSuffixList:
    return PublicSuffixList()


def organizational_domain(domain: str) -> str | None:
    """The registrable domain of `domain` (``mail.example.co.uk`` → ``example.co.uk``), or None.

    None for a public suffix itself (``co.uk``) or a name that is not a domain.
    """
    name = domain.strip().strip(".").lower()
    if not name or "." not in name:
        return None
    found = _suffixes().privatesuffix(name)
    return str(found) if found else None


def aligned(domain: str, from_domain: str) -> bool:
    """Whether `domain` and `from_domain` share an organizational domain (relaxed alignment)."""
    mine = organizational_domain(domain)
    return mine is not None and mine == organizational_domain(from_domain)


def proof(message: Message, from_address: str, authserv_ids: Sequence[str]) -> Proof:
    """Whether `from_address` is proven by the topmost trusted Authentication-Results header."""
    trusted = {i.strip().lower() for i in authserv_ids if i.strip()}
    if not trusted:
        return Proof(False, "no authserv-id is configured, so no Authentication-Results is trusted")
    header = _trusted_header(message, trusted)
    if header is None:
        return Proof(False, "no Authentication-Results from a trusted authserv-id")
    from_domain = from_address.rpartition("@")[2].lower()
    results = [(r.method.lower(), str(r.result).lower(), _properties(r)) for r in header.results]
    for method, result, _props in results:
        if method == "dmarc" and result not in ("pass", "none"):
            return Proof(False, f"dmarc={result}")
    for method, result, props in results:
        if result != "pass":
            continue
        if method == "dmarc" and props.get("header.from", "").lower() == from_domain:
            return Proof(True, f"dmarc=pass header.from={from_domain}")
        if method == "dkim":
            signer = props.get("header.d") or props.get("header.i", "").rpartition("@")[2]
            if signer and aligned(signer, from_domain):
                return Proof(True, f"dkim=pass header.d={signer.lower()}")
        if method == "spf":
            envelope_from = props.get("smtp.mailfrom", "").rpartition("@")[2]
            if envelope_from and aligned(envelope_from, from_domain):
                return Proof(True, f"spf=pass smtp.mailfrom={envelope_from.lower()}")
    return Proof(False, f"no DMARC, DKIM or SPF pass aligned with {from_domain}")


def _trusted_header(
    message: Message, trusted: set[str]
) -> authres.AuthenticationResultsHeader | None:
    """The topmost Authentication-Results whose authserv-id is trusted, parsed; None otherwise.

    A header with a trusted id that does not parse ends the search: it is the one
    our server wrote, and one further down cannot stand in for it.
    """
    try:
        values = message.get_all("authentication-results") or []
    except (TypeError, ValueError, IndexError, LookupError, AttributeError):
        return None
    for value in values[:_MAX_HEADERS]:
        text = " ".join(str(value).split())[:_MAX_HEADER_CHARS]
        if text.split(";", 1)[0].split(" ", 1)[0].strip().lower() not in trusted:
            continue
        try:
            return authres.AuthenticationResultsHeader.parse_value(text)
        except Exception:  # authres raises its own SyntaxError and others on hostile text
            return None
    return None


def _properties(result: object) -> dict[str, str]:
    props = getattr(result, "properties", None) or []
    return {f"{p.type}.{p.name}".lower(): str(p.value) for p in props}
