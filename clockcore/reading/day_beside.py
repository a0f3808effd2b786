"""An hour the grammar read beside a day another reader read: one time (docs/time-rules.md).

"demain à 9": the grammar reads "à 9" (`clockcore.reading.at_hour`), Duckling's French
only "demain". Right beside each other, they are the hour on that day.
"""

from __future__ import annotations

import re
from datetime import datetime

from clockcore.geo.anchoring import point
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.parsing import duckling_reader
from clockcore.parsing.duckling_values import anchored
from clockcore.parsing.grammar import CLOCK_KINDS, Token

__all__ = ["day_beside"]


# Between a day and an hour read apart: "demain à 9", "jeudi, à 9", "à 9 demain".
_BESIDE = re.compile(r"[\s,]*")


def day_beside(
    text: str,
    group: list[Token],
    read: ParseResult,
    proposals: list[duckling_reader.Reading],
    anchor: Anchor,
    reference: datetime,
) -> ParseResult | None:
    """The grammar's hour on the day a Duckling reading right beside it names, or None.

    "demain à 9": the grammar reads "à 9" (the person's word for "at"), Duckling's French
    only "demain"; the two are one time, the hour on that day (docs/time-rules.md).
    """
    if read.start_instant is None or read.needs_clarification or read.kind != "absolute":
        return None
    if any(t.kind not in CLOCK_KINDS for t in group):
        return None
    first, last = group[0].start, group[-1].end
    for reading in proposals:
        if reading.grain != "day" or reading.end_wall is not None or reading.open_range:
            continue
        if reading.end <= first:
            gap = text[reading.end : first]
        elif reading.start >= last:
            gap = text[last : reading.start]
        else:
            continue
        if not _BESIDE.fullmatch(gap):
            continue
        day = anchored(reading, anchor, reference)
        if day.start_instant is None or day.needs_clarification:
            return None
        start, end = min(reading.start, first), max(reading.end, last)
        base: dict[str, object] = {
            "matched_text": text[start:end].strip(), "span": (start, end), "zone": anchor.label,
            "zone_source": anchor.source,
        }  # fmt: skip
        wall = datetime.combine(
            day.start_instant.astimezone(anchor.tz).date(),
            read.start_instant.astimezone(anchor.tz).time(),
        )
        return point(wall, anchor.tz, anchor, base, "absolute")
    return None
