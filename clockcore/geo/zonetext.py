"""Zones named in text: what a zone token anchors to, and every zone a message names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, timedelta, tzinfo
from typing import Literal

from clockcore.geo.zones import (
    ABBREVIATIONS,
    canonical_zone,
    fixed_offset_label,
    fixed_offset_zone,
    get_zone,
    parse_utc_offset,
    zone_for_offset,
)
from clockcore.parsing.grammar import MAX_TEXT, TIME_KINDS, Token, group_tokens, scan_text
from clockcore.questions import Asking, Question

__all__ = [
    "Anchor",
    "ZoneMention",
    "unnamed_by_abbreviation",
    "zone_asked",
    "zone_mentions",
    "zone_of",
]


@dataclass(frozen=True, slots=True)
class Anchor:
    tz: tzinfo
    label: str
    source: Literal["text", "caller"]


ABBREVIATION_QUESTION = Asking(
    "abbreviation", "Which timezone do you mean by {shown}? For example: {options}."
)
OFFSET_QUESTION = Asking(
    "offset", "{shown} is not a UTC offset I can use (they run from UTC-12 to UTC+14)."
)


def zone_of(token: Token, text: str) -> Anchor | str:
    """The anchor a zone token names, or a clarification question (in English)."""
    found = zone_asked(token, text)
    return found.english if isinstance(found, Question) else found


def zone_asked(token: Token, text: str) -> Anchor | Question:
    """The anchor a zone token names, or the question to ask the person."""
    shown = token.text(text).strip()
    if token.kind == "abbr":
        return ABBREVIATION_QUESTION.ask(shown=shown, options=", ".join(ABBREVIATIONS[shown]))
    if token.kind == "utc":
        return Anchor(UTC, "UTC", "text")
    if token.kind == "offset":
        offset = parse_utc_offset(shown)
        if offset is None:
            return OFFSET_QUESTION.ask(shown=shown)
        return Anchor(fixed_offset_zone(offset), fixed_offset_label(offset), "text")
    if token.kind == "iana":
        name = canonical_zone(shown)
        assert name is not None  # the scanner keeps only valid ids
        return Anchor(get_zone(name), name, "text")
    assert token.place is not None
    if token.place.zone is None:
        return token.place.asked()
    return Anchor(get_zone(token.place.zone), token.place.zone, "text")


@dataclass(frozen=True, slots=True)
class ZoneMention:
    """A zone the text names, for session-zone resolution (docs/clock-spec.md §4.2).

    Attributes:
        strength: ``explicit`` (an IANA id, "Tokyo time", "UTC+9", a timestamp
            with an offset, or "in Tokyo" attached to a time: it anchors that time),
            ``location`` (the person places themselves: "I'm in Lisbon this week",
            "here in Tokyo it's 9"), ``named`` (a place named and nothing more:
            "what time is it in Kathmandu?"; it moves no zone) or
            ``abbreviation`` (never mapped).
        zone: the IANA id, None when ambiguous, fractional-offset or an abbreviation.
        text: the words that named it.
        question: what to ask when `zone` is None.
        candidates: for abbreviations and ambiguous places, the zones it may mean.
    """

    strength: Literal["explicit", "location", "named", "abbreviation"]
    zone: str | None
    text: str
    question: str | None = None
    candidates: tuple[str, ...] = ()


# Words that make "in <place>" about where the person is: "I'm in Lisbon", "we live in Oslo",
# in the seven languages: "ich bin in Lissabon", "estoy en Lisboa", "je suis à Montréal",
# "sono a Roma", "estou em Lisboa", "ik ben in Lissabon".
_FIRST_PERSON = re.compile(
    r"\b(?:i'?m|i am|we'?re|we are|i live|we live|living|based|staying|currently|"
    r"here|moved|landed|arrived|travell?ing|i'?ll be|we'?ll be"
    r"|ich\s+bin|wir\s+sind|ich\s+wohne|wir\s+wohnen"
    r"|estoy|estamos|vivo|vivimos"
    r"|je\s+suis|nous\s+sommes|on\s+est|j'habite|je\s+vis"
    r"|sono|siamo|abito"
    r"|estou|moro"
    r"|ik\s+ben|we\s+zijn|ik\s+woon|wij\s+zijn)\b[^.?!]*$",
    re.IGNORECASE,
)


def zone_mentions(text: str) -> list[ZoneMention]:
    """Every zone `text` names, in order."""

    text = text[:MAX_TEXT]
    tokens = scan_text(text)
    attached = {
        id(t)
        for group in group_tokens(text, tokens)
        if any(k.kind in TIME_KINDS for k in group)
        for t in group
    }
    mentions: list[ZoneMention] = []
    for token in tokens:
        shown = token.text(text).strip()
        if token.kind == "abbr":
            candidates = ABBREVIATIONS[shown]
            question = zone_of(token, text)
            assert isinstance(question, str)
            mentions.append(ZoneMention("abbreviation", None, shown, question, candidates))
        elif token.kind in ("offset", "stamp"):
            raw = token.groups["stamp_off"] if token.kind == "stamp" else shown
            offset = _offset_of(raw or "")
            zone = zone_for_offset(offset) if offset is not None else None
            ask = None if zone else f"{shown} is not a whole-hour offset; which city is it?"
            mentions.append(ZoneMention("explicit", zone, shown, ask))
        elif token.kind in ("utc", "iana"):
            anchor = zone_of(token, text)
            assert isinstance(anchor, Anchor)
            mentions.append(ZoneMention("explicit", anchor.label, shown))
        elif token.kind == "place" and token.place is not None:
            # "their time" is a group's place ("the New York office"), never the person's
            theirs = shown.lower().startswith("their")
            placed = not theirs and _FIRST_PERSON.search(
                text[max(0, token.start - 40) : token.start]
            )
            explicit = not placed and (id(token) in attached or shown.lower().endswith("time"))
            # "what time is it in Tokyo" asks about Tokyo: named, it does not place them
            strength: Literal["explicit", "location", "named"] = (
                "explicit" if explicit else "location" if placed else "named"
            )
            place = token.place
            mentions.append(
                ZoneMention(
                    strength,
                    place.zone,
                    place.query if theirs else shown,
                    None if place.zone else place.question(),
                    tuple(c.zone for c in place.candidates),
                )
            )
    return mentions


def _offset_of(raw: str) -> timedelta | None:
    if raw.upper() == "Z":
        return timedelta()
    if raw[:1] in "+-":
        raw = "UTC" + raw
    return parse_utc_offset(raw)


def unnamed_by_abbreviation(text: str, zone: str) -> str | None:
    """The question to ask when `text` gives `zone` only by an abbreviation, else None.

    Abbreviations are never mapped (docs/clock-spec.md §4.2): "my timezone is
    EST" names no zone, so a zone set from it is a guess. `text` also naming
    `zone` (its IANA id, a place in it, its city: "EST, New York") settles it.
    """
    mentions = zone_mentions(text)
    asked = [m.question for m in mentions if m.strength == "abbreviation" and m.question]
    if not asked or any(m.zone == zone for m in mentions):
        return None
    city = zone.rsplit("/", 1)[-1].replace("_", " ").lower()
    return None if city in text.lower() else asked[0]
