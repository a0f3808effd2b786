"""The no-model commands' order is the security order (bot/turns/commands.py, docs/SECURITY.md).

A message that one of the data rows (/mydata, delete my data, dashboard, calendar feed)
would answer must meet a security row first: in a group, the refusal of person-wide
asks; from a sender the channel could not prove, the hold for a confirmation. Shown on
the table itself, for any text around the asks, in every kind of thread.
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.turns.commands import Asked, Command, NoModelCommands
from bot.turns.my_data import Ask, ask_of, erase_words
from clockcore import MessageRef
from wrapper.keys import is_private_thread

DATA_ROWS = {"what do you know about me / delete my data", "dashboard", "calendar feed"}
ASKS = (
    "/mydata", "what do you know about me", "delete my data", "/deletemydata",
    "delete my data: yes", "dashboard", "/dashboard", "my calendar feed", "calendar link",
    "/calendar", "clock: home tz Europe/Paris", "clock: link", "hello",
    *(w for lang in ("de", "es", "fr", "it", "pt", "nl") for w in erase_words(lang)),
)  # fmt: skip
THREADS = (
    ("telegram", "dm:42"), ("telegram", "-100123"), ("slack", "C1:1700000000.1"),
    ("email", "alice@example.org/root"), ("email", "group/abc"), ("console", "dm:me"),
)  # fmt: skip


def _table() -> tuple[Command, ...]:
    none: Any = None  # the matchers read the message alone: no owner, store or channel is asked
    return NoModelCommands(owner=none, wrapper=none, clock=none, channels={}, public_url=None).table


TABLE = _table()


def _asked(text: str, channel: str, thread: str, proven: bool) -> Asked:
    ref = MessageRef(
        channel=channel, thread_id=thread, user_id="42", message_id="m1", text=text,
        received_at=datetime(2026, 12, 2, 9, tzinfo=UTC), route={}, proven=proven,
    )  # fmt: skip
    waiting: Any = SimpleNamespace(ref=ref)
    envelope: Any = None
    return Asked(waiting, envelope, is_private_thread(channel, thread))


def _variants() -> st.SearchStrategy[str]:
    shaped = st.tuples(
        st.sampled_from(ASKS),
        st.sampled_from(["", " ", "  ", "\n"]),
        st.sampled_from(["", "?", "!", ".", " ?"]),
        st.booleans(),
    ).map(lambda p: f"{p[1]}{p[0].upper() if p[3] else p[0]}{p[2]}")
    return st.one_of(shaped, st.text(max_size=40))


def _first_matches(asked: Asked) -> list[str]:
    return [command.name for command in TABLE if command.matches(asked)]


def test_the_table_holds_the_rows_this_test_names() -> None:
    names = [command.name for command in TABLE]
    assert set(names) >= DATA_ROWS
    assert names[0] == "person-wide ask in a group"
    assert min(names.index(row) for row in DATA_ROWS) > names.index(
        "a privileged ask, sender unproven"
    )


@settings(max_examples=120, deadline=None)
@given(text=_variants(), where=st.sampled_from(THREADS), proven=st.booleans())
def test_a_data_ask_meets_a_security_row_first(
    text: str, where: tuple[str, str], proven: bool
) -> None:
    asked = _asked(text, *where, proven)
    matched = _first_matches(asked)
    if not DATA_ROWS & set(matched):
        return
    if not asked.private:
        assert matched[0] == "person-wide ask in a group", matched
    if not proven and ask_of(text) is not Ask.ERASE:  # a first "delete my data" only warns
        assert "a privileged ask, sender unproven" in matched, matched


def test_an_unproven_mydata_in_a_private_thread_is_held() -> None:
    matched = _first_matches(_asked("/mydata", "email", "alice@example.org/root", False))
    assert matched[:3] == [
        "a held request's token",
        "a privileged ask, sender unproven",
        "what do you know about me / delete my data",
    ]


def test_a_mydata_in_a_group_is_refused_first() -> None:
    for channel, thread in (("telegram", "-100123"), ("email", "group/abc")):
        assert _first_matches(_asked("/mydata", channel, thread, True))[0] == (
            "person-wide ask in a group"
        )
