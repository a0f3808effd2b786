"""The word for "at" before an hour reads as an hour, in every language, by the grammar.

"à 9", "um 9", "a las 9", "alle 9", "às 9", "om 9" are "at 9" (docs/time-rules.md, "A
bare hour"): the grammar reads them in the person's language (`clockcore.parsing.grammar`,
the words files' `TIME_PREPOSITIONS`), with Duckling or without it, and a day that a reader
names beside the hour is that hour's day. The written-date fallback read "à 9" as 9 January.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clockcore import parse_anchored_time
from clockcore.geo.zones import get_zone
from clockcore.geo.zonetext import Anchor
from clockcore.parsing import duckling_reader
from clockcore.parsing.fallback import library_fallback
from clockcore.reading.waking_hour import bare_hour

LANGUAGES = ("en", "de", "es", "fr", "it", "pt", "nl")
AT = {"en": "at", "de": "um", "es": "a las", "fr": "à", "it": "alle", "pt": "às", "nl": "om"}
# Words around the hour that name no time: a request and what it is about.
AROUND = {
    "en": (("remind me", "call me", "ok,", ""), ("to call mom", "please", "for the report", "")),
    "de": (("erinnere mich", "ruf mich", "ok,", ""), ("an die Bank", "bitte", "wegen Paul", "")),
    "es": (("recuérdame", "llámame", "vale,", ""), ("llamar a mamá", "por favor", "lo de Ana", "")),
    "fr": (("rappelle-moi", "appelle-moi", "ok,", ""), ("d'appeler maman", "stp", "pour Paul", "")),
    "it": (
        ("ricordami", "chiamami", "ok,", ""),
        ("di chiamare la mamma", "grazie", "per Anna", ""),
    ),
    "pt": (("lembra-me", "liga-me", "ok,", ""), ("de ligar à mãe", "por favor", "sobre a Ana", "")),
    "nl": (("herinner me", "bel me", "ok,", ""), ("aan de bank", "graag", "over Piet", "")),
}
TOMORROW = {
    "en": "tomorrow", "de": "morgen", "es": "mañana", "fr": "demain", "it": "domani",
    "pt": "amanhã", "nl": "morgen",
}  # fmt: skip
SAME_FIXTURE = [HealthCheck.function_scoped_fixture]  # the reader is the same for every example
ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kathmandu"]
WEDNESDAY = datetime(2026, 12, 2, 4, tzinfo=UTC)


@pytest.fixture(params=["duckling", "grammar"])
def reader(request: pytest.FixtureRequest) -> Iterator[str]:
    """Both readers: the grammar reads these hours with Duckling and without it."""
    duckling_reader.set_enabled(request.param == "duckling")
    try:
        yield str(request.param)
    finally:
        duckling_reader.set_enabled(True)


def _hour(language: str, hour: int) -> str:
    return f"a la {hour}" if language == "es" and hour == 1 else f"{AT[language]} {hour}"


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=25, deadline=None, suppress_health_check=SAME_FIXTURE)
@given(
    hour=st.integers(1, 12),
    before=st.integers(0, 3),
    after=st.integers(0, 3),
    later=st.integers(0, 2 * 24 - 1),
    zone=st.sampled_from(ZONES),
)
def test_the_word_for_at_before_an_hour_is_its_next_waking_hour(
    reader: str, language: str, hour: int, before: int, after: int, later: int, zone: str
) -> None:
    reference = WEDNESDAY + timedelta(hours=later)
    heads, tails = AROUND[language]
    text = " ".join(w for w in (heads[before], _hour(language, hour), tails[after]) if w)
    read = parse_anchored_time(text, zone, reference, language=language)
    assert not read.needs_clarification, (text, read.clarification_question)
    assert read.start_instant is not None, (text, read)
    assert reference < read.start_instant <= reference + timedelta(hours=24), (text, read)
    assert read.start_instant.astimezone(ZoneInfo(zone)).hour == bare_hour(hour), (text, read)
    assert read.start_instant.astimezone(ZoneInfo(zone)).minute == 0


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=20, deadline=None, suppress_health_check=SAME_FIXTURE)
@given(hour=st.integers(1, 12), later=st.integers(0, 2 * 24 - 1), zone=st.sampled_from(ZONES))
def test_tomorrow_beside_the_hour_is_that_hour_tomorrow_or_a_question(
    reader: str, language: str, hour: int, later: int, zone: str
) -> None:
    """ "demain à 9": Duckling's French reads "demain", the grammar "à 9": one time. Without
    Duckling the day is a word the grammar does not know: a question, never today's 09:00."""
    reference = WEDNESDAY + timedelta(hours=later)
    text = f"{TOMORROW[language]} {_hour(language, hour)}"
    read = parse_anchored_time(text, zone, reference, language=language)
    if read.needs_clarification and (reader == "grammar" or read.candidates):
        return  # a day word only Duckling reads; or an hour the small hours make unclear
    assert read.start_instant is not None, (text, read)
    local = read.start_instant.astimezone(ZoneInfo(zone))
    today = reference.astimezone(ZoneInfo(zone)).date()
    assert (local.date(), local.hour) == (today + timedelta(days=1), bare_hour(hour)), (text, read)


@pytest.mark.parametrize(
    "text", ["à 9", "a 9", "às 9", "as 9", "a las 9", "alle 9", "um 9", "om 9", "rdv à 9"]
)
def test_the_written_date_fallback_makes_no_day_of_an_hour(text: str) -> None:
    reference = datetime(2026, 12, 2, 10, tzinfo=UTC)
    anchor = Anchor(get_zone("Europe/Paris"), "Europe/Paris", "caller")
    assert library_fallback(text, anchor, reference) is None


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("verschieb es um 5 Minuten", "de"),
        ("alle 9 Tage gießen", "de"),
        ("à 3 km de chez moi", "fr"),
        ("de 9h à 12 au bureau", "fr"),
        ("a las 3 personas", "es"),
        ("om 9 uur", "nl"),
    ],
)
def test_an_hour_is_not_read_out_of_a_count_a_unit_or_a_range(text: str, language: str) -> None:
    """ "um 5 Minuten" moves by five minutes; "alle 9 Tage" is every nine days; "om 9 uur" is
    Duckling's whole: none of them is the grammar's bare hour."""
    from clockcore.parsing.grammar import scan_text

    assert not [t for t in scan_text(text, (language, "en")) if t.kind == "atclock"], text
