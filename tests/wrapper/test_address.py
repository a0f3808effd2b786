"""`Address`: the keys it builds read back to the same address, for any ids a channel has."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wrapper.keys import Address, is_private_thread, thread_key, user_key

_NAME = st.text(st.characters(blacklist_characters=":", blacklist_categories=("Cs",)), min_size=1)
_ID = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1)


@given(agent=_NAME, channel=_NAME, thread=_ID, user=_ID)
def test_the_keys_of_an_address_read_back_to_it(
    agent: str, channel: str, thread: str, user: str
) -> None:
    address = Address(agent, channel, thread, user)
    assert address.thread_key == thread_key(agent, channel, thread)
    assert address.user_key == user_key(channel, user)
    assert Address.parse(address.thread_key, address.user_key) == address
    assert address.private == is_private_thread(channel, thread)


@pytest.mark.parametrize(
    ("thread", "user"),
    [
        ("agent:main:telegram:42", "slack:U1"),  # two channels
        ("some-foreign-key", "telegram:7"),  # not clockbot's shape
        ("agent:main:telegram:42", "telegram"),  # no user id
    ],
)
def test_keys_that_name_no_one_address_are_refused(thread: str, user: str) -> None:
    with pytest.raises(ValueError, match=r"must be|not one channel"):
        Address.parse(thread, user)


@pytest.mark.parametrize(
    "fields", [("", "telegram", "1", "2"), ("main", "tele:gram", "1", "2"), ("main", "x", "", "2")]
)
def test_an_address_with_an_empty_or_ambiguous_part_is_refused(
    fields: tuple[str, str, str, str],
) -> None:
    with pytest.raises(ValueError, match="must be non-empty"):
        Address(*fields)


def test_a_private_thread_is_said_by_its_address() -> None:
    assert Address("main", "telegram", "dm:5", "5").private
    assert not Address("main", "telegram", "-100123", "5").private
    assert not Address("main", "email", "group/a@x/<m@x>", "a@x").private
