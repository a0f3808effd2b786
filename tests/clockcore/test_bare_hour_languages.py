"""A bare hour reads the same in every language (docs/time-rules.md, issue 61 fe81 item 8).

"next friday at 3" offered 15:00 in English and 03:00 in German and Spanish: the waking
hour (`clockcore.reading.waking_hour.bare_hour`) is one rule for every reader, and for a
change to a reminder in the rules agent.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from clockcore import parse_anchored_time
from clockcore.reading.waking_hour import bare_hour

CONTEXTS = {
    "en": ("next friday at {h}", "tomorrow at {h}", "at {h}"),
    "de": ("nächsten Freitag um {h}", "morgen um {h}", "um {h}"),
    "es": ("el próximo viernes a las {h}", "mañana a las {h}", "a las {h}"),
    "it": ("venerdì prossimo alle {h}", "domani alle {h}", "alle {h}"),
    "pt": ("na próxima sexta às {h}", "amanhã às {h}", "às {h}"),
    "nl": ("volgende vrijdag om {h}", "morgen om {h}", "om {h}"),
    "fr": ("vendredi prochain à {h}", "demain à {h}", "à {h}"),
}
"""French "à 3h" is a 24-hour form kept as written ("A 24-hour form keeps its hour"); "à 3"
without its "h" is a bare hour, as "at 3" is (it was read as 3 January)."""
REQUESTS = {
    "en": "remind me at {h} to call mom",
    "de": "erinnere mich um {h} an die Bank",
    "es": "recuérdame a las {h} llamar a mamá",
    "fr": "rappelle-moi à {h} d'appeler maman",
    "it": "ricordami alle {h} di chiamare la mamma",
    "pt": "lembra-me às {h} de ligar à mãe",
    "nl": "herinner me om {h} aan de bank",
}
WEDNESDAY = datetime(2026, 12, 2, 4, tzinfo=UTC)


@settings(max_examples=12, deadline=None)
@given(
    hour=st.integers(1, 12),
    context=st.integers(0, 2),
    later=st.integers(0, 2 * 24 - 1),
    zone=st.sampled_from(["Europe/Berlin", "America/New_York", "Asia/Kathmandu"]),
)
def test_the_same_bare_hour_in_the_same_context_gives_the_same_candidates(
    hour: int, context: int, later: int, zone: str
) -> None:
    reference = WEDNESDAY + timedelta(hours=later)
    read = {
        language: parse_anchored_time(
            phrasings[context].format(h=hour), zone, reference, language=language
        )
        for language, phrasings in CONTEXTS.items()
    }
    seen = {(r.start_instant, r.candidates) for r in read.values()}
    assert len(seen) == 1, {
        language: (r.start_instant, r.candidates) for language, r in read.items()
    }
    english = read["en"]
    instants = (english.start_instant,) if english.start_instant else english.candidates
    for instant in instants:
        assert instant is not None
        assert instant.astimezone(ZoneInfo(zone)).hour == bare_hour(hour)


@settings(max_examples=20, deadline=None)
@given(
    hour=st.integers(1, 12),
    language=st.sampled_from(sorted(REQUESTS)),
    later=st.integers(0, 2 * 24 - 1),
    zone=st.sampled_from(["Europe/Berlin", "America/New_York", "Asia/Kathmandu"]),
)
def test_a_bare_hour_in_a_request_is_within_a_day_or_a_question(
    hour: int, language: str, later: int, zone: str
) -> None:
    """A request with a bare hour is its next waking hour, or a question: never a date weeks
    away ("rappelle-moi à 9 d'appeler maman" was 9 January)."""
    reference = WEDNESDAY + timedelta(hours=later)
    read = parse_anchored_time(
        REQUESTS[language].format(h=hour), zone, reference, language=language
    )
    if read.needs_clarification:
        return
    assert read.start_instant is not None, read
    assert reference < read.start_instant <= reference + timedelta(hours=24), read
    assert read.start_instant.astimezone(ZoneInfo(zone)).hour == bare_hour(hour), read


def test_near_a_time_it_changes_the_nearer_half_of_the_day_else_the_waking_hour() -> None:
    assert bare_hour(7, near=18 * 60) == 19  # "mejor a las 7" for a reminder at 18:00
    assert bare_hour(11, near=9 * 60) == 11  # "make that 11" for one at 09:00
    assert bare_hour(4, near=15 * 60) == 16
    assert bare_hour(3, near=9 * 60) == 15  # 03:00 and 15:00 are equally near: waking
    assert [bare_hour(h) for h in range(1, 13)] == [13, 14, 15, 16, 17, 18, 7, 8, 9, 10, 11, 12]
    assert bare_hour(6, woken=True) == 6
