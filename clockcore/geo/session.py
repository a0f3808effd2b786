"""Which zone a message is read in, a pure function: docs/clock-spec.md §4.2 as we read it.

1. a place the person puts themselves in, in this message ("I'm in Lisbon this
   week", "here in Tokyo it's 9"): the session moves there (the wrapper keeps it as
   the thread's zone, as ``clock: tz …`` would);
2. the thread's stored override (``clock: tz …``, or an earlier such message);
3. the user's default zone (``clock: home tz …``, or a channel profile);
4. an unambiguous place the person mentioned earlier;
5. in a direct conversation, a message that is a place name and nothing else
   ("Toronto", "in Lisbon."), when none of the above gives a zone: while their
   zone is unknown the agent is told to ask "Which city are you in?", and this is
   the answer (the wrapper keeps it as the thread's zone, as in 1);
6. UTC, with a notice saying so.

A zone named as part of a time ("9am New York time", "at 9 in Sao Paulo", "UTC+9",
an IANA id, a timestamp's offset) anchors that time only, where the time is read
(`clockcore.parsing.timeparse`); it does not move the session. Otherwise "what's 9am New
York time in my zone?" would answer in New York's zone, and every later time in
the turn would be read there. When such a zone cannot be named (an ambiguous
place, a fractional offset), its question is still passed on.

Abbreviations are never mapped: when the message uses one, resolution goes on
down the list and adds a notice asking which zone is meant, unless the zone it
lands on is one of the abbreviation's candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from clockcore.geo import places
from clockcore.geo.zones import require_zone
from clockcore.geo.zonetext import ZoneMention, zone_mentions
from clockcore.message import primary_language

__all__ = [
    "CITY_QUESTION",
    "SessionZone",
    "ZoneSource",
    "city_question",
    "place_answer_notice",
    "resolve_session_zone",
]

ZoneSource = Literal["message", "thread", "user", "location", "default"]

CITY_QUESTION = "Which city are you in?"
"""What the person is asked when their zone is needed: the notice, the tools' ``zone_unknown``
error and a reply that asked nothing (`bot.agent`) all say these words."""

_CITY_QUESTIONS = {
    "en": CITY_QUESTION,
    "es": "¿En qué ciudad estás?",
    "de": "In welcher Stadt bist du?",
    "fr": "Dans quelle ville êtes-vous ?",
    "pt": "Em que cidade você está?",
    "it": "In che città sei?",
    "nl": "In welke stad ben je?",
}


def city_question(language: str | None) -> str:
    """`CITY_QUESTION` as the person reads it: in their language ("es", "pt-BR"), else English.

    The languages are the ones confirmations are said in (`clockcore.speech.spoken`).
    The model is told the English words; the person is asked in theirs.
    """
    return _CITY_QUESTIONS.get(primary_language(language) or "en", CITY_QUESTION)


UTC_FALLBACK_NOTICE = (
    "The user's timezone is not known, so times are in UTC. Before scheduling anything or "
    f'naming a local time, ask them: "{CITY_QUESTION}"'
)
"""Ends with the question itself: an instruction to ask is passed on (docs/eval.md, M13)."""


def place_answer_notice(zone: str) -> str:
    """The notice for a bare place answering the city question (step 5).

    The request that waited for the zone is two messages up, and the notice says it
    can be done now (docs/eval.md, M14).
    """
    return (
        f'Their zone is now {zone}, from this answer to "{CITY_QUESTION}": a time they '
        "asked for earlier can be set now"
    )


@dataclass(frozen=True, slots=True)
class SessionZone:
    """The resolved session zone, where it came from, and what the agent should know."""

    zone: str
    source: ZoneSource
    notices: tuple[str, ...] = ()


def resolve_session_zone(
    text: str,
    *,
    thread_override: str | None = None,
    user_default: str | None = None,
    known_locations: Sequence[str] = (),
    mentions: Sequence[ZoneMention] | None = None,
    place_answers: bool = False,
) -> SessionZone:
    """Resolve the session zone for one message.

    Args:
        text: the message.
        thread_override: the thread's stored zone, an IANA id.
        user_default: the user's default zone, an IANA id.
        known_locations: places the user has mentioned before, most recent first.
        mentions: `zone_mentions(text)`, when the caller has it already.
        place_answers: a message that is only a place name says where they are
            (step 5): true in a direct conversation, where the agent asks for the
            city; a group is never asked, and a place said there is chatter.

    Raises:
        UnknownTimezoneError: a stored zone is not an IANA id (state is corrupt).
    """
    notices: list[str] = []
    if mentions is None:
        mentions = zone_mentions(text)
    abbreviations = [m for m in mentions if m.strength == "abbreviation"]

    def done(zone: str, source: ZoneSource) -> SessionZone:
        for abbreviation in abbreviations:
            if zone not in abbreviation.candidates and abbreviation.question:
                notices.append(abbreviation.question)
        return SessionZone(zone, source, tuple(dict.fromkeys(notices)))

    for mention in mentions:
        if mention.strength == "location":
            if mention.zone is not None:
                return done(mention.zone, "message")
            if mention.question:
                notices.append(mention.question)
    for mention in mentions:  # a time's own zone anchors that time only; ask what it cannot name
        if mention.strength == "explicit" and mention.zone is None and mention.question:
            notices.append(mention.question)
    if thread_override:
        return done(require_zone(thread_override), "thread")
    if user_default:
        return done(require_zone(user_default), "user")
    for name in known_locations:
        match = places.lookup_place(name)
        if match is not None and match.zone is not None:
            return done(match.zone, "location")
    answer = _bare_place(text) if place_answers else None
    if answer is not None and answer.zone is not None:
        notices.append(place_answer_notice(answer.zone))
        return done(answer.zone, "message")
    if answer is not None:
        notices.append(answer.question())  # "Springfield": which one?
    notices.append(UTC_FALLBACK_NOTICE)
    return done("UTC", "default")


_ANSWER = re.compile(
    r"\s*(?:(?:i'?m |i am |we'?re |we are )?in )?(?P<place>[^?]{1,80}?)[\s.!]*", re.IGNORECASE
)


def _bare_place(text: str) -> places.PlaceMatch | None:
    """The place `text` is made of and nothing else ("Toronto", "in Oslo!"), or None.

    A question ("Tokyo?") asks about a place; it does not say where they are.
    Common words are no place (`places.lookup_place`: "Reading", "Nice").
    """
    found = _ANSWER.fullmatch(text)
    return places.lookup_place(found["place"]) if found else None
