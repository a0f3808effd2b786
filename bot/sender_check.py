"""Privileged requests from an unproven sender: what they are, the token, the words.

A mail whose ``From`` its server did not prove (`channels.base.Inbound.proven`
is False) may still ask anything of the agent, but not these, which act on who
the person *is* rather than on what they say:

- ``clock: link CODE``, ``clock: link yes|no`` and ``clock: unlink`` (the wrapper's
  chain skips them too),
- "delete my data: yes" (the erasure itself; the first "delete my data" only warns),
- "what do you know about me" / ``/mydata`` (the export), and "dashboard".

The turn runner answers such a request, without the model, with a token and
holds the request (`wrapper.sender_checks`); the reply goes to the address, so
only its real owner reads the token. Their next mail that carries it runs the
request again as proven. The token is 80 random bits in four groups
(``CHECK-K3QF-7XAB-2MZL-P9QD``), so it survives being typed or quoted.
"""

from __future__ import annotations

import base64
import re
import secrets

from bot.calendar_feed import calendar_ask
from bot.dashboard import asks_for_dashboard
from bot.my_data import Ask, ask_of
from clockcore import parse_directives

__all__ = [
    "CONFIRMED_SUFFIX",
    "check_reply",
    "confirmed_reply",
    "new_check_token",
    "privileged",
    "tokens_in",
]

CONFIRMED_SUFFIX = "#confirmed"
"""Appended to the confirming message's id to make the id of the request it runs again."""

_TOKEN = re.compile(r"\bCHECK-((?:[A-Z2-7]{4}-){3}[A-Z2-7]{4})\b", re.IGNORECASE)
_MAX_TOKENS = 5


def privileged(text: str) -> bool:
    """Whether `text` is a request that an unproven sender must confirm first."""
    ask = ask_of(text)
    if ask in (Ask.SHOW, Ask.CONFIRM) or asks_for_dashboard(text) or calendar_ask(text):
        return True
    found = parse_directives(text)
    return bool(found.link_code or found.link_answer or found.unlink)


def new_check_token() -> str:
    """A fresh token: ``CHECK-`` and 16 base32 characters in groups of four (80 bits)."""
    body = base64.b32encode(secrets.token_bytes(10)).decode("ascii")
    return "CHECK-" + "-".join(body[i : i + 4] for i in range(0, 16, 4))


def tokens_in(*texts: str) -> list[str]:
    """The tokens in `texts` (a mail's body, its subject), in ``CHECK-…`` form, at most 5."""
    found: list[str] = []
    for text in texts:
        for match in _TOKEN.finditer(text[:20_000]):
            token = "CHECK-" + match.group(1).upper()
            if token not in found:
                found.append(token)
    return found[:_MAX_TOKENS]


def check_reply(token: str, request: str) -> str:
    """The reply that holds an unproven sender's request and carries its token."""
    shown = " ".join(request.split())[:80]
    return (
        f"Before I act on “{shown}”, please confirm that this address is yours: reply to this "
        f"mail with\n\n{token}\n\nwithin an hour. Your mail server did not prove that the last "
        "mail came from you, and anyone can write a From line. If you did not ask for this, "
        "ignore this mail and nothing happens."
    )


def confirmed_reply(request: str) -> str:
    """The reply to the confirming mail; the request's own answer follows it."""
    shown = " ".join(request.split())[:80]
    return f"Confirmed: “{shown}”. Doing it now."
