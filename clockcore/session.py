"""Which zone a message is read in: CLOCK §4.2's precedence, as a pure function.

1. a zone explicit in the message ("Tokyo time", "UTC+9", an IANA id, a timestamp
   with an offset, or "at 9 in Tokyo");
2. the thread's stored override (``clock: tz …``);
3. the user's default zone (``clock: home tz …``, or a channel profile);
4. an unambiguous place the user mentioned ("I'm in Lisbon this week"), in this
   message first, then the places known from earlier;
5. UTC, with a notice saying so.

Abbreviations are never mapped: when the message uses one, resolution goes on
down the list and adds a notice asking which zone is meant, unless the zone it
lands on is one of the abbreviation's candidates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from clockcore import places
from clockcore.zones import require_zone
from clockcore.zonetext import ZoneMention, zone_mentions

__all__ = ["SessionZone", "ZoneSource", "resolve_session_zone"]

ZoneSource = Literal["message", "thread", "user", "location", "default"]

UTC_FALLBACK_NOTICE = (
    "The user's timezone is not known, so times are in UTC. Ask for their city or "
    "IANA zone before scheduling anything or naming a local time."
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
) -> SessionZone:
    """Resolve the session zone for one message.

    Args:
        text: the message.
        thread_override: the thread's stored zone, an IANA id.
        user_default: the user's default zone, an IANA id.
        known_locations: places the user has mentioned before, most recent first.
        mentions: `zone_mentions(text)`, when the caller has it already.

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
        if mention.strength != "explicit":
            continue
        if mention.zone is not None:
            return done(mention.zone, "message")
        if mention.question:
            notices.append(mention.question)
    if thread_override:
        return done(require_zone(thread_override), "thread")
    if user_default:
        return done(require_zone(user_default), "user")
    for mention in mentions:
        if mention.strength == "location":
            if mention.zone is not None:
                return done(mention.zone, "location")
            if mention.question:
                notices.append(mention.question)
    for name in known_locations:
        match = places.lookup_place(name)
        if match is not None and match.zone is not None:
            return done(match.zone, "location")
    notices.append(UTC_FALLBACK_NOTICE)
    return done("UTC", "default")
