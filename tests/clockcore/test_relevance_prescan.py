"""The relevance question's cheap first look never rules out a real time.

`mentions_time` runs on every message; where every number in it is bare ("order
12345 shipped") it answers without any reader (`clockcore.reading.bare_numbers`).
The property: whatever the first look rules out, the readers would not have read
as a time either, in all seven languages.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clockcore import locate_time, mentions_time
from clockcore.parsing.time_mentions import _grammar_expressions
from clockcore.reading import words
from clockcore.reading.bare_numbers import no_number_is_a_time

pytestmark = pytest.mark.usefixtures("needs_duckling")

_FILLER = (
    "order message ticket room about the project shipped please thanks we need boxes people "
    "version item page kids left closed and or to for with euros bestellung nachricht pedido "
    "mensaje commande message ordine bericht team sala zaal Raum salle votes km"
)
FILLER = _FILLER.split()
_NUMBERS = st.one_of(
    st.integers(0, 99999).map(str),
    st.builds("{}.{}".format, st.integers(0, 99), st.integers(0, 99)),
    st.builds("{},{:02d}".format, st.integers(0, 99), st.integers(0, 99)),
    st.builds("{}-{}".format, st.integers(0, 31), st.integers(0, 31)),
    st.builds("{}/{}".format, st.integers(0, 31), st.integers(0, 12)),
    st.builds("{}:{:02d}".format, st.integers(0, 23), st.integers(0, 59)),
    st.builds("${}".format, st.integers(0, 999)),
    st.builds("#{}".format, st.integers(0, 9999)),
)
_TIME_WORDS = st.sampled_from(
    [w for name in words.TABLES for w in words.table(name)] + ["pm", "am", "h", "Uhr", "in"]
)


_PLAIN = st.sampled_from(FILLER)


@st.composite
def messages(draw: st.DrawFn) -> str:
    pieces = draw(
        st.lists(
            st.one_of(_PLAIN, _PLAIN, _NUMBERS, _NUMBERS, _TIME_WORDS), min_size=1, max_size=12
        )
    )
    return " ".join(pieces)


@pytest.mark.parametrize("language", words.LANGUAGES)
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=messages())
def test_what_the_first_look_rules_out_no_reader_reads(language: str, text: str) -> None:
    if not no_number_is_a_time(text):
        return
    assert not _grammar_expressions(text), text
    assert locate_time(text, language=language) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "order 12345 shipped",
        "message 5 about the project",
        "ticket 4521 closed, 2 left",
        "Bestellung 12345 ist verschickt",
        "le colis 12345 est parti",
    ],
)
def test_chat_with_bare_numbers_mentions_no_time(text: str) -> None:
    assert not mentions_time(text)
    assert no_number_is_a_time(text)


@pytest.mark.parametrize(
    "text",
    ["at 5", "15 May", "order 5 ab 9", "meet 9:30", "dia 15", "0930 call", "around 5", "the 5th"],
)
def test_a_number_with_a_cue_is_left_to_the_readers(text: str) -> None:
    assert not no_number_is_a_time(text)
