"""The matchers the no-model table runs on a person's text, and the readers the chain runs
on it, take little CPU on hostile text (docs/SECURITY.md, "Slow input").

They run on the event loop or hold the interpreter lock against it. A regex whose
quantifiers overlap (``\\s*`` beside ``\\s``, ``.+?`` beside ``[\\s,]+``) backtracks
exponentially or cubically when a match fails at the end: att81 found "vote 1" and 21
double spaces holding the loop 8 s. Here every one of them reads 10 KB built from the
words the patterns look for, repeated with runs of spaces and separators, and ending in
a character that fails the match; each read gets one second of CPU, generously.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.llm import rules_agent
from bot.turns.calendar_feed import calendar_ask
from bot.turns.dashboard import asks_for_dashboard
from bot.turns.my_data import ask_of
from bot.turns.sender_check import person_wide, privileged, tokens_in
from channels.poll_votes import read_vote
from clockcore import parse_directives
from clockcore.actions import classify_activity, detect_temporal_action, normalize_label

READERS: dict[str, Callable[[str], object]] = {
    "read_vote": read_vote,
    "person_wide": person_wide,
    "privileged": privileged,
    "ask_of": ask_of,
    "asks_for_dashboard": asks_for_dashboard,
    "calendar_ask": calendar_ask,
    "tokens_in": tokens_in,
    "parse_directives": parse_directives,
    "detect_temporal_action": detect_temporal_action,
    "classify_activity": classify_activity,
    "normalize_label": normalize_label,
    "rules_agent._remind_later": rules_agent._remind_later,
}
SIZE = 10_000
BOUND = 1.0  # CPU seconds for 10 KB; the slow patterns found took 8 s and more

LEADS = (
    "vote", "vote:", "clock:", "clock it:", "clock: tz", "remind me", "in 20 minutes",
    "after", "I'll", "delete my data", "what do you know about me", "dashboard",
    "calendar", "CHECK-", "every day at", "",
)  # fmt: skip
UNITS = ("1", "12", "a", "and", "me", "it", "clock", "remind me", "CHECK-AAAA", ",", ":", "-")
GAPS = (" ", "  ", "", " , ", ",", "\t", "\n", " \n ")
ENDS = (" x", "\x07", "?", "!", "")


def _slowest(text: str) -> tuple[float, str]:
    worst = (0.0, "")
    for name, read in READERS.items():
        started = time.process_time()
        read(text)
        worst = max(worst, (time.process_time() - started, name))
    return worst


def _hostile(lead: str, unit: str, gap: str, end: str) -> str:
    body = (unit + gap) * (SIZE // max(len(unit + gap), 1))
    return (lead + " " + body)[:SIZE] + end


def test_the_vote_that_held_the_loop_is_read_at_once() -> None:
    started = time.process_time()
    assert read_vote("vote 1" + "  1" * 21 + " x") is None
    assert read_vote("vote 1" + "  1" * 3000 + " x") is None
    assert time.process_time() - started < 0.1
    assert read_vote("vote 1, 2 and 3") is not None
    assert read_vote("vote  1   3 ").choices == (1, 3)  # type: ignore[union-attr]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(LEADS), st.sampled_from(UNITS), st.sampled_from(GAPS), st.sampled_from(ENDS))
def test_every_reader_takes_under_a_second_on_10_kb_of_hostile_text(
    lead: str, unit: str, gap: str, end: str
) -> None:
    text = _hostile(lead, unit, gap, end)
    seconds, name = _slowest(text)
    assert seconds < BOUND, f"{name} took {seconds:.2f} s on {text[:40]!r}…"


def test_every_reader_takes_under_a_second_on_spaces_alone() -> None:
    for text in (" " * SIZE + "x", "\n" * SIZE, ", " * (SIZE // 2) + "x", "1 " * (SIZE // 2)):
        seconds, name = _slowest(text)
        assert seconds < BOUND, f"{name} took {seconds:.2f} s on {text[:40]!r}…"
