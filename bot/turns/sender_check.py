"""Requests that act on who a person is: where they may be made, and by whom.

*Person-wide* requests (`person_wide`) act on who the person is or on all of
their data: linking and unlinking identities, "what do you know about me" and
"what did I clock",
erasure, the dashboard and calendar links, the home zone and the mode. They are
answered only in a private thread, on every channel: in a group thread every
member (a stranger in ``Cc`` too) reads the answer, and there they get "write to
me directly" (docs/SECURITY.md).

A mail whose ``From`` its server did not prove (`channels.base.Inbound.proven`
is False) may ask questions, but every change it asks for (`privileged`: the
person-wide ones above but a new link code, a clock directive, and whatever
the model would change, `bot.turns.lifecycle`) waits for the address to confirm. The
turn runner answers, without the model, with a token and holds the request
(`wrapper.inbound.sender_checks`) in its private thread; the reply goes to the address
alone, so only its real owner reads the token. Their next mail in that thread
that carries it runs the request again as proven. The token is 80 random bits
in four groups (``CHECK-K3QF-7XAB-2MZL-P9QD``), so it survives being typed or
quoted.
"""

from __future__ import annotations

import base64
import re
import secrets
import unicodedata

from bot.turns.calendar_feed import calendar_ask
from bot.turns.dashboard import asks_for_dashboard
from bot.turns.my_data import Ask, ask_of
from clockcore import parse_directives

__all__ = [
    "CONFIRMED_SUFFIX",
    "MAX_HELD_CHARS",
    "UNPROVEN_IN_GROUP_REPLY",
    "check_reply",
    "confirmed_reply",
    "new_check_token",
    "person_wide",
    "privileged",
    "request_to_hold",
    "tokens_in",
]

CONFIRMED_SUFFIX = "#confirmed"
"""Appended to the confirming message's id to make the id of the request it runs again."""

UNPROVEN_IN_GROUP_REPLY = (
    "Your mail server did not prove that this mail came from you, so I change nothing for it "
    "here, where everyone in the thread reads my answers. Write to me directly and I will ask "
    "you to confirm."
)
"""The answer to a change asked for by an unproven sender in a group thread."""

_TOKEN = re.compile(r"\bCHECK-((?:[A-Z2-7]{4}-){3}[A-Z2-7]{4})\b", re.IGNORECASE | re.ASCII)
_MAX_TOKENS = 5
MAX_HELD_CHARS = 2_000
"""The most of a request that is held; the confirmation mail shows all of it."""
_KEPT_CONTROLS = frozenset("\n\t")


def request_to_hold(text: str) -> tuple[str, bool]:
    """What of `text` is held and shown for confirmation, and runs once confirmed; and
    whether it was cut.

    Invisible characters (format and control characters: bidi overrides, zero-width
    spaces) are dropped, so the quote in the mail reads as what runs; the text is cut to
    `MAX_HELD_CHARS` after that, and the mail shows the cut.
    """
    visible = "".join(
        ch
        for ch in text
        if ch in _KEPT_CONTROLS or unicodedata.category(ch) not in ("Cf", "Cc", "Co", "Cs")
    )
    return visible[:MAX_HELD_CHARS], len(visible) > MAX_HELD_CHARS


def person_wide(text: str) -> bool:
    """Whether `text` acts on who the person is or on all their data: private threads only."""
    if ask_of(text) is not None or asks_for_dashboard(text) or calendar_ask(text) is not None:
        return True
    found = parse_directives(text)
    return bool(
        found.link or found.unlink or found.link_answer or found.home_tz or found.mode is not None
    )


def privileged(text: str) -> bool:
    """Whether `text` asks for a change that an unproven sender must confirm first.

    A first "delete my data" only warns and ``clock: link`` only mails a code to the
    address: both may be answered unproven.
    """
    ask = ask_of(text)
    if (
        ask in (Ask.SHOW, Ask.CLOCKED, Ask.CONFIRM)
        or asks_for_dashboard(text)
        or calendar_ask(text)
    ):
        return True
    found = parse_directives(text)
    return bool(
        found.link_code
        or found.link_answer
        or found.unlink
        or found.home_tz
        or found.mode is not None
        or found.thread_tz
        or found.kind is not None
        or found.clock_it is not None
    )


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


def check_reply(token: str, request: str, *, cut: bool = False) -> str:
    """The reply that holds an unproven sender's request and carries its token.

    It quotes the whole held request (`request_to_hold`): a confirmation runs all of
    it, so the owner must see all of it, not its first line (docs/SECURITY.md).
    `cut`: the mail was longer and only its first `MAX_HELD_CHARS` characters are held.
    """
    quoted = "\n".join("> " + line for line in request.strip().splitlines())
    ending = (
        f"\n\n(Your mail was longer; only its first {MAX_HELD_CHARS:,} characters, quoted "
        "above, would run.)"
        if cut
        else ""
    )
    return (
        "Before I act on the request quoted below, please confirm that this address is yours: "
        f"reply to this mail with\n\n{token}\n\nwithin an hour. Your mail server did not "
        "prove that the last mail came from you, and anyone can write a From line. If you did "
        "not ask for this, ignore this mail and nothing happens. Confirming runs all of this "
        f"request:\n\n{quoted}{ending}"
    )


def confirmed_reply(request: str) -> str:
    """The reply to the confirming mail; the request's own answer follows it."""
    words = " ".join(request.split())
    shown = words if len(words) <= 80 else words[:79] + "…"
    return f"Confirmed: “{shown}”. Doing it now."
