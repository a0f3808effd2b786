"""A vote on a meeting poll, as the words the gateway reads: ``vote 1 3``.

An adapter with native polls (Telegram's ``poll_answer``) hands a vote on as
these words, naming the poll's message in `Inbound.reply_to`; a person on a
channel without polls may write the same in reply to the poll's numbered
text. Options are numbered from 1, as the text shows them. ``vote none`` is
an answer (none of the times works); ``vote withdraw`` takes an answer back
(Telegram's "retract vote"), so the poll waits for that person again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

__all__ = ["MAX_OPTIONS", "NATIVE_POLL", "WITHDRAW", "Vote", "read_vote", "vote_words"]

MAX_OPTIONS = 10

NATIVE_POLL = "poll:"
"""How an adapter names a native poll, in the ids `send` returns and in a vote's
`Inbound.reply_to`: ``poll:<the platform's poll id>``. A vote naming a poll
clockbot does not know (one from before a restore) is dropped, never answered."""

WITHDRAW = "vote withdraw"
"""The words that take a person's answer back."""

_MAX_VOTE_CHARS = 200
"""The longest text read as a vote: ten options with separators fit well inside it.
A longer text is not a vote and is never matched (docs/SECURITY.md, "Slow input")."""

_VOTE = re.compile(
    r"^\s*vote\s*:?\s*(none|withdraw|\d{1,2}(?:(?:\s*(?:,|and)\s*|\s+)\d{1,2})*)\s*$", re.I
)
r"""Each gap between two numbers is read one way only: a comma or "and" with any
spaces around it, or spaces alone; the old ``\s*(?:,|and|\s)\s*`` split a run of
spaces three ways and backtracked exponentially on a failing match."""


def vote_words(options: Iterable[int]) -> str:
    """The words for a vote on these options (1-based); none: ``vote none``."""
    chosen = sorted(set(options))
    return "vote " + (" ".join(str(n) for n in chosen) if chosen else "none")


class Vote(NamedTuple):
    """What a vote's words say."""

    choices: tuple[int, ...]
    """The options they can make (1-based, sorted, once each); () none of them."""
    withdrawn: bool = False
    """``vote withdraw``: no answer from them (any earlier one is taken back)."""


def read_vote(text: str) -> Vote | None:
    """The vote `text` casts; None: not a vote, or a number outside 1..`MAX_OPTIONS`."""
    if len(text) > _MAX_VOTE_CHARS:
        return None
    found = _VOTE.match(text)
    if found is None:
        return None
    word = found[1].lower()
    if word in ("none", "withdraw"):
        return Vote((), withdrawn=word == "withdraw")
    numbers = sorted({int(n) for n in re.findall(r"\d+", found[1])})
    if not all(1 <= n <= MAX_OPTIONS for n in numbers):
        return None
    return Vote(tuple(numbers))
