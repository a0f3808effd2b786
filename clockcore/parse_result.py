"""The values time parsing returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from clockcore.geo.zones import to_iso, zone_from_label
from clockcore.questions import Question

__all__ = ["ParseKind", "ParseResult", "TimeExpression"]

ParseKind = Literal["absolute", "relative", "floating", "invalid"]


@dataclass(frozen=True, slots=True)
class ParseResult:
    """What a piece of text says about time, anchored to a zone.

    Attributes:
        kind: ``absolute`` (a calendar time or date), ``relative`` (an offset from
            the reference instant: "in 90 minutes", "in 2 days"), ``floating``
            (a calendar time with no zone to anchor it) or ``invalid``.
        start_instant: aware UTC; None when floating, invalid or unresolved.
        end_instant: aware UTC, exclusive. Equal to `start_instant` for a point
            in time; the next local midnight for a whole day.
        needs_clarification: the text cannot be turned into one instant without
            asking (floating, abbreviation, DST gap or fold, D/M order...).
        clarification_question: the question to ask, in English (`question.english`
            when the reader asked it as a value).
        zone: the anchoring zone, an IANA id (or ``UTC+05:30`` for an offset read
            from the text); None when nothing anchored it.
        zone_source: ``text`` when the text named the zone, ``caller`` when it
            came from the `tz` argument.
        matched_text: the part of the text that was read as time.
        candidates: the instants a DST gap or fold could mean (aware UTC).
        reason: why the text is invalid, for ``kind="invalid"``.
        reader: whose reading this is: ``grammar`` (clockcore's own) or
            ``duckling`` (Duckling's, anchored by clockcore).
        span: where `matched_text` is in the text, as (start, end) characters;
            None when nothing was read.
        question: the question as a value (`clockcore.questions`): what the bot says
            in the person's language. It sets `clarification_question`.
    """

    kind: ParseKind
    start_instant: datetime | None = None
    end_instant: datetime | None = None
    needs_clarification: bool = False
    clarification_question: str | None = None
    zone: str | None = None
    zone_source: Literal["text", "caller"] | None = None
    matched_text: str = ""
    candidates: tuple[datetime, ...] = ()
    reason: str | None = None
    reader: Literal["grammar", "duckling"] = "grammar"
    span: tuple[int, int] | None = None
    question: Question | None = None

    def __post_init__(self) -> None:
        if self.question is not None:
            object.__setattr__(self, "clarification_question", self.question.english)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, with instants as ISO-8601 in the anchoring zone."""
        zone = self.zone or "UTC"

        def iso(value: datetime | None) -> str | None:
            return None if value is None else to_iso(value, zone_from_label(zone))

        return {
            "kind": self.kind,
            "start_instant": iso(self.start_instant),
            "end_instant": iso(self.end_instant),
            "needs_clarification": self.needs_clarification,
            "clarification_question": self.clarification_question,
            "zone": self.zone,
            "zone_source": self.zone_source,
            "matched_text": self.matched_text,
            "candidates": [iso(c) for c in self.candidates],
            "reason": self.reason,
            "reader": self.reader,
        }


@dataclass(frozen=True, slots=True)
class TimeExpression:
    """A time expression found inside a longer message: ``text[start:end]``.

    `whole` is False when words beside it say more about time than it does
    ("every" in "every Monday at 9am"): the expression alone is not what was meant.
    """

    start: int
    end: int
    text: str
    parts: tuple[str, ...] = field(default=())
    whole: bool = True
