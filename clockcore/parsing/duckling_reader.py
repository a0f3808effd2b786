"""Duckling's readings of a text, as wall-clock candidates that clockcore anchors.

Duckling (`pyduckling-native-phihos`, module `duckling`) recognises far more of
how people write times than a hand grammar: "half past 3pm", "Mon 9:00",
"first tuesday of october", "9-10am tomorrow". It only *proposes*: every
decision docs/time-rules.md makes (the zone, DST gaps and folds, a date
alone is the whole local day) stays in `clockcore.parsing.timeparse`.

Duckling's own zone handling is not used. Given the `tzdata` package's zone
files (the "slim" TZif form) it gets offsets wrong, even today's: for New York
on 2026-03-07 it says -04:00, and for Berlin in January +02:00 (measured with
0.3.0). So it is asked in UTC, with the person's *local* wall-clock time as
the reference ("it is 10:00"), and what comes back is read as wall-clock
fields. Only the UTC zone is loaded, from `tzdata` (not the system).

Also measured, and handled here:
- its `body` is mis-decoded for non-ASCII text; `start`/`end` are right, in
  characters, so spans are cut from the original text;
- a range's end is exclusive by one grain ("9-10am" is 09:00–11:00 at hour
  grain): `Reading.end_wall` is the end a person means (10:00). A part of the
  day ("this evening", 18:00–00:00) has no written end, and keeps Duckling's;
- a time without a date comes with alternatives (today, tomorrow, …):
  `Reading.walls` keeps them, in Duckling's order.

The runtime starts lazily, on the first `read`: importing clockcore (or
`clockbot --help`) never loads it. Where no wheel exists (Linux aarch64,
Windows) `available()` is False and clockcore's own grammar reads alone.

**Isolated.** Duckling's native parse holds Python's GIL and cannot be stopped,
and some texts take it long (digit-heavy ones grow faster than their length).
A service installs an engine (`use_engine`) that reads in child processes with
a time limit (`bot.app.duckling_pool`): the caller waits on a pipe, which lets go of
the GIL, so the event loop and other threads run meanwhile. A read past the
limit raises `ReaderTimeout`; `clockcore.parsing.timeparse` then asks the person instead
of guessing. Tests, the CLI and benchmarks read in-process unless they install one.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any, Literal

from clockcore.errors import ClockError

__all__ = [
    "Engine",
    "ReaderTimeout",
    "Reading",
    "available",
    "entities",
    "isolated",
    "read",
    "reader_name",
    "set_enabled",
    "use_engine",
]


Grain = Literal["second", "minute", "hour", "day", "week", "month", "quarter", "year"]

_STEP = {
    "second": timedelta(seconds=1),
    "minute": timedelta(minutes=1),
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
}
_LOCK = threading.Lock()
_UNSAFE = re.compile("[\x00\ud800-\udfff]")
_MEZZA = re.compile(r"(?<=\be )mezza\b", re.IGNORECASE)
# Words that write a range's end, between two numbers: "9-10am", "from 9 to 5", "between 2
# and 4pm", "von 9 bis 10 Uhr", "entre 14h et 16h", "tra le 14 e le 16", "tussen 14 en 16".
_RANGE_MARK = re.compile(
    r"\d[^\d]{0,12}?(?:[-–—]|\b(?:to|until|till|through|thru|and|bis|und|a|à|et|y|e|en|tot|"
    r"alle|às|as|hasta|até|ate|al)\b)[^\d]{0,12}?\d",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Reading:
    """One expression Duckling found.

    Attributes:
        start: where it begins in the text, in characters.
        end: where it ends (exclusive).
        text: ``text[start:end]`` of the original.
        walls: naive local wall-clock starts, the preferred first; a time
            without a date lists its next occurrences.
        grain: the start's precision (``minute``, ``hour``, ``day``, ``month``…).
        end_wall: for a range, the end a person means (Duckling's exclusive
            end less one grain), naive local; None for a single time.
        latent: Duckling's own doubt (a bare number); never chosen here.
        open_range: an interval with one end only ("bis 10 Uhr", "after 5pm"):
            `walls` holds that end; not a time to act on, so it is asked about.
    """

    start: int
    end: int
    text: str
    walls: tuple[datetime, ...]
    grain: str
    end_wall: datetime | None = None
    latent: bool = False
    open_range: bool = False


_switch = {"enabled": True}


class ReaderTimeout(ClockError):
    """Duckling did not finish reading within the limit (only when isolated)."""


Engine = Callable[[str, int, str], list[dict[str, Any]]]
"""Reads a text for Duckling: (text, UTC seconds, language) → its raw entities."""
_engine_in_use: dict[str, Engine] = {}


def use_engine(engine: Engine | None) -> None:
    """Read through `engine` from now on (None: in this process again).

    A service hands in one that reads in child processes with a time limit
    (`bot.app.duckling_pool`): clockcore itself does no I/O. The engine raises
    `ReaderTimeout` when a read runs out of time.
    """
    if engine is None:
        _engine_in_use.clear()
    else:
        _engine_in_use["engine"] = engine


def isolated() -> bool:
    """Whether reads go through an engine `use_engine` installed."""
    return "engine" in _engine_in_use


def set_enabled(enabled: bool) -> None:
    """Turn Duckling off (or back on) for this process: the grammar then reads alone.

    For benchmarks and tests of the fallback reader, and for an operator who
    wants the grammar only.
    """
    _switch["enabled"] = enabled


def available() -> bool:
    """Whether Duckling reads times here: installed, starting, and not turned off."""
    return _switch["enabled"] and _installed()


@cache
def _installed() -> bool:
    try:
        _engine()
    except (ImportError, OSError):
        return False
    return True


def reader_name() -> str:
    """``duckling`` or ``grammar``: which reader `parse_anchored_time` uses here."""
    return "duckling" if available() else "grammar"


@cache
def _engine() -> tuple[Any, Any, Any]:
    """(the duckling module, the UTC reference-time zone table, the time dimension)."""
    import duckling
    import tzdata

    with _LOCK:
        duckling.init()
        zones = duckling.load_time_zones(str(Path(tzdata.__file__).parent / "zoneinfo" / "Etc"))
        return duckling, zones, duckling.parse_dimensions(["time"])


@cache
def _locale(language: str) -> Any:
    duckling, _, _ = _engine()
    return duckling.default_locale_lang(duckling.parse_lang(language.upper()))


def read(text: str, local_reference: datetime, *, language: str = "en") -> list[Reading]:
    """Duckling's non-latent readings of `text`, in text order.

    Args:
        text: what the person wrote (zones already masked out by the caller).
        local_reference: "now" as the person's naive local wall-clock time.
        language: an ISO 639-1 code; Duckling reads English for one it lacks.

    Returns an empty list when Duckling is not available.

    Raises:
        ReaderTimeout: isolated, and Duckling took longer than the limit.
    """
    if not available():
        return []
    stamp = int(local_reference.replace(tzinfo=UTC).timestamp())
    # The Rust bridge panics on NUL and lone surrogates: they are no part of a time anyway.
    clean = _UNSAFE.sub(" ", text)
    # Duckling's Italian reads "alle 9 e mezzo" but drops "e mezza", the more usual
    # half hour: the same words, the same length, so the spans stay the person's.
    clean = _MEZZA.sub(lambda m: m.group()[:-1] + ("O" if m.group().endswith("A") else "o"), clean)
    clean, added, widen = _with_years(clean, local_reference, language)
    engine = _engine_in_use.get("engine", entities)
    try:
        found_entities = engine(clean, stamp, language)
    except (ValueError, TypeError, RecursionError, OSError):
        return []
    found = []
    for entity in found_entities:
        if added:
            start = _back(int(entity["start"]), added)
            entity = {**entity, "start": widen.get(start, start),
                      "end": _back(int(entity["end"]), added)}  # fmt: skip
        try:
            reading = _reading(text, entity)
        except ValueError:
            # A year datetime cannot hold: "R3BC" in a link code is 3 BC to Duckling.
            continue
        if reading is not None:
            found.append(reading)
    return sorted(found, key=lambda r: (r.start, -r.end))


_DAY_FIRST = frozenset({"es", "de", "fr", "pt", "it", "nl"})
_DAY_MONTH = re.compile(
    r"(?P<cue>(?<![^\W_])(?:el\s+d[ií]a|el|il|il\s+giorno|le|am|op|on|by|due|no\s+dia|o\s+dia|dia|"
    r"d[ií]a|giorno|del|al|dal|entro|desde|hasta|at[eé]|fino\s+al|vanaf|tot|ab|bis|jusqu'au|"
    r"avant\s+le|pour\s+le|per\s+il|para\s+el|para\s+o|en)\s+)"
    r"(?P<day>\d{1,2})/(?P<month>\d{1,2})(?![\d/]|[.:,]\d)",
    re.IGNORECASE,
)
# The word for "day" before a written date, which Duckling's Portuguese reads on its own
# ("dia 5" beside "5/3 às 14h"): blanked, as it says nothing the date does not.
_DAY_WORD = re.compile(r"(?<![^\W_])(?:d[ií]a|giorno)(?=\s+$)", re.IGNORECASE)


def _with_years(
    text: str, local_reference: datetime, language: str
) -> tuple[str, list[tuple[int, int]], dict[int, int]]:
    """`text` with the year written after each day-first "24/12", where each was added,
    and where a reading that starts at a date blanked of its "dia" starts instead.

    Duckling's Spanish, Italian and Portuguese drop "el 24/12 a las 10" and "dia 5/3
    às 14h" (they read "el 24" and "12 a"), and read "24/12/2026 a las 10" whole. The
    year is the date's next occurrence, as docs/time-rules.md reads a date without one;
    day first, as in the person's language ("Numbers follow the person's language"); only
    after a word that makes the numbers a date ("el", "il", "dia", "on"), since a bare
    "3/4" in a sentence is no date.
    """
    if language not in _DAY_FIRST or "/" not in text:
        return text, [], {}
    pieces: list[str] = []
    added: list[tuple[int, int]] = []
    widen: dict[int, int] = {}
    at = 0
    for match in _DAY_MONTH.finditer(text):
        day, month = int(match["day"]), int(match["month"])
        year = local_reference.year
        if (month, day) < (local_reference.month, local_reference.day):
            year += 1
        try:
            date(year, month, day)
        except ValueError:
            continue
        cue = _DAY_WORD.sub(lambda word: " " * len(word.group()), match["cue"])
        if (word := _DAY_WORD.search(match["cue"])) is not None:
            widen[match.start("day")] = match.start() + word.start()
        pieces.append(text[at : match.start()] + cue + text[match.start("day") : match.end()])
        suffix = f"/{year}"
        added.append((match.end() + sum(n for _, n in added), len(suffix)))
        pieces.append(suffix)
        at = match.end()
    pieces.append(text[at:])
    return "".join(pieces), added, widen


def _back(index: int, added: list[tuple[int, int]]) -> int:
    """Where `index` of the text with years added stands in the person's text."""
    shift = 0
    for where, length in added:
        if index <= where:
            break
        shift += min(length, index - where)
    return index - shift


def entities(text: str, stamp: int, language: str) -> list[dict[str, Any]]:
    """Duckling's raw entities for `text` read at UTC `stamp`, in this process."""
    duckling, zones, dimensions = _engine()
    context = duckling.Context(duckling.parse_ref_time(zones, "UTC", stamp), _locale(language))
    found = duckling.parse(text, context, dimensions, False)
    assert isinstance(found, list)
    return found


def _wall(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp).replace(tzinfo=None)


_CLOCK = re.compile(r"(\d{1,2})(?:\s*[:.h]\s*(\d{2}))?(?!\d)")


def _last_clock(text: str) -> tuple[int, int] | None:
    """The hour and minute of the last number written in `text`, or None."""
    found = list(_CLOCK.finditer(text))
    if not found:
        return None
    last = found[-1]
    return int(last[1]), int(last[2] or 0)


def _shows(wall: datetime, clock: tuple[int, int]) -> bool:
    """Whether `wall` is the clock time written (on a 12- or a 24-hour clock)."""
    hour, minute = clock
    return wall.minute == minute and wall.hour % 12 == hour % 12


def _reading(text: str, entity: dict[str, Any]) -> Reading | None:
    start, end = int(entity["start"]), int(entity["end"])
    value = entity.get("value") or {}
    latent = bool(entity.get("latent"))
    if value.get("type") == "value":
        options = value.get("values") or [value]
        walls = tuple(_wall(v["value"]) for v in options if v.get("type", "value") == "value")
        if not walls:
            return None
        return Reading(start, end, text[start:end], walls, str(value["grain"]), latent=latent)
    if value.get("type") == "interval":
        low, high = value.get("from"), value.get("to")
        if not low or not high:  # "after 5pm", "before Friday": open, not a time to act on
            bound = low or high
            if not bound or "value" not in bound:
                return None
            wall = _wall(bound["value"])
            grain = str(bound.get("grain", "hour"))
            return Reading(
                start, end, text[start:end], (wall,), grain, latent=latent, open_range=True
            )
        grain = str(high["grain"])
        step = _STEP.get(grain)
        if step is None:
            return None
        begin, finish = _wall(low["value"]), _wall(high["value"])
        if finish < begin:
            return None  # "Dec noon 25:00" came back as 12:25 to 12:01: not a reading at all
        if _RANGE_MARK.search(text[start:end]) and finish - step > begin:
            # "9-10am": Duckling's end is one grain past what was written, in most of its
            # languages; its Spanish "entre las 14:00 y las 16:00" ends where written.
            written = _last_clock(text[start:end])
            if written is None or not _shows(finish, written):
                finish -= step
        return Reading(
            start, end, text[start:end], (begin,), str(low["grain"]), end_wall=finish,
            latent=latent,
        )  # fmt: skip
    return None
